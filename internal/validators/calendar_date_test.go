package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestCalendarDateValidator(t *testing.T) {
	runStringValidator(t, CalendarDate(), "date", []validatorCase{
		{types.StringValue("2024-02-29"), ""},
		{types.StringValue("2025-12-31"), ""},
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
		{types.StringValue("2023-02-29"), "no such day in the calendar"},
		{types.StringValue("2025-04-31"), "no such day in the calendar"},
		{types.StringValue("2025-13-01"), "no such day in the calendar"},
		{types.StringValue("2025-3-8"), "not written YYYY-MM-DD"},
		{types.StringValue("2025-03-08T00:00:00Z"), "not written YYYY-MM-DD"},
		{types.StringValue(""), "not written YYYY-MM-DD"},
		// A year of five digits is a matter of form, not of the calendar.
		{types.StringValue("12025-01-01"), "not written YYYY-MM-DD"},
	})
}
