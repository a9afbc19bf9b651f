package validators

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = positiveDurationValidator{}

// positiveDurationValidator requires a Go duration greater than zero, such
// as a timeout of "30m": text such as "30 minutes" would fail only when the
// wait starts, and "0s" or "-5m" is a wait that ends before it starts. The
// timeouts package's own check of its durations does not name the
// attribute (Terraform 1.8 and OpenTofu show only the block), so the
// provider's timeouts use this one in its place.
type positiveDurationValidator struct{}

// durationSyntax is the text time.ParseDuration reads: numbers, each with
// a unit.
var durationSyntax = regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)

// PositiveDuration requires a Go duration greater than zero.
func PositiveDuration() validator.String { return positiveDurationValidator{} }

func (positiveDurationValidator) Description(context.Context) string {
	return `value must be a Go duration greater than zero: numbers each with a unit (ns, us, ms, s, m, h), such as "30m" or "1h30m"`
}

func (positiveDurationValidator) MarkdownDescription(context.Context) string {
	return "value must be a Go duration greater than zero: numbers each with a unit (`ns`, `us`, `ms`, `s`, `m`, `h`), such as `30m` or `1h30m`"
}

func (v positiveDurationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	value := req.ConfigValue.ValueString()
	d, err := time.ParseDuration(value)
	switch {
	case err == nil && d > 0:
	case err != nil && !durationSyntax.MatchString(value):
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("Attribute %s %s, got %q.", req.Path, v.Description(ctx), value))
	case err == nil || strings.HasPrefix(value, "-"): // a negative one past the longest too
		resp.Diagnostics.AddAttributeError(req.Path, "Timeout must be greater than zero",
			fmt.Sprintf("Attribute %s is %q: a wait of zero or less would end before it starts. Give a positive duration such as \"30m\", or remove it (the attribute's documentation says what applies without it: a default, or no limit).", req.Path, value))
	default:
		// Written right, and refused all the same: past what a duration
		// holds (time.ParseDuration says "invalid" either way).
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("Attribute %s is %q, longer than any duration can be (about 2562047h, 292 years): give a shorter one, or remove it.", req.Path, value))
	}
}
