package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// twinServers gives every call to the lean server and to the framework's
// own server, both configured for the same fake server, and fails unless
// they answer the same.
type twinServers struct {
	t           *testing.T
	lean, plain tfprotov6.ProviderServer
	typ         tftypes.Object
	fake        *fakeserver.Server
}

func newTwinServers(t *testing.T) *twinServers {
	t.Helper()
	fs, url := benchFakeServer(t, fakeserver.Options{})
	lean, schemas := startServer(t, NewProtocol6Server("test"), url)
	plain, _ := startServer(t, providerserver.NewProtocol6WithError(New("test")()), url)
	typ, ok := schemas.ResourceSchemas[jobResourceTypeName].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the job schema is not an object")
	}
	return &twinServers{t: t, lean: lean, plain: plain, typ: typ, fake: fs}
}

func (w *twinServers) upgrade(raw *tfprotov6.RawState, version int64) *tfprotov6.UpgradeResourceStateResponse {
	w.t.Helper()
	req := &tfprotov6.UpgradeResourceStateRequest{TypeName: jobResourceTypeName, RawState: raw, Version: version}
	lean, err := w.lean.UpgradeResourceState(context.Background(), req)
	plain, plainErr := w.plain.UpgradeResourceState(context.Background(), req)
	w.sameErrors(err, plainErr)
	w.sameDiagnostics(lean.Diagnostics, plain.Diagnostics)
	w.sameValue("upgraded state", lean.UpgradedState, plain.UpgradedState)
	return lean
}

func (w *twinServers) read(state *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	w.t.Helper()
	req := &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: state}
	lean, err := w.lean.ReadResource(context.Background(), req)
	plain, plainErr := w.plain.ReadResource(context.Background(), req)
	w.sameErrors(err, plainErr)
	w.sameDiagnostics(lean.Diagnostics, plain.Diagnostics)
	w.sameValue("new state", lean.NewState, plain.NewState)
	return lean.NewState
}

func (w *twinServers) plan(prior, proposed, config *tfprotov6.DynamicValue) *tfprotov6.PlanResourceChangeResponse {
	w.t.Helper()
	req := &tfprotov6.PlanResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: prior, ProposedNewState: proposed, Config: config}
	lean, err := w.lean.PlanResourceChange(context.Background(), req)
	plain, plainErr := w.plain.PlanResourceChange(context.Background(), req)
	w.sameErrors(err, plainErr)
	w.sameDiagnostics(lean.Diagnostics, plain.Diagnostics)
	w.sameValue("planned state", lean.PlannedState, plain.PlannedState)
	if fmt.Sprint(lean.RequiresReplace) != fmt.Sprint(plain.RequiresReplace) {
		w.t.Fatalf("requires replace: lean %v, framework %v", lean.RequiresReplace, plain.RequiresReplace)
	}
	return lean
}

// apply applies the change on both servers, the lean one first: for a
// destroy, the framework's then meets the 404 that counts as deleted.
func (w *twinServers) apply(prior, planned, config *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	w.t.Helper()
	req := &tfprotov6.ApplyResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: prior, PlannedState: planned, Config: config}
	lean, err := w.lean.ApplyResourceChange(context.Background(), req)
	plain, plainErr := w.plain.ApplyResourceChange(context.Background(), req)
	w.sameErrors(err, plainErr)
	w.sameDiagnostics(lean.Diagnostics, plain.Diagnostics)
	w.sameValue("new state", lean.NewState, plain.NewState)
	return lean.NewState
}

func (w *twinServers) sameErrors(lean, plain error) {
	w.t.Helper()
	if fmt.Sprint(lean) != fmt.Sprint(plain) {
		w.t.Fatalf("errors: lean %v, framework %v", lean, plain)
	}
}

