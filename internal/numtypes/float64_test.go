package numtypes

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

// Every number converts; one no float64 holds (which the framework's type
// calls a provider bug) is refused by ValidateAttribute with the
// attribute's path and the rule, and round-trips as written.
func TestFloat64FromTerraform(t *testing.T) {
	ctx := context.Background()
	const rule = "Attribute x.f must be 0 or a number of magnitude from 4.9e-324 to 1.8e+308 (a 64-bit float), got: "
	for _, tc := range []struct {
		name, in  string // in: a number's text, "null" or "unknown"
		want      types.Float64
		wantError string
	}{
		{name: "fraction", in: "0.5", want: types.Float64Value(0.5)},
		{name: "zero", in: "0", want: types.Float64Value(0)},
		{name: "tiny, held inexactly", in: "1e-310", want: types.Float64Value(1e-310)},
		{name: "large", in: "1e300", want: types.Float64Value(1e300)},
		{name: "null", in: "null", want: types.Float64Null()},
		{name: "unknown", in: "unknown", want: types.Float64Unknown()},
		{name: "nearer zero than any", in: "1e-400", want: types.Float64Null(), wantError: rule + "1e-400"},
		{name: "negative, nearer zero than any", in: "-1e-400", want: types.Float64Null(), wantError: rule + "-1e-400"},
		{name: "past the largest", in: "1e400", want: types.Float64Null(), wantError: rule + "1e+400"},
		{name: "past the smallest", in: "-1e400", want: types.Float64Null(), wantError: rule + "-1e+400"},
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
			got, err := Float64Type{}.ValueFromTerraform(ctx, in)
			if err != nil {
				t.Fatalf("ValueFromTerraform: %v", err)
			}
			v, ok := got.(Float64)
			if !ok {
				t.Fatalf("ValueFromTerraform gave a %T", got)
			}
			base, diags := v.ToFloat64Value(ctx)
			// Compared as float64s: the framework keeps the number's
			// precision as written, which its Equal compares.
			if diags.HasError() || base.IsNull() != tc.want.IsNull() || base.IsUnknown() != tc.want.IsUnknown() || base.ValueFloat64() != tc.want.ValueFloat64() {
				t.Errorf("ToFloat64Value = %s %v, want %s", base, diags, tc.want)
			}
			if v.IsNull() != (tc.in == "null") || v.IsUnknown() != (tc.in == "unknown") {
				t.Errorf("IsNull %t, IsUnknown %t", v.IsNull(), v.IsUnknown())
			}
			var resp xattr.ValidateAttributeResponse
			v.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root("x").AtName("f")}, &resp)
			switch {
			case tc.wantError == "" && resp.Diagnostics.HasError():
				t.Errorf("ValidateAttribute refused it: %v", resp.Diagnostics)
			case tc.wantError != "" && (resp.Diagnostics.ErrorsCount() != 1 || resp.Diagnostics[0].Summary() != OutOfRangeSummary || resp.Diagnostics[0].Detail() != tc.wantError):
				t.Errorf("ValidateAttribute said %v, want %q", resp.Diagnostics, tc.wantError)
			}
			back, err := v.ToTerraformValue(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !back.Equal(in) {
				t.Errorf("ToTerraformValue = %s, want %s", back, in)
			}
			again, _ := Float64Type{}.ValueFromTerraform(ctx, back)
			if !again.Equal(v) {
				t.Errorf("%s is not Equal to itself converted again (%s)", v, again)
			}
		})
	}
}

func TestFloat64Equal(t *testing.T) {
	ctx := context.Background()
	tiny, _ := Float64Type{}.ValueFromTerraform(ctx, frameworktest.NumberText(t, "1e-400"))
	huge, _ := Float64Type{}.ValueFromTerraform(ctx, frameworktest.NumberText(t, "1e400"))
	half := 0.5
	for _, tc := range []struct {
		name string
		a, b attr.Value
		want bool
	}{
		{"same number", NewFloat64PointerValue(&half), NewFloat64PointerValue(&half), true},
		{"nulls", NewFloat64PointerValue(nil), NewFloat64PointerValue(nil), true},
		{"the framework's Float64", NewFloat64PointerValue(&half), types.Float64Value(0.5), false},
		{"same unheld", tiny, tiny, true},
		{"other unheld", tiny, huge, false},
		{"unheld and null", tiny, NewFloat64PointerValue(nil), false},
		{"null and unheld", NewFloat64PointerValue(nil), huge, false},
	} {
		if got := tc.a.Equal(tc.b); got != tc.want {
			t.Errorf("%s: %s.Equal(%s) = %t, want %t", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
	if !(Float64Type{}).Equal(Float64Type{}) || (Float64Type{}).Equal(types.Float64Type) {
		t.Error("Float64Type must equal itself only, not the framework's Float64Type")
	}
	if typ := NewFloat64PointerValue(&half).Type(ctx); !typ.Equal(Float64Type{}) {
		t.Errorf("a Float64's type is %s", typ)
	}
	got, diags := Float64Type{}.ValueFromFloat64(ctx, types.Float64Value(0.5))
	if diags.HasError() || !got.(attr.Value).Equal(NewFloat64PointerValue(&half)) {
		t.Errorf("ValueFromFloat64(0.5) = %v %v", got, diags)
	}
}

// The framework asks a Float64 whether a new value means the prior one:
// the same float64 however written, and it must accept its own type (the
// Float64Value it embeds refused it, failing every apply of such a value).
func TestFloat64SemanticEquals(t *testing.T) {
	ctx := context.Background()
	read := func(text string) Float64 {
		v, err := Float64Type{}.ValueFromTerraform(ctx, frameworktest.NumberText(t, text))
		if err != nil {
			t.Fatal(err)
		}
		return v.(Float64)
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"0.7", "0.70", true}, {"0.7", "0.8", false}, {"1e-400", "1e-400", true}, {"1e-400", "0", false}} {
		got, diags := read(tc.a).Float64SemanticEquals(ctx, read(tc.b))
		if diags.HasError() || got != tc.want {
			t.Errorf("%s and %s: %t %v, want %t", tc.a, tc.b, got, diags, tc.want)
		}
	}
	if _, diags := read("1").Float64SemanticEquals(ctx, types.Float64Value(1)); !diags.HasError() {
		t.Error("compared with the framework's Float64Value without an error")
	}
}
