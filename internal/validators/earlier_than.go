package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

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
	for _, that := range otherDateTimes(ctx, req, v.other, &resp.Diagnostics) {
		if !this.Before(that.at) {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid date-time range",
				fmt.Sprintf("Attribute %s must be earlier than %s, got %s = %q and %s = %q.", req.Path, that.path, req.Path, req.ConfigValue.ValueString(), that.path, that.text))
		}
	}
}
