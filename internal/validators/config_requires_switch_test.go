package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestConfigRequiresSwitch(t *testing.T) {
	configPath := path.Root("subtitles_config")
	set := testObject(t, "subtitles_config", map[string]tftypes.Value{"style": frameworktest.String("compliance")})
	tests := map[string]struct {
		subtitles   tftypes.Value
		config      tftypes.Value
		wantWarning string
	}{
		"switch on":      {subtitles: frameworktest.Bool(true), config: set},
		"switch off":     {subtitles: frameworktest.Bool(false), config: set, wantWarning: "The service uses subtitles_config only when subtitles = true"},
		"switch omitted": {subtitles: tftypes.NewValue(tftypes.Bool, nil), config: set, wantWarning: "Set subtitles = true to use it, or remove subtitles_config"},
		"switch unknown": {subtitles: tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue), config: set},
		"config omitted": {subtitles: frameworktest.Bool(false), config: tftypes.NewValue(set.Type(), nil)},
		"config unknown": {subtitles: frameworktest.Bool(false), config: tftypes.NewValue(set.Type(), tftypes.UnknownValue)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{"subtitles": tc.subtitles, "subtitles_config": tc.config})
			diags := validateAt(t, ConfigRequiresSwitch("subtitles"), configPath, config)
			if diags.HasError() {
				t.Fatalf("a config without its switch is a warning, not an error: %v", diags)
			}
			frameworktest.CheckDiagnostics(t, diags.Warnings(), tc.wantWarning)
			if tc.wantWarning != "" {
				if got := diags.Warnings()[0].Summary(); got != "subtitles_config is ignored unless subtitles is true" {
					t.Errorf("summary %q does not name both attributes", got)
				}
				// At the switch, whose line the CLI prints: the object's may
				// hold a secret (callback_config.url).
				if w, ok := diags.Warnings()[0].(diag.DiagnosticWithPath); !ok || !w.Path().Equal(path.Root("subtitles")) {
					t.Errorf("warning %v is not at subtitles", diags.Warnings()[0])
				}
			}
		})
	}
}

// A switch name the schema does not hold is the provider's mistake: the
// framework's error reading it is reported, not a warning about a switch
// that is not there.
func TestConfigRequiresSwitch_unknownSwitchName(t *testing.T) {
	set := testObject(t, "subtitles_config", map[string]tftypes.Value{"style": frameworktest.String("compliance")})
	config := testConfig(t, map[string]tftypes.Value{"subtitles_config": set})
	diags := validateAt(t, ConfigRequiresSwitch("no_such_switch"), path.Root("subtitles_config"), config)
	if !diags.HasError() || len(diags.Warnings()) != 0 {
		t.Fatalf("got %v, want the error reading no_such_switch and no warning", diags)
	}
}

// Inside an object, the configuration's sibling switch is read, not the
// switch of the same name at the root.
func TestConfigRequiresSwitch_nested(t *testing.T) {
	set := testObject(t, "translation_config", map[string]tftypes.Value{"target_languages": frameworktest.Strings("de")})
	options := testObject(t, "options", map[string]tftypes.Value{
		"translation": frameworktest.Bool(false), "translation_config": set,
	})
	config := testConfig(t, map[string]tftypes.Value{"options": options, "translation": frameworktest.Bool(true)})
	diags := validateAt(t, ConfigRequiresSwitch("translation"), path.Root("options").AtName("translation_config"), config)
	frameworktest.CheckDiagnostics(t, diags.Warnings(), "The service uses options.translation_config only when options.translation = true")
}
