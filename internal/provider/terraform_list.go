package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.ListTypable  = terraformListType{}
	_ basetypes.ListValuable = terraformListValue{}
)

// terraformListType is a list type whose values keep the Terraform value
// they come from, and convert it to framework values only when asked
// (ToListValue). After a data source's Read, the framework converts every
// attribute of the new state to framework values to compare it with the
// configuration (semantic equality), even where the configuration is null;
// for a computed list of thousands of objects that nothing reads as
// framework values, that conversion was a tenth of what a listing allocated.
// Terraform sees the list type it wraps.
type terraformListType struct {
	basetypes.ListType
}

func (t terraformListType) Equal(o attr.Type) bool {
	other, ok := o.(terraformListType)
	return ok && t.ListType.Equal(other.ListType)
}

func (t terraformListType) String() string {
	return "terraformListType[" + t.ElemType.String() + "]"
}

func (t terraformListType) ValueFromTerraform(ctx context.Context, v tftypes.Value) (attr.Value, error) {
	if want := t.TerraformType(ctx); !v.Type().Equal(want) {
		return nil, fmt.Errorf("value of type %s, want %s", v.Type(), want)
	}
	return newTerraformListValue(t, v), nil
}

func newTerraformListValue(t terraformListType, v tftypes.Value) terraformListValue {
	out := terraformListValue{typ: t, raw: v}
	if v.IsKnown() && !v.IsNull() {
		_ = v.As(&out.elems)
	}
	return out
}

func (t terraformListType) ValueFromList(ctx context.Context, l basetypes.ListValue) (basetypes.ListValuable, diag.Diagnostics) {
	raw, err := l.ToTerraformValue(ctx)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Cannot convert a list", err.Error())
		return nil, diags
	}
	return newTerraformListValue(t, raw), nil
}

func (t terraformListType) ValueType(context.Context) attr.Value {
	return terraformListValue{typ: t}
}

// terraformListValue is a value of terraformListType.
type terraformListValue struct {
	typ   terraformListType
	raw   tftypes.Value
	elems []tftypes.Value // raw's elements, for identity
}

func (v terraformListValue) Type(context.Context) attr.Type { return v.typ }

func (v terraformListValue) ToTerraformValue(context.Context) (tftypes.Value, error) {
	return v.raw, nil
}

func (v terraformListValue) Equal(o attr.Value) bool {
	other, ok := o.(terraformListValue)
	if !ok || !v.typ.Equal(other.typ) {
		return false
	}
	// The framework compares the value it converted with itself: the same
	// elements need no deep comparison, which allocates as it walks.
	if len(v.elems) > 0 && len(other.elems) == len(v.elems) && &v.elems[0] == &other.elems[0] {
		return true
	}
	return v.raw.Equal(other.raw)
}

func (v terraformListValue) IsNull() bool    { return v.raw.IsNull() }
func (v terraformListValue) IsUnknown() bool { return !v.raw.IsKnown() }
func (v terraformListValue) String() string  { return v.raw.String() }

func (v terraformListValue) ToListValue(ctx context.Context) (basetypes.ListValue, diag.Diagnostics) {
	var diags diag.Diagnostics
	converted, err := v.typ.ListType.ValueFromTerraform(ctx, v.raw)
	lv, ok := converted.(basetypes.ListValue)
	if err != nil || !ok {
		diags.AddError("Cannot convert a list", fmt.Sprintf("%s to a list value: %v", v.raw.Type(), err))
		return basetypes.ListValue{}, diags
	}
	return lv, diags
}
