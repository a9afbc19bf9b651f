package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

// testAccProcessingTime keeps jobs short: the provider's first polls are
// sub-second, so a job ends within a second of its creation.
const testAccProcessingTime = 300 * time.Millisecond

// jobRule is a plan-time rule: a configuration that breaks it and what the
// error must say (the attribute and the rule).
type jobRule struct {
	name     string
	audioURL string // ruleAudioURL unless set
	body     string // the resource's body besides audio_url
	expect   string
	zdr      bool // with zero_data_retention on the provider
}

const ruleAudioURL = "https://example.com/a.wav"

// configRule is a rule broken by a feature's configuration: feature = true
// with feature_config = { config }.
func configRule(name, feature, config, expect string) jobRule {
	return jobRule{name: name, body: fmt.Sprintf("%s = true\n%s_config = { %s }", feature, feature, config), expect: expect}
}

// config is the rule's resource block.
func (r jobRule) config() string {
	audio := r.audioURL
	if audio == "" {
		audio = ruleAudioURL
	}
	return acctest.JobConfig("rule", fmt.Sprintf("audio_url = %q\n%s", audio, r.body))
}

// callbackConfigURLMissing is the refusal of a new job whose
// callback_config has no url.
const callbackConfigURLMissing = `(?s)Missing callback_config.url for a new job.*callback_config.url is required for a new job.*left out only for an existing job, which keeps its own`

