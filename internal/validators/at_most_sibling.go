package validators

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

var (
	_ validator.Int64   = AtMostSiblingValidator{}
	_ validator.Float64 = AtMostSiblingValidator{}
)

// AtMostSiblingValidator requires a number to be at most the number in a
// sibling attribute of the same object, such as min_speakers ≤ max_speakers.
// int64validator.AtMostSumOf covers integers only and words its error as a
// sum; one validator keeps both pairs of bounds consistent.
type AtMostSiblingValidator struct {
	sibling string
}

// AtMostSibling returns a validator requiring value ≤ the sibling attribute's
// value. It checks nothing while either value is null or unknown.
func AtMostSibling(sibling string) AtMostSiblingValidator {
	return AtMostSiblingValidator{sibling: sibling}
}

func (v AtMostSiblingValidator) Description(_ context.Context) string {
	return fmt.Sprintf("value must be at most the value of %s", v.sibling)
}

func (v AtMostSiblingValidator) MarkdownDescription(ctx context.Context) string {
	return fmt.Sprintf("value must be at most the value of `%s`", v.sibling)
}

func (v AtMostSiblingValidator) ValidateInt64(ctx context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	siblingPath := v.siblingPath(req.Path)
	sibling, ok := readSibling(ctx, req.Config, siblingPath, &resp.Diagnostics)
	if !ok {
		return
	}
	number, isNumber := sibling.(basetypes.Int64Valuable)
	if !isNumber {
		resp.Diagnostics.AddAttributeError(siblingPath, "Invalid Validator", fmt.Sprintf("%s is not of the type of %s (a bug in the provider's schema).", siblingPath, req.Path))
		return
	}
	bound, d := number.ToInt64Value(ctx)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	if req.ConfigValue.ValueInt64() > bound.ValueInt64() {
		v.report(req.Path, siblingPath, strconv.FormatInt(req.ConfigValue.ValueInt64(), 10), strconv.FormatInt(bound.ValueInt64(), 10), &resp.Diagnostics)
	}
}

func (v AtMostSiblingValidator) ValidateFloat64(ctx context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	siblingPath := v.siblingPath(req.Path)
	sibling, ok := readSibling(ctx, req.Config, siblingPath, &resp.Diagnostics)
	if !ok {
		return
	}
	number, isNumber := sibling.(basetypes.Float64Valuable)
	if !isNumber {
		resp.Diagnostics.AddAttributeError(siblingPath, "Invalid Validator", fmt.Sprintf("%s is not of the type of %s (a bug in the provider's schema).", siblingPath, req.Path))
		return
	}
	bound, d := number.ToFloat64Value(ctx)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	if req.ConfigValue.ValueFloat64() > bound.ValueFloat64() {
		v.report(req.Path, siblingPath, formatFloat(req.ConfigValue.ValueFloat64()), formatFloat(bound.ValueFloat64()), &resp.Diagnostics)
	}
}

func (v AtMostSiblingValidator) siblingPath(p path.Path) path.Path {
	return p.ParentPath().AtName(v.sibling)
}

// readSibling reads the value at p whatever custom type the schema gives
// it (the framework refuses to read a custom type's value into its base
// type); ok is false when it is unreadable, null or unknown.
func readSibling(ctx context.Context, config tfsdk.Config, p path.Path, diags *diag.Diagnostics) (attr.Value, bool) {
	var value attr.Value
	d := config.GetAttribute(ctx, p, &value)
	diags.Append(d...)
	return value, !d.HasError() && !value.IsNull() && !value.IsUnknown()
}

func (v AtMostSiblingValidator) report(p, siblingPath path.Path, value, bound string, diags *diag.Diagnostics) {
	diags.AddAttributeError(p, "Invalid Attribute Value",
		fmt.Sprintf("Attribute %s must be at most %s (%s), got: %s.", p, siblingPath, bound, value))
}
