package validators

import (
	"context"
	"fmt"
	"math/big"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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
	value := req.ConfigValue.ValueInt64()
	siblingPath := v.siblingPath(req.Path)
	// A sibling that is no whole number is refused by its own type; compared
	// here, its text would be rounded.
	if bound, ok := v.bound(ctx, req.Config, siblingPath, &resp.Diagnostics); ok && bound.IsInt() && new(big.Float).SetInt64(value).Cmp(bound) > 0 {
		v.report(req.Path, siblingPath, strconv.FormatInt(value, 10), bound.Text('f', 0), &resp.Diagnostics)
	}
}

func (v AtMostSiblingValidator) ValidateFloat64(ctx context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	value := req.ConfigValue.ValueFloat64()
	siblingPath := v.siblingPath(req.Path)
	bound, ok := v.bound(ctx, req.Config, siblingPath, &resp.Diagnostics)
	if !ok {
		return
	}
	// Compared as the float64 the sibling becomes, as the value was: 0.1
	// is not above 0.1 read at another precision.
	if b, _ := bound.Float64(); value > b {
		v.report(req.Path, siblingPath, formatFloat(value), formatFloat(b), &resp.Diagnostics)
	}
}

func (v AtMostSiblingValidator) siblingPath(p path.Path) path.Path {
	return p.ParentPath().AtName(v.sibling)
}

// bound reads the sibling's number at p; ok is false when it is
// unreadable, null or unknown.
func (v AtMostSiblingValidator) bound(ctx context.Context, config tfsdk.Config, p path.Path, diags *diag.Diagnostics) (*big.Float, bool) {
	return readOther[*big.Float](ctx, config, p, "a number", diags)
}

func (v AtMostSiblingValidator) report(p, siblingPath path.Path, value, bound string, diags *diag.Diagnostics) {
	diags.AddAttributeError(p, "Invalid Attribute Value",
		fmt.Sprintf("Attribute %s must be at most %s (%s), got: %s.", p, siblingPath, bound, value))
}
