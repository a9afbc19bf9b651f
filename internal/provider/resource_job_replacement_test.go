package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// sameJobStep is a step whose configuration means the same to the service
// as the one applied before: the job is not replaced, and the service still
// has the one job it received. action is the plan's: no change where every
// value was written before in another form (state keeps the applied one),
// an update in state only where one is written out that the job had none
// of (Terraform does not let a plan keep a null for a value the
// configuration sets).
func sameJobStep(fs *fakeserver.Server, url, body string, action plancheck.ResourceActionType) resource.TestStep {
	return resource.TestStep{
		Config: acctest.ProviderConfig(url) + acctest.JobConfig("same", body),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction("transcription_job.same", action),
		}},
		Check: acctest.JobsCreated(fs, 1),
	}
}

// TestAccJob_sameMeaningIsNoReplacement: values that mean the same to the
// service as what was applied (lists whose order means nothing reordered,
// its defaults written out or left out, empty lists and maps for none, the
// configuration of a switch that is off) do not replace the job: another
// form of a value the job has plans no change, and a value written out
// where it had none an update in state only. A change the service would act
// on replaces it.
func TestAccJob_sameMeaningIsNoReplacement(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.same"
	const switches = `audio_url = "https://example.com/same.wav"
summarization = true
subtitles = true
diarization = true
pii_redaction = true
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "Kubernetes" }, { value = "Helm", intensity = 0.8 }] }
`
	const lists = `translation = true
translation_config = { target_languages = ["de", "es"] }
`
	const writtenOut = `custom_metadata = {}
summarization_config = { type = "general" }
subtitles_config = { formats = ["srt"] }
diarization_config = {}
pii_redaction_config = {}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("same", switches+lists+`language_config = { languages = ["en", "fr"] }`),
				Check:  acctest.JobsCreated(fs, 1),
			},
			// Lists whose order means nothing, reordered: no change, and
			// state keeps the order applied.
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("same", `audio_url = "https://example.com/same.wav"
summarization = true
subtitles = true
diarization = true
pii_redaction = true
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "Helm", intensity = 0.8 }, { value = "Kubernetes" }] }
translation = true
translation_config = { target_languages = ["es", "de"] }
language_config = { languages = ["fr", "en"], code_switching = false }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.JobsCreated(fs, 1),
					resource.TestCheckResourceAttr(addr, "language_config.languages.0", "en"),
					resource.TestCheckResourceAttr(addr, "translation_config.target_languages.0", "de"),
					resource.TestCheckResourceAttr(addr, "custom_vocabulary_config.vocabulary.0.value", "Kubernetes"),
				),
			},
			// The service's defaults, and empty values for none, written
			// out where the job had none of them: in state only.
			sameJobStep(fs, url, switches+lists+`language_config = { languages = ["en", "fr"] }
`+writtenOut, plancheck.ResourceActionUpdate),
			// The same written another way: no change.
			sameJobStep(fs, url, `audio_url = "https://example.com/same.wav"
summarization = true
subtitles = true
diarization = true
pii_redaction = true
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "Helm", intensity = 0.8 }, { value = "Kubernetes", pronunciations = [] }] }
`+lists+`language_config = { languages = ["fr", "en"] }
custom_metadata = {}
summarization_config = {}
subtitles_config = { style = "default" }
diarization_config = {}
pii_redaction_config = { entity_types = [] }`, plancheck.ResourceActionNoop),
			// The configuration of a switch that is off is not used: kept
			// in state, as the configurations left out are dropped.
			sameJobStep(fs, url, switches+lists+`language_config = { languages = ["en", "fr"] }
sentiment_analysis = false
audio_to_llm_config = { prompts = ["Not asked: audio_to_llm is off"] }`, plancheck.ResourceActionUpdate),
			{
				// A change the service would act on replaces the job.
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("same", switches+lists+`language_config = { languages = ["en", "fr"] }
summarization_config = { type = "concise" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 2),
			},
		},
	})
}

// TestAccJob_sameCallbackAndAlternativesIsNoReplacement: the deprecated
// callback_url moved to callback_config as its deprecation advises (the same
// POST to the same URL), alternatives reordered (spellings of a key,
// pronunciations) and an intensity equal to default_intensity written out
// change the job in place; another callback method replaces it.
func TestAccJob_sameCallbackAndAlternativesIsNoReplacement(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	hook := hooks + "/moved?token=s3cr3t"
	const options = `audio_url = "https://example.com/moved.wav"
custom_spelling = true
custom_vocabulary = true
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("same", options+fmt.Sprintf(`callback_url = %q
custom_spelling_config = { spelling_dictionary = { Gettleman = ["gettleman", "getleman"] } }
custom_vocabulary_config = { default_intensity = 0.5, vocabulary = [{ value = "Kubernetes", pronunciations = ["koo", "kube"] }] }`, hook)),
				Check: acctest.JobsCreated(fs, 1),
			},
			sameJobStep(fs, url, options+fmt.Sprintf(`callback = true
callback_config = { url = %q }
custom_spelling_config = { spelling_dictionary = { Gettleman = ["getleman", "gettleman"] } }
custom_vocabulary_config = { vocabulary = [{ value = "Kubernetes", intensity = 0.5, pronunciations = ["kube", "koo"] }] }`, hook), plancheck.ResourceActionUpdate),
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("same", options+fmt.Sprintf(`callback = true
callback_config = { url = %q, method = "PUT" }
custom_spelling_config = { spelling_dictionary = { Gettleman = ["getleman", "gettleman"] } }
custom_vocabulary_config = { vocabulary = [{ value = "Kubernetes", intensity = 0.5, pronunciations = ["kube", "koo"] }] }`, hook)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.same", plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 2),
			},
		},
	})
}

