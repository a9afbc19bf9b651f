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
			// At the block, not the attribute, whose line (a secret
			// written literally) the CLI would print on every run.
			w := diags.Warnings()[0]
			if _, atAttribute := w.(diag.DiagnosticWithPath); atAttribute || w.Summary() != "Attribute Deprecated" {
				t.Errorf("warning %v: want \"Attribute Deprecated\", not at the attribute", w)
			}
		})
	}
}
