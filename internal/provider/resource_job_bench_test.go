package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// jobBench drives one transcription_job through the protocol server as
// Terraform does: plan and apply its creation, read it (refresh), plan again
// with no change.
type jobBench struct {
	*protoHarness
	typ    tftypes.Object
	config tfprotov6.DynamicValue
	null   tfprotov6.DynamicValue
	// unchangedChecked: planUnchanged has checked once that its plan is
	// the prior state, which checking at every call would add to the time.
	unchangedChecked bool
}

// newJobBench configures a job of audioURL; setting, unless empty, names a
// provider-side setting set to true (include_transcript, include_raw_result).
func newJobBench(tb testing.TB, audioURL, setting string) *jobBench {
	return newJobBenchOn(newProtoHarness(tb, fakeserver.Options{}), audioURL, setting)
}

// newJobBenchOn is newJobBench with the harness given.
func newJobBenchOn(h *protoHarness, audioURL, setting string) *jobBench {
	tb := h.tb
	typ := h.resourceType(jobResourceTypeName)
	attrs := map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, audioURL)}
	if setting != "" {
		attrs[setting] = tftypes.NewValue(tftypes.Bool, true)
	}
	config := objectValue(typ, attrs)
	return &jobBench{protoHarness: h, typ: typ, config: dynamicValue(tb, typ, config), null: dynamicValue(tb, typ, tftypes.NewValue(typ, nil))}
}

func (j *jobBench) planCreate() *tfprotov6.DynamicValue {
	return j.plan(&j.null, &j.config, &j.config).PlannedState
}

func (j *jobBench) apply(planned *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	return j.applyChange(&j.null, planned, &j.config)
}

func (j *jobBench) plan(prior, proposed, config *tfprotov6.DynamicValue) *tfprotov6.PlanResourceChangeResponse {
	return j.planChange(jobResourceTypeName, prior, proposed, config)
}

func (j *jobBench) applyChange(prior, planned, config *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	return j.protoHarness.applyChange(jobResourceTypeName, prior, planned, config).NewState
}

func (j *jobBench) read(state *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	resp, err := j.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: state})
	if err != nil {
		j.tb.Fatal(err)
	}
	failOnDiagnostics(j.tb, "ReadResource", resp.Diagnostics)
	return resp.NewState
}

// storedState creates the job and returns its refreshed state as Terraform
// stores it (JSON), the input of every later plan.
func (j *jobBench) storedState() *tfprotov6.RawState {
	state := j.read(j.apply(j.planCreate()))
	return &tfprotov6.RawState{JSON: stateJSON(j.tb, j.typ, state)}
}

// upgrade is the call Terraform makes for every resource in state before
// any plan or refresh: the state as stored (JSON) goes in, msgpack comes out.
func (j *jobBench) upgrade(raw *tfprotov6.RawState) *tfprotov6.DynamicValue {
	resp, err := j.server.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{TypeName: jobResourceTypeName, Version: jobSchemaVersion, RawState: raw})
	if err != nil {
		j.tb.Fatal(err)
	}
	failOnDiagnostics(j.tb, "UpgradeResourceState", resp.Diagnostics)
	return resp.UpgradedState
}

// planUnchanged plans the job again after a refresh: Terraform proposes the
// refreshed state, since the configuration did not change.
func (j *jobBench) planUnchanged(state *tfprotov6.DynamicValue) {
	resp := j.plan(state, state, &j.config)
	if resp.RequiresReplace != nil {
		j.tb.Fatalf("an unchanged job plans a replacement: %v", resp.RequiresReplace)
	}
	if !j.unchangedChecked {
		// An update planned would be timed as no change.
		planned, err := resp.PlannedState.Unmarshal(j.typ)
		prior, priorErr := state.Unmarshal(j.typ)
		if err != nil || priorErr != nil || !planned.Equal(prior) {
			j.tb.Fatalf("an unchanged job plans a change (%v, %v): %v\nwant %v", err, priorErr, planned, prior)
		}
		j.unchangedChecked = true
	}
}

// httpCalls makes the calls a lifecycle makes, with the bare client: create,
// the first poll (the job is done at once), decoding what the provider
// decodes with setting (see newJobBench), and the refresh of the finished
// job, which decodes only its status.
func httpCalls(tb testing.TB, c *client.Client, audioURL, setting string) {
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: audioURL})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := c.GetPreRecorded(ctx, created.ID, settingDetail(setting)); err != nil {
		tb.Fatal(err)
	}
	if _, err := c.GetPreRecordedStatus(ctx, created.ID); err != nil {
		tb.Fatal(err)
	}
}

// settingDetail is the detail the provider reads a job with when setting
// (see newJobBench) is on.
func settingDetail(setting string) client.Detail {
	m := jobResourceModel{
		IncludeTranscript: types.BoolValue(setting == "include_transcript"),
		IncludeRawResult:  types.BoolValue(setting == "include_raw_result"),
	}
	return resultDetail(m.resultContent())
}

