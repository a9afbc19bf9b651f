package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = durationValidator{}

// durationValidator requires a Go duration ("30m", "1h30m"). The timeouts
// package checks its own attributes so; a timeout declared as a plain
// string attribute needs this, or text such as "30 minutes" passes
// validate and fails only when the wait starts.
type durationValidator struct{}

// Duration requires a Go duration such as "30m".
func Duration() validator.String { return durationValidator{} }

func (durationValidator) Description(context.Context) string {
	return `value must be a Go duration: numbers each with a unit (ns, us, ms, s, m, h), such as "30m" or "1h30m"`
}

func (v durationValidator) MarkdownDescription(context.Context) string {
	return "value must be a Go duration: numbers each with a unit (`ns`, `us`, `ms`, `s`, `m`, `h`), such as `30m` or `1h30m`"
}

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("Attribute %s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}
