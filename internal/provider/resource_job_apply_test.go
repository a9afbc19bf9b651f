package provider

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// A create interrupted before any look at the job succeeded (the service
// failing every GET) still answers with the job's id in state: the job is
// the service's, billed, and Terraform must keep track of it.
func TestJobCreate_interruptedBeforeAnyLookKeepsTheJob(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") {
			// The service fails the look, and Terraform is interrupted
			// (Ctrl-C) before the client looks again.
			once.Do(cancel)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"statusCode":503,"message":"unavailable","request_id":"r-503"}`))
			return
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); fake.Close() })
	j := newJobBenchOn(newProtoHarnessAt(t, fake, srv.URL), shortAudio, "")

	planned := j.planCreate()
	resp, err := j.server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: &j.null, PlannedState: planned, Config: &j.config,
	})
	if err != nil {
		t.Fatal(err)
	}
	if fake.JobCount() != 1 {
		t.Fatalf("%d jobs on the service, want 1", fake.JobCount())
	}
	var id string
	if err := j.stateAttribute(resp.NewState, "id").As(&id); err != nil || id == "" {
		t.Fatalf("the interrupted create kept no job id in state (%v): the job is lost", err)
	}
	if _, ok := fake.Job(id); !ok {
		t.Errorf("state has id %q, which the service does not have", id)
	}
	if !slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "Interrupted while waiting for the transcription job" && strings.Contains(d.Detail, "had not been read yet")
	}) {
		t.Errorf("diagnostics %v, want the interrupt saying the job was never read", diagnosticSummaries(resp.Diagnostics))
	}
}

// A callback_url known only at apply time (from another resource) is
// stored as configured: state left without it would plan a change to the
// job's callback_url at the next plan.
func TestJobCreate_callbackURLKnownAtApplyIsStored(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	const hook = "https://hooks.example.com/cb"
	config := func(url tftypes.Value) tfprotov6.DynamicValue {
		return dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
			"audio_url":    tftypes.NewValue(tftypes.String, shortAudio),
			"callback_url": url,
		}))
	}
	atPlan := config(tftypes.NewValue(tftypes.String, tftypes.UnknownValue))
	atApply := config(tftypes.NewValue(tftypes.String, hook))
	planned := j.plan(&j.null, &atPlan, &atPlan).PlannedState
	state := j.protoHarness.applyChange(jobResourceTypeName, &j.null, planned, &atApply).NewState
	if got := j.stateAttribute(state, "callback_url"); !got.Equal(tftypes.NewValue(tftypes.String, hook)) {
		t.Errorf("callback_url %v in state, want the configured %q", got, hook)
	}
	if sent := j.fake.CreateBodies(); len(sent) != 1 || !bytes.Contains(sent[0], []byte(hook)) {
		t.Errorf("the create did not carry the callback URL: %q", sent)
	}
}

// The service may quote a job's callback URL in a later answer (an error
// of a look at the job): the token it carries, here in its path where no
// pattern of the client's logger finds it, stays out of the provider's log.
func TestJobCreate_callbackURLQuotedInALaterAnswerNotLogged(t *testing.T) {
	const token = "cbtok-Path9Lantern"
	hook := "https://hooks.example.com/" + token + "/cb"
	fake := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		quoted := false
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") {
			once.Do(func() { quoted = true })
		}
		if !quoted {
			fake.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"statusCode":503,"message":"callback ` + hook + ` is being checked","request_id":"r-503"}`))
	}))
	t.Cleanup(func() { srv.Close(); fake.Close() })
	j := newJobBenchOn(newProtoHarnessAt(t, fake, srv.URL), shortAudio, "")
	j.config = dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":       tftypes.NewValue(tftypes.String, shortAudio),
		"callback":        tftypes.NewValue(tftypes.Bool, true),
		"callback_config": objectValue(j.typ.AttributeTypes["callback_config"].(tftypes.Object), map[string]tftypes.Value{"url": tftypes.NewValue(tftypes.String, hook)}),
	}))

	var logged bytes.Buffer
	planned := j.planCreate()
	resp, err := j.server.ApplyResourceChange(tflogtest.RootLogger(context.Background(), &logged), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: &j.null, PlannedState: planned, Config: &j.config,
	})
	if err != nil {
		t.Fatal(err)
	}
	failOnDiagnostics(t, "ApplyResourceChange", resp.Diagnostics)
	if !strings.Contains(logged.String(), "is being checked") {
		t.Fatal("the log lacks the answer quoting the callback URL: the search proves nothing")
	}
	if i := strings.Index(logged.String(), token); i >= 0 {
		t.Errorf("the log holds the callback URL's token: …%s…", logged.String()[max(0, i-200):i+len(token)])
	}
}

