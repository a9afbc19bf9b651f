package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// TestJobPlan_zeroDataRetentionExistingJobWithoutCallback: the rules of
// zero data retention that need a callback are for a new job only. A job
// submitted without one before the provider turned zero_data_retention on
// is already the service's: planning it again refuses nothing.
func TestJobPlan_zeroDataRetentionExistingJobWithoutCallback(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	server, _ := startConfiguredProvider(t, j.url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: state, ProposedNewState: state, Config: &j.config,
	})
	if err != nil {
		t.Fatal(err)
	}
	if hasError(resp.Diagnostics) {
		t.Errorf("planning a job that exists, without a callback, under zero data retention: %v", diagnosticSummaries(resp.Diagnostics))
	}
	if resp.RequiresReplace != nil {
		t.Errorf("the unchanged job plans a replacement: %v", resp.RequiresReplace)
	}
}

// TestJobPlan_zeroDataRetentionKeepsAnExistingJobsRecord: under zero data
// retention nothing of a job can be read, so a change that would read it
// again (include_transcript turned on) plans what state has: the record of
// a job read before the provider turned zero_data_retention on stays, it is
// not planned away.
func TestJobPlan_zeroDataRetentionKeepsAnExistingJobsRecord(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	server, _ := startConfiguredProvider(t, j.url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	attrs := objectAttributes(t, j.typ, state)
	pv := withAttributes(t, j.typ, state, map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)})
	cv := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":          tftypes.NewValue(tftypes.String, shortAudio),
		"include_transcript": tftypes.NewValue(tftypes.Bool, true),
	}))
	resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: state, ProposedNewState: &pv, Config: &cv,
	})
	if err != nil {
		t.Fatal(err)
	}
	failOnDiagnostics(t, "PlanResourceChange", resp.Diagnostics)
	planned := j.stateAttribute(resp.PlannedState, "result")
	if planned.IsNull() || !planned.Equal(attrs["result"]) {
		t.Errorf("planned result is not the job's last known one (null: %t, known: %t)", planned.IsNull(), planned.IsFullyKnown())
	}
}

// objectAttributes are the attributes of the object v of type typ, in a
// map of the caller's own.
func objectAttributes(t testing.TB, typ tftypes.Object, v *tfprotov6.DynamicValue) map[string]tftypes.Value {
	t.Helper()
	decoded, err := v.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := decoded.As(&attrs); err != nil {
		t.Fatal(err)
	}
	return attrs
}

// withAttributes is the object v with the attributes set replaced.
func withAttributes(t *testing.T, typ tftypes.Object, v *tfprotov6.DynamicValue, set map[string]tftypes.Value) tfprotov6.DynamicValue {
	t.Helper()
	out := objectAttributes(t, typ, v)
	for k, a := range set {
		out[k] = a
	}
	return dynamicValue(t, typ, tftypes.NewValue(typ, out))
}

// TestJobPlan_zeroDataRetentionRecreateWhenMissingInPlace: under zero data
// retention retained is always false (the service keeps nothing), which is
// not a job gone: turning recreate_when_missing on changes the job in
// place, as documented, instead of replacing it (and billing it again) on
// every apply.
func TestJobPlan_zeroDataRetentionRecreateWhenMissingInPlace(t *testing.T) {
	h, typ, attrs := zeroDataRetentionJob(t, fakeserver.Options{ProcessingTime: time.Hour}, shortAudio)
	config := dynamicValue(t, typ, objectValue(typ, attrs))
	null := dynamicValue(t, typ, tftypes.NewValue(typ, nil))
	state := h.applyChange(jobResourceTypeName, &null, h.planChange(jobResourceTypeName, &null, &config, &config).PlannedState, &config).NewState

	attrs["recreate_when_missing"] = tftypes.NewValue(tftypes.Bool, true)
	changed := dynamicValue(t, typ, objectValue(typ, attrs))
	proposed := withAttributes(t, typ, state, map[string]tftypes.Value{"recreate_when_missing": tftypes.NewValue(tftypes.Bool, true)})
	if resp := h.planChange(jobResourceTypeName, state, &proposed, &changed); resp.RequiresReplace != nil {
		t.Errorf("turning recreate_when_missing on under zero data retention replaces the job: %v", resp.RequiresReplace)
	}
}

