package provider

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// rewritingService serves a fake server whose job records, once rewrite is
// set, carry another request_id: what a refresh that decodes the record
// would put into state.
type rewritingService struct {
	fake    *fakeserver.Server
	rewrite atomic.Bool
}

func (s *rewritingService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.rewrite.Load() || r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") {
		s.fake.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	s.fake.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(bytes.Replace(rec.Body.Bytes(), []byte(`"request_id":"`), []byte(`"request_id":"rewritten-`), 1))
}

func newRewritingJobBench(t *testing.T) (*jobBench, *rewritingService) {
	t.Helper()
	svc := &rewritingService{fake: fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})}
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { srv.Close(); svc.fake.Close() })
	return newJobBenchOn(newProtoHarnessAt(t, svc.fake, srv.URL), shortAudio, ""), svc
}

func (j *jobBench) readResponse(state *tfprotov6.DynamicValue) *tfprotov6.ReadResourceResponse {
	resp, err := j.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: state})
	if err != nil {
		j.tb.Fatal(err)
	}
	return resp
}

// expire makes the service forget the job of state, as its retention does,
// and returns the job's id.
func (j *jobBench) expire(state *tfprotov6.DynamicValue) string {
	j.tb.Helper()
	var id string
	if err := j.stateAttribute(state, "id").As(&id); err != nil {
		j.tb.Fatal(err)
	}
	if !j.fake.ExpireJob(id) {
		j.tb.Fatalf("the fake server has no job %s", id)
	}
	return id
}

func (j *jobBench) stateAttribute(state *tfprotov6.DynamicValue, names ...string) tftypes.Value {
	j.tb.Helper()
	v, err := state.Unmarshal(j.typ)
	if err != nil {
		j.tb.Fatal(err)
	}
	p := tftypes.NewAttributePath()
	for _, name := range names {
		p = p.WithAttributeName(name)
	}
	got, _, err := tftypes.WalkAttributePath(v, p)
	if err != nil {
		j.tb.Fatalf("%s: %v", p, err)
	}
	return got.(tftypes.Value)
}

// A finished job's record never changes, so its refresh keeps state as it
// is instead of decoding the record again, and still gives Terraform the
// identity it did not keep (Terraform before 1.12 keeps none).
func TestJobRead_finishedJobKeepsItsState(t *testing.T) {
	j, svc := newRewritingJobBench(t)
	applied := j.apply(j.planCreate())
	svc.rewrite.Store(true)

	resp := j.readResponse(applied)
	failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
	if !bytes.Equal(resp.NewState.MsgPack, applied.MsgPack) {
		t.Errorf("the refresh changed a finished job's state: request_id %v, was %v",
			j.stateAttribute(resp.NewState, "request_id"), j.stateAttribute(applied, "request_id"))
	}
	expectIdentityID(t, "the refresh", resp.NewIdentity, j.stateAttribute(applied, "id"))
}

// A job still running when last seen is read whole: its record changes.
func TestJobRead_runningJobIsReadWhole(t *testing.T) {
	j, svc := newRewritingJobBench(t)
	// As if the apply had not waited: the job was last seen processing.
	state := j.lastSeen(j.apply(j.planCreate()), client.StatusProcessing)
	svc.rewrite.Store(true)

	resp := j.readResponse(&state)
	failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
	if got := j.stateAttribute(resp.NewState, "status"); !got.Equal(tftypes.NewValue(tftypes.String, "done")) {
		t.Errorf("status %v after the refresh, want done", got)
	}
	got := j.stateAttribute(resp.NewState, "request_id")
	var text string
	if err := got.As(&text); err != nil || !strings.HasPrefix(text, "rewritten-") {
		t.Errorf("request_id %v after the refresh, want the service's record's (rewritten-...)", got)
	}
}

// The plan of a destroy, or of a replacement, says that a job still
// running when last read, or not read since it was submitted, is deleted
// only once it ends, with the time the apply may wait; an ended job's says
// nothing.
func TestJobPlan_deletionOfARunningJobSaysItWaits(t *testing.T) {
	j := newJobBench(t, "https://example.com/running.wav", "")
	made := j.apply(j.planCreate())
	var id string
	if err := j.stateAttribute(made, "id").As(&id); err != nil {
		t.Fatal(err)
	}
	replacing := newJobBenchOn(j.protoHarness, "https://example.com/another.wav", "").config
	for status, seen := range map[string]string{
		client.StatusQueued:     "was queued when last read",
		client.StatusProcessing: "was processing when last read",
		"":                      "has not been read since it was submitted", // null: its read after the create failed
		client.StatusDone:       "",
		client.StatusError:      "",
	} {
		state := j.lastSeen(made, status)
		for plan, resp := range map[string]*tfprotov6.PlanResourceChangeResponse{
			"destroy":     j.plan(&state, &j.null, &j.null),
			"replacement": j.plan(&state, &replacing, &replacing),
		} {
			want := fmt.Sprintf("Job %s %s. The service deletes only jobs that have ended, so deleting it (a destroy, or a replacement) waits for it to end, up to 20m (timeouts.delete).", id, seen)
			if got := hasWarning(resp.Diagnostics, "A job still running is deleted once it ends", want); got != (seen != "") {
				t.Errorf("%s of a job with status %q: warned %t, want %t: %v", plan, status, got, seen != "", resp.Diagnostics)
			}
		}
	}
}

