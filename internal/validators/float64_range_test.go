package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestFloat64Range(t *testing.T) {
	for name, tc := range map[string]struct {
		v         validator.Float64
		value     types.Float64
		wantError string
	}{
		"between, inside": {v: Float64Between(1, 30), value: types.Float64Value(30)},
		"between, below":  {v: Float64Between(1, 30), value: types.Float64Value(0.5), wantError: "Attribute x value must be between 1 and 30, got: 0.5"},
		"between, above":  {v: Float64Between(0, 1), value: types.Float64Value(2), wantError: "Attribute x value must be between 0 and 1, got: 2"},
		// Not 301 digits, nor 300 zeros.
		"far above":           {v: Float64Between(1, 30), value: types.Float64Value(1e300), wantError: "Attribute x value must be between 1 and 30, got: 1e+300"},
		"just below zero":     {v: Float64AtLeast(0), value: types.Float64Value(-1e-300), wantError: "Attribute x value must be at least 0, got: -1e-300"},
		"small, in digits":    {v: Float64AtLeast(0), value: types.Float64Value(-0.000001), wantError: "Attribute x value must be at least 0, got: -0.000001"},
		"at least, on bound":  {v: Float64AtLeast(0), value: types.Float64Value(0)},
		"at least, above":     {v: Float64AtLeast(0), value: types.Float64Value(5)}, // no upper bound
		"at least, below":     {v: Float64AtLeast(0), value: types.Float64Value(-0.25), wantError: "Attribute x value must be at least 0, got: -0.25"},
		"null is not checked": {v: Float64AtLeast(0), value: types.Float64Null()},
		"unknown is skipped":  {v: Float64AtLeast(0), value: types.Float64Unknown()},
		// A null or unknown number reads as 0, outside [1, 30].
		"null, 0 out of range":    {v: Float64Between(1, 30), value: types.Float64Null()},
		"unknown, 0 out of range": {v: Float64Between(1, 30), value: types.Float64Unknown()},
	} {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(tc.v, path.Root("x"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}
