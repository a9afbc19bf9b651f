package validators

import (
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
		{types.StringValue("2024-05-03T00:00:00Z"), types.StringValue("tomorrow"), "not valid RFC3339 string format"},
	} {
		t.Run(c.after.String()+"<"+c.before.String(), func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{"after_date": str(c.after), "before_date": str(c.before)})
			frameworktest.CheckDiagnostics(t, validate(v, path.Root("after_date"), c.after, config).Errors(), c.wantError)
		})
	}
}
