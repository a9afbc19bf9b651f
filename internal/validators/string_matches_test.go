package validators

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestStringMatches(t *testing.T) {
	notBlank := StringMatches(regexp.MustCompile(`\S`), "must not be empty or blank")
	fourHexDigits := StringMatches(regexp.MustCompile(`^[0-9a-f]{4}$`), "must be 4 hexadecimal digits")
	for name, tc := range map[string]struct {
		validator validator.String
		value     types.String
		wantError string
		noHint    bool
	}{
		"text":    {validator: notBlank, value: types.StringValue("Kubernetes")},
		"blank":   {validator: notBlank, value: types.StringValue("  "), wantError: `Attribute x must not be empty or blank, got: "  ".`, noHint: true},
		"empty":   {validator: notBlank, value: types.StringValue(""), wantError: `got: "".`, noHint: true},
		"null":    {validator: notBlank, value: types.StringNull()},
		"unknown": {validator: notBlank, value: types.StringUnknown()},
		// Only white space keeps it from matching: said, as the quoted
		// value hides a trailing space or line break from a quick look.
		"pasted with a line break": {validator: fourHexDigits, value: types.StringValue("0f6e\n"), wantError: `got: "0f6e\n". Remove the white space around it.`},
		"spaces around":            {validator: fourHexDigits, value: types.StringValue(" 0f6e "), wantError: `Remove the white space around it.`},
		"wrong inside too":         {validator: fourHexDigits, value: types.StringValue(" 0f6g "), wantError: `got: " 0f6g ".`, noHint: true},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(tc.validator, path.Root("x"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.noHint && strings.Contains(diags.Errors()[0].Detail(), "white space") {
				t.Errorf("a hint for a value white space is not all that is wrong with: %s", diags.Errors()[0].Detail())
			}
		})
	}
}