// TestAccJob_callbackFormKeptWhileAnotherCallbackFieldIsUnknown: a callback
// URL written another way is kept in its applied form whatever another
// callback attribute, unknown at plan, turns out to be: a rule that chose
// the form from that attribute's value (null or not) planned one form and
// applied the other, and Terraform failed the apply (an inconsistent final
// plan).
func TestAccJob_callbackFormKeptWhileAnotherCallbackFieldIsUnknown(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	job := func(hook, more string) string {
		return acctest.ProviderConfig(url) + acctest.JobConfig("same", fmt.Sprintf(`audio_url = "https://example.com/unknown-beside.wav"
callback = true
callback_config = { url = %q }
%s`, hook, more))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: job(hooks+"/done?t=1", ""), Check: acctest.JobsCreated(fs, 1)},
			{
				// Made in the same apply, unknown at plan, null at apply:
				// the service would ignore it beside callback_config anyway.
				Config: `resource "terraform_data" "x" {
  input = 1
}
` + job("HTTP"+strings.TrimPrefix(hooks, "http")+"/done?t=1", `callback_url = terraform_data.x.id == "" ? "https://example.com/other" : null`),
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.JobsCreated(fs, 1),
					resource.TestCheckResourceAttr("transcription_job.same", "callback_config.url", hooks+"/done?t=1"),
				),
			},
		},
	})
}

// TestAccJob_sameURLWrittenAnotherWayIsNoReplacement: an audio_url or a
// callback URL that names the same resource (RFC 9110 §4.2.3: scheme and
// host without case, an internationalized host name or its ASCII form, the
// scheme's default port, no fragment, unreserved characters encoded or not)
// changes the job in place: the service would
// fetch the same file and call the same address. Another path replaces it.
func TestAccJob_sameURLWrittenAnotherWayIsNoReplacement(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	job := func(audioURL, hook string) string {
		return acctest.ProviderConfig(url) + acctest.JobConfig("same", fmt.Sprintf("audio_url = %q\ncallback_url = %q", audioURL, hook))
	}
	hookAnotherWay := "HTTP" + strings.TrimPrefix(hooks, "http") + "/%64one?token=s3cr3t#received"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: job("https://médias.example.com/calls/same.wav", hooks+"/done?token=s3cr3t"),
				Check:  acctest.JobsCreated(fs, 1),
			},
			{
				Config: job("HTTPS://XN--MDIAS-BSA.Example.COM:443/calls/%73ame.wav#t=30", hookAnotherWay),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.JobsCreated(fs, 1),
					// The form applied stays.
					resource.TestCheckResourceAttr("transcription_job.same", "audio_url", "https://médias.example.com/calls/same.wav"),
				),
			},
			{
				Config: job("https://médias.example.com/calls/Same.wav", hookAnotherWay),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.same", plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 2),
			},
			{
				Config: job("https://médias.example.com/réunion/2024%2F05.wav?team=équipe", hookAnotherWay),
				Check:  acctest.JobsCreated(fs, 3),
			},
			// An encoded "/" is another path, whatever else the path holds.
			{
				Config: job("https://médias.example.com/r%C3%A9union/2024/05.wav?team=équipe", hookAnotherWay),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.same", plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 4),
			},
			// Non-ASCII text raw or percent-encoded, in the path or the
			// query, is sent encoded: the same URL.
			{
				Config: job("https://médias.example.com/réunion/2024/05.wav?team=%C3%A9quipe", hookAnotherWay),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: acctest.JobsCreated(fs, 4),
			},
		},
	})
}