// TestJobPlan_unreadJobIsNotCreatedAgain: a job whose state says nothing of
// whether the service has it (retained null: saved at creation, before the
// read that failed) is not created again by recreate_when_missing when the
// plan does not refresh it (terraform apply -refresh=false): only a job
// known to be gone is.
func TestJobPlan_unreadJobIsNotCreatedAgain(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	unread := map[string]tftypes.Value{
		"retained":              tftypes.NewValue(tftypes.Bool, nil),
		"recreate_when_missing": tftypes.NewValue(tftypes.Bool, true),
	}
	state := withAttributes(t, j.typ, applied, unread)
	config := withAttributes(t, j.typ, &j.config, map[string]tftypes.Value{"recreate_when_missing": tftypes.NewValue(tftypes.Bool, true)})
	if resp := j.plan(&state, &state, &config); resp.RequiresReplace != nil {
		t.Errorf("a job not known to be gone is created again: %v", resp.RequiresReplace)
	}
}

// TestJobPlan_goneJobWithANewUploadIsNotFromItsOldAudio: a job the service
// no longer has, whose audio_url was an upload, is created again from its
// old audio_url only when the configuration keeps it; made from another
// upload, the plan does not warn that the new job comes from the old one.
func TestJobPlan_goneJobWithANewUploadIsNotFromItsOldAudio(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	oldUpload := tftypes.NewValue(tftypes.String, j.url+"/file/0badc0de-0000-4000-8000-000000000001")
	newUpload := tftypes.NewValue(tftypes.String, j.url+"/file/0badc0de-0000-4000-8000-000000000002")
	recreate := tftypes.NewValue(tftypes.Bool, true)
	state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{
		"retained": tftypes.NewValue(tftypes.Bool, false), "recreate_when_missing": recreate, "audio_url": oldUpload,
	})
	for _, c := range []struct {
		audioURL tftypes.Value
		warned   bool
	}{{oldUpload, true}, {newUpload, false}} {
		set := map[string]tftypes.Value{"recreate_when_missing": recreate, "audio_url": c.audioURL}
		config := withAttributes(t, j.typ, &j.config, set)
		proposed := withAttributes(t, j.typ, &state, set)
		resp := j.plan(&state, &proposed, &config)
		if resp.RequiresReplace == nil {
			t.Errorf("audio_url %s: the job the service no longer has is not created again", c.audioURL)
		}
		// Warned of whatever its audio_url, with the upload's note only
		// when the new job is made from the old upload.
		if !hasWarning(resp.Diagnostics, "Transcription job created again", "recreate_when_missing replaces it") {
			t.Errorf("audio_url %s: the plan does not say that the job is created again: %v", c.audioURL, diagnosticSummaries(resp.Diagnostics))
		}
		if warned := hasWarning(resp.Diagnostics, "Transcription job created again", "a file uploaded to the service"); warned != c.warned {
			t.Errorf("audio_url %s: warned that the job is created again from its old upload: %t, want %t", c.audioURL, warned, c.warned)
		}
	}
}

// A job the service no longer has, created again, is replaced for one
// path: recreate_when_missing when the plan turns it on, else retained
// (both printed "# forces replacement" for one reason).
func TestJobPlan_goneJobReplacedForOnePath(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	on, off := tftypes.NewValue(tftypes.Bool, true), tftypes.NewValue(tftypes.Bool, false)
	for _, c := range []struct {
		before tftypes.Value
		want   string
	}{{off, "recreate_when_missing"}, {on, "retained"}} {
		state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{"retained": off, "recreate_when_missing": c.before})
		set := map[string]tftypes.Value{"recreate_when_missing": on}
		config := withAttributes(t, j.typ, &j.config, set)
		proposed := withAttributes(t, j.typ, &state, set)
		resp := j.plan(&state, &proposed, &config)
		if len(resp.RequiresReplace) != 1 || resp.RequiresReplace[0].String() != tftypes.NewAttributePath().WithAttributeName(c.want).String() {
			t.Errorf("recreate_when_missing %v before: replaced for %v, want %s alone", c.before, resp.RequiresReplace, c.want)
		}
	}
}

// TestJobPlan_goneJobMadeAgainWithoutItsCallbackURL: the replacement of a
// job the service no longer has warns, as any replacement does, that a
// callback_url the configuration leaves out (the job's, kept in state) does
// not carry over to the new job.
func TestJobPlan_goneJobMadeAgainWithoutItsCallbackURL(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	recreate := tftypes.NewValue(tftypes.Bool, true)
	state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{
		"retained": tftypes.NewValue(tftypes.Bool, false), "recreate_when_missing": recreate,
		"callback_url": tftypes.NewValue(tftypes.String, "https://hooks.example.net/cb"),
	})
	set := map[string]tftypes.Value{"recreate_when_missing": recreate}
	config := withAttributes(t, j.typ, &j.config, set)
	proposed := withAttributes(t, j.typ, &state, set)
	resp := j.plan(&state, &proposed, &config)
	if resp.RequiresReplace == nil {
		t.Fatal("the job the service no longer has is not created again")
	}
	if !hasWarning(resp.Diagnostics, "The new job gets no callback_url", "") {
		t.Errorf("no warning that the new job gets no callback_url: %v", diagnosticSummaries(resp.Diagnostics))
	}
}

