package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestModelThreeLanguage(t *testing.T) {
	languages := func(v tftypes.Value) tftypes.Value {
		return testObject(t, "language_config", map[string]tftypes.Value{"languages": v})
	}
	tests := map[string]struct {
		model     tftypes.Value
		language  tftypes.Value
		wantError string
	}{
		"one language":        {model: tfString("model-3"), language: languages(tfStrings("it"))},
		"two languages":       {model: tfString("model-3"), language: languages(tfStrings("en", "fr")), wantError: `language_config.languages must hold exactly one language when model = "model-3", got 2`},
		"empty list":          {model: tfString("model-3"), language: languages(tfStrings()), wantError: "got 0"},
		"no language list":    {model: tfString("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)), wantError: "got 0"},
		"no language_config":  {model: tfString("model-3"), language: tftypes.NewValue(jobAttrTypes()["language_config"].TerraformType(context.Background()), nil), wantError: "language_config is not set"},
		"other language":      {model: tfString("model-3"), language: languages(tfStrings("ja")), wantError: `language_config.languages[0] must be one of en, fr, de, es, it when model = "model-3", got: "ja"`},
		"unknown code":        {model: tfString("model-3"), language: languages(tfStrings("xx"))}, // the attribute's own validator reports it
		"code switching":      {model: tfString("model-3"), language: testObject(t, "language_config", map[string]tftypes.Value{"languages": tfStrings("en"), "code_switching": tfBool(true)}), wantError: "language_config.code_switching must not be true"},
		"model-1 two":         {model: tfString("model-1"), language: languages(tfStrings("en", "fr"))},
		"model omitted":       {model: tftypes.NewValue(tftypes.String, nil), language: languages(tfStrings("en", "fr"))},
		"model unknown":       {model: tftypes.NewValue(tftypes.String, tftypes.UnknownValue), language: languages(tfStrings("en", "fr"))},
		"languages unknown":   {model: tfString("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue))},
		"language unknown":    {model: tfString("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}))},
		"config unknown":      {model: tfString("model-3"), language: tftypes.NewValue(jobAttrTypes()["language_config"].TerraformType(context.Background()), tftypes.UnknownValue)},
		"unknown second item": {model: tfString("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfString("en"), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})), wantError: "got 2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testJobConfig(t, map[string]tftypes.Value{"model": tc.model, "language_config": tc.language})
			resp := &resource.ValidateConfigResponse{}
			modelThreeLanguageValidator{}.ValidateResource(context.Background(), resource.ValidateConfigRequest{Config: config}, resp)
			checkDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
		})
	}
}
