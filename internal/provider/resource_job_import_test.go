package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// importCase is a job created by Terraform with some of the request's
// options, and what importing it gives.
type importCase struct {
	name string
	body string // {hooks} is the callback receiver's base URL
	// verifyIgnore are the attributes whose imported value differs from the
	// created job's, each as the documentation says: provider-side
	// settings take their defaults, and an empty list or map reads back as
	// none, which it means.
	verifyIgnore []string
	// rewritten: the resource block says something another way than the
	// job's record (a provider-side setting other than its default, an
	// empty list for none), so importing the job with it plans an in-place
	// update, in state only; never a replacement.
	rewritten bool
}

// importCases together set every request attribute of transcription_job,
// the service's defaults written out, values written another way than the
// service echoes them, and the provider-side settings.
var importCases = []importCase{
	{
		name: "addons",
		body: `audio_url = "https://example.com/addons.wav?duration=8"
model     = "model-3"
language_config = { languages = ["fr"] }
custom_vocabulary = true
custom_vocabulary_config = {
  vocabulary = [
    { value = "Kubernetes" },
    { value = "Terraform", intensity = 0.1, pronunciations = ["terra form", "tera form"], language = "fr" },
    { value = "Gladys", language = "en" },
  ]
  default_intensity = 0.3
}
subtitles = true
subtitles_config = {
  formats                    = ["vtt", "srt"]
  minimum_duration           = 0.5
  maximum_duration           = 29.5
  maximum_characters_per_row = 40
  maximum_rows_per_caption   = 3
  style                      = "compliance"
}
diarization = true
diarization_config = { number_of_speakers = 3 }
translation = true
translation_config = {
  target_languages = ["wo", "de", "en"]
  model            = "base"
  context          = "A meeting about the $${budget} and 100%%{done}"
  informal         = true
}
summarization = true
summarization_config = { type = "concise" }
named_entity_recognition = true
custom_spelling = true
custom_spelling_config = { spelling_dictionary = { "Gettleman" = ["gettleman", "getleman"], "SQL" = ["sequel"] } }
sentiment_analysis = true
audio_to_llm = true
audio_to_llm_config = {
  prompts = ["Summarize\nin two lines", "List the decisions"]
  model   = "anthropic/claude-3-haiku"
}
pii_redaction = true
pii_redaction_config = { entity_types = ["NAME", "EMAIL_ADDRESS", "GDPR"], processed_text_type = "MASK" }
custom_metadata = { team = "alpha", "ticket.id" = "T-42", "with space" = "" }
sentences = true
punctuation_enhanced = true`,
	},
	{
		name: "languages",
		body: `audio_url = "https://example.com/languages.wav"
language_config = { languages = ["en", "fr", "de"], code_switching = true }
diarization = true
diarization_config = { min_speakers = 1, max_speakers = 4 }
subtitles = true
include_transcript    = true
include_raw_result    = true
recreate_when_missing = true
timeouts = { create = "30m", delete = "5m" }`,
		// Provider-side settings are not part of the job: import gives
		// them their defaults, and so keeps no transcript.
		verifyIgnore: []string{"include_transcript", "include_raw_result", "recreate_when_missing", "timeouts", "result.transcription", "result_json"},
		rewritten:    true,
	},
	{
		name: "defaults",
		body: `audio_url = "https://example.com/defaults.wav"
model     = "model-1"
language_config = { languages = [], code_switching = false }
subtitles = true
subtitles_config = { formats = ["srt"], style = "default" }
translation = true
translation_config = {
  target_languages          = ["de"]
  model                     = "batch"
  match_original_utterances = true
  lipsync                   = true
  context_adaptation        = true
  informal                  = false
}
summarization = true
summarization_config = { type = "general" }
diarization = true
diarization_config = {}
pii_redaction = true
pii_redaction_config = {}
named_entity_recognition = false
sentiment_analysis       = false
wait_for_completion      = true
include_transcript       = false
include_raw_result       = false
recreate_when_missing    = false`,
	},
	{
		name: "another_way",
		body: `audio_url = "https://example.com/another.wav"
language_config = { languages = ["fr", "en"] }
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "Kubernetes", pronunciations = [] }] }
pii_redaction = true
pii_redaction_config = { entity_types = [], processed_text_type = "MARKER" }
custom_metadata = {}
audio_to_llm = false
audio_to_llm_config = { prompts = ["Not asked: audio_to_llm is off"] }
callback_url = "{hooks}/another?token=s3cr3t"`,
		// An empty list or map is the same as none (the attributes'
		// descriptions): the service's record has none. A configuration
		// whose switch is off, which the service ignores, is left out of
		// an import.
		verifyIgnore: []string{"custom_vocabulary_config.vocabulary.0.pronunciations", "pii_redaction_config.entity_types", "custom_metadata", "audio_to_llm_config"},
		rewritten:    true,
	},
	{
		name: "legacy_callback",
		body: `audio_url = "https://example.com/legacy.wav"
callback     = true
callback_url = "{hooks}/legacy?token=s3cr3t"`,
	},
	{
		name: "callback_config",
		body: `audio_url = "https://example.com/hooked.wav"
callback = true
callback_config = { url = "{hooks}/hooked?token=s3cr3t", method = "PUT" }
custom_metadata = { queue = "support" }`,
	},
}

