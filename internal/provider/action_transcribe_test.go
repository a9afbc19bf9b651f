package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

const transcribeActionConfig = `provider "transcription" {}

action "transcription_transcribe" "standup" {
  config {
    audio_url     = "https://example.com/standup.wav?duration=12"
    summarization = true
    language_config = {
      languages = ["en"]
    }
  }
}
`

// triggerAfterCreate is a terraform_data resource holding input (HCL) whose
// creation invokes the action at actionAddress, which reads the input as
// caller.output.
func triggerAfterCreate(input, actionAddress string) string {
	return fmt.Sprintf(`
resource "terraform_data" "trigger" {
  input = %s
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [%s]
    }
  }
}
`, input, actionAddress)
}

// TestAccTranscribe_invoke: terraform apply -invoke runs a transcription,
// reporting the job's creation, its status changes and its outcome, and
// keeps nothing in state.
func TestAccTranscribe_invoke(t *testing.T) {
	requireCurrentTerraform(t)
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	w := newCLIWorkspace(t, transcribeActionConfig, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.transcription_transcribe.standup")
	if err != nil {
		t.Fatalf("terraform apply -invoke: %v\n%s\n%s", err, out, errOut)
	}
	jobs := serviceJobs(t, url)
	if len(jobs) != 1 {
		t.Fatalf("%d jobs on the service, want 1", len(jobs))
	}
	job := jobs[0]
	for _, want := range []string{
		"Created transcription job " + job.ID,
		"Transcription job " + job.ID + " is done: 12 s of audio in en. Summary: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not report %q:\n%s", want, out)
		}
	}
	if job.Status != client.StatusDone {
		t.Errorf("the job is %s, want done", job.Status)
	}
}

