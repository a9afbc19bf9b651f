package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = dayOverlapsRangeValidator{}

// dayOverlapsRangeValidator requires a listing's UTC calendar day (date)
// to share some time with its date-time range (after_date, before_date,
// both strict): a day outside it makes a listing that is always empty. It
// checks only known, valid values: their types and validators report the
// others.
type dayOverlapsRangeValidator struct {
	after, before path.Expression
}

// DayOverlapsRange returns a validator requiring the day to overlap the
// range from the date-time at after to the one at before.
func DayOverlapsRange(after, before path.Expression) validator.String {
	return dayOverlapsRangeValidator{after: after, before: before}
}

func (v dayOverlapsRangeValidator) Description(_ context.Context) string {
	return fmt.Sprintf("value must be a day that has time after %s and before %s", v.after, v.before)
}

func (v dayOverlapsRangeValidator) MarkdownDescription(_ context.Context) string {
	return fmt.Sprintf("value must be a day that has time after `%s` and before `%s`", v.after, v.before)
}

func (v dayOverlapsRangeValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || checkCalendarDate(req.ConfigValue.ValueString()) != nil {
		return
	}
	day := req.ConfigValue.ValueString()
	start, _ := time.Parse(client.DateFilterLayout, day) // UTC
	end := start.AddDate(0, 0, 1)
	for _, bound := range []struct {
		other path.Expression
		empty func(time.Time) bool
		why   string
	}{
		{v.after, func(after time.Time) bool { return !after.Before(end) }, "ends at or before"},
		{v.before, func(before time.Time) bool { return !start.Before(before) }, "begins at or after"},
	} {
		for _, t := range otherDateTimes(ctx, req, bound.other, &resp.Diagnostics) {
			if bound.empty(t.at) {
				resp.Diagnostics.AddAttributeError(req.Path, "Invalid date filter",
					fmt.Sprintf("Attribute %s is the UTC day %s, which %s %s = %q: no job can match both, so the listing would always be empty. Change one, or leave %s out.",
						req.Path, day, bound.why, t.path, t.text, req.Path))
			}
		}
	}
}
