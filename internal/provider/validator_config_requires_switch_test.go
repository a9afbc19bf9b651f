package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestConfigRequiresSwitch(t *testing.T) {
	configPath := path.Root("subtitles_config")
	set := testObject(t, "subtitles_config", map[string]tftypes.Value{"style": tfString("compliance")})
	tests := map[string]struct {
		subtitles   tftypes.Value
		config      tftypes.Value
		wantWarning string
	}{
		"switch on":      {subtitles: tfBool(true), config: set},
		"switch off":     {subtitles: tfBool(false), config: set, wantWarning: "The service uses subtitles_config only when subtitles = true"},
		"switch omitted": {subtitles: tftypes.NewValue(tftypes.Bool, nil), config: set, wantWarning: "Set subtitles = true to use it, or remove subtitles_config"},
		"switch unknown": {subtitles: tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue), config: set},
		"config omitted": {subtitles: tfBool(false), config: tftypes.NewValue(set.Type(), nil)},
		"config unknown": {subtitles: tfBool(false), config: tftypes.NewValue(set.Type(), tftypes.UnknownValue)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testJobConfig(t, map[string]tftypes.Value{"subtitles": tc.subtitles, "subtitles_config": tc.config})
			var value types.Object
			if diags := config.GetAttribute(context.Background(), configPath, &value); diags.HasError() {
				t.Fatal(diags)
			}
			resp := &validator.ObjectResponse{}
			configRequiresSwitch("subtitles").ValidateObject(context.Background(), validator.ObjectRequest{Path: configPath, ConfigValue: value, Config: config}, resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("a config without its switch is a warning, not an error: %v", resp.Diagnostics)
			}
			checkDiagnostics(t, resp.Diagnostics.Warnings(), tc.wantWarning)
			if tc.wantWarning != "" {
				if got := resp.Diagnostics.Warnings()[0].Summary(); got != "subtitles_config is ignored unless subtitles is true" {
					t.Errorf("summary %q does not name both attributes", got)
				}
			}
		})
	}
}

func TestSwitchRequiresConfig(t *testing.T) {
	switchPath := path.Root("translation")
	set := testObject(t, "translation_config", map[string]tftypes.Value{
		"target_languages": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfString("de")}),
	})
	tests := map[string]struct {
		translation tftypes.Value
		config      tftypes.Value
		wantError   string
	}{
		"switch on with config":    {translation: tfBool(true), config: set},
		"switch on without config": {translation: tfBool(true), config: tftypes.NewValue(set.Type(), nil), wantError: "The service needs target_languages in translation_config"},
		"config unknown":           {translation: tfBool(true), config: tftypes.NewValue(set.Type(), tftypes.UnknownValue)},
		"switch off":               {translation: tfBool(false), config: tftypes.NewValue(set.Type(), nil)},
		"switch omitted":           {translation: tftypes.NewValue(tftypes.Bool, nil), config: tftypes.NewValue(set.Type(), nil)},
		"switch unknown":           {translation: tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue), config: tftypes.NewValue(set.Type(), nil)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testJobConfig(t, map[string]tftypes.Value{"translation": tc.translation, "translation_config": tc.config})
			var value types.Bool
			if diags := config.GetAttribute(context.Background(), switchPath, &value); diags.HasError() {
				t.Fatal(diags)
			}
			resp := &validator.BoolResponse{}
			switchRequiresConfig("translation_config", "target_languages").ValidateBool(context.Background(), validator.BoolRequest{Path: switchPath, ConfigValue: value, Config: config}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
			if tc.wantError != "" {
				if got := resp.Diagnostics.Errors()[0].Summary(); got != "translation = true needs translation_config" {
					t.Errorf("summary %q does not name both attributes", got)
				}
			}
		})
	}
}
