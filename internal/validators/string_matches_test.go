package validators

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
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
			diags := validateValue(v, path.Root("x"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}
