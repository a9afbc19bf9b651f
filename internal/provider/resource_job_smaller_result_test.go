package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// TestJobPlan_finalJobKeepingLessOfItsResult: a final job that keeps less
// of its result, or as much (include_transcript toggled beside
// include_raw_result), plans it as the apply leaves it, known: the prior
// result without what is no longer kept, result_json null without
// include_raw_result, retained as it was. A setting not yet known might
// keep more, so the result stays unknown.
func TestJobPlan_finalJobKeepingLessOfItsResult(t *testing.T) {
	on, off := tftypes.NewValue(tftypes.Bool, true), tftypes.NewValue(tftypes.Bool, false)
	unknown := tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)
	for label, c := range map[string]struct {
		before, after map[string]tftypes.Value
		known         bool
	}{
		"raw result to transcript": {map[string]tftypes.Value{"include_transcript": on, "include_raw_result": on}, map[string]tftypes.Value{"include_transcript": on, "include_raw_result": off}, true},
		"transcript beside raw":    {map[string]tftypes.Value{"include_transcript": on, "include_raw_result": on}, map[string]tftypes.Value{"include_transcript": off, "include_raw_result": on}, true},
		"transcript unknown":       {map[string]tftypes.Value{"include_transcript": on}, map[string]tftypes.Value{"include_transcript": unknown}, false},
		// include_raw_result unknown might stay on: the result stays unknown.
		"raw result unknown": {map[string]tftypes.Value{"include_raw_result": on}, map[string]tftypes.Value{"include_raw_result": unknown}, false},
	} {
		t.Run(label, func(t *testing.T) {
			j := newJobBench(t, shortAudio, "")
			j.config = withAttributes(t, j.typ, &j.config, c.before)
			state := j.read(j.apply(j.planCreate()))
			config := withAttributes(t, j.typ, &j.config, c.after)
			proposed := withAttributes(t, j.typ, state, c.after)
			planned := j.plan(state, &proposed, &config).PlannedState
			if !c.known {
				if j.stateAttribute(planned, "result").IsFullyKnown() {
					t.Error("the result is planned known while what it keeps is not")
				}
				return
			}
			for _, name := range []string{"result", "result_json", "retained"} {
				if !j.stateAttribute(planned, name).IsFullyKnown() {
					t.Errorf("%s is planned unknown: nothing needs reading", name)
				}
			}
			applied := j.applyChange(state, planned, &config)
			for _, name := range []string{"result", "result_json", "retained"} {
				if got, want := j.stateAttribute(planned, name), j.stateAttribute(applied, name); !got.Equal(want) {
					t.Errorf("planned %s is not what the apply leaves", name)
				}
			}
			if raw := j.stateAttribute(planned, "include_raw_result"); !raw.Equal(on) && !j.stateAttribute(planned, "result_json").IsNull() {
				t.Error("result_json is planned kept without include_raw_result")
			}
		})
	}
}

// TestJobPlan_runningJobKeepingLessOfItsResult: the result of a job still
// running is not known before it ends, so keeping less of it plans nothing
// known of it that the apply, once the job has ended, would contradict.
func TestJobPlan_runningJobKeepingLessOfItsResult(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	j := newJobBenchOn(newProtoHarness(t, fakeserver.Options{Clock: clock, ProcessingTime: time.Hour}), shortAudio, "include_transcript")
	j.config = withAttributes(t, j.typ, &j.config, map[string]tftypes.Value{"wait_for_completion": tftypes.NewValue(tftypes.Bool, false)})
	state := j.read(j.apply(j.planCreate()))
	var status string
	if err := j.stateAttribute(state, "status").As(&status); err != nil || status == "done" {
		t.Fatalf("the job is %q (%v), want it running", status, err)
	}
	less := map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, false)}
	config := withAttributes(t, j.typ, &j.config, less)
	proposed := withAttributes(t, j.typ, state, less)
	planned := j.plan(state, &proposed, &config).PlannedState
	clock.Advance(2 * time.Hour) // the job ends between plan and apply
	applied := j.applyChange(state, planned, &config)
	for _, name := range []string{"status", "result", "retained"} {
		if got := j.stateAttribute(planned, name); got.IsFullyKnown() && !got.Equal(j.stateAttribute(applied, name)) {
			t.Errorf("planned %s is known and not what the apply leaves", name)
		}
	}
	if !strings.Contains(j.stateAttribute(applied, "status").String(), "done") {
		t.Errorf("the job did not end: %v", j.stateAttribute(applied, "status"))
	}
}

