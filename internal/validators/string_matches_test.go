package validators

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestStringMatches(t *testing.T) {
	v := StringMatches(regexp.MustCompile(`\S`), "must not be empty or blank")
	for name, tc := range map[string]struct {
		value     types.String
		wantError string
	}{
		"text":    {value: types.StringValue("Kubernetes")},
		"blank":   {value: types.StringValue("  "), wantError: `Attribute x must not be empty or blank, got: "  "`},
		"empty":   {value: types.StringValue(""), wantError: `got: ""`},
		"null":    {value: types.StringNull()},
		"unknown": {value: types.StringUnknown()},
	} {
		t.Run(name, func(t *testing.T) {
			resp := &validator.StringResponse{}
			v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: tc.value}, resp)
			frameworktest.CheckDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}