var jobRules = []jobRule{
	// Enumerations.
	{name: "model", body: `model = "model-2"`, expect: `(?s)Attribute model value must be one of.*"model-fusion".*got: "model-2"`},
	configRule("subtitle format", "subtitles", `formats = ["ass"]`, `(?s)subtitles_config.formats\[0\].*must be one of.*"srt".*"vtt"`),
	configRule("subtitle style", "subtitles", `style = "fancy"`, `(?s)subtitles_config.style value must be one of.*"compliance".*got: "fancy"`),
	configRule("callback method", "callback", `url = "https://hooks.example.com/x", method = "GET"`, `(?s)callback_config.method value must be one of.*"PUT".*got: "GET"`),
	configRule("translation model", "translation", `target_languages = ["de"], model = "turbo"`, `(?s)translation_config.model value must be one of.*"enhanced".*got: "turbo"`),
	configRule("summary type", "summarization", `type = "long"`, `(?s)summarization_config.type value must be one of.*"bullet_points".*got: "long"`),
	configRule("processed text type", "pii_redaction", `processed_text_type = "BLUR"`, `(?s)pii_redaction_config.processed_text_type value must be one.*"MASK".*got: "BLUR"`),
	configRule("PII entity type", "pii_redaction", `entity_types = ["NAME", "SECRET"]`, `(?s)pii_redaction_config.entity_types\[1\].*must be one of.*"ZODIAC_SIGN".*got: "SECRET"`),
	// Language lists: wo is a translation target only.
	{name: "transcription language", body: `language_config = { languages = ["en", "wo"] }`, expect: `(?s)language_config.languages\[1\].*must be one of.*got: "wo".*"wo" is a translation target only`},
	{name: "language in capitals", body: `language_config = { languages = ["EN"] }`, expect: `(?s)language_config.languages\[0\].*must be one of.*got: "EN".*Codes are written in lowercase: "en"`},
	configRule("vocabulary language", "custom_vocabulary", `vocabulary = [{ value = "Kubernetes", language = "wo" }]`, `(?s)custom_vocabulary_config.vocabulary\[0\].language value must be one of.*got: "wo"`),
	configRule("translation language", "translation", `target_languages = ["xx"]`, `(?s)translation_config.target_languages\[0\].*must be one of.*"wo".*got: "xx"`),
	// Bounds and list sizes of the Limits table.
	configRule("no subtitle format", "subtitles", `formats = []`, `(?s)subtitles_config.formats list must contain at least 1 elements`),
	configRule("minimum duration", "subtitles", `minimum_duration = -0.5`, `(?s)subtitles_config.minimum_duration value must be at least 0, got: -0.5`),
	configRule("maximum duration low", "subtitles", `maximum_duration = 0.5`, `(?s)subtitles_config.maximum_duration value must be between 1 and 30, got: 0.5`),
	configRule("maximum duration high", "subtitles", `maximum_duration = 30.5`, `(?s)subtitles_config.maximum_duration value must be between 1 and 30, got: 30.5`),
	configRule("characters per row", "subtitles", `maximum_characters_per_row = 0`, `(?s)subtitles_config.maximum_characters_per_row value must be at least 1, got: 0`),
	configRule("rows per caption low", "subtitles", `maximum_rows_per_caption = 0`, `(?s)subtitles_config.maximum_rows_per_caption value must be between 1 and 5, got: 0`),
	configRule("rows per caption high", "subtitles", `maximum_rows_per_caption = 6`, `(?s)subtitles_config.maximum_rows_per_caption value must be between 1 and 5, got: 6`),
	configRule("number of speakers", "diarization", `number_of_speakers = 0`, `(?s)diarization_config.number_of_speakers value must be at least 1, got: 0`),
	configRule("min speakers", "diarization", `min_speakers = -1`, `(?s)diarization_config.min_speakers value must be at least 0, got: -1`),
	configRule("max speakers", "diarization", `max_speakers = -1`, `(?s)diarization_config.max_speakers value must be at least 0, got: -1`),
	configRule("default intensity", "custom_vocabulary", `vocabulary = [{ value = "Kubernetes" }], default_intensity = 1.5`, `(?s)custom_vocabulary_config.default_intensity value must be between 0 and 1, got: 1.5`),
	configRule("intensity", "custom_vocabulary", `vocabulary = [{ value = "Kubernetes", intensity = -0.1 }]`, `(?s)custom_vocabulary_config.vocabulary\[0\].intensity value must be between 0 and 1, got: -0.1`),
	configRule("no target language", "translation", `target_languages = []`, `(?s)translation_config.target_languages list must contain at least 1 elements`),
	configRule("no prompt", "audio_to_llm", `prompts = []`, `(?s)audio_to_llm_config.prompts list must contain at least 1 elements`),
	configRule("LLM model form", "audio_to_llm", `prompts = ["Summarize"], model = "gpt-4o"`, `(?s)audio_to_llm_config.model must have the form <provider>/<model_name>`),
	// URLs.
	{name: "audio URL", audioURL: "example.com/a.wav", expect: `(?s)Attribute audio_url value must be an absolute http or https URL`},
	{name: "audio URL with a space", audioURL: "https://example.com/My Recording.wav", expect: `(?s)Attribute audio_url value must be an absolute http or https URL.*holds white space`},
	{name: "audio URL without host name", audioURL: "https://:8080/a.wav", expect: `(?s)Attribute audio_url value must be an absolute http or https URL.*it has no host`},
	configRule("callback config URL", "callback", `url = "ftp://hooks.example.com/x?token=s3cr3t"`, `(?s)Attribute callback_config.url value must be an absolute http or https URL.*value not shown`),
	{name: "callback URL", body: `callback_url = "/hooks/x"`, expect: `(?s)Attribute callback_url value must be an absolute http or https URL`},
	// Required sub-fields.
	// A new job's callback_config needs its url, the switch on or off (the
	// service checks the object it is sent); an existing job's is kept.
	configRule("callback config without URL", "callback", `method = "PUT"`, callbackConfigURLMissing),
	{name: "ignored callback config without URL", body: `callback_config = { method = "PUT" }`, expect: callbackConfigURLMissing},
	configRule("vocabulary missing", "custom_vocabulary", `default_intensity = 0.5`, `(?s)attribute "vocabulary" is required`),
	configRule("vocabulary value missing", "custom_vocabulary", `vocabulary = [{ intensity = 0.5 }]`, `(?s)Missing Configuration for Required Attribute.*custom_vocabulary_config.vocabulary\[0\].value attribute`),
	configRule("vocabulary value blank", "custom_vocabulary", `vocabulary = [{ value = "  " }]`, `(?s)custom_vocabulary_config.vocabulary\[0\].value must not be empty or blank, got: "\s*"`),
	// Blank texts that ask the service for nothing, billed all the same.
	configRule("prompt blank", "audio_to_llm", `prompts = ["Summarize", " "]`, `(?s)audio_to_llm_config.prompts\[1\] must not be empty or blank, got: " "`),
	configRule("pronunciation blank", "custom_vocabulary", `vocabulary = [{ value = "Kube", pronunciations = ["koob", ""] }]`, `(?s)custom_vocabulary_config.vocabulary\[0\].pronunciations\[1\] must not be empty or blank, got: ""`),
	configRule("spelling blank", "custom_spelling", `spelling_dictionary = { Acme = ["acme", "  "] }`, `(?s)custom_spelling_config.spelling_dictionary\["Acme"\]\[1\] must not be empty or blank, got: "  "`),
	configRule("target languages missing", "translation", `model = "base"`, `(?s)attribute "target_languages" is required`),
	configRule("prompts missing", "audio_to_llm", `model = "openai/gpt-4o-mini"`, `(?s)attribute "prompts" is required`),
	{name: "spelling dictionary missing", body: `custom_spelling = true
custom_spelling_config = {}`, expect: `(?s)attribute "spelling_dictionary" is required`},
	// A switch without the configuration holding its required fields.
	{name: "translation without config", body: `translation = true`, expect: `(?s)translation = true needs translation_config.*needs target_languages in translation_config`},
	{name: "audio-to-LLM without config", body: `audio_to_llm = true`, expect: `(?s)audio_to_llm = true needs audio_to_llm_config.*needs prompts`},
	{name: "custom vocabulary without config", body: `custom_vocabulary = true`, expect: `(?s)custom_vocabulary = true needs custom_vocabulary_config.*needs vocabulary`},
	{name: "custom spelling without config", body: `custom_spelling = true`, expect: `(?s)custom_spelling = true needs custom_spelling_config.*needs spelling_dictionary`},
	// A required field that asks the feature for nothing, as leaving it out.
	configRule("vocabulary empty", "custom_vocabulary", `vocabulary = []`, `(?s)custom_vocabulary = true needs entries in custom_vocabulary_config.vocabulary.*asks the feature for nothing`),
	configRule("spelling dictionary empty", "custom_spelling", `spelling_dictionary = {}`, `(?s)custom_spelling = true needs entries in custom_spelling_config.spelling_dictionary`),
	configRule("spelling dictionary without spellings", "custom_spelling", `spelling_dictionary = { Gettleman = [] }`, `(?s)custom_spelling = true needs entries in custom_spelling_config.spelling_dictionary`),
	// Duplicates, where each value may appear once.
	{name: "duplicate language", body: `language_config = { languages = ["en", "fr", "en"] }`, expect: `(?s)language_config.languages lists "en" more than once`},
	configRule("duplicate format", "subtitles", `formats = ["srt", "srt"]`, `(?s)subtitles_config.formats lists "srt" more than once`),
	configRule("duplicate target", "translation", `target_languages = ["de", "de"]`, `(?s)translation_config.target_languages lists "de" more than once`),
	configRule("duplicate entity type", "pii_redaction", `entity_types = ["NAME", "NAME"]`, `(?s)pii_redaction_config.entity_types lists "NAME" more than once`),
	configRule("duplicate spelling", "custom_spelling", `spelling_dictionary = { SQL = ["sequel", "sequel"] }`, `(?s)custom_spelling_config.spelling_dictionary\["SQL"\] lists "sequel" more than once`),
	// Null elements, refused at plan: the service has no null to receive.
	{name: "null language", body: `language_config = { languages = ["en", null] }`, expect: nullElement("language_config.languages", "its element 1")},
	configRule("null vocabulary entry", "custom_vocabulary", `vocabulary = [null]`, nullElement("custom_vocabulary_config.vocabulary", "its element 0")),
	configRule("null pronunciation", "custom_vocabulary", `vocabulary = [{ value = "Helm", pronunciations = [null] }]`, nullElement(`custom_vocabulary_config.vocabulary\[0\].pronunciations`, "its element 0")),
	configRule("null subtitle format", "subtitles", `formats = ["srt", null]`, nullElement("subtitles_config.formats", "its element 1")),
	configRule("null target language", "translation", `target_languages = [null]`, nullElement("translation_config.target_languages", "its element 0")),
	configRule("null spelling list", "custom_spelling", `spelling_dictionary = { SQL = null }`, nullElement("custom_spelling_config.spelling_dictionary", `the value of "SQL"`)),
	configRule("null spelling", "custom_spelling", `spelling_dictionary = { SQL = ["sequel", null] }`, nullElement(`custom_spelling_config.spelling_dictionary\["SQL"\]`, "its element 1")),
	configRule("null prompt", "audio_to_llm", `prompts = [null]`, nullElement("audio_to_llm_config.prompts", "its element 0")),
	configRule("null entity type", "pii_redaction", `entity_types = [null]`, nullElement("pii_redaction_config.entity_types", "its element 0")),
	{name: "null metadata", body: `custom_metadata = { team = "a", queue = null }`, expect: nullElement("custom_metadata", `the value of "queue"`)},
	// Timeouts.
	{name: "zero timeout", body: `timeouts = { create = "0s" }`, expect: `(?s)Timeout must be greater than zero.*timeouts.create is "0s"`},
	{name: "negative timeout", body: `timeouts = { delete = "-5m" }`, expect: `(?s)Timeout must be greater than zero.*timeouts.delete is "-5m"`},
	// Cross-field rules.
	{name: "model-3 two languages", body: `model = "model-3"
language_config = { languages = ["en", "fr"] }`, expect: `(?s)language_config.languages must hold exactly one language when model = "model-3", got 2`},
	{name: "model-3 no language", body: `model = "model-3"`, expect: `(?s)model = "model-3" needs exactly one language in language_config.languages`},
	{name: "model-3 language", body: `model = "model-3"
language_config = { languages = ["ja"] }`, expect: `(?s)language_config.languages\[0\] must be one of en, fr, de, es, it when model = "model-3", got: "ja"`},
	{name: "model-3 code switching", body: `model = "model-3"
language_config = { languages = ["en"], code_switching = true }`, expect: `(?s)language_config.code_switching must not be true when model = "model-3"`},
	// Numbers an integer attribute cannot hold: the attribute and the rule,
	// not the framework's "Configuration Read Error ... an error in the
	// provider" naming the enclosing object.
	configRule("fractional speakers", "diarization", `number_of_speakers = 2.5`, `(?s)Invalid Whole Number.*Attribute diarization_config.number_of_speakers must be a whole number, got: 2.5`),
	configRule("rows beyond int64", "subtitles", `maximum_rows_per_caption = 1e20`, `(?s)Invalid Whole Number.*subtitles_config.maximum_rows_per_caption must be a whole number from -9223372036854775808 to 9223372036854775807, got: 100000000000000000000`),
	// Numbers no 64-bit float holds, the same way.
	configRule("intensity nearer zero than a float", "custom_vocabulary", `vocabulary = [{ value = "a" }], default_intensity = 1e-400`, `(?s)Invalid Number.*Attribute custom_vocabulary_config.default_intensity must be 0 or a number of magnitude from 4.9e-324 to 1.8e\+308 \(a 64-bit float\), got: 1e-400`),
	configRule("duration beyond a float", "subtitles", `maximum_duration = 1e400`, `(?s)Invalid Number.*Attribute subtitles_config.maximum_duration must be 0 or a number of magnitude from 4.9e-324 to 1.8e\+308 \(a 64-bit float\), got: 1e\+400`),
	configRule("min speakers above max", "diarization", `min_speakers = 4, max_speakers = 3`, `(?s)diarization_config.min_speakers must be at most diarization_config.max_speakers \(3\), got: 4`),
	configRule("minimum duration above maximum", "subtitles", `minimum_duration = 5.5, maximum_duration = 5`, `(?s)subtitles_config.minimum_duration must be at most subtitles_config.maximum_duration \(5\), got: 5.5`),
	{name: "callback without destination", body: `callback = true`, expect: `(?s)Attribute callback is true, but there is nowhere to deliver the result`},
	// Zero data retention.
	{name: "ZDR without callback", zdr: true, expect: `(?s)A callback is required under zero data retention`},
	{name: "ZDR with ignored callback config", zdr: true, body: `callback_config = { url = "https://hooks.example.com/x" }`, expect: `(?s)A callback is required under zero data retention`},
	{name: "ZDR callback config without URL", zdr: true, body: `callback = true
callback_config = { method = "PUT" }`, expect: callbackConfigURLMissing},
	{name: "ZDR waiting", zdr: true, body: `callback = true
callback_config = { url = "https://hooks.example.com/x" }
wait_for_completion = true`, expect: `(?s)Cannot wait for a job under zero data retention`},
}

