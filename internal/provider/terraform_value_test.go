package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// terraformValue gives what the framework's own conversion gives, with the
// types it is handed.
func TestTerraformValue(t *testing.T) {
	ctx := context.Background()
	inner := types.ObjectType{AttrTypes: map[string]attr.Type{"n": types.Int64Type, "j": jsontypes.NormalizedType{}}}
	outer := types.ObjectType{AttrTypes: map[string]attr.Type{
		"s":    types.StringType,
		"list": types.ListType{ElemType: inner},
		"map":  types.MapType{ElemType: types.StringType},
		"obj":  inner,
		"f":    types.Float64Type,
	}}
	innerValue := func(n int64) attr.Value {
		return types.ObjectValueMust(inner.AttrTypes, map[string]attr.Value{"n": types.Int64Value(n), "j": jsontypes.NewNormalizedValue(`{"a":1}`)})
	}
	full := types.ObjectValueMust(outer.AttrTypes, map[string]attr.Value{
		"s":    types.StringValue("x"),
		"list": types.ListValueMust(inner, []attr.Value{innerValue(1), innerValue(2)}),
		"map":  types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v")}),
		"obj":  innerValue(3),
		"f":    types.Float64Value(0.1),
	})
	nulls := types.ObjectValueMust(outer.AttrTypes, map[string]attr.Value{
		"s":    types.StringUnknown(),
		"list": types.ListValueMust(inner, []attr.Value{}),
		"map":  types.MapNull(types.StringType),
		"obj":  types.ObjectNull(inner.AttrTypes),
		"f":    types.Float64Null(),
	})
	for name, tc := range map[string]struct {
		typ  attr.Type
		v    attr.Value
		want string // in the error; empty: no error
	}{
		"nested":               {outer, full, ""},
		"null, unknown, empty": {outer, nulls, ""},
		"null object":          {outer, types.ObjectNull(outer.AttrTypes), ""},
		// Unknown objects, lists and maps stay unknown, not empty.
		"unknown object":        {outer, types.ObjectUnknown(outer.AttrTypes), ""},
		"unknown list":          {types.ListType{ElemType: inner}, types.ListUnknown(inner), ""},
		"unknown map":           {types.MapType{ElemType: types.StringType}, types.MapUnknown(types.StringType), ""},
		"live job":              {liveJobType, liveJobValue(t, transcriptContent), ""},
		"live job summary":      {liveJobType, liveJobValue(t, summaryContent), ""},
		"object lacking a name": {types.ObjectType{AttrTypes: map[string]attr.Type{"m": types.Int64Type, "j": jsontypes.NormalizedType{}}}, innerValue(1), `lacks attribute "m"`},
		"object too wide":       {types.ObjectType{AttrTypes: map[string]attr.Type{"n": types.Int64Type}}, innerValue(1), "2 attributes"},
		"leaf of another type":  {types.ObjectType{AttrTypes: map[string]attr.Type{"n": types.StringType, "j": jsontypes.NormalizedType{}}}, innerValue(1), `attribute "n": value of type tftypes.Number`},
		"not an object":         {inner, types.StringValue("x"), "not an object"},
		"not a list":            {types.ListType{ElemType: types.StringType}, types.StringValue("x"), "not a list"},
		"not a map":             {types.MapType{ElemType: types.StringType}, types.StringValue("x"), "not a map"},
		"element of a list": {types.ListType{ElemType: types.StringType}, types.ListValueMust(types.Int64Type, []attr.Value{types.Int64Value(1)}),
			"element 0: value of type tftypes.Number"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := terraformValue(ctx, tc.typ.TerraformType(ctx), tc.v)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one saying %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.v.ToTerraformValue(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// liveJobValue is the full live job fixture as an item of
// transcription_live_jobs.
func liveJobValue(t *testing.T, content resultContent) attr.Value {
	t.Helper()
	j := fullLiveJobFixture(time.Date(2025, 3, 10, 11, 0, 0, 0, time.UTC))
	f := &flattener{}
	o := f.liveJob(context.Background(), &j, content)
	if f.diags.HasError() {
		t.Fatal(f.diags)
	}
	return o
}
