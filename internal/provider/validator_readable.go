package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The framework-validators' messages print numbers with %f ("must be
// between 0.000000 and 1.000000, got: 2.000000") and regular-expression
// failures unquoted ("must not be empty or blank, got:  ", where the blank
// value is invisible). These validators check the same rules with messages
// a user can read: numbers as written, values quoted.

var (
	_ validator.Float64 = float64RangeValidator{}
	_ validator.String  = stringPatternValidator{}
)

// float64RangeValidator requires min <= value (and value <= max when
// bounded): float64RangeValidator{min: 0} for "at least 0".
type float64RangeValidator struct {
	min, max float64
	bounded  bool
}

func float64Between(least, most float64) float64RangeValidator {
	return float64RangeValidator{min: least, max: most, bounded: true}
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

// stringPatternValidator requires a match of pattern; rule says what that
// means ("must not be empty or blank").
type stringPatternValidator struct {
	pattern *regexp.Regexp
	rule    string
}

func stringMatches(pattern *regexp.Regexp, rule string) stringPatternValidator {
	return stringPatternValidator{pattern: pattern, rule: rule}
}

func (v stringPatternValidator) Description(context.Context) string { return v.rule }

func (v stringPatternValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v stringPatternValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || v.pattern.MatchString(req.ConfigValue.ValueString()) {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value Match",
		fmt.Sprintf("Attribute %s %s, got: %q", req.Path, v.rule, req.ConfigValue.ValueString()))
}

var _ validator.List = noDuplicatesValidator{}

// noDuplicatesValidator refuses a list of strings that holds a value twice,
// naming the attribute and the value (listvalidator.UniqueValues names
// neither in its message's text).
type noDuplicatesValidator struct{}

func noDuplicates() noDuplicatesValidator { return noDuplicatesValidator{} }

func (noDuplicatesValidator) Description(context.Context) string {
	return "each value may appear once"
}

func (v noDuplicatesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (noDuplicatesValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	seen := map[string]bool{}
	for _, e := range req.ConfigValue.Elements() {
		s, ok := e.(basetypes.StringValue)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if seen[s.ValueString()] {
			resp.Diagnostics.AddAttributeError(req.Path, "Duplicate list value",
				fmt.Sprintf("Attribute %s lists %q more than once: each value may appear once.", req.Path, s.ValueString()))
			return
		}
		seen[s.ValueString()] = true
	}
}
