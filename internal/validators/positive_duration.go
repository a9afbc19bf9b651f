package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = positiveDurationValidator{}

// positiveDurationValidator refuses a duration of zero or less, such as a
// timeout of "0s" or "-5m": a wait that ends before it starts. Whether the
// text is a duration at all is checked elsewhere: by the timeouts package
// for its own attributes, by Duration beside this one for a timeout
// declared as a plain string attribute.
type positiveDurationValidator struct{}

// PositiveDuration refuses a duration of zero or less.
func PositiveDuration() validator.String { return positiveDurationValidator{} }

func (positiveDurationValidator) Description(context.Context) string {
	return "must be a duration greater than zero"
}

func (v positiveDurationValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (positiveDurationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d > 0 {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Timeout must be greater than zero",
		fmt.Sprintf("Attribute %s is %q: a wait of zero or less would end before it starts. Give a positive duration such as \"30m\", or remove it to use the default.", req.Path, req.ConfigValue.ValueString()))
}
