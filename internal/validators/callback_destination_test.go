package validators

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestCallbackDestination(t *testing.T) {
	hook := testObject(t, "callback_config", map[string]tftypes.Value{"url": frameworktest.String("https://hooks.example.com/x")})
	noConfig := tftypes.NewValue(hook.Type(), nil)
	noURL := tftypes.NewValue(tftypes.String, nil)
	tests := map[string]struct {
		callback  types.Bool
		config    tftypes.Value
		url       tftypes.Value
		wantError string
	}{
		"config":           {callback: types.BoolValue(true), config: hook, url: noURL},
		"legacy URL":       {callback: types.BoolValue(true), config: noConfig, url: frameworktest.String("https://hooks.example.com/y")},
		"nowhere":          {callback: types.BoolValue(true), config: noConfig, url: noURL, wantError: "Attribute callback is true, but there is nowhere to deliver the result"},
		"config unknown":   {callback: types.BoolValue(true), config: tftypes.NewValue(hook.Type(), tftypes.UnknownValue), url: noURL},
		"URL unknown":      {callback: types.BoolValue(true), config: noConfig, url: tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
		"off":              {callback: types.BoolValue(false), config: noConfig, url: noURL},
		"off with config":  {callback: types.BoolValue(false), config: hook, url: noURL},
		"off with legacy":  {callback: types.BoolValue(false), config: noConfig, url: frameworktest.String("https://hooks.example.com/y")},
		"callback unknown": {callback: types.BoolUnknown(), config: noConfig, url: noURL},
		"callback null":    {callback: types.BoolNull(), config: hook, url: noURL},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			callbackValue, err := tc.callback.ToTerraformValue(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			config := testConfig(t, map[string]tftypes.Value{"callback": callbackValue, "callback_config": tc.config, "callback_url": tc.url})
			diags := validate(CallbackDestination(), path.Root("callback"), tc.callback, config)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
		})
	}
}

// A schema without callback_config or callback_url is the provider's
// mistake: the error reading it is reported, not the user's missing URL.
func TestCallbackDestination_schemaWithoutDestination(t *testing.T) {
	s := schema.Schema{Attributes: map[string]schema.Attribute{"callback": schema.BoolAttribute{Optional: true}}}
	config := frameworktest.Config(t, s, map[string]tftypes.Value{"callback": frameworktest.Bool(true)})
	diags := validate(CallbackDestination(), path.Root("callback"), types.BoolValue(true), config)
	if !diags.HasError() {
		t.Fatal("no error reading an attribute the schema lacks")
	}
	for _, d := range diags.Errors() {
		if d.Summary() == "Callback without a destination" {
			t.Errorf("reported as the user's mistake: %s", d.Detail())
		}
	}
}
