package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestDayOverlapsRangeValidator(t *testing.T) {
	v := DayOverlapsRange(path.MatchRoot("after_date"), path.MatchRoot("before_date"))
	null := tftypes.NewValue(tftypes.String, nil)
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	str := frameworktest.String
	for _, c := range []struct {
		name          string
		date          types.String
		after, before tftypes.Value
		wantError     string
	}{
		{"inside", types.StringValue("2026-11-29"), str("2026-11-28T00:00:00Z"), str("2026-11-30T00:00:00Z"), ""},
		{"after within the day", types.StringValue("2026-11-29"), str("2026-11-29T23:59:59.999Z"), null, ""},
		{"before within the day", types.StringValue("2026-11-29"), null, str("2026-11-29T00:00:00.001Z"), ""},
		{"after at the day's end", types.StringValue("2026-11-29"), str("2026-11-30T00:00:00Z"), null,
			`Attribute date is the UTC day 2026-11-29, which ends at or before after_date = "2026-11-30T00:00:00Z"`},
		{"after later", types.StringValue("2026-11-29"), str("2026-12-01T00:00:00Z"), null, "which ends at or before after_date"},
		// The day is UTC's: 01:00 the next day at +02:00 is 23:00 UTC on it.
		{"after in another zone, within the day", types.StringValue("2026-11-29"), str("2026-11-30T01:00:00+02:00"), null, ""},
		{"before at the day's start", types.StringValue("2026-11-29"), null, str("2026-11-29T00:00:00Z"),
			`Attribute date is the UTC day 2026-11-29, which begins at or after before_date = "2026-11-29T00:00:00Z"`},
		{"before in another zone, before the day", types.StringValue("2026-11-29"), null, str("2026-11-29T01:00:00+02:00"), "which begins at or after before_date"},
		{"range unknown", types.StringValue("2026-11-29"), unknown, unknown, ""},
		{"no range", types.StringValue("2026-11-29"), null, null, ""},
		{"date unknown", types.StringUnknown(), str("2026-12-01T00:00:00Z"), null, ""},
		{"date null", types.StringNull(), str("2026-12-01T00:00:00Z"), null, ""},
		// Malformed values are not compared: the day's own validator reports
		// it; the other's type reports it as the framework reads it (and the
		// framework keeps that error once).
		{"date not a day", types.StringValue("2026-02-30"), str("2026-12-01T00:00:00Z"), null, ""},
		{"after malformed", types.StringValue("2026-11-29"), str("soon"), null, `Attribute after_date value must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got "soon"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{"date": frameworktest.String(c.date.ValueString()), "after_date": c.after, "before_date": c.before})
			diags := validate(v, path.Root("date"), c.date, config)
			frameworktest.CheckDiagnostics(t, diags.Errors(), c.wantError)
		})
	}
	// Both bounds outside: one error each.
	config := testConfig(t, map[string]tftypes.Value{"date": str("2026-11-29"), "after_date": str("2026-12-01T00:00:00Z"), "before_date": str("2026-11-01T00:00:00Z")})
	if n := len(validate(v, path.Root("date"), types.StringValue("2026-11-29"), config).Errors()); n != 2 {
		t.Errorf("%d errors for a day outside both bounds, want 2", n)
	}
}