// TestAccJob_unknownRequestValueReplaces: a request value known only at
// apply might differ, so the job is replaced.
func TestAccJob_unknownRequestValueReplaces(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.later"
	config := func(suffix string) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "source" {
  input = %q
}
`, suffix) + acctest.JobConfig("later", `audio_url = "https://example.com/later.wav?v=${terraform_data.source.output}"`)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("1"), Check: acctest.JobsCreated(fs, 1)},
			{
				Config: config("2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("audio_url")),
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 2),
			},
		},
	})
}

// TestAccJob_unknownValueTheServiceIgnoresKeepsTheJob: a value known only
// at apply, in the configuration of a switch known to be off, cannot change
// what the service does, whatever it becomes: the job is updated in place
// (in state only), not replaced. With the switch on, the same value
// replaces it.
func TestAccJob_unknownValueTheServiceIgnoresKeepsTheJob(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.ignored"
	config := func(seconds string, on bool) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "seconds" {
  input = %q
}
`, seconds) + acctest.JobConfig("ignored", fmt.Sprintf(`audio_url = "https://example.com/ignored.wav"
subtitles = %t
subtitles_config = { maximum_duration = terraform_data.seconds.output }
callback = false
callback_config = { url = "https://hooks.example.com/${terraform_data.seconds.output}" }`, on))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("2", false), Check: acctest.JobsCreated(fs, 1)},
			{
				Config: config("3", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("subtitles_config").AtMapKey("maximum_duration")),
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: acctest.JobsCreated(fs, 1),
			},
			{
				Config: config("4", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 2),
			},
		},
	})
}

// TestAccJob_unknownUnusedValueBesideAnotherForm: a value known only at
// apply that the request does not use (default_intensity when every entry
// has its own), beside entries reordered, plans the applied form of the
// whole configuration, as the plan Terraform makes again at apply with the
// value known does: the plan kept the reordered entries, the apply's plan
// the applied ones, and Terraform failed the apply ("Provider produced
// inconsistent final plan").
func TestAccJob_unknownUnusedValueBesideAnotherForm(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.vocabulary"
	config := func(intensity, vocabulary string) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "intensity" {
  input = %s
}
`, intensity) + acctest.JobConfig("vocabulary", fmt.Sprintf(`audio_url = "https://example.com/vocabulary.wav"
custom_vocabulary = true
custom_vocabulary_config = { default_intensity = terraform_data.intensity.output, vocabulary = %s }`, vocabulary))
	}
	const applied = `[{ value = "A", intensity = 0.1 }, { value = "B", intensity = 0.2 }]`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("0.3", applied), Check: acctest.JobsCreated(fs, 1)},
			{
				Config: config("0.4", `[{ value = "B", intensity = 0.2 }, { value = "A", intensity = 0.1 }]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.JobsCreated(fs, 1),
					resource.TestCheckResourceAttr(addr, "custom_vocabulary_config.vocabulary.0.value", "A"),
				),
			},
		},
	})
}