// nullElement is the refusal of a null element of the attribute (a
// pattern) where which (its index or key) is null.
func nullElement(attribute, which string) string {
	return `(?s)Null element.*Attribute ` + attribute + ` must not hold null, and ` + which + ` is null`
}

// TestAccJob_validation proves each plan-time rule on the real CLI: every
// failing configuration is refused at plan, before any call to the service.
// The rules are split over parallel test cases to keep the run short.
func TestAccJob_validation(t *testing.T) {
	const shards = 3
	for shard := range shards {
		t.Run(fmt.Sprintf("shard%d", shard), func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{})
			var steps []resource.TestStep
			for i, rule := range jobRules {
				if i%shards != shard {
					continue
				}
				// A failure names its step by number only.
				t.Logf("step %d: %s", len(steps)+1, rule.name)
				provider := acctest.ProviderConfig(url)
				if rule.zdr {
					provider = acctest.ProviderConfig(url, "zero_data_retention = true")
				}
				steps = append(steps, resource.TestStep{
					Config:      provider + rule.config(),
					PlanOnly:    true,
					ExpectError: acctest.ExpectError(rule.expect),
				})
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps:                    steps,
				CheckDestroy:             acctest.JobsCreated(fs, 0),
			})
		})
	}
}

// TestAccJob_boundaries applies the boundary values every rule lets
// through: the plan accepts them and so does the service.
func TestAccJob_boundaries(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	config := acctest.ProviderConfig(url) +
		acctest.JobConfig("low", `audio_url = "http://example.com/low.wav"
language_config = { languages = [`+acctest.QuotedList(client.TranscriptionLanguages)+`] }
subtitles = true
subtitles_config = {
  formats                    = ["srt", "vtt"]
  minimum_duration           = 0
  maximum_duration           = 1
  maximum_characters_per_row = 1
  maximum_rows_per_caption   = 1
}
diarization = true
diarization_config = { number_of_speakers = 1, min_speakers = 0, max_speakers = 0 }
custom_vocabulary = true
custom_vocabulary_config = {
  vocabulary        = [{ value = "a", intensity = 0 }, { value = "b", intensity = 1, language = "haw" }]
  default_intensity = 0
}
translation = true
translation_config = { target_languages = ["wo", "af", "zh"] }
audio_to_llm = true
audio_to_llm_config = { prompts = ["One prompt"] }
pii_redaction = true
pii_redaction_config = { entity_types = [`+acctest.QuotedList(client.PIIEntityTypes)+`], processed_text_type = "MASK" }
wait_for_completion = false`) +
		acctest.JobConfig("high", `audio_url = "https://example.com/high.wav"
model = "model-3"
language_config = { languages = ["it"] }
subtitles = true
subtitles_config = { minimum_duration = 30, maximum_duration = 30, maximum_rows_per_caption = 5 }
diarization = true
diarization_config = { min_speakers = 7, max_speakers = 7 }
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "x" }], default_intensity = 1 }
callback = true
callback_url = "`+hooks+`/legacy"
wait_for_completion = false`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check:  acctest.JobsCreated(fs, 2),
		}},
	})
}

// TestAccJob_unknownValues plans configurations whose checked values are
// known only after apply: no rule may fail on them.
func TestAccJob_unknownValues(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	later := `
resource "terraform_data" "model" {
  input = "model-3"
}
resource "terraform_data" "flag" {
  input = true
}
resource "terraform_data" "number" {
  input = 3
}
resource "terraform_data" "url" {
  input = "https://hooks.example.com/x"
}
`
	body := `audio_url = "${terraform_data.url.output}/a.wav"
model = terraform_data.model.output
language_config = { languages = ["en", "fr"] }
subtitles = terraform_data.flag.output
subtitles_config = { minimum_duration = 29, maximum_duration = terraform_data.number.output }
diarization = true
diarization_config = { min_speakers = 5, max_speakers = terraform_data.number.output }
callback = terraform_data.flag.output
callback_url = terraform_data.url.output`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             acctest.ProviderConfig(url) + later + acctest.JobConfig("unknown", body),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// Under zero data retention the callback may come from elsewhere too.
				Config: acctest.ProviderConfig(url, "zero_data_retention = true") + later + acctest.JobConfig("unknown", `audio_url = "https://example.com/a.wav"
callback = true
callback_url = terraform_data.url.output`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccJob_vocabularyEntryKnownAtApply: a vocabulary entry known only
// after apply as a whole plans (the framework reads the required value of
// an unknown list element as null, see validators.RequiredInElement) and is sent as
// it turns out; one that turns out without its value is refused at apply,
// before any job is created.
func TestAccJob_vocabularyEntryKnownAtApply(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(entry string) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "entry" {
  input = %s
}
`, entry) + acctest.JobConfig("later", `audio_url = "https://example.com/later.wav"
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [terraform_data.entry.output] }`)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config(`{ intensity = 0.5 }`),
				ExpectError: acctest.ExpectError(`(?s)custom_vocabulary_config.vocabulary\[0\].value`),
			},
			{
				Config: config(`{ value = "Kubernetes", intensity = 0.5 }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("transcription_job.later", tfjsonpath.New("custom_vocabulary_config").AtMapKey("vocabulary").AtSliceIndex(0).AtMapKey("value"), knownvalue.StringExact("Kubernetes")),
				},
				Check: acctest.JobsCreated(fs, 1), // none for the entry without its value
			},
		},
	})
}

// callbackReceiver records the callbacks a test server receives.
type callbackReceiver struct {
	mu       sync.Mutex
	received []receivedCallback
}

type receivedCallback struct {
	method, path, query string
	body                client.CallbackBody
}

func newCallbackReceiver(t *testing.T) (*callbackReceiver, string) {
	t.Helper()
	rcv := &callbackReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body client.CallbackBody
		if err := json.Unmarshal(data, &body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rcv.mu.Lock()
		rcv.received = append(rcv.received, receivedCallback{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery, body: body})
		rcv.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return rcv, srv.URL
}

func (r *callbackReceiver) all() []receivedCallback {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]receivedCallback(nil), r.received...)
}

