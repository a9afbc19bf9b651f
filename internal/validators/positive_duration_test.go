package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestPositiveDuration(t *testing.T) {
	for name, tc := range map[string]struct {
		value     types.String
		wantError string
	}{
		"positive":           {value: types.StringValue("90m")},
		"one nanosecond":     {value: types.StringValue("1ns")},
		"zero":               {value: types.StringValue("0s"), wantError: `Attribute timeouts.create is "0s"`},
		"negative":           {value: types.StringValue("-5m"), wantError: `Attribute timeouts.create is "-5m"`},
		"not a duration":     {value: types.StringValue("soon"), wantError: `Attribute timeouts.create value must be a Go duration greater than zero: numbers each with a unit (ns, us, ms, s, m, h), such as "30m" or "1h30m", got "soon".`},
		"no unit":            {value: types.StringValue("30"), wantError: `got "30"`},
		"empty":              {value: types.StringValue(""), wantError: `must be a Go duration`},
		"fraction":           {value: types.StringValue("1.5h")},
		"null":               {value: types.StringNull()},
		"unknown":            {value: types.StringUnknown()},
		"fraction of zero":   {value: types.StringValue("0.0h"), wantError: "would end before it starts"},
		"too long":           {value: types.StringValue("9999999h"), wantError: `Attribute timeouts.create is "9999999h", longer than any duration can be (about 2562047h, 292 years)`},
		"longest":            {value: types.StringValue("2562047h47m16.854775807s")},
		"a unit misspelt":    {value: types.StringValue("9999999hours"), wantError: `must be a Go duration greater than zero`},
		"negative, too long": {value: types.StringValue("-9999999h"), wantError: `Attribute timeouts.create is "-9999999h": a wait of zero or less`},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(PositiveDuration(), path.Root("timeouts").AtName("create"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}