// TestAccTranscribe_createAnsweredAfterTimeoutsInvoke: a create answered
// after timeouts.invoke ran out made the job; the error says the create's
// answer took the limit, and where the job's result will be.
func TestAccTranscribe_createAnsweredAfterTimeoutsInvoke(t *testing.T) {
	requireCurrentTerraform(t)
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	fs.SetFaults(fakeserver.Faults{Latency: 3 * time.Second})
	config := strings.Replace(transcribeActionConfig, "summarization = true", "summarization = true\n    timeouts = { invoke = \"2s\" }", 1)
	w := newCLIWorkspace(t, config, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	_, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.transcription_transcribe.standup")
	if err == nil {
		t.Fatal("the invocation succeeded")
	}
	detail := strings.Join(strings.Fields(errOut), " ")
	for _, want := range []string{"the service answered its create after timeouts.invoke (2s) had run out, leaving no time to wait for it", "The service goes on processing the job. Its result will be at " + url} {
		if !strings.Contains(detail, want) {
			t.Errorf("the error does not say %q:\n%s", want, errOut)
		}
	}
	if n := fs.Stats().JobsCreated; n != 1 {
		t.Errorf("%d jobs created, want 1", n)
	}
}

// TestAccTranscribe_rateLimited: a create the service keeps turning away
// (429 after every retry) fails the invocation saying what follows for an
// action, which keeps nothing and has no next apply to submit the job: it
// said "apply again to submit it", as for the resource.
func TestAccTranscribe_rateLimited(t *testing.T) {
	requireCurrentTerraform(t)
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	fs.SetFaults(fakeserver.Faults{RateLimitRatio: 1, RetryAfter: 1})
	config := strings.Replace(transcribeActionConfig, `provider "transcription" {}`, `provider "transcription" {
  max_retries = 0
}`, 1)
	w := newCLIWorkspace(t, config, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.transcription_transcribe.standup")
	if err == nil {
		t.Fatalf("the invocation succeeded under a rate limit\n%s", out)
	}
	detail := strings.Join(strings.Fields(errOut), " ")
	for _, want := range []string{"Error: Cannot create the transcription job", "status 429", "No job was created", actionCreate.nextTry} {
		if !strings.Contains(detail, want) {
			t.Errorf("the error does not say %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(detail, "apply again") || strings.Contains(detail, "next apply") {
		t.Errorf("the action's error gives the resource's advice (apply again):\n%s", errOut)
	}
	if n := fs.Stats().JobsCreated; n != 0 {
		t.Errorf("%d jobs created", n)
	}

	// timeouts.invoke bounds the create's tries too: with max_retries = 50
	// the invocation ends when it runs out, naming it.
	fs.ResetRequests()
	limited := strings.Replace(config, "max_retries = 0", "max_retries = 50", 1)
	limited = strings.Replace(limited, "summarization = true", "summarization = true\n    timeouts = { invoke = \"2s\" }", 1)
	w = newCLIWorkspace(t, limited, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	if _, errOut, err = w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.transcription_transcribe.standup"); err == nil {
		t.Fatal("the invocation succeeded under a rate limit")
	}
	detail = strings.Join(strings.Fields(errOut), " ")
	if want := "No job was created: timeouts.invoke (2s) ran out with no try of the request in flight"; !strings.Contains(detail, want) {
		t.Errorf("the error does not say %q:\n%s", want, errOut)
	}
	if n := len(fs.Requests()); n > 5 {
		t.Errorf("%d tries of the create, past timeouts.invoke", n)
	}
}

// serviceJobs lists the pre-recorded jobs the service holds.
func serviceJobs(t *testing.T, baseURL string) []client.PreRecordedJob {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, err := c.ListAllPreRecorded(context.Background(), client.ListOptions{}, 0, 100, client.WithoutUtterances)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// TestAccTranscribe_actionTrigger: an action_trigger runs the action after
// another resource's creation, once.
func TestAccTranscribe_actionTrigger(t *testing.T) {
	requireCurrentTerraform(t)
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	w := newCLIWorkspace(t, transcribeActionConfig+triggerAfterCreate(`"standup"`, "action.transcription_transcribe.standup"), EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	for run := range 2 {
		out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
		if err != nil {
			t.Fatalf("apply %d: %v\n%s\n%s", run, err, out, errOut)
		}
	}
	if n := fs.Stats().JobsCreated; n != 1 {
		t.Errorf("%d jobs created over two applies, want 1 (after the trigger's one creation)", n)
	}
}

// TestAccTranscribe_exampleRunsOncePerRecording: the action's documented
// example transcribes each recording once: when it is first uploaded and
// when new content replaces the upload, not when the same file is moved
// (an update in place, which uploads nothing).
func TestAccTranscribe_exampleRunsOncePerRecording(t *testing.T) {
	requireCurrentTerraform(t)
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "actions", "transcription_transcribe", "action.tf"))
	if err != nil {
		t.Fatal(err)
	}
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	w := newCLIWorkspace(t, "provider \"transcription\" {}\n"+string(example), EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	write := func(dir string, seconds float64) string {
		path := filepath.Join(dir, "standup.wav") // a file of another name is another upload
		if err := os.WriteFile(path, testutil.SilentWAV(seconds, 1, 8000), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	first, moved := t.TempDir(), t.TempDir()
	for _, step := range []struct {
		what    string
		dir     string
		seconds float64
		jobs    int
	}{
		{"upload", first, 3, 1},
		{"the same file moved", moved, 3, 1},
		{"new content", moved, 4, 2},
	} {
		recording := write(step.dir, step.seconds)
		out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-var", "recording="+recording)
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", step.what, err, out, errOut)
		}
		if n := fs.Stats().JobsCreated; n != step.jobs {
			t.Errorf("after %s: %d jobs created, want %d", step.what, n, step.jobs)
		}
	}
}

// TestAccTranscribe_refusedAtPlan: what cannot work is refused when the
// action is planned, before any call to the service.
func TestAccTranscribe_refusedAtPlan(t *testing.T) {
	requireCurrentTerraform(t)
	for name, tc := range map[string]struct {
		provider, vars, config, want string
	}{
		// Terraform validates an action's configuration only while
		// variables are unknown (the validate walk), and plans it with them
		// known: the plan checks them.
		"a model from a variable": {
			vars:   `variable "model" { default = "model-9" }`,
			config: "audio_url = \"https://example.com/a.wav\"\n    model = var.model",
			want:   `Attribute model value must be one of`,
		},
		"a switch from a variable without its configuration": {
			vars:   `variable "translate" { default = true }`,
			config: "audio_url = \"https://example.com/a.wav\"\n    translation = var.translate",
			want:   "translation = true needs translation_config",
		},
		"an audio_url from a variable": {
			vars:   `variable "recording" { default = "not a url" }`,
			config: "audio_url = var.recording",
			want:   "Attribute audio_url",
		},
		"zero data retention without callback": {
			provider: "zero_data_retention = true",
			config:   `audio_url = "https://example.com/private.wav"`,
			want:     "A callback is required under zero data retention",
		},
		"waiting under zero data retention": {
			provider: "zero_data_retention = true",
			config:   "audio_url = \"https://example.com/private.wav\"\n    callback = true\n    callback_config = { url = \"https://hooks.example.com/x\" }\n    wait_for_completion = true",
			want:     "Cannot wait for a job under zero data retention",
		},
		"zero data retention with an uploaded file": {
			provider: "zero_data_retention = true",
			config:   "audio_url = \"SERVICE/file/0badc0de-0000-4000-8000-000000000000\"\n    callback = true\n    callback_config = { url = \"https://hooks.example.com/x\" }",
			want:     "audio_url must be an external URL under zero data retention",
		},
		"a switch without its configuration": {
			config: "audio_url = \"https://example.com/a.wav\"\n    translation = true",
			want:   "translation = true needs translation_config",
		},
		// Required here, unlike the resource's: an action has no job to
		// keep a URL from.
		"callback_config without url": {
			config: "audio_url = \"https://example.com/a.wav\"\n    callback = true\n    callback_config = { method = \"PUT\" }",
			want:   `attribute "url" is required`,
		},
		// The resource refuses this on its plan (checkCallbackDestination);
		// the action has its own validator on callback.
		"a callback without a destination": {
			config: "audio_url = \"https://example.com/a.wav\"\n    callback = true",
			want:   "Callback without a destination",
		},
		// A string argument keeps the resource's validators.
		"an unknown model": {
			config: "audio_url = \"https://example.com/a.wav\"\n    model = \"model-9\"",
			want:   `Attribute model value must be one of`,
		},
		// A list or map argument keeps them too.
		"a null target language": {
			config: "audio_url = \"https://example.com/a.wav\"\n    translation = true\n    translation_config = { target_languages = [\"de\", null] }",
			want:   "Attribute translation_config.target_languages must not hold null, and its element 1 is null",
		},
		"model-3 without a language": {
			config: "audio_url = \"https://example.com/a.wav\"\n    model = \"model-3\"",
			want:   "model-3 needs one language",
		},
		"a fraction of a speaker": {
			config: "audio_url = \"https://example.com/a.wav\"\n    diarization = true\n    diarization_config = { number_of_speakers = 2.5 }",
			want:   "Attribute diarization_config.number_of_speakers must be a whole number, got: 2.5",
		},
		"timeout that is not a duration": {
			config: "audio_url = \"https://example.com/a.wav\"\n    timeouts = { invoke = \"30 minutes\" }",
			want:   `Attribute timeouts.invoke value must be a Go duration greater than zero`,
		},
		"timeout of zero": {
			config: "audio_url = \"https://example.com/a.wav\"\n    timeouts = { invoke = \"0s\" }",
			want:   "Timeout must be greater than zero",
		},
		// The resource's rule for a new job: every run makes one.
		"a blank prompt": {
			config: "audio_url = \"https://example.com/a.wav\"\n    audio_to_llm = true\n    audio_to_llm_config = { prompts = [\"Summarize\", \" \"] }",
			want:   `Attribute audio_to_llm_config.prompts[1] must not be empty or blank, got: " "`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: tc.provider != ""})
			// SERVICE stands for the fake server's address, known only here.
			config := fmt.Sprintf("provider \"transcription\" {\n  %s\n}\n\n%s\n\naction \"transcription_transcribe\" \"x\" {\n  config {\n    %s\n  }\n}\n", tc.provider, tc.vars, strings.ReplaceAll(tc.config, "SERVICE", url))
			w := newCLIWorkspace(t, config, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
			out, errOut, err := w.run(nil, "plan", "-no-color", "-input=false", "-invoke=action.transcription_transcribe.x")
			if err == nil || !strings.Contains(strings.Join(strings.Fields(errOut), " "), tc.want) {
				t.Fatalf("plan: err %v, want an error saying %q\n%s\n%s", err, tc.want, out, errOut)
			}
			if reqs := fs.Requests(); len(reqs) != 0 {
				t.Errorf("the refused plan sent %d requests to the service", len(reqs))
			}
		})
	}
}

// TestAccTranscribe_refusedAtInvoke: Terraform checks an action's
// configuration (ValidateActionConfig, PlanAction) only with the values
// known at plan, and invokes it with the final ones without checking them
// again. A value unknown at plan (here the triggering resource's output) is
// checked when the action is invoked, before any call to the service.
func TestAccTranscribe_refusedAtInvoke(t *testing.T) {
	requireCurrentTerraform(t)
	for name, tc := range map[string]struct {
		provider, input, config, want string
	}{
		"a language known only at apply": {
			input:  `"xx"`,
			config: "language_config = { languages = [caller.output] }",
			want:   `Attribute language_config.languages[0] value must be one of`,
		},
		"a fraction of a speaker known only at apply": {
			input:  "2.5",
			config: "diarization = true\n    diarization_config = { number_of_speakers = caller.output }",
			want:   "Attribute diarization_config.number_of_speakers must be a whole number, got: 2.5",
		},
		"a vocabulary entry known only at apply": {
			input:  "2",
			config: "custom_vocabulary = true\n    custom_vocabulary_config = { vocabulary = [{ value = \"Kubernetes\", intensity = caller.output }] }",
			want:   "Attribute custom_vocabulary_config.vocabulary[0].intensity value must be between 0 and 1, got: 2",
		},
		"the second vocabulary entry known only at apply": {
			input:  "2",
			config: "custom_vocabulary = true\n    custom_vocabulary_config = { vocabulary = [{ value = \"Kubernetes\" }, { value = \"Terraform\", intensity = caller.output }] }",
			want:   "Attribute custom_vocabulary_config.vocabulary[1].intensity value must be between 0 and 1, got: 2",
		},
		"a vocabulary entry's value null at apply": {
			input:  "null",
			config: "custom_vocabulary = true\n    custom_vocabulary_config = { vocabulary = [{ value = caller.output }] }",
			want:   "Must set a configuration value for the custom_vocabulary_config.vocabulary[0].value attribute",
		},
		"speakers known only at apply": {
			input:  "5",
			config: "diarization = true\n    diarization_config = { min_speakers = caller.output, max_speakers = 2 }",
			want:   "Attribute diarization_config.min_speakers must be at most diarization_config.max_speakers (2), got: 5",
		},
		"a switch known only at apply without its configuration": {
			input:  "true",
			config: "translation = caller.output",
			want:   "translation = true needs translation_config",
		},
		"a metadata value null at apply": {
			input:  "null",
			config: "custom_metadata = { team = caller.output }",
			want:   `Attribute custom_metadata must not hold null, and the value of "team" is null`,
		},
		"a timeout known only at apply": {
			input:  `"30 minutes"`,
			config: "timeouts = { invoke = caller.output }",
			want:   `Attribute timeouts.invoke value must be a Go duration greater than zero`,
		},
		"a required argument null at apply": {
			input:  "null",
			config: "audio_to_llm = true\n    audio_to_llm_config = { prompts = caller.output }",
			want:   "Must set a configuration value for the audio_to_llm_config.prompts attribute",
		},
		"zero data retention, callback known only at apply": {
			provider: "zero_data_retention = true",
			input:    "false",
			config:   "callback = caller.output\n    callback_config = { url = \"https://hooks.example.com/x\" }",
			want:     "A callback is required under zero data retention",
		},
		"zero data retention, waiting known only at apply": {
			provider: "zero_data_retention = true",
			input:    "true",
			config:   "callback = true\n    callback_config = { url = \"https://hooks.example.com/x\" }\n    wait_for_completion = caller.output",
			want:     "Cannot wait for a job under zero data retention",
		},
	} {
		t.Run(name, func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: tc.provider != ""})
			config := fmt.Sprintf(`provider "transcription" {
  %s
}

action "transcription_transcribe" "x" {
  config {
    audio_url = "https://example.com/a.wav"
    %s
  }
}
`, tc.provider, tc.config) + triggerAfterCreate(tc.input, "action.transcription_transcribe.x")
			w := newCLIWorkspace(t, config, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
			out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
			if err == nil || !strings.Contains(strings.Join(strings.Fields(errOut), " "), tc.want) {
				t.Fatalf("apply: err %v, want an error saying %q\n%s\n%s", err, tc.want, out, errOut)
			}
			if reqs := fs.Requests(); len(reqs) != 0 {
				t.Errorf("the refused invocation sent %d requests to the service", len(reqs))
			}
		})
	}
}

// TestAccTranscribe_failedAddonShown: a job done with a failed add-on is
// reported in what terraform apply prints when a resource's action_trigger
// invokes the action, on a recording whose add-ons the fake server fails.
// Terraform 1.16 prints the warnings an action completes with for -invoke,
// but drops them for a trigger.
func TestAccTranscribe_failedAddonShown(t *testing.T) {
	requireCurrentTerraform(t)
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := strings.Replace(transcribeActionConfig, "standup.wav", "standup-addon-error-503.wav", 1)
	w := newCLIWorkspace(t, config+triggerAfterCreate("1", "action.transcription_transcribe.standup"), EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
	if err != nil {
		t.Fatalf("terraform apply: %v\n%s\n%s", err, out, errOut)
	}
	if want := "summarization: status_code 503, " + failedAddonText; !strings.Contains(out+errOut, want) {
		t.Errorf("the output does not report %q:\n%s\n%s", want, out, errOut)
	}
}

// TestAccTranscribe_valuesKnownOnlyAtApply: values known only when the
// action is invoked pass the same checks as at plan, and reach the service
// as the plan would have sent them (whole numbers as numbers).
func TestAccTranscribe_valuesKnownOnlyAtApply(t *testing.T) {
	requireCurrentTerraform(t)
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := `provider "transcription" {}

action "transcription_transcribe" "x" {
  config {
    audio_url          = "https://example.com/a.wav"
    diarization        = true
    diarization_config = { min_speakers = caller.output.speakers, max_speakers = caller.output.at_most }
    translation        = caller.output.translate
    translation_config = { target_languages = ["fr"] }
  }
}
` + triggerAfterCreate("{ speakers = 3, at_most = 4, translate = true }", "action.transcription_transcribe.x")
	w := newCLIWorkspace(t, config, EnvBaseURL+"="+url, EnvAPIKey+"="+acctest.APIKey)
	out, errOut, err := w.run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
	if err != nil {
		t.Fatalf("apply: %v\n%s\n%s", err, out, errOut)
	}
	bodies := fs.CreateBodies()
	if len(bodies) != 1 {
		t.Fatalf("%d jobs created, want 1", len(bodies))
	}
	var sent struct {
		DiarizationConfig struct {
			MinSpeakers json.Number `json:"min_speakers"`
			MaxSpeakers json.Number `json:"max_speakers"`
		} `json:"diarization_config"`
		Translation bool `json:"translation"`
	}
	if err := json.Unmarshal(bodies[0], &sent); err != nil {
		t.Fatal(err)
	}
	if sent.DiarizationConfig.MinSpeakers != "3" || sent.DiarizationConfig.MaxSpeakers != "4" || !sent.Translation {
		t.Errorf("the service got %s, want 3 to 4 speakers and translation", bodies[0])
	}
}

// cancelWhenDoneRead is a transport that ends the call's context once the
// body of a job record saying "done" has been read whole and closed: an
// interrupt (Ctrl-C) landing just as the wait sees the job end.
type cancelWhenDoneRead struct{ cancel context.CancelFunc }

func (c cancelWhenDoneRead) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if bytes.Contains(body, []byte(`"status":"done"`)) {
		resp.Body = closeFunc{resp.Body, c.cancel}
	}
	return resp, nil
}

type closeFunc struct {
	io.Reader
	onClose func()
}

func (c closeFunc) Close() error { c.onClose(); return nil }

// transcribeActionOnClient is the action on client c, polling on the tests'
// schedule, and its configuration transcribing one recording.
func transcribeActionOnClient(t *testing.T, c *client.Client) (*transcribeAction, tfsdk.Config) {
	t.Helper()
	a := &transcribeAction{data: &ProviderData{Client: c}, poll: testPollSchedule}
	var schemaResp action.SchemaResponse
	a.Schema(context.Background(), action.SchemaRequest{}, &schemaResp)
	return a, tfsdk.Config{Schema: schemaResp.Schema, Raw: frameworktest.Object(t, schemaResp.Schema.Type(), map[string]tftypes.Value{
		"audio_url": frameworktest.String("https://example.com/standup.wav"),
	})}
}

// TestTranscribe_noProgressAfterInterrupt: once Terraform is interrupted,
// the stream of progress events is gone (terraform-plugin-go stops taking
// events when the context ends, and the framework's loop then stops
// receiving them), so the action must not send another one: each is an
// unbuffered channel send, which blocked the action's goroutine forever
// when an interrupt landed as the wait saw the job end (its status, then
// its outcome, were sent).
func TestTranscribe_noProgressAfterInterrupt(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: 20 * time.Millisecond})
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, HTTPClient: &http.Client{Transport: cancelWhenDoneRead{interrupt}}})
	if err != nil {
		t.Fatal(err)
	}
	a, config := transcribeActionOnClient(t, c)

	// The framework's InvokeAction: progress goes through an unbuffered
	// channel to a loop that ends when terraform-plugin-go takes no more
	// events, which it checks as each one comes (its context done).
	progress := make(chan action.InvokeProgressEvent)
	resp := &action.InvokeResponse{SendProgress: func(ev action.InvokeProgressEvent) { progress <- ev }}
	invoked := make(chan struct{})
	go func() {
		defer close(invoked)
		a.Invoke(ctx, action.InvokeRequest{Config: config}, resp)
	}()
	var received []string
