package provider

import (
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// callbackURLDeprecation is what the deprecation warning of callback_url
// says.
const callbackURLDeprecation = "callback_url is deprecated by the service"

// TestAccJob_deprecationWarnsOnlyWhereCallbackURLIsSet: the documentation's
// batch pattern (a data source per job, for_each over the jobs) and an
// output of a whole job plan without a word of callback_url, which they do
// not set; a job that sets it is warned. OpenTofu 1.12 warns of every value
// derived from an attribute its schema marks deprecated, the whole object of
// a job that never set it included ("Value derived from a deprecated
// source"), so the warning must come from validation alone.
func TestAccJob_deprecationWarnsOnlyWhereCallbackURLIsSet(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	env := []string{EnvBaseURL + "=" + url, EnvAPIKey + "=" + acctest.APIKey}
	plan := func(config string) string {
		t.Helper()
		w := newCLIWorkspace(t, config, env...)
		out, errOut, err := w.run(nil, "plan", "-input=false", "-no-color")
		if err != nil {
			t.Fatalf("plan: %v\n%s\n%s", err, out, errOut)
		}
		return out + errOut
	}

	unset := plan(`
resource "transcription_job" "call" {
  for_each            = toset(["https://example.com/call-1.wav", "https://example.com/call-2.wav"])
  audio_url           = each.value
  summarization       = true
  wait_for_completion = false
}

data "transcription_job" "call" {
  for_each            = transcription_job.call
  id                  = each.value.id
  wait_for_completion = true
}

output "summaries" {
  value = { for url, job in data.transcription_job.call : url => job.result.summarization.results }
}

output "first_job" {
  value     = transcription_job.call["https://example.com/call-1.wav"]
  sensitive = true
}
`)
	if strings.Contains(strings.ToLower(unset), "deprecated") {
		t.Errorf("a configuration that does not set callback_url is warned of its deprecation:\n%s", unset)
	}

	set := plan(`
resource "transcription_job" "legacy" {
  audio_url    = "https://example.com/legacy.wav"
  callback_url = "https://hooks.example.com/legacy"
}
`)
	if !strings.Contains(set, callbackURLDeprecation) {
		t.Errorf("a job that sets callback_url is not warned of its deprecation:\n%s", set)
	}
}
