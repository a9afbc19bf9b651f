package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

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
}

const jobTypeName = "transcription_job"

func newJobBench(tb testing.TB, audioURL string, raw bool) *jobBench {
	h := newProtoHarness(tb, fakeserver.Options{})
	typ := h.resourceType(jobTypeName)
	config := objectValue(typ, map[string]tftypes.Value{
		"audio_url":          tftypes.NewValue(tftypes.String, audioURL),
		"include_raw_result": tftypes.NewValue(tftypes.Bool, raw),
	})
	return &jobBench{protoHarness: h, typ: typ, config: dynamicValue(tb, typ, config), null: dynamicValue(tb, typ, tftypes.NewValue(typ, nil))}
}

func (j *jobBench) planCreate() *tfprotov6.DynamicValue {
	resp, err := j.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobTypeName, PriorState: &j.null, ProposedNewState: &j.config, Config: &j.config,
	})
	if err != nil {
		j.tb.Fatal(err)
	}
	failOnDiagnostics(j.tb, "PlanResourceChange", resp.Diagnostics)
	return resp.PlannedState
}

func (j *jobBench) apply(planned *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	resp, err := j.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: jobTypeName, PriorState: &j.null, PlannedState: planned, Config: &j.config,
	})
	if err != nil {
		j.tb.Fatal(err)
	}
	failOnDiagnostics(j.tb, "ApplyResourceChange", resp.Diagnostics)
	return resp.NewState
}

func (j *jobBench) read(state *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	resp, err := j.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobTypeName, CurrentState: state})
	if err != nil {
		j.tb.Fatal(err)
	}
	failOnDiagnostics(j.tb, "ReadResource", resp.Diagnostics)
	return resp.NewState
}

// planUnchanged plans the job again after a refresh: Terraform proposes the
// refreshed state, since the configuration did not change.
func (j *jobBench) planUnchanged(state *tfprotov6.DynamicValue) {
	resp, err := j.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobTypeName, PriorState: state, ProposedNewState: state, Config: &j.config,
	})
	if err != nil {
		j.tb.Fatal(err)
	}
	failOnDiagnostics(j.tb, "PlanResourceChange", resp.Diagnostics)
	if resp.RequiresReplace != nil {
		j.tb.Fatalf("an unchanged job plans a replacement: %v", resp.RequiresReplace)
	}
}

// httpCalls makes the calls a lifecycle makes, with the bare client: create,
// the first poll (the job is done at once), the refresh.
func httpCalls(tb testing.TB, c *client.Client, audioURL string) {
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: audioURL})
	if err != nil {
		tb.Fatal(err)
	}
	for range 2 {
		if _, err := c.GetPreRecorded(ctx, created.ID); err != nil {
			tb.Fatal(err)
		}
	}
}

func benchClient(tb testing.TB, url string) *client.Client {
	c, err := client.New(client.Config{BaseURL: url, APIKey: testAccKey, MaxRetries: -1})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

const (
	shortAudio = "https://media.example.com/bench/short.wav?duration=30"
	hourAudio  = "https://media.example.com/bench/hour.wav?duration=3600"
)

// BenchmarkJobLifecycle is one job's plan, apply (create and first poll),
// read and unchanged plan, HTTP included. The same HTTP calls made with the
// bare client (BenchmarkJobHTTPCalls), measured before the loop, give
// http-ns/op and http-cpu-ns/op; provider-ns/op and provider-cpu-ns/op are
// what is left: the provider's and the framework's own work (the CPU figures
// hold up when other work loads the machine; wall figures do not).
func BenchmarkJobLifecycle(b *testing.B) {
	for _, tc := range []struct {
		name, audio string
		raw         bool
	}{
		{"30s", shortAudio, false},
		{"1h", hourAudio, false},
		{"1h-raw", hourAudio, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			j := newJobBench(b, tc.audio, tc.raw)
			c := benchClient(b, j.url)
			httpCalls(b, c, tc.audio) // warm: connections, the fake server's result
			const probes = 20
			wall, cpu := time.Now(), cpuTime()
			for range probes {
				httpCalls(b, c, tc.audio)
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
				httpCalls(b, c, tc.audio)
			}
		})
	}
}

// BenchmarkJobPlanCreate, BenchmarkJobApply, BenchmarkJobRead and
// BenchmarkJobPlanUnchanged are the steps of the lifecycle one by one (a
// short recording; apply and read include their HTTP calls).
func BenchmarkJobPlanCreate(b *testing.B) {
	j := newJobBench(b, shortAudio, false)
	defer reportCPU(b)()
	for b.Loop() {
		j.planCreate()
	}
}

func BenchmarkJobApply(b *testing.B) {
	j := newJobBench(b, shortAudio, false)
	planned := j.planCreate()
	defer reportCPU(b)()
	for b.Loop() {
		j.apply(planned)
	}
}

func BenchmarkJobRead(b *testing.B) {
	j := newJobBench(b, shortAudio, false)
	state := j.apply(j.planCreate())
	defer reportCPU(b)()
	for b.Loop() {
		j.read(state)
	}
}

func BenchmarkJobPlanUnchanged(b *testing.B) {
	j := newJobBench(b, shortAudio, false)
	state := j.read(j.apply(j.planCreate()))
	defer reportCPU(b)()
	for b.Loop() {
		j.planUnchanged(state)
	}
}
