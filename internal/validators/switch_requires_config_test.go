package validators

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestSwitchRequiresConfig(t *testing.T) {
	switchPath := path.Root("translation")
	set := testObject(t, "translation_config", map[string]tftypes.Value{
		"target_languages": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{frameworktest.String("de")}),
	})
	tests := map[string]struct {
		translation tftypes.Value
		config      tftypes.Value
		wantError   string
	}{
		"switch on with config":    {translation: frameworktest.Bool(true), config: set},
		"switch on without config": {translation: frameworktest.Bool(true), config: tftypes.NewValue(set.Type(), nil), wantError: "The service needs target_languages in translation_config"},
		"config unknown":           {translation: frameworktest.Bool(true), config: tftypes.NewValue(set.Type(), tftypes.UnknownValue)},
		"switch off":               {translation: frameworktest.Bool(false), config: tftypes.NewValue(set.Type(), nil)},
		"switch omitted":           {translation: tftypes.NewValue(tftypes.Bool, nil), config: tftypes.NewValue(set.Type(), nil)},
		"switch unknown":           {translation: tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue), config: tftypes.NewValue(set.Type(), nil)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{"translation": tc.translation, "translation_config": tc.config})
			diags := validateAt(t, SwitchRequiresConfig("translation_config", "target_languages"), switchPath, config)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.wantError != "" {
				if got := diags.Errors()[0].Summary(); got != "translation = true needs translation_config" {
					t.Errorf("summary %q does not name both attributes", got)
				}
				if got := diags.Errors()[0].Detail(); !strings.Contains(got, "Set translation_config = { ... }, or remove translation.") {
					t.Errorf("detail %q does not name both attributes", got)
				}
			}
		})
	}
}

// A required field that is empty asks the feature for nothing, as leaving
// the configuration out does: an empty list, or a map whose lists are all
// empty (a spelling key with no spelling to replace).
func TestSwitchRequiresConfig_emptyField(t *testing.T) {
	strings_ := tftypes.List{ElementType: tftypes.String}
	dictionary := func(entries map[string]tftypes.Value) tftypes.Value {
		return tftypes.NewValue(tftypes.Map{ElementType: strings_}, entries)
	}
	for name, tc := range map[string]struct {
		needed    tftypes.Value
		wantError string
	}{
		"no key":                 {needed: dictionary(map[string]tftypes.Value{}), wantError: "custom_spelling_config.spelling_dictionary asks the feature for nothing"},
		"keys without spellings": {needed: dictionary(map[string]tftypes.Value{"Gettleman": frameworktest.Strings(), "Kubernetes": frameworktest.Strings()}), wantError: "asks the feature for nothing"},
		"one key with spellings": {needed: dictionary(map[string]tftypes.Value{"Gettleman": frameworktest.Strings(), "Kubernetes": frameworktest.Strings("kubernetes")})},
		"spellings unknown":      {needed: dictionary(map[string]tftypes.Value{"Gettleman": tftypes.NewValue(strings_, tftypes.UnknownValue)})},
		"dictionary unknown":     {needed: tftypes.NewValue(tftypes.Map{ElementType: strings_}, tftypes.UnknownValue)},
	} {
		t.Run(name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{
				"custom_spelling":        frameworktest.Bool(true),
				"custom_spelling_config": testObject(t, "custom_spelling_config", map[string]tftypes.Value{"spelling_dictionary": tc.needed}),
			})
			diags := validateAt(t, SwitchRequiresEntries("custom_spelling_config", "spelling_dictionary"), path.Root("custom_spelling"), config)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.wantError != "" {
				if got := diags.Errors()[0].Summary(); got != "custom_spelling = true needs entries in custom_spelling_config.spelling_dictionary" {
					t.Errorf("summary %q does not name both attributes", got)
				}
			}
		})
	}
	// An empty list, as a vocabulary without entries; SwitchRequiresConfig,
	// for a field whose schema sets its own minimum size, leaves it to that.
	config := testConfig(t, map[string]tftypes.Value{
		"translation":        frameworktest.Bool(true),
		"translation_config": testObject(t, "translation_config", map[string]tftypes.Value{"target_languages": frameworktest.Strings()}),
	})
	diags := validateAt(t, SwitchRequiresEntries("translation_config", "target_languages"), path.Root("translation"), config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "translation_config.target_languages asks the feature for nothing")
	diags = validateAt(t, SwitchRequiresConfig("translation_config", "target_languages"), path.Root("translation"), config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "")
}

// A configuration name the schema does not hold is the provider's mistake:
// the framework's error reading it is reported, not the user-facing one
// asking to set an attribute that is not there.
func TestSwitchRequiresConfig_unknownConfigName(t *testing.T) {
	config := testConfig(t, map[string]tftypes.Value{"translation": frameworktest.Bool(true)})
	diags := validateAt(t, SwitchRequiresConfig("no_such_config", "target_languages"), path.Root("translation"), config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "no_such_config")
	if got := diags.Errors()[0].Summary(); got == "translation = true needs no_such_config" {
		t.Errorf("reported as the user's missing configuration: %v", diags.Errors()[0])
	}
}

// Inside an object, the switch's sibling configuration is read, not the
// configuration of the same name at the root.
func TestSwitchRequiresConfig_nested(t *testing.T) {
	options := testObject(t, "options", map[string]tftypes.Value{"translation": frameworktest.Bool(true)})
	rootConfig := testObject(t, "translation_config", map[string]tftypes.Value{"target_languages": frameworktest.Strings("de")})
	config := testConfig(t, map[string]tftypes.Value{"options": options, "translation_config": rootConfig})
	diags := validateAt(t, SwitchRequiresConfig("translation_config", "target_languages"), path.Root("options").AtName("translation"), config)
	frameworktest.CheckDiagnostics(t, diags.Errors(), "The service needs target_languages in options.translation_config")
}
