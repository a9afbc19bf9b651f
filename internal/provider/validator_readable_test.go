package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestFloat64Range(t *testing.T) {
	for name, tc := range map[string]struct {
		v         float64RangeValidator
		value     types.Float64
		wantError string
	}{
		"between, inside":     {v: float64Between(1, 30), value: types.Float64Value(30)},
		"between, below":      {v: float64Between(1, 30), value: types.Float64Value(0.5), wantError: "Attribute x value must be between 1 and 30, got: 0.5"},
		"between, above":      {v: float64Between(0, 1), value: types.Float64Value(2), wantError: "Attribute x value must be between 0 and 1, got: 2"},
		"at least, on bound":  {v: float64RangeValidator{min: 0}, value: types.Float64Value(0)},
		"at least, below":     {v: float64RangeValidator{min: 0}, value: types.Float64Value(-0.25), wantError: "Attribute x value must be at least 0, got: -0.25"},
		"null is not checked": {v: float64RangeValidator{min: 0}, value: types.Float64Null()},
		"unknown is skipped":  {v: float64RangeValidator{min: 0}, value: types.Float64Unknown()},
	} {
		t.Run(name, func(t *testing.T) {
			resp := &validator.Float64Response{}
			tc.v.ValidateFloat64(context.Background(), validator.Float64Request{Path: path.Root("x"), ConfigValue: tc.value}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}

func TestStringMatches(t *testing.T) {
	v := stringMatches(regexp.MustCompile(`\S`), "must not be empty or blank")
	for name, tc := range map[string]struct {
		value     types.String
		wantError string
	}{
		"text":    {value: types.StringValue("Kubernetes")},
		"blank":   {value: types.StringValue("  "), wantError: `Attribute x must not be empty or blank, got: "  "`},
		"empty":   {value: types.StringValue(""), wantError: `got: ""`},
		"null":    {value: types.StringNull()},
		"unknown": {value: types.StringUnknown()},
	} {
		t.Run(name, func(t *testing.T) {
			resp := &validator.StringResponse{}
			v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: tc.value}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}

func TestNoDuplicates(t *testing.T) {
	list := func(values ...attr.Value) types.List { return types.ListValueMust(types.StringType, values) }
	for name, tc := range map[string]struct {
		value     types.List
		wantError string
	}{
		"unique":                {value: list(types.StringValue("en"), types.StringValue("fr"))},
		"duplicate":             {value: list(types.StringValue("en"), types.StringValue("fr"), types.StringValue("en")), wantError: `Attribute x lists "en" more than once`},
		"unknown elements pass": {value: list(types.StringUnknown(), types.StringUnknown())},
		"empty":                 {value: list()},
		"null":                  {value: types.ListNull(types.StringType)},
		"unknown":               {value: types.ListUnknown(types.StringType)},
	} {
		t.Run(name, func(t *testing.T) {
			resp := &validator.ListResponse{}
			noDuplicates().ValidateList(context.Background(), validator.ListRequest{Path: path.Root("x"), ConfigValue: tc.value}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}
