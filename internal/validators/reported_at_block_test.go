package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestReportedAtBlock(t *testing.T) {
	at := path.Root("callback_config").AtName("method")
	for name, tc := range map[string]struct {
		value     types.String
		wantError string
	}{
		"refused":  {value: types.StringValue("post"), wantError: `Attribute callback_config.method value must be one of: ["POST" "PUT"], got: "post"`},
		"accepted": {value: types.StringValue("PUT")},
		"null":     {value: types.StringNull()},
		"unknown":  {value: types.StringUnknown()},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(ReportedAtBlock(stringvalidator.OneOf("POST", "PUT")), at, tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			for _, d := range diags {
				if _, atAttribute := d.(diag.DiagnosticWithPath); atAttribute {
					t.Errorf("%v points at the attribute, whose line may hold a secret", d)
				}
			}
		})
	}
}
