package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestLanguageCode(t *testing.T) {
	v := LanguageCode([]string{"en", "fr", "haw"}, []string{"wo"})
	for name, tc := range map[string]struct {
		value     types.String
		wantError string
		wantHint  string
	}{
		"allowed":                    {value: types.StringValue("haw")},
		"unknown":                    {value: types.StringUnknown()},
		"null":                       {value: types.StringNull()},
		"not a code":                 {value: types.StringValue("xx"), wantError: `Attribute language value must be one of: ["en" "fr" "haw"], got: "xx"`},
		"capitals":                   {value: types.StringValue("EN"), wantError: "value must be one of", wantHint: `got: "EN". Codes are written in lowercase: "en".`},
		"capitals, not code":         {value: types.StringValue("XX"), wantError: "value must be one of"},
		"translation only":           {value: types.StringValue("wo"), wantError: "value must be one of", wantHint: `got: "wo". "wo" is a translation target only (translation_config.target_languages)`},
		"translation only, capitals": {value: types.StringValue("WO"), wantError: "value must be one of", wantHint: `got: "WO". "wo" is a translation target only`},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(v, path.Root("language"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.wantError == "" {
				return
			}
			detail := diags.Errors()[0].Detail()
			if tc.wantHint != "" && !strings.Contains(detail, tc.wantHint) {
				t.Errorf("detail %q lacks the hint %q", detail, tc.wantHint)
			}
			if tc.wantHint == "" && (strings.Contains(detail, "lowercase") || strings.Contains(detail, "translation target")) {
				t.Errorf("detail %q gives a hint that does not apply", detail)
			}
		})
	}
}
