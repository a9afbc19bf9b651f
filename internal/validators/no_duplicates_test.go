package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestNoDuplicates(t *testing.T) {
	list := func(values ...attr.Value) types.List { return types.ListValueMust(types.StringType, values) }
	for name, tc := range map[string]struct {
		value     types.List
		wantError string
	}{
		"unique":    {value: list(types.StringValue("en"), types.StringValue("fr"))},
		"duplicate": {value: list(types.StringValue("en"), types.StringValue("fr"), types.StringValue("en")), wantError: `Attribute x lists "en" more than once`},
		// The first value listed twice is reported: one error.
		"two duplicates":        {value: list(types.StringValue("en"), types.StringValue("en"), types.StringValue("fr"), types.StringValue("fr")), wantError: `Attribute x lists "en" more than once`},
		"unknown elements pass": {value: list(types.StringUnknown(), types.StringUnknown())},
		"null elements pass":    {value: list(types.StringNull(), types.StringNull())},
		"empty":                 {value: list()},
		"null":                  {value: types.ListNull(types.StringType)},
		"unknown":               {value: types.ListUnknown(types.StringType)},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(NoDuplicates(), path.Root("x"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}