func (w *twinServers) sameDiagnostics(lean, plain []*tfprotov6.Diagnostic) {
	w.t.Helper()
	describe := func(diags []*tfprotov6.Diagnostic) string {
		var b strings.Builder
		for _, d := range diags {
			fmt.Fprintf(&b, "%s %q %q %v\n", d.Severity, d.Summary, d.Detail, d.Attribute)
		}
		return b.String()
	}
	if l, p := describe(lean), describe(plain); l != p {
		w.t.Fatalf("diagnostics differ:\nlean:\n%sframework:\n%s", l, p)
	}
}

// sameValue fails unless both values decode to the same value, and unless
// the lean one holds no stand-in.
func (w *twinServers) sameValue(what string, lean, plain *tfprotov6.DynamicValue) {
	w.t.Helper()
	if (lean == nil) != (plain == nil) {
		w.t.Fatalf("%s: lean %v, framework %v", what, lean, plain)
	}
	if lean == nil {
		return
	}
	if bytes.Contains(lean.MsgPack, []byte("stand-in ")) {
		w.t.Fatalf("%s: a stand-in left the lean server", what)
	}
	l, plainV := w.decode(lean), w.decode(plain)
	if !l.Equal(plainV) {
		diffs, err := l.Diff(plainV)
		w.t.Fatalf("%s differs from the framework's at %d places (%v): %v", what, len(diffs), err, diffs)
	}
}

func (w *twinServers) decode(v *tfprotov6.DynamicValue) tftypes.Value {
	w.t.Helper()
	out, err := v.Unmarshal(w.typ)
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

func (w *twinServers) dynamic(v tftypes.Value) *tfprotov6.DynamicValue {
	dv := dynamicValue(w.t, w.typ, v)
	return &dv
}

// with returns state with the given attributes replaced.
func (w *twinServers) with(state *tfprotov6.DynamicValue, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	w.t.Helper()
	var attrs map[string]tftypes.Value
	if err := w.decode(state).As(&attrs); err != nil {
		w.t.Fatal(err)
	}
	for name, v := range set {
		attrs[name] = v
	}
	return w.dynamic(tftypes.NewValue(w.typ, attrs))
}

func (w *twinServers) attr(state *tfprotov6.DynamicValue, name string) tftypes.Value {
	w.t.Helper()
	var attrs map[string]tftypes.Value
	if err := w.decode(state).As(&attrs); err != nil {
		w.t.Fatal(err)
	}
	return attrs[name]
}

// create plans and applies a job on the framework's server alone (two
// creates would make two jobs) and returns its refreshed state.
func (w *twinServers) create(config *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	w.t.Helper()
	plain := &jobBench{protoHarness: &protoHarness{tb: w.t, server: w.plain}, typ: w.typ}
	null := w.dynamic(tftypes.NewValue(w.typ, nil))
	return w.read(plain.applyChange(null, plain.plan(null, config, config).PlannedState, config))
}

// requireResult fails unless the value's result is want.
func (w *twinServers) requireResult(value *tfprotov6.DynamicValue, want tftypes.Value, failure string) {
	w.t.Helper()
	if got := w.attr(value, "result"); !got.Equal(want) {
		w.t.Fatal(failure)
	}
}

func (w *twinServers) config(audioURL string, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	attrs := map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, audioURL)}
	for name, v := range set {
		attrs[name] = v
	}
	return w.dynamic(objectValue(w.typ, attrs))
}