// TestJobRead_processingJobGoneIsKept: a job last seen processing that the
// service no longer has ended unseen (the service deletes a job only once it
// has ended), so the refresh keeps it with retained = false, as a job seen
// ended, and says why its result is missing; it removed it, and the next
// apply created, and billed, it again.
func TestJobRead_processingJobGoneIsKept(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	j.expire(applied)
	state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "processing")})
	resp := j.readResponse(&state)
	failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
	if got := j.stateAttribute(resp.NewState, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("retained %v after the refresh found the job gone, want false", got)
	}
	if !hasWarning(resp.Diagnostics, "Transcription job no longer retained by the service", "It was processing when last seen: the service deletes a job only once it has ended, so this one ended unseen") {
		t.Errorf("the refresh does not say the job ended unseen: %v", resp.Diagnostics)
	}
}

// A refresh finding a job gone words what comes next from the state's
// recreate_when_missing: with it on, a plan replaces the job, which "only
// when asked" would deny beside the plan's "created again".
func TestJobRead_goneJobWarningFollowsRecreateWhenMissing(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	j.expire(applied)
	for _, recreate := range []bool{false, true} {
		state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{"recreate_when_missing": tftypes.NewValue(tftypes.Bool, recreate)})
		resp := j.readResponse(&state)
		failOnDiagnostics(t, "ReadResource", resp.Diagnostics)
		const warning = "Transcription job no longer retained by the service"
		if got := hasWarning(resp.Diagnostics, warning, "until a plan replaces it, as one does while recreate_when_missing = true"); got != recreate {
			t.Errorf("recreate_when_missing %t: the warning says a plan replaces the job: %t", recreate, got)
		}
		if got := hasWarning(resp.Diagnostics, warning, "again only when asked"); got == recreate {
			t.Errorf("recreate_when_missing %t: the warning says \"only when asked\": %t", recreate, got)
		}
	}
}

// TestJobPlan_failedJobWithoutErrorCode: a failed job whose record gives
// no error_code is reported without one, not with a made-up error_code 0.
func TestJobPlan_failedJobWithoutErrorCode(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{
		"status":     tftypes.NewValue(tftypes.String, "error"),
		"error_code": tftypes.NewValue(tftypes.Number, nil),
	})
	resp := j.plan(&state, &state, &j.config)
	if !hasWarning(resp.Diagnostics, "Transcription job failed", `ended with status "error"; it has no result`) {
		t.Errorf("the failed job without an error_code is not reported as such: %v", diagnosticSummaries(resp.Diagnostics))
	}
}

// TestJobPlan_failedJobReplacedSaysSo: a failed job that the plan already
// replaces (its audio_url changed) is reported as replaced by this plan,
// not with the advice to replace it.
func TestJobPlan_failedJobReplacedSaysSo(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{"status": tftypes.NewValue(tftypes.String, "error")})
	other := tftypes.NewValue(tftypes.String, "https://example.com/other.wav")
	planned := withAttributes(t, j.typ, &state, map[string]tftypes.Value{"audio_url": other})
	config := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{"audio_url": other}))
	resp := j.plan(&state, &planned, &config)
	if !replaces(resp, tftypes.NewAttributePath().WithAttributeName("audio_url")) {
		t.Fatalf("a new audio_url plans no replacement: %v", resp.RequiresReplace)
	}
	if !hasWarning(resp.Diagnostics, "Transcription job failed", "This plan replaces it") || hasWarning(resp.Diagnostics, "Transcription job failed", "-replace") {
		t.Errorf("the failed job replaced by this plan is reported otherwise: %v", resp.Diagnostics)
	}
}

