package validators

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Like framework-validators' checks of the same rules, with messages a user
// can read: framework-validators prints numbers with %f ("must be between
// 0.000000 and 1.000000, got: 2.000000") and leaves regular-expression
// failures unquoted ("must not be empty or blank, got:  ", where the blank
// value is invisible).

var _ validator.String = stringPatternValidator{}

// stringPatternValidator requires a match of pattern; rule says what that
// means ("must not be empty or blank").
type stringPatternValidator struct {
	pattern *regexp.Regexp
	rule    string
}

// StringMatches requires a match of pattern; rule says what that means.
func StringMatches(pattern *regexp.Regexp, rule string) validator.String {
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
		fmt.Sprintf("Attribute %s %s, got: %q.%s", req.Path, v.rule, req.ConfigValue.ValueString(), SurroundingSpaceHint(v.pattern, req.ConfigValue.ValueString())))
}

// SurroundingSpaceHint is what to add to a refusal of value by pattern when
// only the white space around it keeps it from matching: a pasted id's
// trailing space or line break is easy to miss in the quoted value.
func SurroundingSpaceHint(pattern *regexp.Regexp, value string) string {
	if trimmed := strings.TrimSpace(value); trimmed != value && pattern.MatchString(trimmed) {
		return " Remove the white space around it."
	}
	return ""
}