// TestLeanServer_answersAsTheFramework walks a job through every call that
// hides its result from the framework, and a few that must not, and checks
// each answer against the framework's own server's.
func TestLeanServer_answersAsTheFramework(t *testing.T) {
	w := newTwinServers(t)
	// The job keeps its transcript: the largest result the layer hides.
	transcript := map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, true)}
	withTranscript := func(set map[string]tftypes.Value) map[string]tftypes.Value {
		merged := maps.Clone(transcript)
		maps.Copy(merged, set)
		return merged
	}
	config := w.config(hourAudio, transcript)
	state := w.create(config)
	result := w.attr(state, "result")
	if result.IsNull() || !result.IsFullyKnown() {
		t.Fatalf("the created job has no result: %v", result)
	}

	t.Run("refresh plan", func(t *testing.T) {
		w.t = t
		resp := w.plan(state, state, config)
		if len(resp.RequiresReplace) != 0 {
			t.Fatalf("an unchanged job plans a replacement: %v", resp.RequiresReplace)
		}
		w.requireResult(resp.PlannedState, result, "the planned result is not the job's result")
	})

	t.Run("in-place update keeps the result", func(t *testing.T) {
		w.t = t
		noWait := map[string]tftypes.Value{"wait_for_completion": tftypes.NewValue(tftypes.Bool, false)}
		changedConfig := w.config(hourAudio, withTranscript(noWait))
		resp := w.plan(state, w.with(state, noWait), changedConfig)
		w.requireResult(resp.PlannedState, result, "the planned result is not the job's result")
		w.requireResult(w.apply(state, resp.PlannedState, changedConfig), result, "the updated job lost its result")
	})

	t.Run("include_raw_result plans the result unknown", func(t *testing.T) {
		w.t = t
		raw := map[string]tftypes.Value{"include_raw_result": tftypes.NewValue(tftypes.Bool, true)}
		rawConfig := w.config(hourAudio, withTranscript(raw))
		resp := w.plan(state, w.with(state, raw), rawConfig)
		if got := w.attr(resp.PlannedState, "result"); got.IsKnown() {
			t.Fatal("the result is planned known although word timings are coming")
		}
		w.apply(state, resp.PlannedState, rawConfig)
	})

	t.Run("include_transcript off plans the result unknown", func(t *testing.T) {
		w.t = t
		off := map[string]tftypes.Value{"include_transcript": tftypes.NewValue(tftypes.Bool, false)}
		offConfig := w.config(hourAudio, off)
		resp := w.plan(state, w.with(state, off), offConfig)
		if got := w.attr(resp.PlannedState, "result"); got.IsKnown() {
			t.Fatal("the result is planned known although the transcript leaves it")
		}
		summary := w.attr(w.apply(state, resp.PlannedState, offConfig), "result")
		var attrs map[string]tftypes.Value
		if err := summary.As(&attrs); err != nil || attrs["transcription"].IsNull() {
			t.Fatalf("applied result %v: %v", summary, err)
		}
		var transcription map[string]tftypes.Value
		if err := attrs["transcription"].As(&transcription); err != nil || !transcription["full_transcript"].IsNull() {
			t.Fatalf("the transcript stayed in state: %v", err)
		}
	})

	t.Run("a new audio_url replaces the job", func(t *testing.T) {
		w.t = t
		url := map[string]tftypes.Value{"audio_url": tftypes.NewValue(tftypes.String, shortAudio)}
		if resp := w.plan(state, w.with(state, url), w.config(shortAudio, nil)); len(resp.RequiresReplace) == 0 {
			t.Fatal("a new audio_url does not replace the job")
		}
	})

	t.Run("a different proposed result gets its own stand-in", func(t *testing.T) {
		w.t = t
		other := w.attr(w.create(w.config(shortAudio, nil)), "result")
		resp := w.plan(state, w.with(state, map[string]tftypes.Value{"result": other}), config)
		w.requireResult(resp.PlannedState, result, "the planned result of a final job is not its prior result")
	})

	t.Run("upgrade", func(t *testing.T) {
		w.t = t
		stored := stateJSON(t, w.typ, state)
		w.upgrade(&tfprotov6.RawState{JSON: stored}, 0)
		// An attribute a later version removed is dropped by both.
		var attrs map[string]any
		if err := json.Unmarshal(stored, &attrs); err != nil {
			t.Fatal(err)
		}
		attrs["removed_attribute"] = "x"
		withRemoved, err := json.Marshal(attrs)
		if err != nil {
			t.Fatal(err)
		}
		w.upgrade(&tfprotov6.RawState{JSON: withRemoved}, 0)
		// Neither has an upgrader for a version it does not know.
		if resp := w.upgrade(&tfprotov6.RawState{JSON: stored}, 7); len(resp.Diagnostics) == 0 {
			t.Fatal("state of an unknown version upgraded without an error")
		}
		w.upgrade(&tfprotov6.RawState{JSON: []byte(`{"id": 1, "result": "not an object"}`)}, 0)
	})

	t.Run("a job the service deleted keeps its result", func(t *testing.T) {
		w.t = t
		id := w.attr(state, "id")
		var jobID string
		if err := id.As(&jobID); err != nil || !w.fake.ExpireJob(jobID) {
			t.Fatalf("cannot expire job %v: %v", id, err)
		}
		kept := w.read(state)
		w.requireResult(kept, result, "the expired job lost its result")
		if got := w.attr(kept, "retained"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
			t.Fatalf("retained = %v, want false", got)
		}
		w.read(kept) // known gone: not asked for again
	})

	t.Run("destroy", func(t *testing.T) {
		w.t = t
		null := w.dynamic(tftypes.NewValue(w.typ, nil))
		resp := w.plan(state, null, null)
		if got := w.apply(state, resp.PlannedState, null); !w.decode(got).IsNull() {
			t.Fatal("the destroyed job is still in state")
		}
	})
}