// TestJobPlan_failedFetchOfAGoneUploadSaysUploadAgain: a job that failed
// to fetch its audio_url (error_code 404) when that is a file uploaded to
// the service is told to upload the file again, not to be replaced: a new
// job from the same audio_url would fail the same way. A failure of
// another kind, or of a URL elsewhere, keeps the advice to replace it.
func TestJobPlan_failedFetchOfAGoneUploadSaysUploadAgain(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	upload := tftypes.NewValue(tftypes.String, j.url+"/file/0badc0de-0000-4000-8000-000000000001")
	elsewhere := tftypes.NewValue(tftypes.String, "https://example.com/a.wav")
	for _, c := range []struct {
		name        string
		audioURL    tftypes.Value
		errorCode   int64
		uploadAgain bool
	}{
		{"an upload not found", upload, 404, true},
		{"an upload failing otherwise", upload, 500, false},
		{"a URL elsewhere not found", elsewhere, 404, false},
	} {
		set := map[string]tftypes.Value{
			"status":     tftypes.NewValue(tftypes.String, "error"),
			"error_code": tftypes.NewValue(tftypes.Number, c.errorCode),
			"audio_url":  c.audioURL,
		}
		state := withAttributes(t, j.typ, applied, set)
		config := withAttributes(t, j.typ, &j.config, map[string]tftypes.Value{"audio_url": c.audioURL})
		resp := j.plan(&state, &state, &config)
		if said := hasWarning(resp.Diagnostics, "Transcription job failed", "Upload the file again"); said != c.uploadAgain {
			t.Errorf("%s: told to upload the file again: %t, want %t: %v", c.name, said, c.uploadAgain, resp.Diagnostics)
		}
		if said := hasWarning(resp.Diagnostics, "Transcription job failed", "replace this resource"); said == c.uploadAgain {
			t.Errorf("%s: told to replace the job: %t, want %t: %v", c.name, said, !c.uploadAgain, resp.Diagnostics)
		}
	}
}

// TestJobPlan_goneJobThatFailedOnItsUploadSaysSoOnce: a job the service no
// longer has, created again by recreate_when_missing, that had failed to
// fetch its upload is told to upload the file again once, by the failure's
// warning, not a second time, hedged, by the one that says it is created
// again.
func TestJobPlan_goneJobThatFailedOnItsUploadSaysSoOnce(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	applied := j.read(j.apply(j.planCreate()))
	upload := tftypes.NewValue(tftypes.String, j.url+"/file/0badc0de-0000-4000-8000-000000000001")
	recreate := tftypes.NewValue(tftypes.Bool, true)
	state := withAttributes(t, j.typ, applied, map[string]tftypes.Value{
		"retained": tftypes.NewValue(tftypes.Bool, false), "recreate_when_missing": recreate, "audio_url": upload,
		"status": tftypes.NewValue(tftypes.String, "error"), "error_code": tftypes.NewValue(tftypes.Number, 404),
	})
	set := map[string]tftypes.Value{"recreate_when_missing": recreate, "audio_url": upload}
	resp := j.plan(&state, ptr(withAttributes(t, j.typ, &state, set)), ptr(withAttributes(t, j.typ, &j.config, set)))
	said := 0
	for _, d := range resp.Diagnostics {
		said += strings.Count(d.Detail, "Upload the file again")
	}
	if said != 1 || !hasWarning(resp.Diagnostics, "Transcription job failed", "Upload the file again") || !hasWarning(resp.Diagnostics, "Transcription job created again", "recreate_when_missing replaces it") {
		t.Errorf("told to upload the file again %d times, want once, by the failure's warning: %v", said, diagnosticSummaries(resp.Diagnostics))
	}
}

// TestUploadNotFoundNote_knowsTheServiceByItsBaseURL: whether a failed
// job's audio_url is an upload is known from base_url alone, also while
// api_key is known only at apply (no client yet).
func TestUploadNotFoundNote_knowsTheServiceByItsBaseURL(t *testing.T) {
	base, err := client.ParseBaseURL("https://api.example.com/v2")
	if err != nil {
		t.Fatal(err)
	}
	notFound, failed := int64(404), int64(500)
	for _, tc := range []struct {
		name      string
		data      *ProviderData
		audioURL  string
		errorCode *int64
		noted     bool
	}{
		{"an upload, api_key pending", &ProviderData{baseURL: base, pending: []string{"api_key"}}, "https://API.example.com:443/file/x", &notFound, true},
		{"another host", &ProviderData{baseURL: base}, "https://media.example.com/file/x", &notFound, false},
		{"another failure", &ProviderData{baseURL: base}, "https://api.example.com/file/x", &failed, false},
		{"no error_code", &ProviderData{baseURL: base}, "https://api.example.com/file/x", nil, false},
		{"base_url pending", &ProviderData{pending: []string{"base_url"}}, "https://api.example.com/file/x", &notFound, false},
		{"no provider data", nil, "https://api.example.com/file/x", &notFound, false},
	} {
		if noted := uploadNotFoundNote(tc.data, tc.audioURL, tc.errorCode) != ""; noted != tc.noted {
			t.Errorf("%s: noted %t, want %t", tc.name, noted, tc.noted)
		}
	}
}