// TestAccJob_everything creates a job with every option on, checks that the
// service received exactly what the configuration says, that the result's
// summary is in state, that the callback arrived, that import rebuilds it
// all, and that include_transcript adds the transcript in place.
func TestAccJob_everything(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	rcv, hooks := newCallbackReceiver(t)
	const addr = "transcription_job.all"
	body := fmt.Sprintf(`audio_url = "https://media.example.com/interview.wav?duration=12.5&channels=2"
model     = "model-1"
language_config = {
  languages      = ["en", "fr"]
  code_switching = true
}
custom_vocabulary = true
custom_vocabulary_config = {
  vocabulary = [
    { value = "Kubernetes" },
    { value = "Terraform", intensity = 0.8, pronunciations = ["terra form"], language = "en" },
  ]
  default_intensity = 0.5
}
callback = true
callback_config = {
  url    = "%[1]s/hook?token=s3cr3t"
  method = "PUT"
}
callback_url = "%[1]s/legacy"
subtitles = true
subtitles_config = {
  formats                    = ["srt", "vtt"]
  minimum_duration           = 1
  maximum_duration           = 6.5
  maximum_characters_per_row = 42
  maximum_rows_per_caption   = 2
  style                      = "compliance"
}
diarization = true
diarization_config = {
  number_of_speakers = 2
  min_speakers       = 1
  max_speakers       = 3
}
translation = true
translation_config = {
  target_languages          = ["de", "wo"]
  model                     = "enhanced"
  match_original_utterances = false
  lipsync                   = false
  context_adaptation        = false
  context                   = "A technical interview"
  informal                  = true
}
summarization = true
summarization_config = { type = "bullet_points" }
named_entity_recognition = true
custom_spelling = true
custom_spelling_config = {
  spelling_dictionary = { "Gettleman" = ["gettleman", "getleman"] }
}
sentiment_analysis = true
audio_to_llm = true
audio_to_llm_config = {
  prompts = ["Summarize the key points", "List the action items"]
  model   = "openai/gpt-4o-mini"
}
pii_redaction = true
pii_redaction_config = {
  entity_types        = ["NAME", "EMAIL_ADDRESS"]
  processed_text_type = "MARKER"
}
custom_metadata = { team = "alpha", ticket = "T-42" }
sentences = true
punctuation_enhanced = true`, hooks)
	config := acctest.ProviderConfig(url) + acctest.JobConfig("all", body)

	wantBody := fmt.Sprintf(`{
  "audio_url": "https://media.example.com/interview.wav?duration=12.5&channels=2",
  "model": "model-1",
  "language_config": {"languages": ["en", "fr"], "code_switching": true},
  "custom_vocabulary": true,
  "custom_vocabulary_config": {
    "vocabulary": [
      {"value": "Kubernetes"},
      {"value": "Terraform", "intensity": 0.8, "pronunciations": ["terra form"], "language": "en"}
    ],
    "default_intensity": 0.5
  },
  "callback": true,
  "callback_config": {"url": "%[1]s/hook?token=s3cr3t", "method": "PUT"},
  "callback_url": "%[1]s/legacy",
  "subtitles": true,
  "subtitles_config": {"formats": ["srt", "vtt"], "minimum_duration": 1, "maximum_duration": 6.5,
    "maximum_characters_per_row": 42, "maximum_rows_per_caption": 2, "style": "compliance"},
  "diarization": true,
  "diarization_config": {"number_of_speakers": 2, "min_speakers": 1, "max_speakers": 3},
  "translation": true,
  "translation_config": {"target_languages": ["de", "wo"], "model": "enhanced", "match_original_utterances": false,
    "lipsync": false, "context_adaptation": false, "context": "A technical interview", "informal": true},
  "summarization": true,
  "summarization_config": {"type": "bullet_points"},
  "named_entity_recognition": true,
  "custom_spelling": true,
  "custom_spelling_config": {"spelling_dictionary": {"Gettleman": ["gettleman", "getleman"]}},
  "sentiment_analysis": true,
  "audio_to_llm": true,
  "audio_to_llm_config": {"prompts": ["Summarize the key points", "List the action items"], "model": "openai/gpt-4o-mini"},
  "pii_redaction": true,
  "pii_redaction_config": {"entity_types": ["NAME", "EMAIL_ADDRESS"], "processed_text_type": "MARKER"},
  "custom_metadata": {"team": "alpha", "ticket": "T-42"},
  "sentences": true,
  "punctuation_enhanced": true
}`, hooks)

	result := tfjsonpath.New("result")
	transcription := result.AtMapKey("transcription")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					checkCreateBodies(fs, wantBody),
					func(*terraform.State) error {
						fs.SettleJobs() // delivers the callbacks that are due
						got := rcv.all()
						if len(got) != 1 {
							return fmt.Errorf("callback receiver got %d callbacks, want 1 (to callback_config.url only)", len(got))
						}
						cb := got[0]
						if cb.method != http.MethodPut || cb.path != "/hook" || cb.query != "token=s3cr3t" || cb.body.Event != client.EventTranscriptionSuccess || cb.body.Payload == nil {
							return fmt.Errorf("callback: got %s %s?%s event %q, want PUT /hook?token=s3cr3t event %q with a payload", cb.method, cb.path, cb.query, cb.body.Event, client.EventTranscriptionSuccess)
						}
						return nil
					},
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f-]{36}$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result_url"), knownvalue.StringRegexp(regexp.MustCompile(`/v2/transcription/[0-9a-f-]{36}$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("error_code"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("request_id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("completed_at"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("filename"), knownvalue.StringExact("interview.wav")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("audio_duration"), knownvalue.Float64Exact(12.5)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("file").AtMapKey("number_of_channels"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("metadata").AtMapKey("audio_duration"), knownvalue.Float64Exact(12.5)),
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("languages"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("summarization").AtMapKey("results"), knownvalue.StringRegexp(regexp.MustCompile(`\w`))),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("audio_to_llm").AtMapKey("results"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("named_entity_recognition").AtMapKey("success"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("translation").AtMapKey("success"), knownvalue.Bool(true)),
					// Transcript-sized values only with include_transcript (last step).
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("full_transcript"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("utterances"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("subtitles"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("translation").AtMapKey("results"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("named_entity_recognition").AtMapKey("results"), knownvalue.Null()),
					statecheck.ExpectSensitiveValue(addr, tfjsonpath.New("callback_config").AtMapKey("url")),
					statecheck.ExpectSensitiveValue(addr, tfjsonpath.New("callback_url")),
				},
			},
			{
				// terraform import: every request attribute comes back from
				// request_params and custom_metadata.
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// An import block plans no change at all.
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				// include_transcript reads the transcript into state in place.
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("all", body+"\ninclude_transcript = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					// Only what the read adds is unknown: the rest of a
					// finished job's result is read again as it is.
					plancheck.ExpectUnknownValue(addr, transcription.AtMapKey("full_transcript")),
					plancheck.ExpectKnownValue(addr, result.AtMapKey("metadata").AtMapKey("audio_duration"), knownvalue.Float64Exact(12.5)),
				}},
				Check: acctest.JobsCreated(fs, 1), // include_transcript must not replace the job
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("full_transcript"), knownvalue.StringRegexp(regexp.MustCompile(`\w`))),
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("subtitles").AtMapKey("srt"), knownvalue.StringRegexp(regexp.MustCompile(`^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n`))),
					statecheck.ExpectKnownValue(addr, transcription.AtMapKey("subtitles").AtMapKey("vtt"), knownvalue.StringRegexp(regexp.MustCompile(`^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> `))),
					expectJSONPresent(addr, transcription.AtMapKey("sentences"), 0),
					expectJSONPresent(addr, transcription.AtMapKey("utterances"), 0, "text"),
					expectJSONPresent(addr, transcription.AtMapKey("utterances"), 0, "speaker"),
					expectJSONValue(addr, transcription.AtMapKey("utterances"), nil, 0, "words"),
					expectJSONLength(addr, result.AtMapKey("translation").AtMapKey("results"), 2),
					expectJSONPresent(addr, result.AtMapKey("translation").AtMapKey("results"), 1, "full_transcript"),
					expectJSONPresent(addr, result.AtMapKey("named_entity_recognition").AtMapKey("results"), 0, "entity_type"),
					statecheck.ExpectKnownValue(addr, result.AtMapKey("sentiment_analysis").AtMapKey("results"), knownvalue.NotNull()),
					expectJSONPresent(addr, result.AtMapKey("sentences").AtMapKey("results"), 0),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.Null()),
				},
			},
		},
	})
}

// checkCreateBodies compares the one create body the service received with
// want, as JSON values.
func checkCreateBodies(fs *fakeserver.Server, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		bodies := fs.CreateBodies()
		if len(bodies) != 1 {
			return fmt.Errorf("the service received %d creates, want 1", len(bodies))
		}
		var got, expected any
		if err := json.Unmarshal(bodies[0], &got); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(want), &expected); err != nil {
			return fmt.Errorf("test's expected body: %w", err)
		}
		if !reflect.DeepEqual(got, expected) {
			return fmt.Errorf("create body differs from the configuration:\n got: %s\nwant: %s", bodies[0], acctest.CompactJSON(want))
		}
		return nil
	}
}

