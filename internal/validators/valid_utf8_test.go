package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestValidUTF8Validator(t *testing.T) {
	for _, tc := range []struct {
		value     types.String
		wantError string
	}{
		{types.StringValue("rec/café.wav"), ""},
		{types.StringValue("rec/cafe\u0301.wav"), ""},
		{types.StringValue("rec/caf\xe9.wav"), "Attribute source value must be valid UTF-8 text, got \"rec/caf\ufffd.wav\""},
		{types.StringNull(), ""},
		{types.StringUnknown(), ""},
	} {
		diags := validateValue(ValidUTF8(), path.Root("source"), tc.value)
		frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
	}
}
