package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestAPIKey(t *testing.T) {
	tests := map[string]struct {
		value     types.String
		wantError string
	}{
		"key":              {value: types.StringValue("s3cr3t-key")},
		"trailing newline": {value: types.StringValue("s3cr3t-key\n"), wantError: "white space (a newline read from a file?): remove it, for example with trimspace()"},
		"leading tab":      {value: types.StringValue("\ts3cr3t-key"), wantError: "white space"},
		"NUL inside":       {value: types.StringValue("s3cr3t\x00key"), wantError: "control character"},
		"DEL inside":       {value: types.StringValue("s3cr3t\x7fkey"), wantError: "control character"},
		"empty":            {value: types.StringValue(""), wantError: "and an API key cannot be empty. TRANSCRIPTION_API_KEY is read only when api_key is left out or null"},
		"null":             {value: types.StringNull()},
		"unknown":          {value: types.StringUnknown()},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(APIKey("TRANSCRIPTION_API_KEY"), path.Root("api_key"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.wantError != "" && !strings.Contains(diags.Errors()[0].Detail(), "Attribute api_key:") {
				t.Errorf("error %q does not name api_key", diags.Errors()[0].Detail())
			}
			for _, d := range diags {
				if strings.Contains(d.Summary()+d.Detail(), "s3cr3t") {
					t.Errorf("the diagnostic shows the key: %s", d.Detail())
				}
				if _, atAttribute := d.(diag.DiagnosticWithPath); atAttribute {
					t.Error("the diagnostic points at the attribute, whose line the CLI would print")
				}
			}
		})
	}
}
