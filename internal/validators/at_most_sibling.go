package validators

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	var bound types.Int64
	siblingPath := v.siblingPath(req.Path)
	if !v.read(ctx, req.Config, siblingPath, &bound, &resp.Diagnostics) || bound.IsNull() || bound.IsUnknown() {
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
	var bound types.Float64
	siblingPath := v.siblingPath(req.Path)
	if !v.read(ctx, req.Config, siblingPath, &bound, &resp.Diagnostics) || bound.IsNull() || bound.IsUnknown() {
		return
	}
	if req.ConfigValue.ValueFloat64() > bound.ValueFloat64() {
		v.report(req.Path, siblingPath, formatFloat(req.ConfigValue.ValueFloat64()), formatFloat(bound.ValueFloat64()), &resp.Diagnostics)
	}
}

func (v AtMostSiblingValidator) siblingPath(p path.Path) path.Path {
	return p.ParentPath().AtName(v.sibling)
}

func (v AtMostSiblingValidator) read(ctx context.Context, config tfsdk.Config, p path.Path, target any, diags *diag.Diagnostics) bool {
	d := config.GetAttribute(ctx, p, target)
	diags.Append(d...)
	return !d.HasError()
}

func (v AtMostSiblingValidator) report(p, siblingPath path.Path, value, bound string, diags *diag.Diagnostics) {
	diags.AddAttributeError(p, "Invalid Attribute Value",
		fmt.Sprintf("Attribute %s must be at most %s (%s), got: %s.", p, siblingPath, bound, value))
}