func benchClient(tb testing.TB, url string) *client.Client {
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

const (
	shortAudio = "https://media.example.com/bench/short.wav?duration=30"
	hourAudio  = "https://media.example.com/bench/hour.wav?duration=3600"
)

// jobBenchCases are the recordings the per-job benchmarks measure: short,
// an hour, an hour with its transcript in state (include_transcript), and
// with word timings too (include_raw_result).
var jobBenchCases = []struct {
	name, audio, setting string
}{
	{"30s", shortAudio, ""},
	{"1h", hourAudio, ""},
	{"1h-transcript", hourAudio, "include_transcript"},
	{"1h-raw", hourAudio, "include_raw_result"},
}

// BenchmarkJobLifecycle is one job's plan, apply (create and first poll),
// read and unchanged plan, HTTP included. The same HTTP calls made with the
// bare client (BenchmarkJobHTTPCalls), measured before the loop, give
// http-ns/op and http-cpu-ns/op; provider-ns/op and provider-cpu-ns/op are
// what is left: the provider's and the framework's own work (the CPU figures
// hold up when other work loads the machine; wall figures do not).
func BenchmarkJobLifecycle(b *testing.B) {
	for _, tc := range jobBenchCases {
		b.Run(tc.name, func(b *testing.B) {
			j := newJobBench(b, tc.audio, tc.setting)
			c := benchClient(b, j.url)
			httpCalls(b, c, tc.audio, tc.setting) // warm: connections, the fake server's result
			const probes = 20
			wall, cpu := time.Now(), cpuTime()
			for range probes {
				httpCalls(b, c, tc.audio, tc.setting)
			}
			httpWall, httpCPU := time.Since(wall)/probes, (cpuTime()-cpu)/probes

			b.ResetTimer()
			cpu = cpuTime()
			for b.Loop() {
				state := j.apply(j.planCreate())
				state = j.read(state)
				j.planUnchanged(state)
			}
			n := time.Duration(b.N)
			perOp, cpuPerOp := b.Elapsed()/n, (cpuTime()-cpu)/n
			b.ReportMetric(float64(cpuPerOp), "cpu-ns/op")
			b.ReportMetric(float64(httpWall), "http-ns/op")
			b.ReportMetric(float64(httpCPU), "http-cpu-ns/op")
			b.ReportMetric(float64(perOp-httpWall), "provider-ns/op")
			b.ReportMetric(float64(cpuPerOp-httpCPU), "provider-cpu-ns/op")
		})
	}
}

// BenchmarkJobHTTPCalls is the HTTP part of BenchmarkJobLifecycle alone:
// the bare client's create and two GETs against the same fake server.
func BenchmarkJobHTTPCalls(b *testing.B) {
	for _, tc := range []struct{ name, audio string }{{"30s", shortAudio}, {"1h", hourAudio}} {
		b.Run(tc.name, func(b *testing.B) {
			_, url := benchFakeServer(b, fakeserver.Options{})
			c := benchClient(b, url)
			defer reportCPU(b)()
			for b.Loop() {
				httpCalls(b, c, tc.audio, "")
			}
		})
	}
}

// BenchmarkJobPlanCreate, BenchmarkJobApply, BenchmarkJobRead and
// BenchmarkJobPlanUnchanged are the steps of the lifecycle one by one (a
// short recording; apply and read include their HTTP calls).
func BenchmarkJobPlanCreate(b *testing.B) {
	j := newJobBench(b, shortAudio, "")
	defer reportCPU(b)()
	for b.Loop() {
		j.planCreate()
	}
}

func BenchmarkJobApply(b *testing.B) {
	j := newJobBench(b, shortAudio, "")
	planned := j.planCreate()
	defer reportCPU(b)()
	for b.Loop() {
		j.apply(planned)
	}
}

func BenchmarkJobRead(b *testing.B) {
	j := newJobBench(b, shortAudio, "")
	state := j.apply(j.planCreate())
	defer reportCPU(b)()
	for b.Loop() {
		j.read(state)
	}
}

func BenchmarkJobPlanUnchanged(b *testing.B) {
	j := newJobBench(b, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	defer reportCPU(b)()
	for b.Loop() {
		j.planUnchanged(state)
	}
}

// BenchmarkJobUpgradeState is the call Terraform makes for every resource in
// state before any plan or refresh: the state as stored (JSON) goes to the
// provider, which decodes it against the schema and returns it as msgpack.
func BenchmarkJobUpgradeState(b *testing.B) {
	for _, tc := range []struct{ name, audio string }{{"30s", shortAudio}, {"1h", hourAudio}} {
		b.Run(tc.name, func(b *testing.B) {
			j := newJobBench(b, tc.audio, "")
			raw := j.storedState()
			defer reportCPU(b)()
			for b.Loop() {
				j.upgrade(raw)
			}
			b.ReportMetric(float64(len(raw.JSON)), "state-bytes") // after the loop, which resets metrics
		})
	}
}

// stateJSON is state in the JSON form Terraform stores it in.
func stateJSON(tb testing.TB, typ tftypes.Type, state *tfprotov6.DynamicValue) []byte {
	tb.Helper()
	v, err := state.Unmarshal(typ)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := json.Marshal(plainValue(tb, v))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// plainValue converts a known value to what encoding/json writes as
// Terraform's JSON form of it (storedJSONOf, which the state upgrade uses).
func plainValue(tb testing.TB, v tftypes.Value) any {
	tb.Helper()
	if !v.IsFullyKnown() {
		tb.Fatalf("cannot convert %s: not known", v)
	}
	return storedJSONOf(v)
}

// BenchmarkJobRefreshPlan is what `terraform plan` asks of the provider for
// a job already in state: upgrade its stored state, read it (refresh), and
// plan it with no change.
func BenchmarkJobRefreshPlan(b *testing.B) {
	for _, tc := range jobBenchCases {
		b.Run(tc.name, func(b *testing.B) {
			j := newJobBench(b, tc.audio, tc.setting)
			raw := j.storedState()
			defer reportCPU(b)()
			for b.Loop() {
				j.planUnchanged(j.read(j.upgrade(raw)))
			}
		})
	}
}

// BenchmarkJobDestroy is what `terraform destroy` asks of the provider for a
// job in state once it is refreshed: plan its destruction, then apply it (one
// DELETE; after the first loop the service answers 404, which counts as
// deleted, at the same cost of one round trip).
func BenchmarkJobDestroy(b *testing.B) {
	for _, tc := range jobBenchCases {
		b.Run(tc.name, func(b *testing.B) {
			j := newJobBench(b, tc.audio, tc.setting)
			state := j.read(j.apply(j.planCreate()))
			defer reportCPU(b)()
			for b.Loop() {
				j.applyChange(state, j.plan(state, &j.null, &j.null).PlannedState, &j.null)
			}
		})
	}
}

// BenchmarkJobValidate is the check Terraform asks of the provider for every
// job at every plan and apply, before anything else: the schema's validators
// and the resource's configuration validators, offline.
func BenchmarkJobValidate(b *testing.B) {
	j := newJobBench(b, shortAudio, "")
	pii := j.typ.AttributeTypes["pii_redaction_config"].(tftypes.Object)
	entities := tftypes.List{ElementType: tftypes.String}
	withPII := dynamicValue(b, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":     tftypes.NewValue(tftypes.String, shortAudio),
		"pii_redaction": tftypes.NewValue(tftypes.Bool, true),
		"pii_redaction_config": objectValue(pii, map[string]tftypes.Value{
			"entity_types": tftypes.NewValue(entities, []tftypes.Value{
				tftypes.NewValue(tftypes.String, "NAME"), tftypes.NewValue(tftypes.String, "EMAIL_ADDRESS"), tftypes.NewValue(tftypes.String, "PHONE_NUMBER"),
			}),
			"processed_text_type": tftypes.NewValue(tftypes.String, "MARKER"),
		}),
	}))
	for _, tc := range []struct {
		name   string
		config *tfprotov6.DynamicValue
	}{{"minimal", &j.config}, {"pii", &withPII}} {
		b.Run(tc.name, func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				resp, err := j.server.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: tc.config})
				if err != nil {
					b.Fatal(err)
				}
				failOnDiagnostics(b, "ValidateResourceConfig", resp.Diagnostics)
			}
		})
	}
}

