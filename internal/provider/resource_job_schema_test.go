package provider

import (
	"context"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestJobSchema_valid(t *testing.T) {
	resourceSchema(t, NewJobResource())
}

// The configurable attributes are the request's fields and the
// provider-side settings, and none carries a RequiresReplace plan modifier:
// replacement is planReplacement's alone. (TestProviderSchemas_described
// checks the descriptions.)
func TestJobSchema_configurableAndReplacement(t *testing.T) {
	s := jobSchema(context.Background())
	providerSide := map[string]bool{"wait_for_completion": true, "include_transcript": true, "include_raw_result": true, "recreate_when_missing": true, "timeouts": true}
	requestField := map[string]bool{}
	for _, name := range requestFieldNames() {
		requestField[name] = true
	}
	for name, a := range s.Attributes {
		if configurable := a.IsOptional() || a.IsRequired(); configurable != (providerSide[name] || requestField[name]) {
			t.Errorf("%s: configurable %t, but a request field %t, a provider-side setting %t", name, configurable, requestField[name], providerSide[name])
		}
		if hasRequiresReplace(a) {
			t.Errorf("%s has a RequiresReplace plan modifier: replacement is planReplacement's alone", name)
		}
	}
	if len(requestField) != 27 {
		t.Errorf("%d request fields, want the spec's 27", len(requestField))
	}
	if !s.Attributes["callback_url"].(schema.StringAttribute).Sensitive ||
		!s.Attributes["callback_config"].(schema.SingleNestedAttribute).Attributes["url"].IsSensitive() {
		t.Error("callback URLs must be sensitive")
	}
	// OpenTofu 1.12 warns of every value derived from an attribute with a
	// DeprecationMessage, a whole job that never set it included: the
	// deprecation warning is callback_url's validator's.
	if s.Attributes["callback_url"].GetDeprecationMessage() != "" {
		t.Error("callback_url has a DeprecationMessage: OpenTofu would warn of every reference to a job")
	}
}

func hasRequiresReplace(a schema.Attribute) bool {
	ctx := context.Background()
	var descriptions []string
	switch a := a.(type) {
	case schema.StringAttribute:
		for _, m := range a.PlanModifiers {
			descriptions = append(descriptions, m.Description(ctx))
		}
	case schema.BoolAttribute:
		for _, m := range a.PlanModifiers {
			descriptions = append(descriptions, m.Description(ctx))
		}
	case schema.MapAttribute:
		for _, m := range a.PlanModifiers {
			descriptions = append(descriptions, m.Description(ctx))
		}
	case schema.SingleNestedAttribute:
		for _, m := range a.PlanModifiers {
			descriptions = append(descriptions, m.Description(ctx))
		}
	}
	for _, d := range descriptions {
		if strings.Contains(d, "destroy and recreate") || strings.Contains(d, "force replacement") {
			return true
		}
	}
	return false
}

// testJobConfig is a transcription_job configuration holding values at the
// top level, every other attribute null.
func testJobConfig(t *testing.T, values map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	return frameworktest.Config(t, jobSchema(context.Background()), values)
}

// testObject is the value of the job's object attribute name, holding
// values, every other attribute null.
func testObject(t *testing.T, name string, values map[string]tftypes.Value) tftypes.Value {
	t.Helper()
	return frameworktest.Object(t, jobAttrTypes()[name], values)
}

// A vocabulary value is blank for the plan exactly when it is for the
// service, which trims white space as Unicode defines it: anything the
// validator lets through must not be refused after the job is billed.
func TestNotBlankPattern_isTheServicesRule(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		if got, want := notBlankPattern.MatchString(string(r)), !unicode.IsSpace(r); got != want {
			t.Errorf("%U: not blank = %v, the service's strings.TrimSpace says %v", r, got, want)
		}
	}
}

// TestJobSchema_configWithoutItsSwitchWarns: the service uses each
// configuration object below only when its switch is true, so setting one
// without the switch warns that it has no effect (a user who forgot the
// switch would otherwise pay for a job without the feature), and with the
// switch on it does not. Every *_config but language_config has a switch.
func TestJobSchema_configWithoutItsSwitchWarns(t *testing.T) {
	ctx := context.Background()
	h := newProtoHarness(t, fakeserver.Options{})
	typ := h.resourceType(jobResourceTypeName)
	configs := map[string]struct {
		switchName string
		values     map[string]tftypes.Value
	}{
		"custom_vocabulary_config": {"custom_vocabulary", map[string]tftypes.Value{"vocabulary": vocabularyValue(t, map[string]tftypes.Value{"value": frameworktest.String("Kubernetes")})}},
		"callback_config":          {"callback", map[string]tftypes.Value{"url": frameworktest.String("https://hooks.example.com/x")}},
		"subtitles_config":         {"subtitles", nil},
		"diarization_config":       {"diarization", nil},
		"translation_config":       {"translation", map[string]tftypes.Value{"target_languages": frameworktest.Strings("de")}},
		"summarization_config":     {"summarization", nil},
		"custom_spelling_config": {"custom_spelling", map[string]tftypes.Value{
			"spelling_dictionary": tftypes.NewValue(tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.String}}, map[string]tftypes.Value{"SQL": frameworktest.Strings("sequel")}),
		}},
		"audio_to_llm_config":  {"audio_to_llm", map[string]tftypes.Value{"prompts": frameworktest.Strings("Summarize")}},
		"pii_redaction_config": {"pii_redaction", nil},
	}
	for name := range jobSchema(ctx).Attributes {
		if _, ok := configs[name]; !ok && strings.HasSuffix(name, "_config") && name != "language_config" {
			t.Errorf("%s is not checked", name)
		}
	}
	for name, c := range configs {
		for _, on := range []bool{false, true} {
			attrs := map[string]tftypes.Value{"audio_url": frameworktest.String(shortAudio), name: testObject(t, name, c.values)}
			if on {
				attrs[c.switchName] = frameworktest.Bool(true)
			}
			dv := dynamicValue(t, typ, objectValue(typ, attrs))
			resp, err := h.server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: &dv})
			if err != nil {
				t.Fatal(err)
			}
			failOnDiagnostics(t, "ValidateResourceConfig", resp.Diagnostics)
			if warned := hasWarning(resp.Diagnostics, name+" is ignored unless "+c.switchName+" is true", c.switchName+" = true"); warned == on {
				t.Errorf("%s with %s = %t: warned that it is ignored: %t", name, c.switchName, on, warned)
			}
		}
	}
}