// TestAccJob_importEveryOption imports jobs that together use every
// request attribute, each in every way the engine offers: terraform import
// (the state is the created job's, but for what verifyIgnore documents),
// an import block with the job's resource block (no change, or an
// in-place update when that block says something another way), and an
// import block with the configuration Terraform generates (no change:
// callback_config.url, which it writes as null, keeps the job's), by id
// and, on engines that have resource identities, by identity. No import
// ever replaces a job.
func TestAccJob_importEveryOption(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	config := acctest.ProviderConfig(url)
	for _, c := range importCases {
		config += acctest.JobConfig(c.name, strings.ReplaceAll(c.body, "{hooks}", hooks))
	}
	identities := identityImportSupported(t)
	steps := []resource.TestStep{{Config: config, Check: acctest.JobsCreated(fs, len(importCases))}}
	for _, c := range importCases {
		addr := "transcription_job." + c.name
		steps = append(steps, resource.TestStep{
			ResourceName:            addr,
			ImportState:             true,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: c.verifyIgnore,
		})
		withBlock := resource.TestStep{
			ResourceName:    addr,
			ImportState:     true,
			ImportStateKind: resource.ImportBlockWithID,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
			}},
		}
		if c.rewritten {
			withBlock.ExpectNonEmptyPlan = true
			withBlock.ImportPlanChecks.PreApply = []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}
		}
		steps = append(steps, withBlock)
		kinds := []resource.ImportStateKind{resource.ImportBlockWithID}
		if identities {
			kinds = append(kinds, resource.ImportBlockWithResourceIdentity)
		}
		for _, kind := range kinds {
			generated := resource.TestStep{
				Config:          acctest.ProviderConfig(url),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: kind,
				GenerateConfig:  true,
			}
			steps = append(steps, generated)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy:             acctest.JobsCreated(fs, len(importCases)), // no import made a job
	})
}

// identityImportSupported reports whether the engine the acceptance tests
// run imports by resource identity: Terraform 1.12 and OpenTofu 1.12 on.
func identityImportSupported(t *testing.T) bool {
	t.Helper()
	_, have := engineVersion(t)
	return !have.Core().LessThan(version.Must(version.NewVersion("1.12.0")))
}

