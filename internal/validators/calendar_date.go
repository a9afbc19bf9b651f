package validators

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = calendarDateValidator{}

// calendarDateValidator requires a real calendar day written YYYY-MM-DD: a
// pattern alone would let 2023-02-30 through to the service.
type calendarDateValidator struct{}

// CalendarDate returns a validator requiring a YYYY-MM-DD calendar day.
func CalendarDate() validator.String { return calendarDateValidator{} }

func (v calendarDateValidator) Description(_ context.Context) string {
	return "value must be a calendar day in the form YYYY-MM-DD"
}

func (v calendarDateValidator) MarkdownDescription(_ context.Context) string {
	return "value must be a calendar day in the form `YYYY-MM-DD`"
}

func (v calendarDateValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkCalendarDate(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid date",
			fmt.Sprintf("Attribute %s %s, got %q: %s.", req.Path, v.Description(ctx), req.ConfigValue.ValueString(), err))
	}
}

// datePattern is exactly YYYY-MM-DD. time.Parse refuses every other form
// too; the pattern tells a text in the wrong form ("it is not written
// YYYY-MM-DD") from a day the calendar does not have.
var datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func checkCalendarDate(s string) error {
	if !datePattern.MatchString(s) {
		return fmt.Errorf("it is not written YYYY-MM-DD")
	}
	if _, err := time.Parse(client.DateFilterLayout, s); err != nil {
		return fmt.Errorf("no such day in the calendar")
	}
	return nil
}