// TestAccJob_minimal sends only what is configured: the service fills in its
// defaults, which must not show as a change, and state stays lean.
func TestAccJob_minimal(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	var gets int
	const minimal = `audio_url = "https://example.com/minimal.wav"
subtitles = true
subtitles_config = {}
translation = true
translation_config = { target_languages = ["de"] }
custom_metadata = { team = "alpha" }`
	const addr = "transcription_job.minimal"
	utterances := tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("utterances")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("minimal", minimal),
				Check: checkCreateBodies(fs, `{"audio_url": "https://example.com/minimal.wav", "subtitles": true, "subtitles_config": {},
  "translation": true, "translation_config": {"target_languages": ["de"]}, "custom_metadata": {"team": "alpha"}}`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("model"), knownvalue.StringExact(client.DefaultModel)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("subtitles_config").AtMapKey("formats"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("srt")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("translation_config").AtMapKey("lipsync"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("metadata"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("utterances"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.Null()),
				},
			},
			{
				// Provider-side settings change in place, without a new job;
				// include_raw_result brings the transcript with its word
				// timings, and result_json.
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("minimal", minimal+`
include_raw_result = true
wait_for_completion = false
timeouts = { create = "5m", delete = "1m" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("result_json")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
				}},
				Check: acctest.JobsCreated(fs, 1), // a provider-side setting must not replace the job
				ConfigStateChecks: []statecheck.StateCheck{
					expectJSONPresent(addr, utterances, 0, "text"),
					expectJSONPresent(addr, utterances, 0, "words", 0, "word"),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.NotNull()),
				},
			},
			{
				// include_transcript beside include_raw_result keeps the same
				// result: known at plan time, nothing read.
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("minimal", minimal+`
include_raw_result = true
include_transcript = true
wait_for_completion = false
timeouts = { create = "5m", delete = "1m" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(true)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					expectJSONPresent(addr, utterances, 0, "words", 0, "word"),
				},
			},
			{
				// Keeping less is known at plan time: no "(known after
				// apply)" for the result, nothing read.
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("minimal", minimal+`
include_transcript = true`),
				PreConfig: func() { gets = countGets(fs) },
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result_json"), knownvalue.Null()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(true)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					expectJSONPresent(addr, utterances, 0, "text"),
					expectJSONValue(addr, utterances, nil, 0, "words"),
				},
			},
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("minimal", minimal),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.Null()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("utterances"), knownvalue.Null()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("metadata").AtMapKey("audio_duration"), knownvalue.NotNull()),
				}},
				Check: func(*terraform.State) error {
					// Only the refreshes of the plans read the job: the applies do not.
					if n := countGets(fs) - gets; n > 4 {
						return fmt.Errorf("%d reads of the job over two plans and applies, want at most 4 (one refresh per plan)", n)
					}
					return nil
				},
			},
		},
	})
}

// countGets counts the GETs of pre-recorded jobs the service has received.
func countGets(fs *fakeserver.Server) int {
	n := 0
	for _, r := range fs.Requests() {
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v2/pre-recorded/") {
			n++
		}
	}
	return n
}

// TestAccJob_retention covers jobs the service deletes: a done job is kept
// with retained = false and no diff, recreate_when_missing creates it again.
func TestAccJob_retention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.kept"
	keep := acctest.ProviderConfig(url) + acctest.JobConfig("kept", `audio_url = "https://example.com/kept.wav"
include_transcript = true`)
	recreate := acctest.ProviderConfig(url) + acctest.JobConfig("kept", `audio_url = "https://example.com/kept.wav"
include_transcript = true
recreate_when_missing = true`)
	var firstID, secondID, thirdID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: keep,
				Check:  resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&firstID)),
			},
			{
				// The service's retention ends: nothing changes but retained.
				PreConfig: func() { acctest.ExpireJob(t, fs, firstID) },
				Config:    keep,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
				},
				Check: resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
					if v != firstID {
						return fmt.Errorf("id changed from %s to %s: the job was replaced", firstID, v)
					}
					return nil
				}),
			},
			{
				// Turning recreate_when_missing on creates it again at once.
				Config: recreate,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&secondID)),
					resource.TestCheckResourceAttr(addr, "retained", "true"),
				),
			},
			{
				// With recreate_when_missing, any job that disappears is
				// replaced: it stays in state until then.
				PreConfig: func() { acctest.ExpireJob(t, fs, secondID) },
				Config:    recreate,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: resource.ComposeTestCheckFunc(
					acctest.JobsCreated(fs, 3),
					resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&thirdID)),
				),
			},
			{
				// Turned off before the apply, it keeps the job gone, where
				// the refresh had removed it from state already and the
				// apply created it again (billed) whatever the
				// configuration said.
				PreConfig: func() { acctest.ExpireJob(t, fs, thirdID) },
				Config:    keep,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("recreate_when_missing"), knownvalue.Bool(false)),
				},
				Check: acctest.JobsCreated(fs, 3),
			},
		},
	})
}