// jobsCreatedElsewhere are create bodies another application may send, in
// forms the provider never sends: vocabulary entries as bare strings, a
// prompt as an array of texts, entity_types as one value, custom_metadata
// values that are not strings, configurations of switches that are off,
// empty lists for none, callback = true with the deprecated callback_url,
// texts that look like templates to Terraform, a job that failed, lists of
// alternatives with a value twice and an empty translation context (which
// the provider would not send), and
// every other option as the provider sends it, and a callback_config,
// whose url the generated configuration leaves out (it keeps the job's).
var jobsCreatedElsewhere = []string{
	`{"audio_url": "https://example.com/elsewhere-vocabulary.wav", "custom_vocabulary": true, "custom_vocabulary_config": {
	  "vocabulary": ["Kubernetes", {"value": "Terraform", "intensity": 0.8, "pronunciations": ["terra form"], "language": "en"}, {"value": "X", "pronunciations": []}],
	  "default_intensity": 0.5}}`,
	`{"audio_url": "https://example.com/elsewhere-prompts.wav", "audio_to_llm": true, "audio_to_llm_config": {"prompts": [["Summarize", "briefly"], "List items"], "model": "openai/gpt-4o-mini"},
	  "pii_redaction": true, "pii_redaction_config": {"entity_types": "NAME", "processed_text_type": "MASK"}}`,
	`{"audio_url": "https://example.com/elsewhere-metadata.wav", "model": "model-3", "language_config": {"languages": ["fr"]},
	  "diarization": true, "diarization_config": {"min_speakers": 0, "max_speakers": 0},
	  "custom_metadata": {"n": 5, "o": {"a": 1}, "b": true, "nothing": null, "": "empty key", "${k}": "%{v}"}}`,
	`{"audio_url": "https://example.com/elsewhere-off.wav", "subtitles_config": {"formats": ["vtt"]}, "translation_config": {"target_languages": ["de"]},
	  "language_config": {"languages": [], "code_switching": true}, "pii_redaction": true, "pii_redaction_config": {"entity_types": []}}`,
	`{"audio_url": "https://example.com/elsewhere-legacy.wav", "callback": true, "callback_url": "{hooks}/legacy?token=s3cr3t"}`,
	// Configurations the service ignores (switch off), as another client
	// may send: left out of the import, and so of the generated
	// configuration, which would warn of them at every plan.
	`{"audio_url": "https://example.com/elsewhere-ignored.wav", "callback": false, "callback_config": {"url": "{hooks}/ignored?token=s3cr3t"},
	  "summarization": false, "summarization_config": {"type": "concise"}}`,
	`{"audio_url": "https://example.com/elsewhere-hooked.wav", "callback": true, "callback_config": {"url": "{hooks}/hooked?token=s3cr3t", "method": "PUT"}}`,
	// Blank entries, which a new job's plan refuses and the service takes:
	// kept, their generated configuration validating.
	`{"audio_url": "https://example.com/elsewhere-blank.wav", "audio_to_llm": true, "audio_to_llm_config": {"prompts": ["Summarize", " "]},
	  "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "Kube", "pronunciations": ["koob", ""]}]},
	  "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Acme": ["acme", ""]}}}`,
	`{"audio_url": "https://example.com/elsewhere-text.wav?x=${y}", "audio_to_llm": true, "audio_to_llm_config": {"prompts": ["Cost in ${USD} and %{if x}", "Line 1\nLine 2\n"]},
	  "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"${x}": ["y"], "Empty": []}}, "sentences": true, "punctuation_enhanced": true}`,
	`{"audio_url": "https://example.com/elsewhere-all.wav", "model": "model-1", "language_config": {"languages": ["en", "fr"], "code_switching": true},
	  "subtitles": true, "subtitles_config": {"formats": ["srt", "vtt"], "minimum_duration": 1, "maximum_duration": 6.5, "maximum_characters_per_row": 42, "maximum_rows_per_caption": 2, "style": "compliance"},
	  "diarization": true, "diarization_config": {"number_of_speakers": 2, "min_speakers": 1, "max_speakers": 3},
	  "translation": true, "translation_config": {"target_languages": ["de", "wo"], "model": "enhanced", "match_original_utterances": false, "lipsync": false,
	    "context_adaptation": false, "context": "A technical interview", "informal": true},
	  "summarization": true, "summarization_config": {"type": "concise"}, "named_entity_recognition": true, "sentiment_analysis": true,
	  "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Gettleman": ["gettleman", "getleman"]}},
	  "callback_url": "{hooks}/all?token=s3cr3t", "custom_metadata": {"team": "alpha"}}`,
	`{"audio_url": "https://example.com/fail-422.wav", "summarization": true, "summarization_config": {"type": "bullet_points"}, "model": "model-fusion"}`,
	// Switches on without the configuration a new job needs (the service
	// runs them, with empty results): an existing job keeps them.
	`{"audio_url": "https://example.com/elsewhere-bare-switches.wav", "translation": true, "audio_to_llm": true, "custom_vocabulary": true, "custom_spelling": true}`,
	`{"audio_url": "https://example.com/elsewhere-repeats.wav", "language_config": {"languages": ["fr", "en", "fr"]}, "subtitles": true, "subtitles_config": {"formats": ["vtt", "srt", "vtt"]},
	  "translation": true, "translation_config": {"target_languages": ["wo", "fr", "wo"], "context": ""},
	  "pii_redaction": true, "pii_redaction_config": {"entity_types": ["NAME", "EMAIL_ADDRESS", "NAME"]},
	  "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"SQL": ["sequel", "ess queue ell", "sequel"]}}}`,
}

