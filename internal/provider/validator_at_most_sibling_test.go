package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestAtMostSibling_int64(t *testing.T) {
	minPath := path.Root("diarization_config").AtName("min_speakers")
	tests := map[string]struct {
		min       types.Int64
		max       tftypes.Value
		wantError string
	}{
		"below":       {min: types.Int64Value(2), max: tfNumber(3)},
		"equal":       {min: types.Int64Value(3), max: tfNumber(3)},
		"above":       {min: types.Int64Value(4), max: tfNumber(3), wantError: "diarization_config.min_speakers must be at most diarization_config.max_speakers (3), got: 4"},
		"max null":    {min: types.Int64Value(4), max: tftypes.NewValue(tftypes.Number, nil)},
		"max unknown": {min: types.Int64Value(4), max: unknownNumber},
		"min null":    {min: types.Int64Null(), max: tfNumber(3)},
		"min unknown": {min: types.Int64Unknown(), max: tfNumber(3)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testJobConfig(t, map[string]tftypes.Value{
				"diarization_config": testObject(t, "diarization_config", map[string]tftypes.Value{"max_speakers": tc.max}),
			})
			resp := &validator.Int64Response{}
			atMostSibling("max_speakers").ValidateInt64(context.Background(), validator.Int64Request{Path: minPath, ConfigValue: tc.min, Config: config}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
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
		"below":       {min: types.Float64Value(1.5), max: tfNumber(2)},
		"equal":       {min: types.Float64Value(2.5), max: tfNumber(2.5)},
		"above":       {min: types.Float64Value(2.75), max: tfNumber(2.5), wantError: "subtitles_config.minimum_duration must be at most subtitles_config.maximum_duration (2.5), got: 2.75"},
		"max unknown": {min: types.Float64Value(9), max: unknownNumber},
		"min unknown": {min: types.Float64Unknown(), max: tfNumber(1)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testJobConfig(t, map[string]tftypes.Value{
				"subtitles_config": testObject(t, "subtitles_config", map[string]tftypes.Value{"maximum_duration": tc.max}),
			})
			resp := &validator.Float64Response{}
			atMostSibling("maximum_duration").ValidateFloat64(context.Background(), validator.Float64Request{Path: minPath, ConfigValue: tc.min, Config: config}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}

// checkDiagnostics expects exactly one diagnostic whose detail contains want,
// or none when want is empty.
func checkDiagnostics[D interface{ Detail() string }](t *testing.T, got []D, want string) {
	t.Helper()
	if want == "" {
		if len(got) != 0 {
			t.Fatalf("unexpected diagnostics: %v", got[0].Detail())
		}
		return
	}
	if len(got) != 1 {
		t.Fatalf("got %d diagnostics, want 1 containing %q", len(got), want)
	}
	if !strings.Contains(got[0].Detail(), want) {
		t.Fatalf("diagnostic %q does not contain %q", got[0].Detail(), want)
	}
}
