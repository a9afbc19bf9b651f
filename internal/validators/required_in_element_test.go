package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestRequiredInElement(t *testing.T) {
	entryType := map[string]attr.Type{"value": types.StringType, "intensity": types.Float64Type}
	entry := func(value types.String) types.Object {
		return types.ObjectValueMust(entryType, map[string]attr.Value{"value": value, "intensity": types.Float64Value(0.5)})
	}
	at := path.Root("custom_vocabulary_config").AtName("vocabulary").AtListIndex(1)
	for name, tc := range map[string]struct {
		element   types.Object
		wantError string
	}{
		"set":                       {element: entry(types.StringValue("Kubernetes"))},
		"unknown, not yet known":    {element: entry(types.StringUnknown())},
		"left out":                  {element: entry(types.StringNull()), wantError: "Must set a configuration value for the custom_vocabulary_config.vocabulary[1].value attribute"},
		"element unknown as whole":  {element: types.ObjectUnknown(entryType)},
		"element null (list's own)": {element: types.ObjectNull(entryType)},
	} {
		t.Run(name, func(t *testing.T) {
			errs := validateValue(RequiredInElement("value"), at, tc.element).Errors()
			if tc.wantError == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Detail(), tc.wantError) || errs[0].Summary() != "Missing Configuration for Required Attribute" {
				t.Fatalf("errors %v, want one %q", errs, tc.wantError)
			}
			if got, ok := errs[0].(interface{ Path() path.Path }); !ok || !got.Path().Equal(at.AtName("value")) {
				t.Errorf("the error is not at %s", at.AtName("value"))
			}
		})
	}
}