// TestAccJob_importJobsCreatedElsewhere brings jobs another application
// created under management the three ways that generate their
// configuration: import blocks by id (plan -generate-config-out), by
// resource identity (Terraform and OpenTofu 1.12 on) and terraform query
// -generate-config-out (Terraform 1.14 on). Each generated configuration
// is valid, holds no callback URL, and its plan imports every job with no
// change.
func TestAccJob_importJobsCreatedElsewhere(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	engine, have := engineVersion(t)
	ids := make([]string, len(jobsCreatedElsewhere))
	for i, body := range jobsCreatedElsewhere {
		ids[i] = createJobFromJSON(t, url, strings.ReplaceAll(body, "{hooks}", hooks))
	}
	importBlocks := func(target func(id string) string) string {
		var b strings.Builder
		for i, id := range ids {
			fmt.Fprintf(&b, "import {\n  to = transcription_job.job%d\n  %s\n}\n", i, target(id))
		}
		return b.String()
	}
	type mode struct {
		name, config, query string
		generate            []string
	}
	modes := []mode{{
		name:     "import blocks by id",
		config:   importBlocks(func(id string) string { return fmt.Sprintf("id = %q", id) }),
		generate: []string{"plan", "-no-color", "-input=false", "-generate-config-out=generated.tf"},
	}}
	if !have.Core().LessThan(version.Must(version.NewVersion("1.12.0"))) {
		modes = append(modes, mode{
			name:     "import blocks by identity",
			config:   importBlocks(func(id string) string { return fmt.Sprintf("identity = { id = %q }", id) }),
			generate: []string{"plan", "-no-color", "-input=false", "-generate-config-out=generated.tf"},
		})
	}
	if engine == "Terraform" && !have.Core().LessThan(version.Must(version.NewVersion("1.14.0"))) {
		modes = append(modes, mode{
			name:     "terraform query",
			query:    "list \"transcription_job\" \"all\" {\n  provider         = transcription\n  include_resource = true\n}\n",
			generate: []string{"query", "-no-color", "-generate-config-out=generated.tf"},
		})
	}
	for _, m := range modes {
		t.Logf("mode %s", m.name)
		w := newCLIWorkspace(t, "provider \"transcription\" {}\n"+m.config, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
		if m.query != "" {
			if err := os.WriteFile(filepath.Join(w.dir, "all.tfquery.hcl"), []byte(m.query), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		out, errOut, err := w.run(nil, m.generate...)
		generated, readErr := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
		if err != nil || readErr != nil {
			t.Fatalf("%s: %s: %v %v\n%s\n%s\n--- generated.tf:\n%s", m.name, strings.Join(m.generate, " "), err, readErr, out, errOut, generated)
		}
		if n := strings.Count(string(generated), `resource "transcription_job"`); n != len(ids) {
			t.Fatalf("%s: the generated configuration has %d transcription_job blocks, want %d:\n%s", m.name, n, len(ids), generated)
		}
		if strings.Contains(string(generated), "s3cr3t") {
			t.Fatalf("%s: the generated configuration holds a callback URL's token", m.name)
		}
		out, errOut, err = w.run(nil, "plan", "-no-color", "-input=false")
		want := fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(ids))
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("%s: the plan of the generated configuration is not %q: %v\n%s\n%s\n--- generated.tf:\n%s", m.name, want, err, out, errOut, generated)
		}
		if strings.Contains(out, "is ignored unless") {
			t.Errorf("%s: the plan of the generated configuration warns of a configuration the job does not use:\n%s\n--- generated.tf:\n%s", m.name, out, generated)
		}
	}
	if n := fs.Stats().JobsCreated; n != len(ids) {
		t.Errorf("%d jobs on the service, want the %d created before", n, len(ids))
	}
}

// createJobFromJSON creates a job from a create body as another
// application would send it, byte for byte (createJobDirectly re-encodes
// a typed request, in the forms the provider sends), and waits for it to
// end.
func createJobFromJSON(t *testing.T, baseURL, body string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	status, answer := testutil.ServiceRequest(t, baseURL, acctest.APIKey, http.MethodPost, "/v2/pre-recorded", "application/json", []byte(body))
	var created client.InitResponse
	if status != http.StatusCreated || json.Unmarshal(answer, &created) != nil {
		t.Fatalf("creating a job from %s: %d %s", body, status, answer)
	}
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: acctest.APIKey, UserAgent: "other-application/1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waitForFinalJob(ctx, c, created.ID, pollSchedule{initial: 50 * time.Millisecond, max: 200 * time.Millisecond}, client.FullDetail, nil); err != nil {
		t.Fatal(err)
	}
	return created.ID
}