// A gone job's advice to replace it points at its upload first when its
// audio_url is one: made again from it, the job would fail.
func TestJobGoneDetail_replaceAdvicePointsAtTheUpload(t *testing.T) {
	base, err := client.ParseBaseURL("https://api.example.com/v2")
	if err != nil {
		t.Fatal(err)
	}
	r := &jobResource{data: &ProviderData{baseURL: base}}
	for audioURL, pointed := range map[string]bool{"https://api.example.com/file/x": true, "https://media.example.com/a.wav": false} {
		state := jobResourceModel{ID: types.StringValue("j"), Status: types.StringValue(client.StatusDone)}
		state.AudioURL = types.StringValue(audioURL)
		detail := r.jobGoneDetail(state, false)
		if got := strings.Contains(detail, "-replace on the resource (its audio_url being an upload, see below first)"); got != pointed {
			t.Errorf("%s: pointed at the upload %t, want %t: %s", audioURL, got, pointed, detail)
		}
	}
}

// TestTerraformReplacesFor: Terraform replaces a resource for a path of
// RequiresReplace only when the planned value there is not the prior one.
func TestTerraformReplacesFor(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Bool}}
	value := func(a string, b bool) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, a), "b": tftypes.NewValue(tftypes.Bool, b)})
	}
	prior := value("x", true)
	for name, tc := range map[string]struct {
		planned tftypes.Value
		paths   path.Paths
		want    bool
	}{
		"none":              {value("y", false), nil, false},
		"changed":           {value("y", true), path.Paths{path.Root("a")}, true},
		"unchanged":         {value("x", true), path.Paths{path.Root("b")}, false},
		"one of two":        {value("x", false), path.Paths{path.Root("a"), path.Root("b")}, true},
		"changed elsewhere": {value("y", true), path.Paths{path.Root("b")}, false},
	} {
		if got := terraformReplacesFor(prior, tc.planned, tc.paths); got != tc.want {
			t.Errorf("%s: %t, want %t", name, got, tc.want)
		}
	}
}

// TestJobPlan_zeroDataRetentionKeepsNoResult: include_transcript and
// include_raw_result on a job created under zero data retention keep
// nothing (the provider never reads it): the plan warns at each, where they
// were accepted silently and result stayed null.
func TestJobPlan_zeroDataRetentionKeepsNoResult(t *testing.T) {
	h, typ, base := zeroDataRetentionJob(t, fakeserver.Options{}, "https://example.com/private.wav")
	null := dynamicValue(t, typ, tftypes.NewValue(typ, nil))
	for _, settings := range [][]string{nil, {"include_transcript"}, {"include_transcript", "include_raw_result"}} {
		attrs := maps.Clone(base)
		for _, s := range settings {
			attrs[s] = tftypes.NewValue(tftypes.Bool, true)
		}
		config := dynamicValue(t, typ, objectValue(typ, attrs))
		var warned []string
		for _, d := range h.planChange(jobResourceTypeName, &null, &config, &config).Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "Nothing of the result is kept under zero data retention" {
				warned = append(warned, d.Attribute.String())
			}
		}
		slices.Sort(warned)
		want := slices.Clone(settings)
		for i, s := range want {
			want[i] = tftypes.NewAttributePath().WithAttributeName(s).String()
		}
		slices.Sort(want)
		if !slices.Equal(warned, want) {
			t.Errorf("%v set: warnings at %v, want at %v", settings, warned, want)
		}
	}
}

// zeroDataRetentionJob is a harness whose provider and fake server (more
// options in opts) have zero data retention, the job resource's type, and
// the attributes of a job there on audioURL: a callback to a URL.
func zeroDataRetentionJob(t *testing.T, opts fakeserver.Options, audioURL string) (*protoHarness, tftypes.Object, map[string]tftypes.Value) {
	t.Helper()
	opts.ZeroDataRetention = true
	fs, url := acctest.FakeServer(t, opts)
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	h := &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}
	typ := h.resourceType(jobResourceTypeName)
	callbackConfig, ok := typ.AttributeTypes["callback_config"].(tftypes.Object)
	if !ok {
		t.Fatal("callback_config is not an object")
	}
	return h, typ, map[string]tftypes.Value{
		"audio_url":       tftypes.NewValue(tftypes.String, audioURL),
		"callback":        tftypes.NewValue(tftypes.Bool, true),
		"callback_config": objectValue(callbackConfig, map[string]tftypes.Value{"url": tftypes.NewValue(tftypes.String, "https://hooks.example.com/x")}),
	}
}
