package validators

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = rfc3339DateTimeValidator{}

// rfc3339DateTimeValidator requires an RFC 3339 date-time with its offset
// (the strict ISO 8601 profile the service reads), such as 2024-05-01T12:00:00Z.
type rfc3339DateTimeValidator struct{}

// RFC3339DateTime returns a validator requiring an RFC 3339 date-time.
func RFC3339DateTime() validator.String { return rfc3339DateTimeValidator{} }

// rfc3339Pattern is RFC 3339's date-time with upper-case T and Z, the form
// the service reads.
var rfc3339Pattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)

func (v rfc3339DateTimeValidator) Description(_ context.Context) string {
	return "value must be an RFC 3339 date-time with a time zone, such as 2024-05-01T12:00:00Z"
}

func (v rfc3339DateTimeValidator) MarkdownDescription(_ context.Context) string {
	return "value must be an RFC 3339 date-time with a time zone, such as `2024-05-01T12:00:00Z`"
}

func (v rfc3339DateTimeValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseRFC3339(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid date-time",
			fmt.Sprintf("Attribute %s %s, got %q: %s.", req.Path, v.Description(ctx), req.ConfigValue.ValueString(), err))
	}
}

// parseRFC3339 parses a strict RFC 3339 date-time.
func parseRFC3339(s string) (time.Time, error) {
	if !rfc3339Pattern.MatchString(s) {
		return time.Time{}, fmt.Errorf("it is not written YYYY-MM-DDThh:mm:ss with an optional fraction and a Z or ±hh:mm offset")
	}
	// time.Parse takes offsets up to ±24:60; RFC 3339's hours end at 23
	// and its minutes at 59.
	if offset := rfc3339Offset.FindStringSubmatch(s); offset != nil && (offset[1] > "23" || offset[2] > "59") {
		return time.Time{}, fmt.Errorf("its offset is not a time of day: hours from 00 to 23, minutes from 00 to 59")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("it is not a real date and time")
	}
	return t, nil
}

// rfc3339Offset captures the hours and minutes of a numeric offset.
var rfc3339Offset = regexp.MustCompile(`[+-](\d{2}):(\d{2})$`)