// lastSeen is a job's state as if it had been last seen with status (null
// when "": never read).
func (j *jobBench) lastSeen(state *tfprotov6.DynamicValue, status string) tfprotov6.DynamicValue {
	j.tb.Helper()
	v, err := state.Unmarshal(j.typ)
	if err != nil {
		j.tb.Fatal(err)
	}
	seen, err := tftypes.Transform(v, func(p *tftypes.AttributePath, val tftypes.Value) (tftypes.Value, error) {
		if p.Equal(tftypes.NewAttributePath().WithAttributeName("status")) {
			if status == "" {
				return tftypes.NewValue(tftypes.String, nil), nil
			}
			return tftypes.NewValue(tftypes.String, status), nil
		}
		return val, nil
	})
	if err != nil {
		j.tb.Fatal(err)
	}
	return dynamicValue(j.tb, j.typ, seen)
}

// TestJobRead_jobSeenEndingWithFailedAddonsWarns: the refresh that first
// sees a job done (one created without waiting) warns of its failed
// add-ons, as a create that waits does; a job already known done does not
// warn again.
func TestJobRead_jobSeenEndingWithFailedAddonsWarns(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	j := newJobBenchOn(newProtoHarnessAt(t, fs, url), "https://example.com/addon-error-503.wav", "summarization")
	applied := j.apply(j.planCreate())
	running := j.lastSeen(applied, client.StatusQueued)

	resp := j.readResponse(&running)
	failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
	if !hasWarning(resp.Diagnostics, "Some add-ons of the transcription job failed", "summarization: status_code 503") {
		t.Errorf("diagnostics %v, want the warning naming the failed summary", diagnosticSummaries(resp.Diagnostics))
	}
	again := j.readResponse(resp.NewState)
	if len(again.Diagnostics) != 0 {
		t.Errorf("the next refresh: %v, want no diagnostic", diagnosticSummaries(again.Diagnostics))
	}
}

// A finished job the service no longer has gets the full answer, from the
// one GET that found it gone and the listing that confirms the 404 is the
// service's (confirmJobGone): retained = false, its last results kept, and
// a warning.
func TestJobRead_finishedJobGoneIsNoLongerRetained(t *testing.T) {
	j, svc := newRewritingJobBench(t)
	applied := j.apply(j.planCreate())
	j.expire(applied)
	svc.fake.ResetRequests()

	resp := j.readResponse(applied)
	var calls []string
	for _, r := range svc.fake.Requests() {
		calls = append(calls, r.Method+" "+r.Path)
	}
	var id string
	if err := j.stateAttribute(applied, "id").As(&id); err != nil {
		t.Fatal(err)
	}
	if want := []string{"GET /v2/pre-recorded/" + id, "GET /v2/pre-recorded"}; !slices.Equal(calls, want) {
		t.Errorf("requests %q, want %q", calls, want)
	}
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityWarning ||
		resp.Diagnostics[0].Summary != "Transcription job no longer retained by the service" {
		t.Fatalf("diagnostics %v, want the one warning that the job is no longer retained", resp.Diagnostics)
	}
	if got := j.stateAttribute(resp.NewState, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("retained %v, want false", got)
	}
	if got, want := j.stateAttribute(resp.NewState, "result"), j.stateAttribute(applied, "result"); !got.Equal(want) {
		t.Errorf("result %v, want the last known %v", got, want)
	}
}

// TestJobRead_providerConfigurationPending: while the provider's arguments
// are known only after apply (api_key from a resource of the same apply),
// the service cannot be asked. A job in state is planned as last read, with
// a warning that it was not refreshed; an import, which has only the job's
// id, cannot do without the service and fails, rather than importing a job
// whose every attribute is null.
func TestJobRead_providerConfigurationPending(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	server, errs := configureProvider(t, map[string]tftypes.Value{
		"base_url": tftypes.NewValue(tftypes.String, j.url),
		"api_key":  unknownOf(tftypes.String),
	})
	if len(errs) != 0 {
		t.Fatalf("configuring with an api_key known only after apply: %v", errs)
	}
	id := j.stateAttribute(state, "id")
	var jobID string
	if err := id.As(&jobID); err != nil {
		t.Fatal(err)
	}

	resp, err := server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: state})
	if err != nil {
		t.Fatal(err)
	}
	failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
	if !hasWarning(resp.Diagnostics, "Transcription job not refreshed", jobID) {
		t.Errorf("no warning that the job was not refreshed: %v", diagnosticSummaries(resp.Diagnostics))
	}
	if got, want := j.stateAttribute(resp.NewState), j.stateAttribute(state); !got.Equal(want) {
		t.Errorf("the job's state changed without a refresh:\n got  %v\n want %v", got, want)
	}

	imported := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{"id": id}))
	resp, err = server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: &imported})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(resp.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "Provider configuration known only after apply"
	}) {
		t.Errorf("an import while the provider's configuration is pending: want its error, got %v", diagnosticSummaries(resp.Diagnostics))
	}
}

// TestJobRead_unreadJobIsRead: a job saved at creation without its record
// (the read after the create failed: retained, status and the result are
// null) is not one known to be gone, so the next refresh reads it and fills
// them in, instead of leaving them null for good.
func TestJobRead_unreadJobIsRead(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	unread := withAttributes(t, j.typ, applied, map[string]tftypes.Value{
		"retained": tftypes.NewValue(tftypes.Bool, nil),
		"status":   tftypes.NewValue(tftypes.String, nil),
	})
	state := j.read(&unread)
	if got := j.stateAttribute(state, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Errorf("retained %v after the refresh, want true", got)
	}
	if got := j.stateAttribute(state, "status"); !got.Equal(tftypes.NewValue(tftypes.String, "done")) {
		t.Errorf("status %v after the refresh, want done", got)
	}
}
