package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

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
