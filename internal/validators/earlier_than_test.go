package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestEarlierThanValidator(t *testing.T) {
	str := func(v types.String) tftypes.Value {
		switch {
		case v.IsNull():
			return tftypes.NewValue(tftypes.String, nil)
		case v.IsUnknown():
			return tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		}
		return tftypes.NewValue(tftypes.String, v.ValueString())
	}
	v := EarlierThan(path.MatchRoot("before_date"))
	for _, c := range []struct {
		after, before types.String
		wantError     string
	}{
		{types.StringValue("2024-05-01T00:00:00Z"), types.StringValue("2024-05-02T00:00:00Z"), ""},
		// Same instant written in two zones is not earlier.
		{types.StringValue("2024-05-01T02:00:00+02:00"), types.StringValue("2024-05-01T00:00:00Z"), "Attribute after_date must be earlier than before_date"},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringValue("2024-05-02T00:00:00Z"), "Attribute after_date must be earlier than before_date"},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringNull(), ""},
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringUnknown(), ""},
		{types.StringUnknown(), types.StringValue("2024-05-02T00:00:00Z"), ""},
		{types.StringNull(), types.StringValue("2024-05-02T00:00:00Z"), ""},
		// Malformed values are their type's to report: its own, nothing.
		{types.StringValue("yesterday"), types.StringValue("2024-05-02T00:00:00Z"), ""},
		// The other's, as the framework reads it: its type's error, which
		// the framework also reports for that attribute and keeps once.
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringValue("tomorrow"), `Attribute before_date value must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got "tomorrow"`},
		// An own value written right but no real day is not compared, even
		// with the earliest date-time there is.
		{types.StringValue("2023-02-29T00:00:00Z"), types.StringValue("0000-01-01T00:00:00Z"), ""},
		// An offset of 24 hours Go parses and RFC 3339 (so the type)
		// refuses: the type's error, not compared.
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringValue("2024-05-02T00:00:00+24:00"), "offset is not a time of day"},
	} {
		t.Run(c.after.String()+"<"+c.before.String(), func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{"after_date": str(c.after), "before_date": str(c.before)})
			frameworktest.CheckDiagnostics(t, validate(v, path.Root("after_date"), c.after, config).Errors(), c.wantError)
		})
	}
}

// An attribute the schema does not hold, or that is not a string, is the
// provider's mistake and is reported as such.
func TestEarlierThanValidator_badOther(t *testing.T) {
	after := types.StringValue("2024-05-03T00:00:00Z")
	config := testConfig(t, map[string]tftypes.Value{"after_date": frameworktest.String(after.ValueString()), "subtitles": frameworktest.Bool(true)})
	diags := validate(EarlierThan(path.MatchRoot("no_such_date")), path.Root("after_date"), after, config)
	if len(diags.Errors()) != 1 || !strings.Contains(diags.Errors()[0].Detail(), "no_such_date") {
		t.Errorf("other not in the schema: got %v, want the error matching no_such_date", diags)
	}
	diags = validate(EarlierThan(path.MatchRoot("subtitles")), path.Root("after_date"), after, config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "subtitles is not a string")
}

// The other attribute may be given relative to the validated one.
func TestEarlierThanValidator_relative(t *testing.T) {
	after := types.StringValue("2024-05-03T00:00:00Z")
	config := testConfig(t, map[string]tftypes.Value{"after_date": frameworktest.String(after.ValueString()), "before_date": frameworktest.String("2024-05-02T00:00:00Z")})
	diags := validate(EarlierThan(path.MatchRelative().AtParent().AtName("before_date")), path.Root("after_date"), after, config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "Attribute after_date must be earlier than before_date")
}