func TestMarkedValue(t *testing.T) {
	object := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"count": tftypes.Number,
		"b":     tftypes.List{ElementType: tftypes.String},
		"a":     tftypes.Object{AttributeTypes: map[string]tftypes.Type{"n": tftypes.Number}},
	}}
	tests := []struct {
		name string
		typ  tftypes.Type
		want tftypes.Value
		ok   bool
	}{
		{"string", tftypes.String, tftypes.NewValue(tftypes.String, "m"), true},
		{"number", tftypes.Number, tftypes.Value{}, false},
		{"object without strings", object.AttributeTypes["a"], tftypes.Value{}, false},
		{"first attribute holding a string", object, tftypes.NewValue(object, map[string]tftypes.Value{
			"count": tftypes.NewValue(tftypes.Number, nil),
			"b":     tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "m")}),
			"a":     tftypes.NewValue(object.AttributeTypes["a"], nil),
		}), true},
		{"map", tftypes.Map{ElementType: tftypes.String}, tftypes.NewValue(tftypes.Map{ElementType: tftypes.String},
			map[string]tftypes.Value{"m": tftypes.NewValue(tftypes.String, "m")}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := markedValue(tt.typ, "m")
			if ok != tt.ok || (ok && !got.Equal(tt.want)) {
				t.Fatalf("markedValue = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestStandIns_keepEquality: equal values get the same stand-in and
// different ones different stand-ins, so the framework's comparisons of
// prior and proposed state come out as on the values themselves.
func TestStandIns_keepEquality(t *testing.T) {
	resultType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"text": tftypes.String}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "result": resultType}}
	state := func(text string) *tfprotov6.DynamicValue {
		dv := dynamicValue(t, typ, tftypes.NewValue(typ, map[string]tftypes.Value{
			"id":     tftypes.NewValue(tftypes.String, "job"),
			"result": tftypes.NewValue(resultType, map[string]tftypes.Value{"text": tftypes.NewValue(tftypes.String, text)}),
		}))
		return &dv
	}
	s := &standIns{typ: typ, attrs: []string{"result"}, text: "stand-in test"}
	prior, samePlanned, otherPlanned := s.hide(state("a")), s.hide(state("a")), s.hide(state("b"))
	if !bytes.Equal(prior.MsgPack, samePlanned.MsgPack) {
		t.Error("equal results got different stand-ins")
	}
	if bytes.Equal(prior.MsgPack, otherPlanned.MsgPack) {
		t.Error("different results got the same stand-in")
	}
	if bytes.Contains(prior.MsgPack, []byte(`"a"`)) || !bytes.Contains(prior.MsgPack, []byte("stand-in test")) {
		t.Error("the result is not hidden")
	}
	for _, tc := range []struct {
		hidden *tfprotov6.DynamicValue
		want   string
	}{{prior, "a"}, {otherPlanned, "b"}} {
		restored, err := s.restore(tc.hidden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(restored.MsgPack, state(tc.want).MsgPack) {
			t.Errorf("restored %q wrongly", tc.want)
		}
	}
}