// BenchmarkJobVocabulary is the two calls of a new job's plan (validate,
// plan) with a custom vocabulary of 1,000 entries: the framework's work on
// a nested list grows faster than its length (DESIGN.md, items 12 and 13).
func BenchmarkJobVocabulary(b *testing.B) {
	j := newJobBench(b, shortAudio, "")
	vocabularyConfig := j.typ.AttributeTypes["custom_vocabulary_config"].(tftypes.Object)
	vocabulary := vocabularyConfig.AttributeTypes["vocabulary"].(tftypes.List)
	entries := make([]tftypes.Value, 1000)
	for i := range entries {
		entries[i] = objectValue(vocabulary.ElementType.(tftypes.Object), map[string]tftypes.Value{
			"value":    tftypes.NewValue(tftypes.String, fmt.Sprintf("term %d", i)),
			"language": tftypes.NewValue(tftypes.String, "en"),
		})
	}
	config := dynamicValue(b, j.typ, objectValue(j.typ, map[string]tftypes.Value{
		"audio_url":                tftypes.NewValue(tftypes.String, shortAudio),
		"custom_vocabulary":        tftypes.NewValue(tftypes.Bool, true),
		"custom_vocabulary_config": objectValue(vocabularyConfig, map[string]tftypes.Value{"vocabulary": tftypes.NewValue(vocabulary, entries)}),
	}))
	b.Run("validate", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			resp, err := j.server.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: &config})
			if err != nil || len(resp.Diagnostics) > 0 {
				b.Fatal(err, resp.Diagnostics)
			}
		}
	})
	b.Run("plan", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			if resp := j.plan(&j.null, &config, &config); len(resp.Diagnostics) > 0 {
				b.Fatal(resp.Diagnostics[0].Detail)
			}
		}
	})
}
