package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestCallbackDestination(t *testing.T) {
	hook := testObject(t, "callback_config", map[string]tftypes.Value{"url": tfString("https://hooks.example.com/x")})
	noConfig := tftypes.NewValue(hook.Type(), nil)
	noURL := tftypes.NewValue(tftypes.String, nil)
	tests := map[string]struct {
		callback  types.Bool
		config    tftypes.Value
		url       tftypes.Value
		wantError string
		// delivers is what callbackTargets.delivers reports (zero data retention).
		delivers, known bool
	}{
		"config":           {callback: types.BoolValue(true), config: hook, url: noURL, delivers: true, known: true},
		"legacy URL":       {callback: types.BoolValue(true), config: noConfig, url: tfString("https://hooks.example.com/y"), delivers: true, known: true},
		"nowhere":          {callback: types.BoolValue(true), config: noConfig, url: noURL, wantError: "Attribute callback is true, but there is nowhere to deliver the result", known: true},
		"config unknown":   {callback: types.BoolValue(true), config: tftypes.NewValue(hook.Type(), tftypes.UnknownValue), url: noURL},
		"URL unknown":      {callback: types.BoolValue(true), config: noConfig, url: tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
		"off":              {callback: types.BoolValue(false), config: noConfig, url: noURL, known: true},
		"off with config":  {callback: types.BoolValue(false), config: hook, url: noURL, known: true},
		"off with legacy":  {callback: types.BoolValue(false), config: noConfig, url: tfString("https://hooks.example.com/y"), delivers: true, known: true},
		"callback unknown": {callback: types.BoolUnknown(), config: noConfig, url: noURL},
		"callback null":    {callback: types.BoolNull(), config: hook, url: noURL, known: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			callbackValue, err := tc.callback.ToTerraformValue(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			config := testJobConfig(t, map[string]tftypes.Value{"callback": callbackValue, "callback_config": tc.config, "callback_url": tc.url})
			resp := &validator.BoolResponse{}
			callbackDestination().ValidateBool(context.Background(), validator.BoolRequest{Path: path.Root("callback"), ConfigValue: tc.callback, Config: config}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)

			targets, diags := readCallbackTargets(context.Background(), config)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if delivers, known := targets.delivers(); delivers != tc.delivers || known != tc.known {
				t.Errorf("delivers() = %t, %t; want %t, %t", delivers, known, tc.delivers, tc.known)
			}
		})
	}
}