// TestAccJob_importUnfinished imports a job another application submitted
// while it is still queued, in every form the engine offers, then follows
// it to its end. Import gives the provider-side settings their defaults
// (wait_for_completion = true among them) and no apply waits for the job:
// wait_for_completion applies to creation, and an import with no change
// has nothing to apply. Every plan shows no change while the job runs, a
// change of include_transcript meanwhile updates it in place, and the
// refresh after the job ends brings its result as include_transcript
// says. No job is ever created.
func TestAccJob_importUnfinished(t *testing.T) {
	fs, url, clock := acctest.HeldFakeServer(t)
	const addr = "transcription_job.elsewhere"
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, UserAgent: "other-application/1.0"})
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.CreatePreRecorded(t.Context(), &client.InitTranscriptionRequest{
		AudioURL: "https://example.com/elsewhere.wav", Sentences: ptr(true), Subtitles: ptr(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	body := `audio_url = "https://example.com/elsewhere.wav"
sentences = true
subtitles = true`
	config := acctest.ProviderConfig(url) + acctest.JobConfig("elsewhere", body)
	importBlock := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", addr, created.ID)
	unfinished := func(status string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(created.ID)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(status)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("result"), knownvalue.Null()),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("completed_at"), knownvalue.Null()),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("retained"), knownvalue.Bool(true)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("wait_for_completion"), knownvalue.Bool(true)),
		}
	}
	steps := []resource.TestStep{
		{
			Config: config + importBlock,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
			}},
			ConfigStateChecks: unfinished(client.StatusQueued),
			Check:             acctest.JobsCreated(fs, 1),
		},
		{Config: config, ResourceName: addr, ImportState: true, ImportStateVerify: true},
	}
	kinds := []resource.ImportStateKind{resource.ImportBlockWithID}
	if identityImportSupported(t) {
		kinds = append(kinds, resource.ImportBlockWithResourceIdentity)
	}
	for _, kind := range kinds {
		steps = append(steps,
			resource.TestStep{
				Config: config, ResourceName: addr, ImportState: true, ImportStateKind: kind,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
				}},
			},
			resource.TestStep{
				Config: acctest.ProviderConfig(url), ResourceName: addr, ImportState: true, ImportStateKind: kind, GenerateConfig: true,
			})
	}
	withTranscript := acctest.ProviderConfig(url) + acctest.JobConfig("elsewhere", body+"\ninclude_transcript = true")
	steps = append(steps,
		resource.TestStep{
			// The job starts processing: the refresh says so, nothing else changes.
			PreConfig: func() { clock.Advance(20 * time.Minute) },
			Config:    config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
			}},
			ConfigStateChecks: unfinished(client.StatusProcessing),
		},
		resource.TestStep{
			// include_transcript turned on while it runs: in place, no new job.
			Config: withTranscript,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: unfinished(client.StatusProcessing),
			Check:             acctest.JobsCreated(fs, 1),
		},
		resource.TestStep{
			// The job ends: the refresh brings its result, transcript included.
			PreConfig: func() { clock.Advance(2 * time.Hour) },
			Config:    withTranscript,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact(client.StatusDone)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("completed_at"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("full_transcript"), acctest.NonEmptyString()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("transcription").AtMapKey("subtitles"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("result").AtMapKey("sentences").AtMapKey("results"), knownvalue.NotNull()),
			},
			Check: acctest.JobsCreated(fs, 1),
		},
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy:             acctest.JobsCreated(fs, 1),
	})
}

