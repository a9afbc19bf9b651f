package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = earlierThanValidator{}

// earlierThanValidator requires a date-time earlier than the date-time of
// another attribute. It checks only when both are known, valid RFC 3339
// date-times: their type (datetimetypes.RFC3339) reports malformed values.
type earlierThanValidator struct {
	other path.Expression
}

// EarlierThan returns a validator requiring the value to be earlier than the
// attribute at other.
func EarlierThan(other path.Expression) validator.String { return earlierThanValidator{other: other} }

func (v earlierThanValidator) Description(_ context.Context) string {
	return fmt.Sprintf("value must be earlier than %s", v.other)
}

func (v earlierThanValidator) MarkdownDescription(_ context.Context) string {
	return fmt.Sprintf("value must be earlier than `%s`", v.other)
}

func (v earlierThanValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	this, err := client.ParseDateTimeFilter(req.ConfigValue.ValueString())
	if err != nil {
		return
	}
	matched, diags := req.Config.PathMatches(ctx, req.PathExpression.Merge(v.other))
	resp.Diagnostics.Append(diags...)
	for _, p := range matched {
		other, ok := v.dateTime(ctx, req.Config, p, &resp.Diagnostics)
		if !ok {
			continue
		}
		that, err := client.ParseDateTimeFilter(other)
		if err != nil {
			continue
		}
		if !this.Before(that) {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid date-time range",
				fmt.Sprintf("Attribute %s must be earlier than %s, got %s = %q and %s = %q.", req.Path, p, req.Path, req.ConfigValue.ValueString(), p, other))
		}
	}
}

// dateTime reads the other attribute's text at p; ok is false when it is
// unreadable, null or unknown.
func (v earlierThanValidator) dateTime(ctx context.Context, config tfsdk.Config, p path.Path, diags *diag.Diagnostics) (string, bool) {
	return readOther[string](ctx, config, p, "a string", diags)
}