stream:
	for {
		select {
		case <-invoked:
			break stream
		case ev := <-progress:
			if ctx.Err() != nil {
				break stream // terraform-plugin-go: "Context done"
			}
			received = append(received, ev.Message)
		}
	}
	if ctx.Err() == nil {
		t.Fatalf("the action ended before the interrupt: %v %v", received, resp.Diagnostics)
	}
	select {
	case <-invoked:
	case <-time.After(30 * time.Second):
		t.Fatalf("the action is still blocked sending progress after the interrupt (received before it: %q)", received)
	}
}

// TestTranscribe_interruptedWaitLogged: an interrupted action's error,
// which names the job left running and where its result will be, reaches
// only the provider's log (terraform-plugin-go sends nothing once the
// request's context has ended): it is logged as a warning.
func TestTranscribe_interruptedWaitLogged(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: fakeserver.NewManualClock(time.Now())})
	var logged bytes.Buffer
	ctx, interrupt := context.WithCancel(tflogtest.RootLogger(context.Background(), &logged))
	defer interrupt()
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	a, config := transcribeActionOnClient(t, c)
	resp := &action.InvokeResponse{SendProgress: func(ev action.InvokeProgressEvent) {
		if strings.HasPrefix(ev.Message, "Transcription job ") { // seen queued: the wait is on
			interrupt()
		}
	}}
	a.Invoke(ctx, action.InvokeRequest{Config: config}, resp)
	if !resp.Diagnostics.HasError() || resp.Diagnostics[0].Summary() != "Interrupted while waiting for the transcription job" {
		t.Fatalf("diagnostics %v, want the interrupted wait's error", resp.Diagnostics)
	}
	entries, err := tflogtest.MultilineJSONDecode(&logged)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(entries, func(e map[string]any) bool {
		detail, _ := e["detail"].(string)
		return e["@level"] == "warn" && e["@message"] == "Interrupted while waiting for the transcription job" &&
			strings.Contains(detail, "Its result will be at "+url) && e["job_id"] != nil
	}) {
		t.Errorf("no warning in the log carries the interrupted action's error:\n%s", logged.String())
	}
}

