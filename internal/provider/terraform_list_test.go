package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestTerraformListType(t *testing.T) {
	ctx := context.Background()
	typ := terraformListType{ListType: types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{"id": types.StringType}}}}
	elemType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	listType := tftypes.List{ElementType: elemType}
	item := func(id string) tftypes.Value {
		return tftypes.NewValue(elemType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	}
	list := tftypes.NewValue(listType, []tftypes.Value{item("a"), item("b")})

	// A list type equals only a list type of the same elements.
	for _, other := range []attr.Type{terraformListType{ListType: types.ListType{ElemType: types.StringType}}, typ.ListType} {
		if typ.Equal(other) {
			t.Errorf("%s equals %s", typ, other)
		}
	}
	if !typ.Equal(terraformListType{ListType: types.ListType{ElemType: types.ObjectType{AttrTypes: map[string]attr.Type{"id": types.StringType}}}}) {
		t.Errorf("%s does not equal itself built apart", typ)
	}

	tests := []struct {
		name             string
		in               tftypes.Value
		wantErr          bool
		null, unknown    bool
		wantListElements int
	}{
		{name: "known", in: list, wantListElements: 2},
		{name: "empty", in: tftypes.NewValue(listType, []tftypes.Value{}), wantListElements: 0},
		{name: "null", in: tftypes.NewValue(listType, nil), null: true},
		{name: "unknown", in: tftypes.NewValue(listType, tftypes.UnknownValue), unknown: true},
		{name: "another element type", in: tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := typ.ValueFromTerraform(ctx, tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("no error for %s", tt.in.Type())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !v.Type(ctx).Equal(typ) {
				t.Errorf("type %s", v.Type(ctx))
			}
			if v.IsNull() != tt.null || v.IsUnknown() != tt.unknown {
				t.Errorf("null %v, unknown %v", v.IsNull(), v.IsUnknown())
			}
			out, err := v.ToTerraformValue(ctx)
			if err != nil || !out.Equal(tt.in) {
				t.Errorf("ToTerraformValue = %s, %v; want %s", out, err, tt.in)
			}
			lv, diags := v.(terraformListValue).ToListValue(ctx)
			if diags.HasError() {
				t.Fatal(diags)
			}
			want, _ := typ.ListType.ValueFromTerraform(ctx, tt.in)
			if !lv.Equal(want) {
				t.Errorf("ToListValue = %s, want %s", lv, want)
			}
			if len(lv.Elements()) != tt.wantListElements {
				t.Errorf("%d elements", len(lv.Elements()))
			}
			back, diags := typ.ValueFromList(ctx, lv)
			if diags.HasError() || !back.Equal(v) {
				t.Errorf("ValueFromList = %v, %v; want %v", back, diags, v)
			}
		})
	}
}

func TestTerraformListValue_Equal(t *testing.T) {
	typ := terraformListType{ListType: types.ListType{ElemType: types.StringType}}
	strings := func(values ...string) tftypes.Value {
		elems := make([]tftypes.Value, len(values))
		for i, s := range values {
			elems[i] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
	}
	ab := newTerraformListValue(typ, strings("a", "b"))
	otherType := terraformListType{ListType: types.ListType{ElemType: types.Int64Type}}
	tests := []struct {
		name  string
		other attr.Value
		want  bool
	}{
		{name: "itself", other: ab, want: true},
		{name: "the same elements, built apart", other: newTerraformListValue(typ, strings("a", "b")), want: true},
		{name: "another element", other: newTerraformListValue(typ, strings("a", "c")), want: false},
		{name: "a prefix", other: newTerraformListValue(typ, strings("a")), want: false},
		{name: "null", other: newTerraformListValue(typ, tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)), want: false},
		{name: "another type", other: newTerraformListValue(otherType, tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{})), want: false},
		// JSON texts are Terraform strings too: the same Terraform value, another framework type.
		{name: "another type, the same Terraform value", other: newTerraformListValue(terraformListType{ListType: types.ListType{ElemType: jsonTextType{}}}, strings("a", "b")), want: false},
		{name: "a framework list of the same strings", other: types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("b")}), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ab.Equal(tt.other); got != tt.want {
				t.Errorf("Equal = %v, want %v", got, tt.want)
			}
			if got := tt.other.Equal(ab); got != tt.want {
				t.Errorf("reversed Equal = %v, want %v", got, tt.want)
			}
		})
	}
}