// TestJobPlan_finalJobKeepingMoreOfItsResult: a final job that keeps more
// of its result reads it again, and plans unknown only what the read adds:
// the metadata and the summary stay known (what refers to them plans no
// change), and the apply keeps them as planned.
func TestJobPlan_finalJobKeepingMoreOfItsResult(t *testing.T) {
	on, off := tftypes.NewValue(tftypes.Bool, true), tftypes.NewValue(tftypes.Bool, false)
	field := func(t *testing.T, v tftypes.Value, names ...string) tftypes.Value {
		t.Helper()
		for _, name := range names {
			var m map[string]tftypes.Value
			if err := v.As(&m); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			v = m[name]
		}
		return v
	}
	for label, c := range map[string]struct {
		before, after map[string]tftypes.Value
		added         []string // a value the read adds: unknown at plan
	}{
		"summary to transcript": {map[string]tftypes.Value{"include_transcript": off}, map[string]tftypes.Value{"include_transcript": on}, []string{"transcription", "full_transcript"}},
		"summary to raw result": {map[string]tftypes.Value{"include_raw_result": off}, map[string]tftypes.Value{"include_raw_result": on}, []string{"transcription", "utterances"}},
		"transcript to raw":     {map[string]tftypes.Value{"include_transcript": on}, map[string]tftypes.Value{"include_transcript": on, "include_raw_result": on}, []string{"transcription", "utterances"}},
	} {
		t.Run(label, func(t *testing.T) {
			j := newJobBench(t, shortAudio, "")
			j.config = withAttributes(t, j.typ, &j.config, map[string]tftypes.Value{"summarization": on})
			j.config = withAttributes(t, j.typ, &j.config, c.before)
			state := j.read(j.apply(j.planCreate()))
			config := withAttributes(t, j.typ, &j.config, c.after)
			proposed := withAttributes(t, j.typ, state, c.after)
			planned := j.plan(state, &proposed, &config).PlannedState
			result := j.stateAttribute(planned, "result")
			if result.IsFullyKnown() || field(t, result, c.added...).IsKnown() {
				t.Fatalf("%v is planned known: the read adds it", c.added)
			}
			prior := j.stateAttribute(state, "result")
			for _, kept := range [][]string{{"metadata"}, {"summarization"}, {"transcription", "languages"}} {
				if got := field(t, result, kept...); !got.IsFullyKnown() || !got.Equal(field(t, prior, kept...)) {
					t.Errorf("%v is planned %v, want it known as it was: %v", kept, got, field(t, prior, kept...))
				}
			}
			applied := j.stateAttribute(j.applyChange(state, planned, &config), "result")
			if !applied.IsFullyKnown() || field(t, applied, c.added...).IsNull() {
				t.Fatalf("%v not read: %v", c.added, field(t, applied, c.added...))
			}
			for _, kept := range [][]string{{"metadata"}, {"summarization"}} {
				if !field(t, applied, kept...).Equal(field(t, result, kept...)) {
					t.Errorf("%v is not what was planned", kept)
				}
			}
		})
	}
}

// TestAccJob_keepingMoreOfTheResultReplacesNothingThatUsesIt: turning
// include_transcript, then include_raw_result, on for a done job reads it
// again in place, and a resource whose argument is its summary (which the
// read gives again) is left as it is: it was replaced, the whole result
// planned "known after apply".
func TestAccJob_keepingMoreOfTheResultReplacesNothingThatUsesIt(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := func(transcript, raw bool) string {
		return acctest.ProviderConfig(url) + acctest.JobConfig("summed", fmt.Sprintf(`audio_url = "https://example.com/summed.wav?duration=20"
summarization = true
include_transcript = %t
include_raw_result = %t`, transcript, raw)) + `
resource "terraform_data" "publish" {
  triggers_replace = transcription_job.summed.result.summarization.results
}
output "duration" {
  value = transcription_job.summed.result.metadata.audio_duration
}
`
	}
	keptInPlace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction("terraform_data.publish", plancheck.ResourceActionNoop),
		plancheck.ExpectResourceAction("transcription_job.summed", plancheck.ResourceActionUpdate),
		plancheck.ExpectKnownOutputValue("duration", knownvalue.Float64Exact(20)),
	}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(false, false), Check: acctest.JobsCreated(fs, 1)},
			{
				Config:           config(true, false),
				ConfigPlanChecks: keptInPlace,
				Check:            resource.TestCheckResourceAttrSet("transcription_job.summed", "result.transcription.full_transcript"),
			},
			{
				Config:           config(true, true),
				ConfigPlanChecks: keptInPlace,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrSet("transcription_job.summed", "result_json"),
					acctest.JobsCreated(fs, 1),
				),
			},
		},
	})
}

// A job found gone by the read that keeping more of its result plans keeps
// its last known result, the values the read would have added null: an
// apply leaves nothing unknown in state.
func TestJobApply_keepingMoreOfTheResultOfAJobGoneSincePlan(t *testing.T) {
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	more := map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)}
	config := withAttributes(t, j.typ, &j.config, more)
	proposed := withAttributes(t, j.typ, state, more)
	planned := j.plan(state, &proposed, &config).PlannedState
	var id string
	if err := j.stateAttribute(state, "id").As(&id); err != nil || !j.fake.ExpireJob(id) {
		t.Fatalf("job %q not expired: %v", id, err)
	}
	applied := j.applyChange(state, planned, &config)
	result := j.stateAttribute(applied, "result")
	if !result.IsFullyKnown() {
		t.Fatalf("the result is left unknown in state: %v", result)
	}
	if got := j.stateAttribute(applied, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("retained %v, want false", got)
	}
}
