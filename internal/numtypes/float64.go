package numtypes

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.Float64Typable                    = Float64Type{}
	_ basetypes.Float64ValuableWithSemanticEquals = Float64{}
	_ xattr.ValidateableAttribute                 = Float64{}
)

// OutOfRangeSummary is the summary of the error for a number Float64
// cannot hold.
const OutOfRangeSummary = "Invalid Number"

// Float64Type is the type of Float64 values: the framework's Float64Type,
// but converting any number.
type Float64Type struct {
	basetypes.Float64Type
}

func (t Float64Type) Equal(o attr.Type) bool {
	_, ok := o.(Float64Type)
	return ok
}

func (t Float64Type) String() string { return "numtypes.Float64Type" }

func (t Float64Type) ValueType(context.Context) attr.Value { return Float64{} }

func (t Float64Type) ValueFromFloat64(_ context.Context, v basetypes.Float64Value) (basetypes.Float64Valuable, diag.Diagnostics) {
	return Float64{Float64Value: v}, nil
}

func (t Float64Type) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	if in.IsKnown() && !in.IsNull() {
		var f *big.Float
		if err := in.As(&f); err != nil {
			return nil, err
		}
		// Those the framework's type refuses: past float64's largest, or
		// nearer to zero than its smallest.
		if held, accuracy := f.Float64(); math.IsInf(held, 0) || held == 0 && accuracy != big.Exact {
			return Float64{Float64Value: basetypes.NewFloat64Null(), unheld: asWritten{f}}, nil
		}
	}
	v, err := t.Float64Type.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	base, ok := v.(basetypes.Float64Value)
	if !ok {
		return nil, fmt.Errorf("the framework's Float64Type gave a %T", v)
	}
	return Float64{Float64Value: base}, nil
}

// Float64 is a number value. A configured number that no float64 holds is
// kept as written (unheld) and refused by ValidateAttribute; it is neither
// null nor unknown.
type Float64 struct {
	basetypes.Float64Value
	unheld asWritten
}

// NewFloat64PointerValue is a known Float64, null when v is nil.
func NewFloat64PointerValue(v *float64) Float64 {
	return Float64{Float64Value: basetypes.NewFloat64PointerValue(v)}
}

func (v Float64) Type(context.Context) attr.Type { return Float64Type{} }

func (v Float64) IsNull() bool { return v.unheld.f == nil && v.Float64Value.IsNull() }

func (v Float64) Equal(o attr.Value) bool {
	other, ok := o.(Float64)
	if !ok || !v.unheld.equal(other.unheld) {
		return false
	}
	return v.unheld.f != nil || v.Float64Value.Equal(other.Float64Value)
}

func (v Float64) ToTerraformValue(ctx context.Context) (tftypes.Value, error) {
	if v.unheld.f != nil {
		return v.unheld.terraformValue(), nil
	}
	return v.Float64Value.ToTerraformValue(ctx)
}

func (v Float64) String() string {
	if v.unheld.f != nil {
		return v.unheld.String()
	}
	return v.Float64Value.String()
}

// Float64SemanticEquals is the framework's Float64Value's (the same
// float64, however written: 0.7 and 0.70), which Float64 would otherwise
// take from it and which refuses any type but its own. A number no float64
// holds equals only itself.
func (v Float64) Float64SemanticEquals(ctx context.Context, o basetypes.Float64Valuable) (bool, diag.Diagnostics) {
	other, ok := o.(Float64)
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Semantic Equality Check Error", fmt.Sprintf("numtypes.Float64 cannot be compared with a %T. This is a bug in the provider.", o))
		return false, diags
	}
	if v.unheld.f != nil || other.unheld.f != nil {
		return v.unheld.equal(other.unheld), nil
	}
	return v.Float64Value.Float64SemanticEquals(ctx, other.Float64Value)
}

// ValidateAttribute refuses a number no float64 holds.
func (v Float64) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.unheld.f != nil {
		v.unheld.refuse(req, resp, OutOfRangeSummary, "0 or a number of magnitude from 4.9e-324 to 1.8e+308 (a 64-bit float)")
	}
}
