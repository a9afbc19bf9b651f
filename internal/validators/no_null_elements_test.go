package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestNoNullElements(t *testing.T) {
	list := func(values ...attr.Value) types.List { return types.ListValueMust(types.StringType, values) }
	stringMap := func(values map[string]attr.Value) types.Map { return types.MapValueMust(types.StringType, values) }
	listMap := func(values map[string]attr.Value) types.Map {
		return types.MapValueMust(types.ListType{ElemType: types.StringType}, values)
	}
	for name, tc := range map[string]struct {
		value     attr.Value
		wantError string
		wantPath  path.Path
	}{
		"list of values":   {value: list(types.StringValue("en"), types.StringValue(""))},
		"null element":     {value: list(types.StringValue("en"), types.StringNull()), wantError: "Attribute x must not hold null, and its element 1 is null", wantPath: path.Root("x").AtListIndex(1)},
		"first null named": {value: list(types.StringNull(), types.StringNull()), wantError: "its element 0 is null", wantPath: path.Root("x").AtListIndex(0)},
		"unknown element":  {value: list(types.StringUnknown())},
		"empty list":       {value: list()},
		"null list":        {value: types.ListNull(types.StringType)},
		"unknown list":     {value: types.ListUnknown(types.StringType)},
		"map of values":    {value: stringMap(map[string]attr.Value{"team": types.StringValue("a"), "empty": types.StringValue("")})},
		"null map value":   {value: stringMap(map[string]attr.Value{"team": types.StringValue("a"), "queue": types.StringNull()}), wantError: `Attribute x must not hold null, and the value of "queue" is null`, wantPath: path.Root("x").AtMapKey("queue")},
		// Of many null values, the first key's: with two, a map's random
		// order would name the right one half of the time.
		"first key named":   {value: stringMap(nullValues("abcdefghijklmnopqrstuvwxyz")), wantError: `the value of "a" is null`, wantPath: path.Root("x").AtMapKey("a")},
		"null list value":   {value: listMap(map[string]attr.Value{"SQL": types.ListNull(types.StringType)}), wantError: `the value of "SQL" is null`, wantPath: path.Root("x").AtMapKey("SQL")},
		"empty list value":  {value: listMap(map[string]attr.Value{"SQL": list()})},
		"unknown map value": {value: stringMap(map[string]attr.Value{"team": types.StringUnknown()})},
		"null map":          {value: types.MapNull(types.StringType)},
		"unknown map":       {value: types.MapUnknown(types.StringType)},
	} {
		t.Run(name, func(t *testing.T) {
			errs := validateValue(NoNullElements(), path.Root("x"), tc.value).Errors()
			frameworktest.CheckDiagnostics(t, errs, tc.wantError)
			if tc.wantError == "" {
				return
			}
			if d, ok := errs[0].(interface{ Path() path.Path }); !ok || !d.Path().Equal(tc.wantPath) {
				t.Errorf("error at %v, want it at %s", errs[0], tc.wantPath)
			}
		})
	}
}

// nullValues is a map of a null value at each of the one-letter keys.
func nullValues(keys string) map[string]attr.Value {
	values := map[string]attr.Value{}
	for _, k := range keys {
		values[string(k)] = types.StringNull()
	}
	return values
}