// TestAccJob_unknownBooleanTheServiceIgnoresKeepsTheJob: a boolean known
// only at apply that the service ignores whichever it becomes
// (code_switching with exactly one language) keeps the job, its applied value
// planned, while the same boolean with two languages replaces it.
func TestAccJob_unknownBooleanTheServiceIgnoresKeepsTheJob(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(switching bool) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "switching" {
  input = %t
}
`, switching) + acctest.JobConfig("one", `audio_url = "https://example.com/one.wav"
language_config = { languages = ["en"], code_switching = terraform_data.switching.output }
# Settings of the provider alone, also unknown: they are not the request's.
include_transcript = terraform_data.switching.output
include_raw_result = terraform_data.switching.output`) +
			acctest.JobConfig("two", `audio_url = "https://example.com/two.wav"
language_config = { languages = ["en", "fr"], code_switching = terraform_data.switching.output }`)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(false), Check: acctest.JobsCreated(fs, 2)},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// Unused whatever it becomes: the applied value is kept,
					// as it will be when the apply plans it known.
					plancheck.ExpectKnownValue("transcription_job.one", tfjsonpath.New("language_config").AtMapKey("code_switching"), knownvalue.Bool(false)),
					plancheck.ExpectResourceAction("transcription_job.one", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("transcription_job.two", plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 3),
			},
			{Config: config(true), PlanOnly: true},
		},
	})
}

// TestAccJob_unknownValueTheServiceIgnoresUnderZeroDataRetention: the same
// holds under zero data retention, where a job's computed values are
// unknown until the plan sets them: they are not the request's.
func TestAccJob_unknownValueTheServiceIgnoresUnderZeroDataRetention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime, ZeroDataRetention: true})
	_, hooks := newCallbackReceiver(t)
	config := func(switching bool) string {
		return acctest.ProviderConfig(url, "zero_data_retention = true") + fmt.Sprintf(`
resource "terraform_data" "switching" {
  input = %t
}
`, switching) + acctest.JobConfig("private", fmt.Sprintf(`audio_url = "https://example.com/private.wav"
callback = true
callback_config = { url = "%s/hook" }
language_config = { languages = ["en"], code_switching = terraform_data.switching.output }`, hooks))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(false), Check: acctest.JobsCreated(fs, 1)},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.private", plancheck.ResourceActionNoop),
				}},
				Check: acctest.JobsCreated(fs, 1),
			},
		},
	})
}

// TestAccJob_unknownValueTheServiceIgnoresOtherwiseKeepsTheJob: a value
// known only at apply that the request does not use, whatever it becomes,
// plans no change (the applied value is kept): callback_url beside a callback_config in use,
// default_intensity when every vocabulary entry has its own intensity, the
// callback switch when callback_url alone names the callback (sent whether
// callback is true or not).
func TestAccJob_unknownValueTheServiceIgnoresOtherwiseKeepsTheJob(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	config := func(n int) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "v" {
  input = { url = "%s/old-%d", intensity = 0.%d, on = %t }
}
`, hooks, n, n, n%2 == 0) + acctest.JobConfig("overridden", fmt.Sprintf(`audio_url = "https://example.com/overridden.wav"
callback = true
callback_config = { url = "%s/new" }
callback_url = terraform_data.v.output.url`, hooks)) + acctest.JobConfig("unused", `audio_url = "https://example.com/unused.wav"
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "Kube", intensity = 0.4 }], default_intensity = terraform_data.v.output.intensity }`) +
			acctest.JobConfig("switch", fmt.Sprintf(`audio_url = "https://example.com/switch.wav"
callback_url = "%s/old"
callback = terraform_data.v.output.on`, hooks))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(1), Check: acctest.JobsCreated(fs, 3)},
			{
				Config: config(2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.overridden", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("transcription_job.unused", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("transcription_job.switch", plancheck.ResourceActionNoop),
				}},
				Check: acctest.JobsCreated(fs, 3),
			},
			{Config: config(2), PlanOnly: true},
		},
	})
}