// TestAccJob_importByIDInUpperCase: a job imported by its id written in
// upper case (UUIDs are read without case) is kept by the id the service
// gives it, its resource identity too (Terraform and OpenTofu 1.12 on), so
// later plans and refreshes work and show no change.
func TestAccJob_importByIDInUpperCase(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	id := createJobFromJSON(t, url, `{"audio_url": "https://example.com/upper.wav"}`)
	w := newCLIWorkspace(t, "provider \"transcription\" {}\n"+fmt.Sprintf("import {\n  to = transcription_job.upper\n  id = %q\n}\n", strings.ToUpper(id))+
		acctest.JobConfig("upper", `audio_url = "https://example.com/upper.wav"`), EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	if out, errOut, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("import: %v\n%s\n%s", err, out, errOut)
	}
	if ids, _ := w.stateJobs(); ids["transcription_job.upper"] != id {
		t.Errorf("state holds %v, want the service's id %s", ids, id)
	}
	for range 2 {
		if out, errOut, err := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
			t.Fatalf("plan after the import: %v\n%s\n%s", err, out, errOut)
		}
	}
}

// TestAccJob_importedSwitchWithoutConfig: a job made elsewhere with
// translation on and no translation_config (the service runs it, its
// translation empty) is kept as it is, where a new job with it is refused;
// a change that would make it again is refused at plan too, before any job
// is billed.
func TestAccJob_importedSwitchWithoutConfig(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.bare"
	id := createJobFromJSON(t, url, `{"audio_url": "https://example.com/bare.wav", "translation": true}`)
	job := func(audio string) string {
		return acctest.ProviderConfig(url) + acctest.JobConfig("bare", fmt.Sprintf("audio_url = %q\ntranslation = true", audio))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: job("https://example.com/bare.wav") + fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", addr, id),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("translation"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("translation_config"), knownvalue.Null()),
				},
			},
			{
				Config:   job("https://example.com/bare.wav"),
				PlanOnly: true,
			},
			{
				// Another recording: a new job, which needs its configuration.
				Config:      job("https://example.com/other.wav"),
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`translation = true needs translation_config`),
			},
		},
		CheckDestroy: acctest.JobsCreated(fs, 1),
	})
}

// TestAccJob_replacedWithoutItsCallbackURL: a job made elsewhere with the
// deprecated callback_url, imported with the configuration Terraform
// generates (no callback_url: it is sensitive), and then replaced by a
// change: the plan warns that the new job sends no callback, where it showed
// only "(sensitive value) -> null". A configuration giving the new job a
// callback_config in use gets no warning.
func TestAccJob_replacedWithoutItsCallbackURL(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	id := createJobFromJSON(t, url, `{"audio_url": "https://example.com/legacy.wav", "callback_url": "`+hooks+`/legacy?token=s3cr3t"}`)
	job := func(audio, more string) string {
		return acctest.JobConfig("legacy", fmt.Sprintf("audio_url = %q\n%s", audio, more))
	}
	w := newCLIWorkspace(t, job("https://example.com/legacy.wav", "")+fmt.Sprintf("import {\n  to = transcription_job.legacy\n  id = %q\n}\n", id),
		EnvAPIKey+"="+acctest.APIKey, EnvBaseURL+"="+url)
	if _, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	const warning = `(?s)Warning: The new job gets no callback_url.*configuration leaves callback_url out`
	for _, c := range []struct {
		name, config string
		warned       bool
	}{
		{"the recording changed", job("https://example.com/other.wav", ""), true},
		{"the recording changed, a callback_config in use", job("https://example.com/other.wav", `callback = true
callback_config = { url = "`+hooks+`/new" }`), false},
	} {
		w.setConfig(c.config)
		stdout, stderr, err := w.run(nil, "plan", "-input=false", "-no-color")
		if err != nil {
			t.Fatalf("%s: plan: %v\n%s", c.name, err, stderr)
		}
		if !strings.Contains(stdout, "must be replaced") {
			t.Fatalf("%s: the plan does not replace the job:\n%s", c.name, stdout)
		}
		if got := acctest.ExpectError(warning).MatchString(stdout + stderr); got != c.warned {
			t.Errorf("%s: warned %v, want %v:\n%s%s", c.name, got, c.warned, stdout, stderr)
		}
	}
}

