package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestBaseURL(t *testing.T) {
	tests := map[string]struct {
		value     types.String
		wantError string
	}{
		"https":               {value: types.StringValue("https://api.example.com")},
		"trailing slash":      {value: types.StringValue("https://api.example.com/")},
		"path prefix and /v2": {value: types.StringValue("http://gateway.internal/speech/v2/")},
		"IPv6 and port":       {value: types.StringValue("http://[::1]:8080")},
		"no scheme":           {value: types.StringValue("api.example.com"), wantError: "must be an absolute http or https URL"},
		"query":               {value: types.StringValue("https://api.example.com?region=eu"), wantError: "must not have a query or fragment"},
		"key in the query":    {value: types.StringValue("https://api.example.com/v2?api_key=s3cr3t"), wantError: "must not have a query or fragment"},
		"key in the fragment": {value: types.StringValue("https://api.example.com/v2#s3cr3t"), wantError: "must not have a query or fragment"},
		"credentials":         {value: types.StringValue("https://user:s3cr3t@api.example.com"), wantError: "must not hold credentials"},
		"bad scheme, secret":  {value: types.StringValue("ftp://user:s3cr3t@api.example.com"), wantError: "must be an absolute http or https URL"},
		"not a URL, secret":   {value: types.StringValue("https://user:s3cr3t@[::1"), wantError: "is not a URL"},
		"empty":               {value: types.StringValue(""), wantError: "and the service's address cannot be empty. TRANSCRIPTION_BASE_URL is read only when base_url is left out or null"},
		"no host name":        {value: types.StringValue("http://:8080"), wantError: "must be an absolute http or https URL"},
		"null":                {value: types.StringNull()},
		"unknown":             {value: types.StringUnknown()},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(BaseURL("TRANSCRIPTION_BASE_URL"), path.Root("base_url"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.wantError != "" && !strings.HasPrefix(diags.Errors()[0].Detail(), "Attribute base_url") {
				t.Errorf("error %q does not name base_url", diags.Errors()[0].Detail())
			}
			for _, d := range diags {
				if strings.Contains(d.Summary()+d.Detail(), "s3cr3t") {
					t.Errorf("the diagnostic shows the URL's password: %s", d.Detail())
				}
				// At the attribute, the CLI prints its source line, secret
				// included: the block's is shown instead.
				if _, atAttribute := d.(diag.DiagnosticWithPath); atAttribute && strings.Contains(tc.value.ValueString(), "s3cr3t") {
					t.Errorf("the diagnostic of a URL with credentials points at the attribute, whose line the CLI prints")
				}
			}
		})
	}
}
