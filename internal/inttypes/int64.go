// Package inttypes holds Int64, an integer attribute type that refuses a
// configured number it cannot hold (a fraction such as 2.5, or a whole
// number beyond int64) with an error naming the attribute and the rule.
//
// The framework's own Int64 type fails to convert such a number, and the
// framework words that failure as "Configuration Read Error ... This is
// always an error in the provider", naming the enclosing object: bad input
// reads as a provider bug. Int64 converts any number: one it cannot hold is
// kept as it was written, and its ValidateAttribute, which the framework
// calls wherever the value is read, refuses it.
package inttypes

import (
	"context"
	"fmt"
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

func (t Int64Type) String() string { return "inttypes.Int64Type" }

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
	return Int64{Int64Value: basetypes.NewInt64Null(), notWhole: f}, nil
}

// Int64 is an integer value. A configured number that no int64 holds is
// kept as written (notWhole) and refused by ValidateAttribute; it is
// neither null nor unknown.
type Int64 struct {
	basetypes.Int64Value
	notWhole *big.Float
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

func (v Int64) IsNull() bool { return v.notWhole == nil && v.Int64Value.IsNull() }

func (v Int64) Equal(o attr.Value) bool {
	other, ok := o.(Int64)
	if !ok || (v.notWhole == nil) != (other.notWhole == nil) {
		return false
	}
	if v.notWhole != nil {
		return v.notWhole.Cmp(other.notWhole) == 0
	}
	return v.Int64Value.Equal(other.Int64Value)
}

func (v Int64) ToTerraformValue(ctx context.Context) (tftypes.Value, error) {
	if v.notWhole != nil {
		return tftypes.NewValue(tftypes.Number, v.notWhole), nil
	}
	return v.Int64Value.ToTerraformValue(ctx)
}

func (v Int64) String() string {
	if v.notWhole != nil {
		// Digits as written for whole numbers of sensible size (1e20 is
		// 100000000000000000000), an exponent beyond.
		if v.notWhole.IsInt() && v.notWhole.MantExp(nil) <= 128 {
			return v.notWhole.Text('f', 0)
		}
		return v.notWhole.Text('g', -1)
	}
	return v.Int64Value.String()
}

// ValidateAttribute refuses a number no int64 holds.
func (v Int64) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.notWhole == nil {
		return
	}
	rule := "a whole number"
	if v.notWhole.IsInt() {
		rule = "a whole number from -9223372036854775808 to 9223372036854775807"
	}
	resp.Diagnostics.AddAttributeError(req.Path, NotWholeSummary,
		fmt.Sprintf("Attribute %s must be %s, got: %s", req.Path, rule, v.String()))
}