// TestTranscribe_schemaDescriptionsFitAnAction: the action's arguments come
// from the transcription_job resource's, but an action's arguments cannot be
// sensitive and an action keeps no job to import or replace, nor a result
// to read, so no description may say otherwise (the callback URLs' said
// "Sensitive" and advised `terraform apply -replace` on the resource, and
// the add-ons' pointed at `result.summarization` and the like).
func TestTranscribe_schemaDescriptionsFitAnAction(t *testing.T) {
	var resp action.SchemaResponse
	(&transcribeAction{}).Schema(context.Background(), action.SchemaRequest{}, &resp)
	misleading := []string{"Sensitive,", "-replace", "import", "`result.", "refresh", "in state"}
	var walk func(prefix string, attrs map[string]actionschema.Attribute)
	walk = func(prefix string, attrs map[string]actionschema.Attribute) {
		for name, a := range attrs {
			desc := a.GetMarkdownDescription()
			for _, s := range misleading {
				if strings.Contains(desc, s) {
					t.Errorf("action argument %s%s: description holds %q, which is not true of an action: %s", prefix, name, s, desc)
				}
			}
			switch n := a.(type) {
			case actionschema.SingleNestedAttribute:
				walk(prefix+name+".", n.Attributes)
			case actionschema.ListNestedAttribute:
				walk(prefix+name+".", n.NestedObject.Attributes)
			}
		}
	}
	walk("", resp.Schema.Attributes)
	for _, p := range []string{"callback_url", "callback_config.url"} {
		if !strings.Contains(actionDescriptionAt(t, resp.Schema.Attributes, p), "`sensitive`") {
			t.Errorf("action argument %s: its description does not say how to keep a token in it hidden", p)
		}
	}
}

