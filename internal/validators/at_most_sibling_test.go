package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestAtMostSibling_int64(t *testing.T) {
	minPath := path.Root("diarization_config").AtName("min_speakers")
	tests := map[string]struct {
		min       types.Int64
		max       tftypes.Value
		wantError string
	}{
		"below":       {min: types.Int64Value(2), max: frameworktest.Number(3)},
		"equal":       {min: types.Int64Value(3), max: frameworktest.Number(3)},
		"above":       {min: types.Int64Value(4), max: frameworktest.Number(3), wantError: "diarization_config.min_speakers must be at most diarization_config.max_speakers (3), got: 4"},
		"max null":    {min: types.Int64Value(4), max: tftypes.NewValue(tftypes.Number, nil)},
		"max unknown": {min: types.Int64Value(4), max: frameworktest.UnknownNumber},
		"min null":    {min: types.Int64Null(), max: frameworktest.Number(3)},
		"min unknown": {min: types.Int64Unknown(), max: frameworktest.Number(3)},
		// Bounds of two digits are written in base 10.
		"above, two digits": {min: types.Int64Value(12), max: frameworktest.Number(10), wantError: "(10), got: 12"},
		// A null or unknown number reads as 0, which exceeds a negative bound:
		// the validator must not compare it.
		"min null, negative max":    {min: types.Int64Null(), max: frameworktest.Number(-1)},
		"min unknown, negative max": {min: types.Int64Unknown(), max: frameworktest.Number(-1)},
		// Bounds beyond ten digits are written whole, not with an exponent.
		"above, eleven digits": {min: types.Int64Value(30000000000), max: frameworktest.Number(20000000000), wantError: "(20000000000), got: 30000000000"},
		// A sibling no int64 holds is refused by its type (numtypes.Int64),
		// which reading it reports; it is not compared, rounded, as a bound.
		"max not whole": {min: types.Int64Value(3), max: frameworktest.NumberText(t, "2.7"), wantError: "Attribute diarization_config.max_speakers must be a whole number, got: 2.7"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{
				"diarization_config": testObject(t, "diarization_config", map[string]tftypes.Value{"max_speakers": tc.max}),
			})
			diags := validate(AtMostSibling("max_speakers"), minPath, tc.min, config)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}

func TestAtMostSibling_float64(t *testing.T) {
	minPath := path.Root("subtitles_config").AtName("minimum_duration")
	tests := map[string]struct {
		min       types.Float64
		max       tftypes.Value
		wantError string
	}{
		"below":       {min: types.Float64Value(1.5), max: frameworktest.Number(2)},
		"equal":       {min: types.Float64Value(2.5), max: frameworktest.Number(2.5)},
		"above":       {min: types.Float64Value(2.75), max: frameworktest.Number(2.5), wantError: "subtitles_config.minimum_duration must be at most subtitles_config.maximum_duration (2.5), got: 2.75"},
		"max null":    {min: types.Float64Value(9), max: tftypes.NewValue(tftypes.Number, nil)},
		"max unknown": {min: types.Float64Value(9), max: frameworktest.UnknownNumber},
		"min unknown": {min: types.Float64Unknown(), max: frameworktest.Number(1)},
		// Terraform sends 0.1 at 512 bits of precision; the value was read
		// as a float64, a little above it.
		"equal, the bound at Terraform's precision": {min: types.Float64Value(0.1), max: frameworktest.NumberText(t, "0.1")},
		"above, the bound at Terraform's precision": {min: types.Float64Value(0.2), max: frameworktest.NumberText(t, "0.1"), wantError: "(0.1), got: 0.2"},
		// A null or unknown number reads as 0, which exceeds a negative bound.
		"min null, negative max":    {min: types.Float64Null(), max: frameworktest.Number(-1)},
		"min unknown, negative max": {min: types.Float64Unknown(), max: frameworktest.Number(-1)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{
				"subtitles_config": testObject(t, "subtitles_config", map[string]tftypes.Value{"maximum_duration": tc.max}),
			})
			diags := validate(AtMostSibling("maximum_duration"), minPath, tc.min, config)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}

// A sibling the schema does not hold, or that is not a number, is the
// provider's mistake: reported as such, not compared and not a panic.
func TestAtMostSibling_badSibling(t *testing.T) {
	config := testConfig(t, map[string]tftypes.Value{
		"diarization_config": testObject(t, "diarization_config", map[string]tftypes.Value{"max_speakers": frameworktest.Number(3)}),
		"subtitles_config":   testObject(t, "subtitles_config", map[string]tftypes.Value{"style": frameworktest.String("compliance")}),
	})
	diags := validate(AtMostSibling("no_such_sibling"), path.Root("diarization_config").AtName("min_speakers"), types.Int64Value(4), config)
	if len(diags.Errors()) != 1 || !strings.Contains(diags.Errors()[0].Detail()+diags.Errors()[0].Summary(), "no_such_sibling") {
		t.Errorf("sibling not in the schema: got %v, want the error reading no_such_sibling", diags)
	}
	diags = validate(AtMostSibling("style"), path.Root("subtitles_config").AtName("minimum_duration"), types.Float64Value(1), config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "subtitles_config.style is not a number")
}
