package validators

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestPositiveDuration(t *testing.T) {
	for name, tc := range map[string]struct {
		value     types.String
		wantError string
	}{
		"positive":         {value: types.StringValue("90m")},
		"zero":             {value: types.StringValue("0s"), wantError: `Attribute timeouts.create is "0s"`},
		"negative":         {value: types.StringValue("-5m"), wantError: `Attribute timeouts.create is "-5m"`},
		"not a duration":   {value: types.StringValue("soon")}, // the timeouts package's own error
		"null":             {value: types.StringNull()},
		"unknown":          {value: types.StringUnknown()},
		"fraction of zero": {value: types.StringValue("0.0h"), wantError: "would end before it starts"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := &validator.StringResponse{}
			PositiveDuration().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("timeouts").AtName("create"), ConfigValue: tc.value}, resp)
			frameworktest.CheckDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}