func actionDescriptionAt(t *testing.T, attrs map[string]actionschema.Attribute, dotted string) string {
	t.Helper()
	name, rest, nested := strings.Cut(dotted, ".")
	a, ok := attrs[name]
	if !ok {
		t.Fatalf("no action argument %s", name)
	}
	if !nested {
		return a.GetMarkdownDescription()
	}
	n, ok := a.(actionschema.SingleNestedAttribute)
	if !ok {
		t.Fatalf("action argument %s is not a nested object", name)
	}
	return actionDescriptionAt(t, n.Attributes, rest)
}

// TestJobOutcome: the last progress message of a job that is done says how
// much audio it transcribed, in which languages, and its summary, leaving
// out each part the result does not have (an empty language list or
// summary is not shown as one).
func TestJobOutcome(t *testing.T) {
	const id = "6f1c1a2e-0000-4000-8000-000000000001"
	result := func(languages []string, summary *string) *client.Result {
		return &client.Result{
			Metadata:      client.ResultMetadata{AudioDuration: 12.5},
			Transcription: &client.Transcription{Languages: languages},
			Summarization: &client.AddonResult[*string]{Success: summary != nil, Results: summary},
		}
	}
	for name, tc := range map[string]struct {
		result *client.Result
		want   string
	}{
		"no result":          {nil, "Transcription job " + id + " is done."},
		"everything":         {result([]string{"en", "fr"}, ptr("A stand-up.")), "Transcription job " + id + " is done: 12.5 s of audio in en, fr. Summary: A stand-up."},
		"no language":        {result(nil, ptr("A stand-up.")), "Transcription job " + id + " is done: 12.5 s of audio. Summary: A stand-up."},
		"summary unended":    {result([]string{"en"}, ptr("A stand-up")), "Transcription job " + id + " is done: 12.5 s of audio in en. Summary: A stand-up."},
		"summary question":   {result([]string{"en"}, ptr("Ship it?\n")), "Transcription job " + id + " is done: 12.5 s of audio in en. Summary: Ship it?"},
		"summary failed":     {result([]string{"en"}, nil), "Transcription job " + id + " is done: 12.5 s of audio in en."},
		"summary left empty": {result([]string{"en"}, ptr("")), "Transcription job " + id + " is done: 12.5 s of audio in en."},
		"summary blank":      {result([]string{"en"}, ptr(" \n ")), "Transcription job " + id + " is done: 12.5 s of audio in en."},
		"bullet points":      {result([]string{"en"}, ptr("- Ship it.\n- Test it.\n")), "Transcription job " + id + " is done: 12.5 s of audio in en. Summary: - Ship it. - Test it."},
		// Shown whole, however long: the action keeps nothing else of it.
		"long summary": {result([]string{"en"}, ptr(strings.Repeat("The team agreed to ship. ", 60))),
			"Transcription job " + id + " is done: 12.5 s of audio in en. Summary: " + strings.TrimSpace(strings.Repeat("The team agreed to ship. ", 60))},
		// An escape sequence or a line break would reach the terminal
		// as they are, a forged line printed without the action's prefix.
		"escapes": {result([]string{"en\x1b[2J"}, ptr("Line one.\n\x1b[2J\x1b[31mApply complete!\x1b[0m")),
			"Transcription job " + id + " is done: 12.5 s of audio in en [2J. Summary: Line one. [2J [31mApply complete! [0m."},
	} {
		job := &client.PreRecordedJob{JobCommon: client.JobCommon{ID: id, Status: client.StatusDone, Result: tc.result}}
		if got := jobOutcome(job); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, tc.want)
		}
	}
}