// A job already known to be gone (retained = false) and not to be created
// again is refreshed from state alone: no request, and no warning at every
// plan (the refresh that found it gone said so once).
func TestJobRead_goneJobIsNotReportedAgain(t *testing.T) {
	j, svc := newRewritingJobBench(t)
	applied := j.apply(j.planCreate())
	id := j.expire(applied)
	gone := j.readResponse(applied)
	if !hasWarning(gone.Diagnostics, "Transcription job no longer retained by the service", id) {
		t.Fatalf("diagnostics %v, want the warning that the job is no longer retained", diagnosticSummaries(gone.Diagnostics))
	}
	svc.fake.ResetRequests()

	again := j.readResponse(gone.NewState)
	if len(again.Diagnostics) != 0 {
		t.Errorf("the next refresh says %v again, want nothing", diagnosticSummaries(again.Diagnostics))
	}
	if got := svc.fake.Requests(); len(got) != 0 {
		t.Errorf("the next refresh made %d requests, want none", len(got))
	}
	if !bytes.Equal(again.NewState.MsgPack, gone.NewState.MsgPack) {
		t.Error("the next refresh changed the state of a job known gone")
	}
}

// A plan that replaces a job known gone (recreate_when_missing turned on)
// while include_transcript turns on says nothing of a result not
// available: the new job gives its whole result.
func TestJobPlan_goneJobReplacedWithMoreOfItsResult(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	j.expire(state)
	state = j.readResponse(state).NewState
	resp := j.planSetting(state, map[string]tftypes.Value{
		"include_transcript":    tftypes.NewValue(tftypes.Bool, true),
		"recreate_when_missing": tftypes.NewValue(tftypes.Bool, true),
	})
	if len(resp.RequiresReplace) == 0 {
		t.Fatal("the plan does not replace the gone job")
	}
	if hasWarning(resp.Diagnostics, "Result not available", "") {
		t.Errorf("a replacement warned that the result is not available: %v", diagnosticSummaries(resp.Diagnostics))
	}
}

// configSetting is the configuration of j's job with set's attributes
// besides its audio_url.
func configSetting(t *testing.T, j *jobBench, set map[string]tftypes.Value) tfprotov6.DynamicValue {
	t.Helper()
	configured := map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, shortAudio)}
	maps.Copy(configured, set)
	return dynamicValue(t, j.typ, objectValue(j.typ, configured))
}

// planSetting plans the job of state with set's attributes configured
// (configSetting).
func (j *jobBench) planSetting(state *tfprotov6.DynamicValue, set map[string]tftypes.Value) *tfprotov6.PlanResourceChangeResponse {
	t := j.tb.(*testing.T)
	config := configSetting(t, j, set)
	proposed := withAttributes(t, j.typ, state, set)
	return j.plan(state, &proposed, &config)
}

// An update of a job known to be gone (retained = false) asks the service
// nothing, and warns only of what it cannot do: turning include_transcript
// on warns once that the transcript cannot be fetched; a change that needs
// no more of the result (here timeouts) says nothing.
func TestJobUpdate_goneJobIsNotAskedFor(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	j.expire(state)
	state = j.readResponse(state).NewState
	timeoutsType := j.typ.AttributeTypes["timeouts"].(tftypes.Object)
	for name, set := range map[string]map[string]tftypes.Value{
		"include_transcript": {"include_transcript": tftypes.NewValue(tftypes.Bool, true)},
		"timeouts":           {"timeouts": objectValue(timeoutsType, map[string]tftypes.Value{"create": tftypes.NewValue(tftypes.String, "10m")})},
	} {
		t.Run(name, func(t *testing.T) {
			planResp := j.planSetting(state, set)
			planned := planResp.PlannedState
			config := configSetting(t, j, set)
			j.fake.ResetRequests()
			resp := j.protoHarness.applyChange(jobResourceTypeName, state, planned, &config)
			if got := j.fake.Requests(); len(got) != 0 {
				t.Errorf("the update made %d requests for a job known gone, want none", len(got))
			}
			// The plan says what the apply cannot fetch; the apply not again.
			var want []string
			if name == "include_transcript" {
				want = []string{"Result not available"}
			}
			if got := diagnosticSummaries(planResp.Diagnostics); len(got) != len(want) || (len(want) == 1 && !strings.HasPrefix(got[0], want[0]+":")) {
				t.Errorf("plan diagnostics %q, want %q", got, want)
			}
			if got := diagnosticSummaries(resp.Diagnostics); len(got) != 0 {
				t.Errorf("apply diagnostics %q, want none", got)
			}
		})
	}
}