// TestAccJob_goneJobWithSettingsKnownOnlyAtApply: on a job the service no
// longer has, recreate_when_missing, include_transcript or
// include_raw_result known only at apply plan what any of their values
// would need: a replacement for recreate_when_missing (true creates the
// job again), the result unknown for the other two (false drops a part of
// it), where the plan kept the result and the apply failed ("Provider
// produced inconsistent final plan"). The result kept is what the value
// known at apply keeps.
func TestAccJob_goneJobWithSettingsKnownOnlyAtApply(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(value string) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "flag" {
  input = %s
}
`, value) + acctest.JobConfig("recreated", `audio_url = "https://example.com/recreated.wav"
recreate_when_missing = terraform_data.flag.output`) +
			acctest.JobConfig("transcript", `audio_url = "https://example.com/transcript.wav"
include_transcript = !terraform_data.flag.output`) +
			acctest.JobConfig("raw", `audio_url = "https://example.com/raw.wav"
include_raw_result = !terraform_data.flag.output`) +
			// include_raw_result turned off (known) settles result_json,
			// whatever include_transcript (unknown) becomes.
			acctest.JobConfig("rawoff", fmt.Sprintf(`audio_url = "https://example.com/rawoff.wav"
include_raw_result = %t
include_transcript = terraform_data.flag.output`, value == "false"))
	}
	var ids []string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("false"),
				Check: func(s *terraform.State) error {
					for _, name := range []string{"recreated", "transcript", "raw", "rawoff"} {
						ids = append(ids, s.RootModule().Resources["transcription_job."+name].Primary.ID)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					for _, id := range ids {
						acctest.ExpireJob(t, fs, id)
					}
				},
				RefreshState: true,
			},
			{
				Config: config("true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.recreated", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("transcription_job.transcript", plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue("transcription_job.transcript", tfjsonpath.New("result")),
					plancheck.ExpectResourceAction("transcription_job.raw", plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue("transcription_job.raw", tfjsonpath.New("result_json")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("transcription_job.transcript", tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.Null()),
					statecheck.ExpectKnownValue("transcription_job.transcript", tfjsonpath.New("result").AtMapKey("metadata").AtMapKey("audio_duration"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue("transcription_job.raw", tfjsonpath.New("result_json"), knownvalue.Null()),
					statecheck.ExpectKnownValue("transcription_job.raw", tfjsonpath.New("retained"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("transcription_job.rawoff", tfjsonpath.New("result_json"), knownvalue.Null()),
					statecheck.ExpectKnownValue("transcription_job.rawoff", tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), knownvalue.NotNull()),
				},
				Check: acctest.JobsCreated(fs, 5),
			},
			{Config: config("true"), PlanOnly: true},
		},
	})
}

// unwaitedJobOnHeldServer is a fake server whose jobs end only when its
// clock is moved on, and the configuration of job name, made from
// audioURL without waiting for it.
func unwaitedJobOnHeldServer(t *testing.T, name, audioURL string) (*fakeserver.Server, *fakeserver.ManualClock, string) {
	t.Helper()
	fs, url, clock := acctest.HeldFakeServer(t)
	return fs, clock, acctest.ProviderConfig(url) + acctest.JobConfig(name, fmt.Sprintf("audio_url = %q\nwait_for_completion = false", audioURL))
}

// TestAccJob_resultJSONPlannedNullWithoutRawResult: with include_raw_result
// off, result_json is planned null, known, on creation and on an in-place
// update of a job still running (include_transcript turned on): it is kept only
// with include_raw_result, so the plan showed "(known after apply)" for a
// value that could only be null. With include_raw_result on it stays
// unknown while the job runs.
func TestAccJob_resultJSONPlannedNullWithoutRawResult(t *testing.T) {
	fs, clock, config := unwaitedJobOnHeldServer(t, "running", "https://example.com/running.wav")
	const addr = "transcription_job.running"
	resultJSON := tfjsonpath.New("result_json")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, resultJSON, knownvalue.Null()),
				}},
				Check: resource.TestCheckResourceAttr(addr, "status", client.StatusQueued),
			},
			{
				Config: strings.Replace(config, "wait_for_completion = false", "wait_for_completion = false\ninclude_transcript = true", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("status")),
					plancheck.ExpectKnownValue(addr, resultJSON, knownvalue.Null()),
				}},
				Check: acctest.JobsCreated(fs, 1),
			},
			{
				Config: strings.Replace(config, "wait_for_completion = false", "wait_for_completion = false\ninclude_raw_result = true", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(addr, resultJSON),
				}},
				// The job ends, so that the destroy need not wait for it.
				Check: func(*terraform.State) error { clock.Advance(2 * time.Hour); return nil },
			},
		},
	})
}

// TestAccJob_otherFormOfARunningJobPlansNothing: an argument written in
// another form that means the same, on a job still running, plans no
// change. The framework marked its computed values unknown for the edit, a
// running job's are not kept from state, and the update it planned was
// planned again at every plan, the edit staying in the configuration,
// until the job ended.
func TestAccJob_otherFormOfARunningJobPlansNothing(t *testing.T) {
	fs, clock, config := unwaitedJobOnHeldServer(t, "running", "https://example.com/running.wav")
	const addr = "transcription_job.running"
	respelled := strings.Replace(config, "https://example.com", "HTTPS://EXAMPLE.com", 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: resource.TestCheckResourceAttr(addr, "status", client.StatusQueued)},
			{
				Config: respelled,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.JobsCreated(fs, 1),
					resource.TestCheckResourceAttr(addr, "audio_url", "https://example.com/running.wav"),
					// The job ends, so that the destroy need not wait for it.
					func(*terraform.State) error { clock.Advance(2 * time.Hour); return nil },
				),
			},
		},
	})
}

// TestAccJob_timeoutsWrittenAnotherWayPlanNothing: timeouts that are the
// applied durations written another way ("60m" for "1h") change no wait and
// plan no change, even on a job still running (whose computed values an
// update re-reads); state keeps the applied form. A new duration is an
// update in place.
func TestAccJob_timeoutsWrittenAnotherWayPlanNothing(t *testing.T) {
	fs, clock, config := unwaitedJobOnHeldServer(t, "limits", "https://example.com/limits.wav")
	const addr = "transcription_job.limits"
	withTimeouts := func(create, read string) string {
		return strings.Replace(config, "wait_for_completion = false", fmt.Sprintf("wait_for_completion = false\ntimeouts = {\n  create = %q\n  read = %q\n}", create, read), 1)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withTimeouts("1h", "20m"), Check: resource.TestCheckResourceAttr(addr, "status", client.StatusQueued)},
			{
				Config: withTimeouts("60m", "1200s"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "timeouts.create", "1h"),
					resource.TestCheckResourceAttr(addr, "timeouts.read", "20m"),
				),
			},
			{
				Config: withTimeouts("2h", "1200s"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.JobsCreated(fs, 1),
					resource.TestCheckResourceAttr(addr, "timeouts.create", "2h"),
					// The job ends, so that the destroy need not wait for it.
					func(*terraform.State) error { clock.Advance(3 * time.Hour); return nil },
				),
			},
		},
	})
}

// TestAccJob_goneAfterEndingUnseen: a job created without waiting and not
// refreshed since, which the service no longer has, stays in state with
// retained = false, as a job seen ended does: the service deletes a job only
// once it has ended, so it ended unseen. It was removed and created again
// (billed again), which the documented batch pattern (the data source waits,
// the resource does not) met once the job's retention ended. With
// recreate_when_missing the next apply creates it again.
func TestAccJob_goneAfterEndingUnseen(t *testing.T) {
	fs, clock, config := unwaitedJobOnHeldServer(t, "unseen", "https://example.com/unseen.wav")
	const addr = "transcription_job.unseen"
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&id)),
					resource.TestCheckResourceAttr(addr, "status", client.StatusQueued),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result"), knownvalue.Null()),
				},
			},
			{
				PreConfig: func() { acctest.ExpireJob(t, fs, id) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringFunc(func(got string) error {
						if got != id {
							return fmt.Errorf("id %s, want the job's %s", got, id)
						}
						return nil
					})),
				},
			},
			{
				// A change of a provider-side setting plans the values it
				// keeps as they are: nothing of the job can be read again.
				Config: strings.Replace(config, "wait_for_completion = false", "wait_for_completion = false\ninclude_transcript = true", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusQueued)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("result"), knownvalue.Null()),
				}},
			},
			{
				Config: strings.Replace(config, "wait_for_completion = false", "wait_for_completion = false\nrecreate_when_missing = true", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				// The new job ends, so that the destroy need not wait for it.
				Check: func(*terraform.State) error { clock.Advance(2 * time.Hour); return nil },
			},
		},
	})
	if n := fs.Stats().JobsCreated; n != 2 {
		t.Errorf("%d jobs created, want 2: the first, and the one recreate_when_missing asked for", n)
	}
}

// TestAccJob_failedJobGone: a job that ended in error and that the service
// no longer has stays in state with retained = false, as a done one does:
// it had ended, and creating it again would bill it without asking (the
// failure warning says how to run it again).
func TestAccJob_failedJobGone(t *testing.T) {
	fs, clock, config := unwaitedJobOnHeldServer(t, "failed", "https://example.com/fail-422.wav")
	const addr = "transcription_job.failed"
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&id)),
			},
			{
				PreConfig: func() { clock.Advance(2 * time.Hour) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusError)),
				},
			},
			{
				PreConfig: func() { acctest.ExpireJob(t, fs, id) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusError)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringFunc(func(got string) error {
						if got != id {
							return fmt.Errorf("id %s, want the failed job's %s", got, id)
						}
						return nil
					})),
				},
				Check: acctest.JobsCreated(fs, 1),
			},
		},
	})
}

// TestAccJob_failedJob: a job that ends in error fails the apply, stays in
// state tainted, and the next apply replaces it.
func TestAccJob_failedJob(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.failing"
	failing := acctest.ProviderConfig(url) + acctest.JobConfig("failing", `audio_url = "https://example.com/fail-422.wav"`)
	var firstID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      failing,
				ExpectError: acctest.ExpectError(`(?s)Transcription job failed.*ended with status "error", error_code 422.*request_id: [0-9a-f-]{36}`),
			},
			{
				// The failed job is in state, tainted, with its error.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					acctest.Tainted(addr),
					resource.TestCheckResourceAttr(addr, "status", client.StatusError),
					resource.TestCheckResourceAttr(addr, "error_code", "422"),
					resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&firstID)),
				),
			},
			{
				Config: failing,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ExpectError: acctest.ExpectError(`error_code 422`),
			},
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("failing", `audio_url = "https://example.com/fixed.wav"`),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "status", client.StatusDone),
					func(*terraform.State) error {
						if n := fs.Stats().JobsCreated; n != 3 {
							return fmt.Errorf("%d jobs created, want 3", n)
						}
						if !acctest.Deleted(fs, firstID) {
							return fmt.Errorf("the tainted job %s was not deleted", firstID)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccJob_deleteRunning: deleting a job that is still running waits until
// the service lets it be deleted.
func TestAccJob_deleteRunning(t *testing.T) {
	fs, url, clock := acctest.HeldFakeServer(t)
	// The job ends only once the service has refused a DELETE.
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			for _, r := range fs.Requests() {
				if r.Method == http.MethodDelete && r.Status == http.StatusForbidden {
					clock.Advance(2 * time.Hour)
					return
				}
			}
		}
	}()
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.ProviderConfig(url) + acctest.JobConfig("running", `audio_url = "https://example.com/running.wav"
wait_for_completion = false`),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttrWith("transcription_job.running", "id", acctest.CaptureTo(&id)),
				resource.TestCheckResourceAttr("transcription_job.running", "status", client.StatusQueued),
			),
		}},
		CheckDestroy: func(*terraform.State) error {
			statuses := acctest.DeleteAnswers(fs, id)
			if len(statuses) < 2 || statuses[0] != http.StatusForbidden || statuses[len(statuses)-1] != http.StatusAccepted {
				return fmt.Errorf("DELETE answers %v, want 403 (still running) ... then 202", statuses)
			}
			if _, ok := fs.Job(id); ok {
				return fmt.Errorf("job %s still exists", id)
			}
			return nil
		},
	})
}

// TestAccJob_timeout: a job still running when timeouts.create runs out
// fails the apply and stays in state, tainted.
func TestAccJob_timeout(t *testing.T) {
	fs, url, clock := acctest.HeldFakeServer(t)
	const addr = "transcription_job.slow"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("slow", `audio_url = "https://example.com/slow.wav"
timeouts = { create = "2s" }`),
				ExpectError: acctest.ExpectError(`(?s)Timed out waiting for the transcription job.*still (queued|processing) after 2s`),
			},
			{
				// The job ends later; the refresh shows it, still tainted.
				PreConfig:          func() { clock.Advance(2 * time.Hour) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					acctest.Tainted(addr),
					func(*terraform.State) error {
						if n := fs.JobCount(); n != 1 {
							return fmt.Errorf("%d jobs, want 1", n)
						}
						return nil
					},
					resource.TestCheckResourceAttr(addr, "status", client.StatusDone),
				),
			},
		},
	})
}

// TestAccJob_importMalformedID: an id that is not a UUID, as the service's
// ids are, is refused naming the rule, before any request; with terraform
// import and with an import block.
func TestAccJob_importMalformedID(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	config := acctest.ProviderConfig(url) + acctest.JobConfig("adopted", `audio_url = "https://example.com/adopted.wav"`)
	step := func(kind resource.ImportStateKind, id string, more ...string) resource.TestStep {
		return resource.TestStep{
			Config:          config,
			ResourceName:    "transcription_job.adopted",
			ImportState:     true,
			ImportStateKind: kind,
			ImportStateId:   id,
			ExpectError:     diagnosticPattern(append([]string{`Invalid job id`, `UUID`, fmt.Sprintf("got %q", id)}, more...)...),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			// An import block's step must come first: a later one copies the state.
			step(resource.ImportBlockWithID, "3fa85f64-5717-4562-b3fc-2c963f66afa6/file"),
			step(resource.ImportCommandWithID, "job-42"),
			// Pasted with a space: said, as the quoted id hides it from a quick look.
			step(resource.ImportCommandWithID, " 3fa85f64-5717-4562-b3fc-2c963f66afa6", `Remove the white space around it`),
		},
	})
	for _, r := range fs.Requests() {
		t.Errorf("a malformed id reached the service: %s %s", r.Method, r.Path)
	}
}

// TestAccJob_zeroDataRetention: under zero data retention the job is
// submitted with its callback, never read, and cannot be imported.
func TestAccJob_zeroDataRetention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime, ZeroDataRetention: true})
	rcv, hooks := newCallbackReceiver(t)
	const addr = "transcription_job.private"
	config := acctest.ProviderConfig(url, "zero_data_retention = true") + acctest.JobConfig("private", fmt.Sprintf(`audio_url = "https://example.com/private.wav"
callback = true
callback_config = { url = "%s/hook" }`, hooks))
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&id)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("wait_for_completion"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("result"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(false)),
				},
			},
			{
				ResourceName:  addr,
				ImportState:   true,
				ImportStateId: "00000000-0000-0000-0000-000000000000",
				ExpectError:   acctest.ExpectError(`Cannot import a job under zero data retention`),
			},
			{
				Config: config,
				Check: func(*terraform.State) error {
					for _, r := range fs.Requests() {
						if r.Method == http.MethodGet {
							return fmt.Errorf("the provider called GET %s under zero data retention", r.Path)
						}
					}
					fs.SettleJobs()
					got := rcv.all()
					if len(got) != 1 || got[0].method != http.MethodPost || got[0].body.ID != id || got[0].body.Event != client.EventTranscriptionSuccess {
						return fmt.Errorf("callbacks received: %+v, want one POST %q for job %s", got, client.EventTranscriptionSuccess, id)
					}
					return nil
				},
			},
		},
	})
}

// TestAccJob_zeroDataRetentionUploadedAudio: under zero data retention the
// service disables uploads and audio_url must be an external URL (the spec),
// so a URL of a file uploaded to the service (on base_url's host) is refused
// at plan, naming audio_url, before any request.
// So it is while api_key is known only at apply: base_url, known, says
// what the service's host is.
func TestAccJob_zeroDataRetentionUploadedAudio(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	job := acctest.JobConfig("uploaded", fmt.Sprintf(`audio_url = "%s/file/0badc0de-0000-4000-8000-000000000000"
callback = true
callback_config = { url = "https://hooks.example.com/x" }`, url))
	keyLater := fmt.Sprintf(`
resource "terraform_data" "key" {
  input = %q
}

provider "transcription" {
  base_url            = %q
  api_key             = terraform_data.key.output
  zero_data_retention = true
}
`, acctest.APIKey, url)
	refused := acctest.ExpectError(`(?s)audio_url must be an external URL under zero data retention.*on the service's own host`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      acctest.ProviderConfig(url, "zero_data_retention = true") + job,
				PlanOnly:    true,
				ExpectError: refused,
			},
			{
				Config:      keyLater + job,
				PlanOnly:    true,
				ExpectError: refused,
			},
		},
	})
	if reqs := fs.Requests(); len(reqs) != 0 {
		t.Errorf("the refused plan sent %d requests to the service", len(reqs))
	}
}