// TestImportJob_wholeStateAtImport: an import sets the job's whole state,
// so that the refresh after it brings nothing new (Terraform before 1.16
// and OpenTofu log each value a refresh fills in, callback_config.url
// included), and warns of a done job's failed add-ons, as a create that
// waits does.
func TestImportJob_wholeStateAtImport(t *testing.T) {
	const audioURL = "https://example.com/addon-error-503.wav"
	fs, h, created := jobOnFakeServer(t, fakeserver.Options{}, &client.InitTranscriptionRequest{AudioURL: audioURL, Summarization: ptr(true),
		Callback: ptr(true), CallbackConfig: &client.CallbackConfig{URL: "https://hooks.example.com/cb?token=s3cr3t"}})
	fs.SettleJobs()
	typ := h.resourceType(jobResourceTypeName)
	imported, err := h.server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: jobResourceTypeName, ID: created})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(imported.Diagnostics, "Some add-ons of the transcription job failed", "summarization: status_code 503") || len(imported.Diagnostics) != 1 {
		t.Errorf("diagnostics %v, want the one warning naming the failed summary", diagnosticSummaries(imported.Diagnostics))
	}
	state, err := imported.ImportedResources[0].State.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*tftypes.AttributePath{
		tftypes.NewAttributePath().WithAttributeName("audio_url"),
		tftypes.NewAttributePath().WithAttributeName("callback_config").WithAttributeName("url"),
		tftypes.NewAttributePath().WithAttributeName("status"),
	} {
		if v, _, err := tftypes.WalkAttributePath(state, p); err != nil || v.(tftypes.Value).IsNull() {
			t.Errorf("the imported state's %s is %v (%v), want the job's", p, v, err)
		}
	}
	if refreshed := h.readJob(typ, imported.ImportedResources[0].State); !refreshed.Equal(state) {
		diffs, _ := state.Diff(refreshed)
		t.Errorf("the refresh after the import changed %d values, want none: %v", len(diffs), diffs)
	}
}

// TestAccJob_importMetadataNumbersAsJsonencodeWrites: a job created
// elsewhere with numbers in custom_metadata (an id above 2^53, 1.0) is
// imported into a block that writes them with jsonencode, as the attribute
// advises, with no change: state holds their exact text, not a float's.
func TestAccJob_importMetadataNumbersAsJsonencodeWrites(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.numbers"
	id := createJobFromJSON(t, url, `{"audio_url": "https://example.com/numbers.wav",
	  "custom_metadata": {"user_id": 12345678901234567891, "ratio": 1.0, "o": {"n": 2.50e-3}}}`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.ProviderConfig(url) + fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", addr, id) +
				acctest.JobConfig("numbers", `audio_url = "https://example.com/numbers.wav"
custom_metadata = {
  user_id = jsonencode(12345678901234567891)
  ratio   = jsonencode(1.0)
  o       = jsonencode({ n = 0.0025 })
}`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("custom_metadata").AtMapKey("user_id"), knownvalue.StringExact("12345678901234567891")),
			},
			Check: acctest.JobsCreated(fs, 1),
		}},
	})
}

// An id given in another form of a UUID gets a hint of the form to use.
func TestUUIDFormHint(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	for given, want := range map[string]string{
		"urn:uuid:" + id:        " Write it as the plain UUID, without urn:uuid:.",
		"URN:UUID:" + id:        " Write it as the plain UUID, without urn:uuid:.",
		"{" + id + "}":          " Write it without the braces.",
		"urn:uuid:{" + id + "}": " Write it as the plain UUID, without urn:uuid: and the braces.",
		id:                      "",
		"urn:uuid:not-a-uuid":   "",
		"{" + id:                "",
		"job-" + id:             "",
	} {
		if got := uuidFormHint(given); got != want {
			t.Errorf("uuidFormHint(%q) = %q, want %q", given, got, want)
		}
	}
}
