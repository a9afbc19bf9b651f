package numtypes

import (
	"context"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func number(f *big.Float) tftypes.Value { return tftypes.NewValue(tftypes.Number, f) }

// Every number converts; one no int64 holds is refused by ValidateAttribute
// with the attribute's path and the rule, and round-trips as written.
func TestInt64FromTerraform(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, in  string // in: a number's text, "null" or "unknown"
		want      types.Int64
		wantError string
	}{
		{name: "whole", in: "2", want: types.Int64Value(2)},
		{name: "whole written as a fraction", in: "2.0", want: types.Int64Value(2)},
		{name: "negative", in: "-7", want: types.Int64Value(-7)},
		{name: "largest", in: "9223372036854775807", want: types.Int64Value(9223372036854775807)},
		{name: "smallest", in: "-9223372036854775808", want: types.Int64Value(-9223372036854775808)},
		{name: "null", in: "null", want: types.Int64Null()},
		{name: "unknown", in: "unknown", want: types.Int64Unknown()},
		{name: "fraction", in: "2.5", want: types.Int64Null(), wantError: "Attribute x.n must be a whole number, got: 2.5"},
		{name: "small fraction", in: "-0.001", want: types.Int64Null(), wantError: "Attribute x.n must be a whole number, got: -0.001"},
		{name: "one past the largest", in: "9223372036854775808", want: types.Int64Null(),
			wantError: "Attribute x.n must be a whole number from -9223372036854775808 to 9223372036854775807, got: 9223372036854775808"},
		{name: "one past the smallest", in: "-9223372036854775809", want: types.Int64Null(),
			wantError: "Attribute x.n must be a whole number from -9223372036854775808 to 9223372036854775807, got: -9223372036854775809"},
		{name: "beyond, in digits", in: "1e20", want: types.Int64Null(),
			wantError: "Attribute x.n must be a whole number from -9223372036854775808 to 9223372036854775807, got: 100000000000000000000"},
		{name: "huge", in: "1e200", want: types.Int64Null(),
			wantError: "Attribute x.n must be a whole number from -9223372036854775808 to 9223372036854775807, got: 1e+200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in tftypes.Value
			switch tc.in {
			case "null":
				in = tftypes.NewValue(tftypes.Number, nil)
			case "unknown":
				in = tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
			default:
				in = frameworktest.NumberText(t, tc.in)
			}
			got, err := Int64Type{}.ValueFromTerraform(ctx, in)
			if err != nil {
				t.Fatalf("ValueFromTerraform: %v", err)
			}
			v, ok := got.(Int64)
			if !ok {
				t.Fatalf("ValueFromTerraform gave a %T", got)
			}
			base, diags := v.ToInt64Value(ctx)
			if diags.HasError() || !base.Equal(tc.want) {
				t.Errorf("ToInt64Value = %s %v, want %s", base, diags, tc.want)
			}
			if v.IsNull() != (tc.in == "null") || v.IsUnknown() != (tc.in == "unknown") {
				t.Errorf("IsNull %t, IsUnknown %t", v.IsNull(), v.IsUnknown())
			}
			var resp xattr.ValidateAttributeResponse
			v.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root("x").AtName("n")}, &resp)
			switch {
			case tc.wantError == "" && resp.Diagnostics.HasError():
				t.Errorf("ValidateAttribute refused it: %v", resp.Diagnostics)
			case tc.wantError != "" && (resp.Diagnostics.ErrorsCount() != 1 || resp.Diagnostics[0].Summary() != NotWholeSummary || resp.Diagnostics[0].Detail() != tc.wantError):
				t.Errorf("ValidateAttribute said %v, want %q", resp.Diagnostics, tc.wantError)
			}
			back, err := v.ToTerraformValue(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !back.Equal(in) {
				t.Errorf("ToTerraformValue = %s, want %s", back, in)
			}
			again, _ := Int64Type{}.ValueFromTerraform(ctx, back)
			if !again.Equal(v) {
				t.Errorf("%s is not Equal to itself converted again (%s)", v, again)
			}
		})
	}
}

func TestInt64Equal(t *testing.T) {
	ctx := context.Background()
	half, _ := Int64Type{}.ValueFromTerraform(ctx, number(big.NewFloat(2.5)))
	third, _ := Int64Type{}.ValueFromTerraform(ctx, number(big.NewFloat(3.5)))
	for _, tc := range []struct {
		name string
		a, b attr.Value
		want bool
	}{
		{"same number", NewInt64Value(3), NewInt64Value(3), true},
		{"other number", NewInt64Value(3), NewInt64Value(4), false},
		{"nulls", NewInt64Null(), NewInt64Null(), true},
		{"number and null", NewInt64Value(0), NewInt64Null(), false},
		{"the framework's Int64", NewInt64Value(3), types.Int64Value(3), false},
		{"same fraction", half, half, true},
		{"other fraction", half, third, false},
		{"fraction and null", half, NewInt64Null(), false},
		{"null and fraction", NewInt64Null(), half, false},
		{"null and the framework's null", NewInt64Null(), types.Int64Null(), false},
	} {
		if got := tc.a.Equal(tc.b); got != tc.want {
			t.Errorf("%s: %s.Equal(%s) = %t, want %t", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
}

// The type and the constructors build values of the type, holding what
// they were given.
func TestInt64Type(t *testing.T) {
	ctx := context.Background()
	if !(Int64Type{}).Equal(Int64Type{}) || (Int64Type{}).Equal(types.Int64Type) {
		t.Error("Int64Type must equal itself only, not the framework's Int64Type")
	}
	if typ := NewInt64Value(5).Type(ctx); !typ.Equal(Int64Type{}) {
		t.Errorf("an Int64's type is %s", typ)
	}
	got, diags := Int64Type{}.ValueFromInt64(ctx, types.Int64Value(5))
	if diags.HasError() || !got.(attr.Value).Equal(NewInt64Value(5)) {
		t.Errorf("ValueFromInt64(5) = %v %v", got, diags)
	}
	five := int64(5)
	if v := NewInt64PointerValue(&five); !v.Equal(NewInt64Value(5)) {
		t.Errorf("NewInt64PointerValue(&5) = %s", v)
	}
	if v := NewInt64PointerValue(nil); !v.IsNull() {
		t.Errorf("NewInt64PointerValue(nil) = %s, want null", v)
	}
}
