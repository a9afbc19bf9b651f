// Package numtypes holds Int64 and Float64, number attribute types that
// refuse a configured number they cannot hold (a fraction such as 2.5 or a
// whole number beyond int64 for Int64, a number beyond float64's range,
// such as 1e400 or 1e-400, for Float64) with an error naming the attribute
// and the rule.
//
// The framework's own types fail to convert such a number, and the
// framework words that failure as "Configuration Read Error ... This is
// always an error in the provider", naming the enclosing object: bad input
// reads as a provider bug. These types convert any number: one they cannot
// hold is kept as it was written, and their ValidateAttribute, which the
// framework calls wherever the value is read, refuses it.
package numtypes

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var (
	_ basetypes.Int64Typable      = Int64Type{}
	_ basetypes.Int64Valuable     = Int64{}
	_ xattr.ValidateableAttribute = Int64{}
)

// NotWholeSummary is the summary of the error for a number Int64 cannot
// hold.
const NotWholeSummary = "Invalid Whole Number"

// Int64Type is the type of Int64 values: the framework's Int64Type, but
// converting any number.
type Int64Type struct {
	basetypes.Int64Type
}

func (t Int64Type) Equal(o attr.Type) bool {
	_, ok := o.(Int64Type)
	return ok
}

func (t Int64Type) String() string { return "numtypes.Int64Type" }

func (t Int64Type) ValueType(context.Context) attr.Value { return Int64{} }

func (t Int64Type) ValueFromInt64(_ context.Context, v basetypes.Int64Value) (basetypes.Int64Valuable, diag.Diagnostics) {
	return Int64{Int64Value: v}, nil
}

func (t Int64Type) ValueFromTerraform(_ context.Context, in tftypes.Value) (attr.Value, error) {
	if !in.IsKnown() {
		return Int64{Int64Value: basetypes.NewInt64Unknown()}, nil
	}
	if in.IsNull() {
		return NewInt64Null(), nil
	}
	var f *big.Float
	if err := in.As(&f); err != nil {
		return nil, err
	}
	if f.IsInt() {
		if i, accuracy := f.Int64(); accuracy == big.Exact {
			return Int64{Int64Value: basetypes.NewInt64Value(i)}, nil
		}
	}
	return Int64{Int64Value: basetypes.NewInt64Null(), unheld: asWritten{f}}, nil
}

// Int64 is an integer value. A configured number that no int64 holds is
// kept as written (unheld) and refused by ValidateAttribute; it is
// neither null nor unknown.
type Int64 struct {
	basetypes.Int64Value
	unheld asWritten
}

// NewInt64Value is a known Int64.
func NewInt64Value(v int64) Int64 { return Int64{Int64Value: basetypes.NewInt64Value(v)} }

// NewInt64Null is a null Int64.
func NewInt64Null() Int64 { return Int64{Int64Value: basetypes.NewInt64Null()} }

// NewInt64PointerValue is a known Int64, null when v is nil.
func NewInt64PointerValue(v *int64) Int64 {
	return Int64{Int64Value: basetypes.NewInt64PointerValue(v)}
}

func (v Int64) Type(context.Context) attr.Type { return Int64Type{} }

func (v Int64) IsNull() bool { return v.unheld.f == nil && v.Int64Value.IsNull() }

func (v Int64) Equal(o attr.Value) bool {
	other, ok := o.(Int64)
	if !ok || !v.unheld.equal(other.unheld) {
		return false
	}
	return v.unheld.f != nil || v.Int64Value.Equal(other.Int64Value)
}

func (v Int64) ToTerraformValue(ctx context.Context) (tftypes.Value, error) {
	if v.unheld.f != nil {
		return v.unheld.terraformValue(), nil
	}
	return v.Int64Value.ToTerraformValue(ctx)
}

func (v Int64) String() string {
	if v.unheld.f != nil {
		return v.unheld.String()
	}
	return v.Int64Value.String()
}

// ValidateAttribute refuses a number no int64 holds.
func (v Int64) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.unheld.f == nil {
		return
	}
	rule := "a whole number"
	if v.unheld.f.IsInt() {
		rule = "a whole number from -9223372036854775808 to 9223372036854775807"
	}
	v.unheld.refuse(req, resp, NotWholeSummary, rule)
}
