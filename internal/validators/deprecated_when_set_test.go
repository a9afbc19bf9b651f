package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestDeprecatedWhenSet(t *testing.T) {
	const message = "callback_url is deprecated: use callback_config"
	for name, tc := range map[string]struct {
		value       types.String
		wantWarning string
	}{
		"set":     {value: types.StringValue("https://hooks.example.com/x"), wantWarning: message},
		"empty":   {value: types.StringValue(""), wantWarning: message},
		"null":    {value: types.StringNull()},
		"unknown": {value: types.StringUnknown()},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(DeprecatedWhenSet(message), path.Root("callback_url"), tc.value)
			if diags.HasError() {
				t.Fatalf("errors: %v", diags.Errors())
			}
			frameworktest.CheckDiagnostics(t, diags.Warnings(), tc.wantWarning)
			if tc.wantWarning == "" {
				return
			}
			w, ok := diags.Warnings()[0].(diag.DiagnosticWithPath)
			if !ok || w.Summary() != "Attribute Deprecated" || !w.Path().Equal(path.Root("callback_url")) {
				t.Errorf("warning %v: want \"Attribute Deprecated\" at callback_url", diags.Warnings()[0])
			}
		})
	}
}
