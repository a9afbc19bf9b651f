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
		"list of values":    {value: list(types.StringValue("en"), types.StringValue(""))},
		"null element":      {value: list(types.StringValue("en"), types.StringNull()), wantError: "Attribute x must not hold null, and its element 1 is null", wantPath: path.Root("x").AtListIndex(1)},
		"unknown element":   {value: list(types.StringUnknown())},
		"empty list":        {value: list()},
		"null list":         {value: types.ListNull(types.StringType)},
		"unknown list":      {value: types.ListUnknown(types.StringType)},
		"map of values":     {value: stringMap(map[string]attr.Value{"team": types.StringValue("a"), "empty": types.StringValue("")})},
		"null map value":    {value: stringMap(map[string]attr.Value{"team": types.StringValue("a"), "queue": types.StringNull()}), wantError: `Attribute x must not hold null, and the value of "queue" is null`, wantPath: path.Root("x").AtMapKey("queue")},
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

// Each null element has its error, at its path, in order (a map's in key
// order, so that the same configuration gets the same errors): with only
// the first reported, the next one's would appear once the first is
// unknown.
func TestNoNullElements_eachNamed(t *testing.T) {
	const keys = "zyxwvutsrqponmlkjihgfedcba"
	for name, tc := range map[string]struct {
		value attr.Value
		want  []path.Path
	}{
		"list": {
			value: types.ListValueMust(types.StringType, []attr.Value{types.StringNull(), types.StringValue("en"), types.StringNull()}),
			want:  []path.Path{path.Root("x").AtListIndex(0), path.Root("x").AtListIndex(2)},
		},
		"map": {value: types.MapValueMust(types.StringType, nullValues(keys)), want: func() []path.Path {
			var out []path.Path
			for k := 'a'; k <= 'z'; k++ {
				out = append(out, path.Root("x").AtMapKey(string(k)))
			}
			return out
		}()},
	} {
		t.Run(name, func(t *testing.T) {
			errs := validateValue(NoNullElements(), path.Root("x"), tc.value).Errors()
			if len(errs) != len(tc.want) {
				t.Fatalf("%d errors, want %d: %v", len(errs), len(tc.want), errs)
			}
			for i, want := range tc.want {
				if d, ok := errs[i].(interface{ Path() path.Path }); !ok || !d.Path().Equal(want) {
					t.Errorf("error %d at %v, want it at %s", i, errs[i], want)
				}
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
