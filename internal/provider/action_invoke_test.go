package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

// invokeTranscribe invokes the action in-process with the attributes set,
// returning its progress messages and diagnostics.
func invokeTranscribe(t *testing.T, data *ProviderData, set map[string]tftypes.Value) ([]string, diag.Diagnostics) {
	t.Helper()
	a := &transcribeAction{data: data, poll: testPollSchedule}
	var schemaResp action.SchemaResponse
	a.Schema(context.Background(), action.SchemaRequest{}, &schemaResp)
	config := tfsdk.Config{Schema: schemaResp.Schema, Raw: frameworktest.Object(t, schemaResp.Schema.Type(), set)}
	var progress []string
	resp := &action.InvokeResponse{SendProgress: func(ev action.InvokeProgressEvent) { progress = append(progress, ev.Message) }}
	a.Invoke(context.Background(), action.InvokeRequest{Config: config}, resp)
	return progress, resp.Diagnostics
}

// A job that ends in error fails the action (an error, not a warning),
// after the progress messages said the job's id and its status.
func TestTranscribe_failedJobIsAnError(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	progress, diags := invokeTranscribe(t, &ProviderData{Client: c}, map[string]tftypes.Value{
		"audio_url": frameworktest.String("https://example.com/fail-503.wav"),
	})
	if fs.JobCount() != 1 {
		t.Fatalf("%d jobs, want 1", fs.JobCount())
	}
	if !slices.ContainsFunc(diags.Errors(), func(d diag.Diagnostic) bool { return d.Summary() == "Transcription job failed" }) {
		t.Errorf("diagnostics %v, want the error that the job failed", diags)
	}
	if !slices.ContainsFunc(progress, func(m string) bool { return strings.HasSuffix(m, " ended in error.") }) {
		t.Errorf("progress %q, want the job's status error", progress)
	}
	// Each status once, in words: "done" is said by the outcome alone.
	if slices.ContainsFunc(progress, func(m string) bool { return strings.HasSuffix(m, " is error.") || strings.HasSuffix(m, " is done.") }) {
		t.Errorf("progress %q says a final status as a state", progress)
	}
}

// Under zero data retention the action does not wait unless told to: the
// service lets no one read a job, so waiting would fail a job it created.
func TestTranscribe_zeroDataRetentionDoesNotWait(t *testing.T) {
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(hook.Close)
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	schemaResp := action.SchemaResponse{}
	(&transcribeAction{}).Schema(context.Background(), action.SchemaRequest{}, &schemaResp)
	progress, diags := invokeTranscribe(t, &ProviderData{Client: c, ZeroDataRetention: true}, map[string]tftypes.Value{
		"audio_url":       frameworktest.String("https://example.com/a.wav"),
		"callback":        frameworktest.Bool(true),
		"callback_config": frameworktest.Object(t, schemaResp.Schema.Attributes["callback_config"].GetType(), map[string]tftypes.Value{"url": frameworktest.String(hook.URL)}),
	})
	if diags.HasError() {
		t.Errorf("diagnostics %v, want none", diags)
	}
	if fs.JobCount() != 1 || len(progress) == 0 {
		t.Fatalf("%d jobs, progress %q: want the job created and reported", fs.JobCount(), progress)
	}
	// The result_url is refused too: the message points to the callback.
	if strings.Contains(progress[0], "/v2/") || !strings.Contains(progress[0], "reaches only the callback") {
		t.Errorf("progress %q, want the job's id and that the callback is where its result goes", progress[0])
	}
	for _, r := range fs.Requests() {
		if r.Method == http.MethodGet {
			t.Errorf("the action read the job (%s %s) under zero data retention", r.Method, r.Path)
		}
	}
}

// failedAddonText is how the fake server says an add-on failed that an
// audio_url containing "addon-error" asked to fail.
const failedAddonText = "AddonError: add-on failed: Service Unavailable (failure asked for by the audio_url)"

// A job done with a failed add-on is reported in the progress messages,
// which Terraform prints, as well as in a warning, which Terraform 1.16
// drops when a resource's action_trigger invoked the action.
func TestTranscribe_failedAddonIsReportedInProgress(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	progress, diags := invokeTranscribe(t, &ProviderData{Client: c}, map[string]tftypes.Value{
		"audio_url":     frameworktest.String("https://example.com/addon-error-503.wav"),
		"summarization": frameworktest.Bool(true),
	})
	if diags.HasError() {
		t.Fatalf("diagnostics %v, want no error", diags)
	}
	const failure = "these add-ons failed:\n  - summarization: status_code 503, " + failedAddonText
	if !slices.ContainsFunc(progress, func(m string) bool { return strings.Contains(m, failure) }) {
		t.Errorf("progress %q, want a message saying %q", progress, failure)
	}
	if w := diags.Warnings(); len(w) != 1 || !strings.Contains(w[0].Detail(), failure) {
		t.Errorf("warnings %v, want one saying %q", w, failure)
	}
}

// Object rules run on the values of the invocation too: a configuration
// whose switch turned out off (known only then) is sent with the warning
// the plan gives when the switch is known.
func TestTranscribe_configOfASwitchOffWarnsAtInvoke(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	schemaResp := action.SchemaResponse{}
	(&transcribeAction{}).Schema(context.Background(), action.SchemaRequest{}, &schemaResp)
	_, diags := invokeTranscribe(t, &ProviderData{Client: c}, map[string]tftypes.Value{
		"audio_url":   frameworktest.String("https://example.com/a.wav"),
		"translation": frameworktest.Bool(false),
		"translation_config": frameworktest.Object(t, schemaResp.Schema.Attributes["translation_config"].GetType(), map[string]tftypes.Value{
			"target_languages": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{frameworktest.String("fr")}),
		}),
	})
	if diags.HasError() || fs.JobCount() != 1 {
		t.Fatalf("diagnostics %v, %d jobs: want the job created", diags, fs.JobCount())
	}
	if w := diags.Warnings(); len(w) != 1 || w[0].Summary() != "translation_config is ignored unless translation is true" {
		t.Errorf("warnings %v, want that translation_config is ignored", w)
	}
}

// The action's wait ends when the provider is stopped by a signal
// (ProviderData.untilStopped), as a resource's does.
func TestTranscribe_stoppedProvider(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	stopped, stop := context.WithCancel(context.Background())
	acctest.WhenTrue(t, func() bool {
		return slices.ContainsFunc(fs.Requests(), func(r fakeserver.RecordedRequest) bool { return r.Method == http.MethodGet })
	}, stop)
	var diags diag.Diagnostics
	within(t, "the action", func() {
		_, diags = invokeTranscribe(t, &ProviderData{Client: c, stopped: stopped}, map[string]tftypes.Value{
			"audio_url": frameworktest.String("https://example.com/a.wav"),
		})
	})
	if !diags.HasError() || fs.JobCount() != 1 {
		t.Errorf("diagnostics %v and %d jobs, want an error after the job was created", diags, fs.JobCount())
	}
}
