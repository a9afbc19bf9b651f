package validators

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Like framework-validators' checks of the same rules, with messages a user
// can read: framework-validators prints numbers with %f ("must be between
// 0.000000 and 1.000000, got: 2.000000") and leaves regular-expression
// failures unquoted ("must not be empty or blank, got:  ", where the blank
// value is invisible).

var _ validator.Float64 = float64RangeValidator{}

// float64RangeValidator requires min <= value (and value <= max when
// bounded): float64RangeValidator{min: 0} for "at least 0".
type float64RangeValidator struct {
	min, max float64
	bounded  bool
}

// Float64Between requires least <= value <= most.
func Float64Between(least, most float64) validator.Float64 {
	return float64RangeValidator{min: least, max: most, bounded: true}
}

// Float64AtLeast requires least <= value.
func Float64AtLeast(least float64) validator.Float64 { return float64RangeValidator{min: least} }

// formatFloat writes a number as a user would: 1, 0.5, 30; with an
// exponent where digits would run long (1e+21, 1e-07 and beyond).
func formatFloat(f float64) string {
	if a := math.Abs(f); a != 0 && (a >= 1e21 || a < 1e-6) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func (v float64RangeValidator) Description(context.Context) string {
	if v.bounded {
		return fmt.Sprintf("value must be between %s and %s", formatFloat(v.min), formatFloat(v.max))
	}
	return "value must be at least " + formatFloat(v.min)
}

func (v float64RangeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v float64RangeValidator) ValidateFloat64(ctx context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	f := req.ConfigValue.ValueFloat64()
	if f >= v.min && (!v.bounded || f <= v.max) {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
		fmt.Sprintf("Attribute %s %s, got: %s", req.Path, v.Description(ctx), formatFloat(f)))
}