// TestAccJob_importGeneratedConfig: an import block with
// -generate-config-out brings a job under management with no change
// planned, also for a job created with the deprecated callback_url or with
// callback_config (sensitive URLs, which the generated configuration cannot
// hold), with callback = true or without it; and leaving callback_url or
// callback_config.url out of the configuration of a job that has one keeps
// it, as documented.
func TestAccJob_importGeneratedConfig(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	_, hooks := newCallbackReceiver(t)
	legacy := fmt.Sprintf(`audio_url = "https://example.com/legacy.wav"
callback_url = %q
summarization = true`, hooks+"/legacy?token=s3cr3t")
	switched := func(withURL bool) string {
		body := `audio_url = "https://example.com/switched.wav"
callback = true`
		if withURL {
			body += fmt.Sprintf("\ncallback_url = %q", hooks+"/switched?token=s3cr3t")
		}
		return body
	}
	hooked := func(withURL bool) string {
		body := `audio_url = "https://example.com/hooked.wav"
callback = true`
		if withURL {
			return body + fmt.Sprintf("\ncallback_config = { url = %q, method = \"PUT\" }", hooks+"/hooked?token=s3cr3t")
		}
		return body + "\ncallback_config = { method = \"PUT\" }"
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("legacy", legacy) + acctest.JobConfig("switched", switched(true)) +
					acctest.JobConfig("hooked", hooked(true)),
			},
			{
				Config:          acctest.ProviderConfig(url),
				ResourceName:    "transcription_job.legacy",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				GenerateConfig:  true,
			},
			{
				Config:          acctest.ProviderConfig(url),
				ResourceName:    "transcription_job.switched",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				GenerateConfig:  true,
			},
			{
				Config:          acctest.ProviderConfig(url),
				ResourceName:    "transcription_job.hooked",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				GenerateConfig:  true,
			},
			{
				// callback = true with the job's callback_url, and the
				// job's callback_config.url, left out.
				Config: acctest.ProviderConfig(url) + acctest.JobConfig("legacy", legacy) + acctest.JobConfig("switched", switched(false)) +
					acctest.JobConfig("hooked", hooked(false)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
}

// TestAccJob_callbackConfigURLLeftOut: callback_config.url left out of the
// configuration of an existing job keeps the job's (no change planned), but
// a change that replaces the job (another callback method) makes a new job,
// which has none to keep: the plan is refused, naming callback_config.url,
// before any request, and the job is neither destroyed nor made again.
// With the url written out, the same change replaces the job as before.
// The same holds under zero data retention.
func TestAccJob_callbackConfigURLLeftOut(t *testing.T) {
	for _, zdr := range []bool{false, true} {
		t.Run(fmt.Sprintf("zero_data_retention=%t", zdr), func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime, ZeroDataRetention: zdr})
			_, hooks := newCallbackReceiver(t)
			const addr = "transcription_job.hooked"
			provider := acctest.ProviderConfig(url)
			if zdr {
				provider = acctest.ProviderConfig(url, "zero_data_retention = true")
			}
			config := func(callbackConfig string) string {
				return provider + acctest.JobConfig("hooked", `audio_url = "https://example.com/hooked.wav"
callback = true
callback_config = `+callbackConfig)
			}
			hook := fmt.Sprintf("%q", hooks+"/hooked?token=s3cr3t")
			var id string
			unchanged := func(*terraform.State) error {
				if n := fs.Stats().JobsCreated; n != 1 {
					return fmt.Errorf("%d jobs created, want 1", n)
				}
				if acctest.Deleted(fs, id) {
					return fmt.Errorf("job %s was deleted", id)
				}
				return nil
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config: config(`{ url = ` + hook + `, method = "POST" }`),
						Check:  resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&id)),
					},
					{
						Config: config(`{ method = "POST" }`),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectEmptyPlan(),
						}},
					},
					{
						Config:      config(`{ method = "PUT" }`),
						ExpectError: acctest.ExpectError(callbackConfigURLMissing),
					},
					{
						Config: config(`{}`),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectEmptyPlan(),
						}},
						Check: unchanged,
					},
					{
						Config: config(`{ url = ` + hook + `, method = "PUT" }`),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
						}},
						Check: acctest.JobsCreated(fs, 2),
					},
				},
			})
		})
	}
}