// TestJobPlan_zeroDataRetentionNamesEveryRule: a new job that breaks
// several plan-time rules under zero data retention is told of each in one
// plan, once: a callback with nowhere to deliver stopped the plan before
// the rules of zero data retention (the uploaded audio_url went unnamed
// until the callback was fixed), and counting it as "no callback" as well
// said the same thing twice.
func TestJobPlan_zeroDataRetentionNamesEveryRule(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	jobType, ok := schemas.ResourceSchemas[jobResourceTypeName].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the job's schema is not an object")
	}
	null := dynamicValue(t, jobType, tftypes.NewValue(jobType, nil))
	config := dynamicValue(t, jobType, objectValue(jobType, map[string]tftypes.Value{
		"audio_url": frameworktest.String(url + "/file/0badc0de-0000-4000-8000-000000000000"),
		"callback":  frameworktest.Bool(true),
	}))
	planned, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: &null, ProposedNewState: &config, Config: &config,
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range planned.Diagnostics {
		got = append(got, d.Summary)
	}
	want := []string{"Callback without a destination", "audio_url must be an external URL under zero data retention"}
	if !slices.Equal(got, want) {
		t.Errorf("the plan said %q, want %q", got, want)
	}
}

// A job the service no longer has cannot gain what its state did not keep:
// turning include_transcript on plans the last known result (known), warns,
// keeps it, and plans no change after.
func TestJobUpdate_expiredJobKeepsItsLastResult(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	attrs := func(v *tfprotov6.DynamicValue) map[string]tftypes.Value { return objectAttributes(t, j.typ, v) }
	state := j.read(j.apply(j.planCreate()))
	var id string
	if err := attrs(state)["id"].As(&id); err != nil {
		t.Fatal(err)
	}
	acctest.ExpireJob(t, j.fake, id)
	state = j.read(state)
	if !attrs(state)["retained"].Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Fatal("the expired job is still retained after a refresh")
	}

	config := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":          tftypes.NewValue(tftypes.String, shortAudio),
		"include_transcript": tftypes.NewValue(tftypes.Bool, true),
	}))
	proposed := attrs(state)
	proposed["include_transcript"] = tftypes.NewValue(tftypes.Bool, true)
	proposedValue := dynamicValue(t, j.typ, tftypes.NewValue(j.typ, proposed))
	planResp := j.plan(state, &proposedValue, &config)
	planned := planResp.PlannedState
	// Nothing can be read, so the plan already knows what the apply keeps,
	// and says so.
	for _, name := range []string{"result", "retained", "result_json"} {
		if got := attrs(planned)[name]; !got.Equal(attrs(state)[name]) {
			t.Errorf("planned %s (known: %t) is not its last known value", name, got.IsFullyKnown())
		}
	}
	if !hasWarning(planResp.Diagnostics, "Result not available", id) {
		t.Fatalf("no warning at plan that the transcript cannot be fetched: %v", planResp.Diagnostics)
	}
	resp := j.protoHarness.applyChange(jobResourceTypeName, state, planned, &config)
	failOnDiagnostics(t, "ApplyResourceChange", resp.Diagnostics)
	after := attrs(resp.NewState)
	if !after["result"].Equal(attrs(state)["result"]) || !after["retained"].Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Fatal("the last known result or retained changed")
	}
	if again := j.plan(resp.NewState, resp.NewState, &config); !attrs(again.PlannedState)["result"].Equal(after["result"]) || again.RequiresReplace != nil {
		t.Fatal("the next plan changes the job")
	}
}

