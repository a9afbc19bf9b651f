package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestModelThreeLanguage(t *testing.T) {
	languages := func(v tftypes.Value) tftypes.Value {
		return testObject(t, "language_config", map[string]tftypes.Value{"languages": v})
	}
	tests := map[string]struct {
		model     tftypes.Value
		language  tftypes.Value
		wantError string
		wantPath  path.Path // where the error is, when given
	}{
		"one language":           {model: frameworktest.String("model-3"), language: languages(frameworktest.Strings("it"))},
		"two languages":          {model: frameworktest.String("model-3"), language: languages(frameworktest.Strings("en", "fr")), wantError: `language_config.languages must hold exactly one language when model = "model-3", got 2`, wantPath: path.Root("language_config").AtName("languages")},
		"empty list":             {model: frameworktest.String("model-3"), language: languages(frameworktest.Strings()), wantError: "got 0"},
		"no language list":       {model: frameworktest.String("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)), wantError: "got 0"},
		"no language_config":     {model: frameworktest.String("model-3"), language: tftypes.NewValue(testObject(t, "language_config", nil).Type(), nil), wantError: "language_config is not set", wantPath: path.Root("language_config")},
		"other language":         {model: frameworktest.String("model-3"), language: languages(frameworktest.Strings("ja")), wantError: `language_config.languages[0] must be one of en, fr, de, es, it when model = "model-3", got: "ja"`, wantPath: path.Root("language_config").AtName("languages").AtListIndex(0)},
		"unknown code":           {model: frameworktest.String("model-3"), language: languages(frameworktest.Strings("xx"))}, // the attribute's own validator reports it
		"code switching":         {model: frameworktest.String("model-3"), language: testObject(t, "language_config", map[string]tftypes.Value{"languages": frameworktest.Strings("en"), "code_switching": frameworktest.Bool(true)}), wantError: "language_config.code_switching must not be true", wantPath: path.Root("language_config").AtName("code_switching")},
		"code switching off":     {model: frameworktest.String("model-3"), language: testObject(t, "language_config", map[string]tftypes.Value{"languages": frameworktest.Strings("en"), "code_switching": frameworktest.Bool(false)})},
		"code switching unknown": {model: frameworktest.String("model-3"), language: testObject(t, "language_config", map[string]tftypes.Value{"languages": frameworktest.Strings("en"), "code_switching": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)})},
		"model-1 two":            {model: frameworktest.String("model-1"), language: languages(frameworktest.Strings("en", "fr"))},
		"model omitted":          {model: tftypes.NewValue(tftypes.String, nil), language: languages(frameworktest.Strings("en", "fr"))},
		"model unknown":          {model: tftypes.NewValue(tftypes.String, tftypes.UnknownValue), language: languages(frameworktest.Strings("en", "fr"))},
		"languages unknown":      {model: frameworktest.String("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue))},
		"language unknown":       {model: frameworktest.String("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}))},
		"config unknown":         {model: frameworktest.String("model-3"), language: tftypes.NewValue(testObject(t, "language_config", nil).Type(), tftypes.UnknownValue)},
		"unknown second item":    {model: frameworktest.String("model-3"), language: languages(tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{frameworktest.String("en"), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})), wantError: "got 2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testConfig(t, map[string]tftypes.Value{"model": tc.model, "language_config": tc.language})
			resp := &resource.ValidateConfigResponse{}
			ModelThreeLanguage().ValidateResource(context.Background(), resource.ValidateConfigRequest{Config: config}, resp)
			frameworktest.CheckDiagnostics(t, resp.Diagnostics.Errors(), tc.wantError)
			if len(tc.wantPath.Steps()) > 0 {
				if d, ok := resp.Diagnostics.Errors()[0].(diag.DiagnosticWithPath); !ok || !d.Path().Equal(tc.wantPath) {
					t.Errorf("error at %v, want at %s", resp.Diagnostics.Errors()[0], tc.wantPath)
				}
			}
		})
	}
}

// transcription_transcribe's configuration is checked as the resource's.
func TestModelThreeLanguage_action(t *testing.T) {
	config := testConfig(t, map[string]tftypes.Value{
		"model":           frameworktest.String("model-3"),
		"language_config": testObject(t, "language_config", map[string]tftypes.Value{"languages": frameworktest.Strings("en", "fr")}),
	})
	resp := &action.ValidateConfigResponse{}
	ModelThreeLanguage().ValidateAction(context.Background(), action.ValidateConfigRequest{Config: config}, resp)
	frameworktest.CheckDiagnostics(t, resp.Diagnostics.Errors(), "must hold exactly one language")
}

// A schema without an attribute the validator reads is the provider's
// mistake: the error reading it is reported, not a rule the user broke.
func TestModelThreeLanguage_schemaWithout(t *testing.T) {
	for name, s := range map[string]schema.Schema{
		"language_config": {Attributes: map[string]schema.Attribute{"model": schema.StringAttribute{Optional: true}}},
		"languages": {Attributes: map[string]schema.Attribute{
			"model":           schema.StringAttribute{Optional: true},
			"language_config": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{"code_switching": schema.BoolAttribute{Optional: true}}},
		}},
	} {
		t.Run(name, func(t *testing.T) {
			values := map[string]tftypes.Value{"model": frameworktest.String("model-3")}
			if lc, ok := s.Attributes["language_config"]; ok {
				values["language_config"] = frameworktest.Object(t, lc.GetType(), nil)
			}
			resp := &resource.ValidateConfigResponse{}
			ModelThreeLanguage().ValidateResource(context.Background(), resource.ValidateConfigRequest{Config: frameworktest.Config(t, s, values)}, resp)
			if !resp.Diagnostics.HasError() {
				t.Fatal("no error reading an attribute the schema lacks")
			}
			for _, d := range resp.Diagnostics.Errors() {
				if strings.HasPrefix(d.Summary(), "model-3") {
					t.Errorf("reported as the user's mistake: %s: %s", d.Summary(), d.Detail())
				}
			}
		})
	}
}