// The action's progress through a wait: each status once, and while the
// job stays in one, a reminder at the first look a minute or more after
// the last message, with the time since the action started.
func TestJobProgress(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	looks := []struct {
		at     time.Duration // after start
		status string
		want   string
	}{
		{1 * time.Second, client.StatusQueued, "Transcription job j1 is queued."},
		{2 * time.Second, client.StatusQueued, ""},
		{50 * time.Second, client.StatusQueued, ""},
		{61 * time.Second, client.StatusQueued, "Transcription job j1 is still queued, 1m1s after the action started."},
		{90 * time.Second, client.StatusProcessing, "Transcription job j1 is processing."},
		{149 * time.Second, client.StatusProcessing, ""},
		{150 * time.Second, client.StatusProcessing, "Transcription job j1 is still processing, 2m30s after the action started."},
		{17 * time.Minute, client.StatusProcessing, "Transcription job j1 is still processing, 17m after the action started."},
		{18 * time.Minute, client.StatusDone, ""},
	}
	p := jobProgress{id: "j1", start: start}
	for _, look := range looks {
		if got := p.message(look.status, start.Add(look.at)); got != look.want {
			t.Errorf("look at %s seeing %s: told %q, want %q", look.at, look.status, got, look.want)
		}
	}
	failed := jobProgress{id: "j2", start: start}
	if got := failed.message(client.StatusError, start.Add(time.Second)); got != "Transcription job j2 ended in error." {
		t.Errorf("a job seen failed: told %q", got)
	}
}