// A job still running when last seen that the service no longer has when an
// in-place update reads it (here include_transcript turned on) stays in
// state with retained = false, as any job gone: it ended unseen (the
// service deletes a job only once it has ended). The update and the
// refresh after it say so; neither creates it again.
func TestJobUpdate_runningJobGoneIsKeptWithAWarning(t *testing.T) {
	j := newJobBenchOn(newProtoHarness(t, fakeserver.Options{ProcessingTime: time.Hour}), shortAudio, "")
	j.config = dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":           tftypes.NewValue(tftypes.String, shortAudio),
		"wait_for_completion": tftypes.NewValue(tftypes.Bool, false),
	}))
	state := j.apply(j.planCreate())
	if got := j.stateAttribute(state, "status"); !got.Equal(tftypes.NewValue(tftypes.String, client.StatusQueued)) {
		t.Fatalf("status %v, want a job still queued", got)
	}
	id := j.stateAttribute(state, "id")
	var jobID string
	if err := id.As(&jobID); err != nil {
		t.Fatal(err)
	}

	config := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":           tftypes.NewValue(tftypes.String, shortAudio),
		"wait_for_completion": tftypes.NewValue(tftypes.Bool, false),
		"include_transcript":  tftypes.NewValue(tftypes.Bool, true),
	}))
	proposedValue := withAttributes(t, j.typ, state, map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)})
	planned := j.plan(state, &proposedValue, &config).PlannedState

	acctest.ExpireJob(t, j.fake, jobID)
	applied := j.protoHarness.applyChange(jobResourceTypeName, state, planned, &config)
	if !hasWarning(applied.Diagnostics, "Transcription job no longer retained by the service", "It was queued when last seen: the service deletes a job only once it has ended, so this one ended unseen") {
		t.Errorf("the update does not say the job ended unseen: %v", applied.Diagnostics)
	}
	if got := j.stateAttribute(applied.NewState, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("retained %v after the update found the job gone, want false", got)
	}
	resp := j.readResponse(applied.NewState)
	failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
	if len(resp.Diagnostics) != 0 {
		t.Errorf("the refresh of a job known gone: %v, want no diagnostic", resp.Diagnostics)
	}
	if got := j.stateAttribute(resp.NewState, "id"); !got.Equal(id) {
		t.Errorf("the refresh dropped the job (id %v)", got)
	}
}

// A job created without waiting that ends in error is reported by every
// plan, with how to run it again, and is not replaced by itself. An
// error_code that is no HTTP status is shown without its meaning, where
// the warning said "error_code 599 ()".
func TestJobPlan_failedJobWarnsAtEveryPlan(t *testing.T) {
	h := newProtoHarness(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	typ := h.resourceType(jobResourceTypeName)
	j := &jobBench{protoHarness: h, typ: typ, null: dynamicValue(t, typ, tftypes.NewValue(typ, nil))}
	for audio, code := range map[string]string{"fail-503": "error_code 503 (Service Unavailable);", "fail-599": "error_code 599;"} {
		config := dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{
			"audio_url":           tftypes.NewValue(tftypes.String, "https://example.com/"+audio+".wav"),
			"wait_for_completion": tftypes.NewValue(tftypes.Bool, false),
		}))
		state := j.applyChange(&j.null, j.plan(&j.null, &config, &config).PlannedState, &config)
		time.Sleep(2 * testAccProcessingTime) // the job ends, in error
		state = j.read(state)
		for plan := range 2 {
			resp := j.plan(state, state, &config)
			if resp.RequiresReplace != nil {
				t.Fatalf("%s: plan %d replaces the failed job by itself: %v", audio, plan, resp.RequiresReplace)
			}
			warned := slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
				return d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "Transcription job failed" &&
					strings.Contains(d.Detail, code) && strings.Contains(d.Detail, "terraform apply -replace=")
			})
			if !warned {
				t.Fatalf("%s: plan %d does not report the failed job with %q: %v", audio, plan, code, resp.Diagnostics)
			}
		}
	}
}

// TestCallbackTargets_delivers is the check zero data retention makes: does
// the service send the result anywhere?
func TestCallbackTargets_delivers(t *testing.T) {
	hook := testObject(t, "callback_config", map[string]tftypes.Value{"url": frameworktest.String("https://hooks.example.com/x")})
	noConfig := tftypes.NewValue(hook.Type(), nil)
	noURL := tftypes.NewValue(tftypes.String, nil)
	legacy := frameworktest.String("https://hooks.example.com/y")
	tests := map[string]struct {
		callback, config, url tftypes.Value
		delivers, known       bool
	}{
		"config":           {callback: frameworktest.Bool(true), config: hook, url: noURL, delivers: true, known: true},
		"legacy URL":       {callback: frameworktest.Bool(true), config: noConfig, url: legacy, delivers: true, known: true},
		"nowhere":          {callback: frameworktest.Bool(true), config: noConfig, url: noURL, known: true},
		"config unknown":   {callback: frameworktest.Bool(true), config: tftypes.NewValue(hook.Type(), tftypes.UnknownValue), url: noURL},
		"URL unknown":      {callback: frameworktest.Bool(true), config: noConfig, url: tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
		"off":              {callback: frameworktest.Bool(false), config: noConfig, url: noURL, known: true},
		"off with config":  {callback: frameworktest.Bool(false), config: hook, url: noURL, known: true},
		"off with legacy":  {callback: frameworktest.Bool(false), config: noConfig, url: legacy, delivers: true, known: true},
		"callback unknown": {callback: tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue), config: noConfig, url: noURL},
		"callback null":    {callback: tftypes.NewValue(tftypes.Bool, nil), config: hook, url: noURL, known: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testJobConfig(t, map[string]tftypes.Value{"callback": tc.callback, "callback_config": tc.config, "callback_url": tc.url})
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

// TestAccJob_timeoutSaysHowToKeepTheJob: the error of a wait that ended
// early (timeouts.create, Ctrl-C) says what keeps the job. A tainted job is
// replaced whatever the configuration says: turning wait_for_completion
// off, which the error suggested, submitted a second job, billed again.
func TestAccJob_timeoutSaysHowToKeepTheJob(t *testing.T) {
	fs, url, clock := acctest.HeldFakeServer(t)
	const addr = "transcription_job.slow"
	// Once a job is to be deleted (its replacement, the destroy that ends
	// the test), the jobs end, so that it may be.
	acctest.WhenTrue(t, func() bool {
		if slices.ContainsFunc(fs.Requests(), func(r fakeserver.RecordedRequest) bool { return r.Method == http.MethodDelete }) {
			clock.Advance(time.Hour)
		}
		return false
	}, func() {})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("slow", `audio_url = "https://example.com/slow.wav"
timeouts = { create = "2s" }`),
				ExpectError: acctest.ExpectError(`(?s)Timed out waiting for the transcription job.*the next apply replaces it.*whatever the configuration says.*` +
					`To keep it instead, run .terraform untaint. on the resource before the next apply`),
			},
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("slow", `audio_url = "https://example.com/slow.wav"
wait_for_completion = false`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: func(*terraform.State) error {
					if n := fs.Stats().JobsCreated; n != 2 {
						return fmt.Errorf("%d jobs created, want 2: the tainted one and its replacement", n)
					}
					return nil
				},
			},
		},
	})
}