// A delete the service refuses for a reason waiting cannot fix is an
// error, and the job stays in state: removing it would leave the service's
// job, and its data, behind without anything tracking it.
func TestJobDelete_refusedDeleteKeepsTheJob(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"statusCode":400,"message":"cannot delete this job","request_id":"r-400"}`))
			return
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); fake.Close() })
	j := newJobBenchOn(newProtoHarnessAt(t, fake, srv.URL), shortAudio, "")
	state := j.apply(j.planCreate())
	var id string
	if err := j.stateAttribute(state, "id").As(&id); err != nil {
		t.Fatal(err)
	}

	resp, err := j.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: state, PlannedState: &j.null, Config: &j.null,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "Cannot delete the transcription job "+id && strings.Contains(d.Detail, "cannot delete this job")
	}) {
		t.Errorf("diagnostics %q, want the error that the job cannot be deleted", diagnosticSummaries(resp.Diagnostics))
	}
	if got := j.stateAttribute(resp.NewState, "id"); !got.Equal(tftypes.NewValue(tftypes.String, id)) {
		t.Errorf("id %v in state after the refused delete, want %s kept", got, id)
	}
	if _, ok := fake.Job(id); !ok {
		t.Fatal("the service no longer has the job: the refusal proves nothing")
	}
}

// A job's identity is its id from its creation on: after the create, the
// full refresh of a job last seen running, and an in-place update (the
// short refresh of a finished job: TestJobRead_finishedJobKeepsItsState).
func TestJobApply_identityIsTheJobID(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	created := j.protoHarness.applyChange(jobResourceTypeName, &j.null, j.planCreate(), &j.config)
	id := j.stateAttribute(created.NewState, "id")
	expectIdentityID(t, "create", created.NewIdentity, id)

	running := withAttributes(t, j.typ, created.NewState, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "processing")})
	read := j.readResponse(&running)
	failOnDiagnostics(t, "ReadResource", read.Diagnostics)
	expectIdentityID(t, "the refresh of a running job", read.NewIdentity, id)

	set := map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)}
	config := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, shortAudio), "include_transcript": set["include_transcript"]}))
	proposed := withAttributes(t, j.typ, read.NewState, set)
	planned := j.plan(read.NewState, &proposed, &config)
	if len(planned.RequiresReplace) != 0 {
		t.Fatalf("include_transcript plans a replacement: %v", planned.RequiresReplace)
	}
	updated := j.protoHarness.applyChange(jobResourceTypeName, read.NewState, planned.PlannedState, &config)
	expectIdentityID(t, "update", updated.NewIdentity, id)
}

// TestJobUpdate_finalJobGoneBeforeTheUpdateReadsIt: turning
// include_transcript on for a done job re-reads it at apply, and the
// service may have deleted it in between (its retention ended): the apply
// then keeps the last known result with retained = false. So the plan must
// leave retained unknown, as it leaves the result; planned known and true,
// Terraform would fail the apply as an inconsistent result. Whether the
// job is created again (by the next plan) is the update's own
// recreate_when_missing, turned on in the same apply or not, and the warning
// says which.
func TestJobUpdate_finalJobGoneBeforeTheUpdateReadsIt(t *testing.T) {
	for _, tc := range []struct {
		recreateWhenMissing bool
		replacedNext        bool
	}{
		{false, false},
		{true, true},
	} {
		t.Run(fmt.Sprintf("recreate_when_missing=%v", tc.recreateWhenMissing), func(t *testing.T) {
			j := newJobBench(t, shortAudio, "")
			state := j.read(j.apply(j.planCreate()))
			more := map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)}
			if tc.recreateWhenMissing {
				more["recreate_when_missing"] = tftypes.NewValue(tftypes.Bool, true)
			}
			config := withAttributes(t, j.typ, &j.config, more)
			proposed := withAttributes(t, j.typ, state, more)
			planned := j.plan(state, &proposed, &config).PlannedState

			id := j.expire(state) // between plan and apply
			resp := j.protoHarness.applyChange(jobResourceTypeName, state, planned, &config)
			failOnDiagnostics(t, "ApplyResourceChange", resp.Diagnostics)
			const warning = "Transcription job no longer retained by the service"
			if !hasWarning(resp.Diagnostics, warning, id) {
				t.Errorf("no warning %q: %v", warning, diagnosticSummaries(resp.Diagnostics))
			}
			if said := hasWarning(resp.Diagnostics, warning, "until a plan replaces it, as one does while recreate_when_missing = true"); said != tc.replacedNext {
				t.Errorf("the warning says the next plan replaces the job: %t, want %t", said, tc.replacedNext)
			}
			// Why, as a refresh finding it gone says, and what makes it again
			// when the next plan does not.
			if !hasWarning(resp.Diagnostics, warning, "at the end of its retention period") {
				t.Errorf("the warning does not say why the job is gone: %v", resp.Diagnostics)
			}
			if said := hasWarning(resp.Diagnostics, warning, "terraform apply -replace"); said == tc.replacedNext {
				t.Errorf("the warning says how to make the job again: %t, want %t", said, !tc.replacedNext)
			}
			// include_transcript asked for a transcript state never had.
			if !hasWarning(resp.Diagnostics, "Result not available", id) {
				t.Errorf("no warning that the transcript asked for cannot be fetched: %v", diagnosticSummaries(resp.Diagnostics))
			}
			if got := j.stateAttribute(resp.NewState, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
				t.Errorf("retained %v after the update found the job gone, want false", got)
			}
			for _, name := range []string{"status", "retained", "result", "result_json"} {
				if got := j.stateAttribute(planned, name); got.IsFullyKnown() && !got.Equal(j.stateAttribute(resp.NewState, name)) {
					t.Errorf("planned %s is known and not what the apply leaves", name)
				}
			}
		})
	}
}

// A job done with a failed add-on is created, and a warning names the
// add-on and what the service said of it. The log lines from the create on
// name the job.
func TestJobCreate_failedAddonWarns(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	j := newJobBenchOn(newProtoHarnessAt(t, fs, url), "https://example.com/addon-error-503.wav", "summarization")
	var logged bytes.Buffer
	resp, err := j.server.ApplyResourceChange(tflogtest.RootLogger(context.Background(), &logged), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: &j.null, PlannedState: j.planCreate(), Config: &j.config,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v, want one warning", resp.Diagnostics)
	}
	d := resp.Diagnostics[0]
	if d.Severity != tfprotov6.DiagnosticSeverityWarning || d.Summary != "Some add-ons of the transcription job failed" ||
		!strings.Contains(d.Detail, "these add-ons failed:\n  - summarization: status_code 503, "+failedAddonText) {
		t.Errorf("diagnostic %s %q: %q, want the warning naming the failed summary", d.Severity, d.Summary, d.Detail)
	}
	state := objectAttributes(t, j.typ, resp.NewState)
	if !state["status"].Equal(tftypes.NewValue(tftypes.String, client.StatusDone)) {
		t.Errorf("status %v, want the job created and done", state["status"])
	}
	var id string
	if err := state["id"].As(&id); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&logged)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(entries, func(e map[string]any) bool { return e["@message"] == "created transcription job" && e["job_id"] == id }) {
		t.Errorf("no log line of the creation names job_id %s", id)
	}
	// Before the id exists, the recording ties the create to its resource.
	if !slices.ContainsFunc(entries, func(e map[string]any) bool {
		return e["@message"] == "creating transcription job" && e["audio_url"] == "https://example.com/addon-error-503.wav"
	}) {
		t.Errorf("no log line before the create names its audio_url")
	}
}