// TestAccJob_callbackConfigWithoutURLAdded: a callback_config without url
// added to a job that has none has no url to keep. Ignored (callback off),
// it changes the job in place, in state only, with url null, and plans no
// change after; with callback = true it would make a new job, which needs
// the url: refused at plan, also for a job that had a callback_url.
func TestAccJob_callbackConfigWithoutURLAdded(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	const addr = "transcription_job.added"
	config := func(body string) string {
		return acctest.ProviderConfig(url) + acctest.JobConfig("added", "audio_url = \"https://example.com/added.wav\"\n"+body)
	}
	ignored := config(`callback_config = { method = "PUT" }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(""), Check: acctest.JobsCreated(fs, 1)},
			{
				Config: ignored,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("callback_config").AtMapKey("url"), knownvalue.Null()),
				}},
				Check: acctest.JobsCreated(fs, 1),
			},
			{
				Config: ignored,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				Config:      config("callback = true\ncallback_config = { method = \"PUT\" }"),
				ExpectError: acctest.ExpectError(callbackConfigURLMissing),
			},
			{
				Config: config("callback = true\ncallback_url = \"https://hooks.example.com/added\""),
				Check:  acctest.JobsCreated(fs, 2),
			},
			{
				// Moved to callback_config without its url.
				Config:      config("callback = true\ncallback_config = { method = \"POST\" }"),
				ExpectError: acctest.ExpectError(callbackConfigURLMissing),
			},
		},
	})
}

func TestRequestUnchanged(t *testing.T) {
	typ, ok := resourceSchema(t, NewJobResource()).Type().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("the job's type is not an object")
	}
	const audioURL = "https://example.com/a.wav"
	job := func(set map[string]tftypes.Value) tftypes.Value {
		attrs := map[string]tftypes.Value{
			"audio_url":   tftypes.NewValue(tftypes.String, audioURL),
			"diarization": tftypes.NewValue(tftypes.Bool, true),
			"status":      tftypes.NewValue(tftypes.String, "done"),
		}
		maps.Copy(attrs, set)
		return objectValue(typ, attrs)
	}
	applied := job(nil)
	tests := []struct {
		name    string
		planned tftypes.Value
		want    bool
	}{
		{name: "the same", planned: job(nil), want: true},
		{name: "another fact of the job", planned: job(map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}), want: true},
		{name: "another setting", planned: job(map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)}), want: true},
		{name: "another request value", planned: job(map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, "https://example.com/b.wav")}), want: false},
		{name: "a request value unknown", planned: job(map[string]tftypes.Value{"diarization": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)}), want: false},
		{name: "a request value left out", planned: job(map[string]tftypes.Value{"diarization": tftypes.NewValue(tftypes.Bool, nil)}), want: false},
		{name: "a nested request value", planned: job(map[string]tftypes.Value{"custom_metadata": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{})}), want: false},
		{name: "not an object", planned: tftypes.NewValue(tftypes.String, "x"), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := requestUnchanged(tt.planned, applied); got != tt.want {
				t.Errorf("requestUnchanged = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestAccJob_partlyUnknownValuesOnUpdate: when an applied job's request
// holds values known only after apply (a list element, a map value, a whole
// nested list), the plan replaces it instead of failing on them.
func TestAccJob_partlyUnknownValuesOnUpdate(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(input string) string {
		return acctest.ProviderConfig(url) + fmt.Sprintf(`
resource "terraform_data" "word" {
  input = %q
}
resource "terraform_data" "entries" {
  input = [{ value = %q }]
}
`, input, input) + acctest.JobConfig("partly", `audio_url = "https://example.com/partly.wav"
language_config = { languages = ["en"] }
translation = true
translation_config = { target_languages = ["fr"] }
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = [{ value = "Kubernetes", pronunciations = [terraform_data.word.output] }] }
custom_spelling = true
custom_spelling_config = { spelling_dictionary = { Gettleman = [terraform_data.word.output] } }
audio_to_llm = true
audio_to_llm_config = { prompts = ["Summarize ${terraform_data.word.output}"] }
custom_metadata = { build = terraform_data.word.output }`) + acctest.JobConfig("whole", `audio_url = "https://example.com/whole.wav"
custom_vocabulary = true
custom_vocabulary_config = { vocabulary = terraform_data.entries.output }`)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("one"), Check: acctest.JobsCreated(fs, 2)},
			{
				Config: config("two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.partly", plancheck.ResourceActionReplace),
					plancheck.ExpectResourceAction("transcription_job.whole", plancheck.ResourceActionReplace),
				}},
				Check: acctest.JobsCreated(fs, 4),
			},
		},
	})
}

// TestUnknownValueOutcomes: an attribute whose only unknowns are booleans,
// strings or numbers is compared in each combination of their probes, with
// the other attributes not wholly known null; one holding an unknown list,
// map or object, or more unknowns than maxProbedValues, is not probed and
// is null in the one outcome. Attributes not compared (here e: a computed
// value, or a setting of the provider alone) neither count nor are probed.
func TestUnknownValueOutcomes(t *testing.T) {
	config := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"flag": tftypes.Bool, "text": tftypes.String, "n": tftypes.Number}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": config, "b": config, "c": tftypes.Bool, "d": tftypes.Bool, "e": tftypes.Bool}}
	unknownBool := tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)
	unknownString := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	unknownNumber := tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
	one := tftypes.NewValue(tftypes.Number, 1)
	configOf := func(flag, text, n tftypes.Value) tftypes.Value {
		return tftypes.NewValue(config, map[string]tftypes.Value{"flag": flag, "text": text, "n": n})
	}
	known := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	object := func(a, b, c, d, e tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"a": a, "b": b, "c": c, "d": d, "e": e})
	}
	f := tftypes.NewValue(tftypes.Bool, false)
	tests := map[string]struct {
		planned      tftypes.Value
		wantOutcomes int
		wantProbed   []string
	}{
		"nothing unknown":                  {object(configOf(f, known("x"), one), configOf(f, known("y"), one), f, f, f), 1, nil},
		"a boolean in an object":           {object(configOf(unknownBool, known("x"), one), configOf(f, known("y"), one), f, f, f), 2, []string{"a"}},
		"a string and a number":            {object(configOf(f, unknownString, unknownNumber), configOf(f, known("y"), one), f, f, f), 4, []string{"a"}},
		"four values":                      {object(configOf(unknownBool, unknownString, one), configOf(unknownBool, known("y"), one), unknownBool, f, f), 16, []string{"a", "b", "c"}},
		"five values":                      {object(configOf(unknownBool, unknownString, one), configOf(unknownBool, known("y"), one), unknownBool, unknownBool, f), 1, nil},
		"an unknown object":                {object(tftypes.NewValue(config, tftypes.UnknownValue), configOf(f, known("y"), one), f, f, f), 1, nil},
		"an unknown object and a switch":   {object(tftypes.NewValue(config, tftypes.UnknownValue), configOf(f, known("y"), one), unknownBool, f, f), 2, []string{"c"}},
		"four values and one not compared": {object(configOf(unknownBool, unknownString, one), configOf(unknownBool, known("y"), one), unknownBool, f, unknownBool), 16, []string{"a", "b", "c"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			knownAttributes, diags := fullyKnownAttributes(tt.planned)
			if diags.HasError() {
				t.Fatal(diags)
			}
			outcomes, probed := unknownValueOutcomes(tt.planned, knownAttributes, func(name string) bool { return name != "e" })
			if len(outcomes) != tt.wantOutcomes {
				t.Fatalf("%d outcomes, want %d", len(outcomes), tt.wantOutcomes)
			}
			if got := slices.Sorted(maps.Keys(probed)); !slices.Equal(got, tt.wantProbed) {
				t.Errorf("probed %v, want %v", got, tt.wantProbed)
			}
			seen := map[string]bool{}
			for _, outcome := range outcomes {
				if !outcome.IsFullyKnown() {
					t.Errorf("outcome %v holds an unknown value", outcome)
				}
				seen[outcome.String()] = true
			}
			if len(seen) != len(outcomes) {
				t.Errorf("%d distinct outcomes of %d", len(seen), len(outcomes))
			}
		})
	}
}
