package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

func TestFitJSONToType(t *testing.T) {
	t.Parallel()
	object := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"text": tftypes.String, "start": tftypes.Number}}
	cases := []struct {
		name string
		in   string // JSON
		typ  tftypes.Type
		want string // JSON
	}{
		{"a list kept typed becomes its JSON text", `[{"text":"hi","start":1.50}]`, tftypes.String, `"[{\"start\":1.50,\"text\":\"hi\"}]"`},
		{"an object kept typed becomes its JSON text", `{"a":true}`, tftypes.String, `"{\"a\":true}"`},
		{"a string stays", `"hello"`, tftypes.String, `"hello"`},
		{"JSON text where a list is kept is decoded", `"[\"a\",\"b\"]"`, tftypes.List{ElementType: tftypes.String}, `["a","b"]`},
		{"JSON text where an object is kept is decoded", `"{\"text\":\"x\",\"start\":2}"`, object, `{"start":2,"text":"x"}`},
		{"text that is not JSON where a list is kept is null", `"a, b"`, tftypes.List{ElementType: tftypes.String}, `null`},
		{"an attribute the type lacks is dropped, one it has missing is null", `{"text":"x","speaker":1}`, object, `{"start":null,"text":"x"}`},
		{"a number keeps its digits", `12345678901234567891`, tftypes.Number, `12345678901234567891`},
		{"a string where a number is kept is null", `"12"`, tftypes.Number, `null`},
		{"a bool stays", `false`, tftypes.Bool, `false`},
		{"a number where a bool is kept is null", `0`, tftypes.Bool, `null`},
		{"map elements are fitted", `{"srt":"1\n","vtt":["x"]}`, tftypes.Map{ElementType: tftypes.String}, `{"srt":"1\n","vtt":"[\"x\"]"}`},
		{"set elements are fitted", `[1,"2"]`, tftypes.Set{ElementType: tftypes.Number}, `[1,null]`},
		{"null stays null", `null`, object, `null`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := json.Marshal(fitJSONToType(decodeJSONNumbers(t, []byte(tc.in)), tc.typ))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("fitJSONToType(%s, %s) = %s, want %s", tc.in, tc.typ, got, tc.want)
			}
		})
	}
}

// decodeJSONNumbers decodes data, keeping numbers as written.
func decodeJSONNumbers(tb testing.TB, data []byte) any {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		tb.Fatalf("decoding %s: %v", data, err)
	}
	return v
}

// upgradeJobState is Terraform's UpgradeResourceState call for a job's
// stored state of version.
func upgradeJobState(h *protoHarness, version int64, stored []byte) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
	h.tb.Helper()
	resp, err := h.server.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{
		TypeName: jobResourceTypeName, Version: version, RawState: &tfprotov6.RawState{JSON: stored},
	})
	if err != nil {
		h.tb.Fatal(err)
	}
	return resp.UpgradedState, resp.Diagnostics
}

// decodeJSONTextAt decodes the JSON text at path in a plain value (plainValue),
// so that texts of the same meaning compare equal.
func decodeJSONTextAt(tb testing.TB, plain any, path ...string) {
	tb.Helper()
	m, ok := plain.(map[string]any)
	for _, name := range path[:len(path)-1] {
		if !ok {
			tb.Fatalf("no object at %v", path)
		}
		m, ok = m[name].(map[string]any)
	}
	last := path[len(path)-1]
	text, isText := m[last].(string)
	if !ok || !isText {
		tb.Fatalf("no JSON text at %v: %#v", path, m[last])
	}
	m[last] = decodeJSONNumbers(tb, []byte(text))
}

// TestUpgradeJobState_fromTypedResult: a job's state as development builds
// before version 1 kept it (utterances as a typed list, file.source with
// the audio_url's query) upgrades to what the provider keeps today, and the
// refresh and plan after it find nothing to change. Without the upgrader,
// the framework could not read that state, and plan and destroy failed.
func TestUpgradeJobState_fromTypedResult(t *testing.T) {
	t.Parallel()
	const audioURL = "https://media.example.com/bench/short.wav?duration=30&X-Amz-Signature=SECRETSIG"
	j := newJobBench(t, audioURL, "include_transcript")
	current := j.storedState().JSON

	old := decodeJSONNumbers(t, current).(map[string]any)
	file := old["file"].(map[string]any)
	if file["source"] == audioURL {
		t.Fatalf("fixture: file.source is not redacted today: %v", file["source"])
	}
	file["source"] = audioURL
	transcription := old["result"].(map[string]any)["transcription"].(map[string]any)
	utterances, _ := decodeJSONNumbers(t, []byte(transcription["utterances"].(string))).([]any)
	if len(utterances) == 0 {
		t.Fatalf("fixture: utterances %q", transcription["utterances"])
	}
	transcription["utterances"] = utterances
	stored, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}

	upgraded, diags := upgradeJobState(j.protoHarness, 0, stored)
	failOnDiagnostics(t, "UpgradeResourceState", diags)
	got, want := plainValueOf(t, j.typ, upgraded), decodeJSONNumbers(t, current)
	decodeJSONTextAt(t, got, "result", "transcription", "utterances")
	decodeJSONTextAt(t, want, "result", "transcription", "utterances")
	if !reflect.DeepEqual(got, want) {
		gotJSON, _ := json.Marshal(got)
		t.Fatalf("upgraded state:\n%s\nwant what the provider keeps today:\n%s", gotJSON, current)
	}

	refreshed := j.read(upgraded)
	plan := j.plan(refreshed, refreshed, &j.config)
	if len(plan.RequiresReplace) != 0 {
		t.Fatalf("the upgraded job plans a replacement: %v", plan.RequiresReplace)
	}
	planned, err := plan.PlannedState.Unmarshal(j.typ)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := refreshed.Unmarshal(j.typ)
	if err != nil {
		t.Fatal(err)
	}
	if diffs, err := prior.Diff(planned); err != nil || len(diffs) != 0 {
		t.Fatalf("the upgraded job plans a change: %v %v", diffs, err)
	}
}

// TestUpgradeJobState_fromEarlierBuilds upgrades states that development
// builds wrote (internal/provider/testdata/job-state-v0): from 40d2010 (a
// typed result: utterances, named entities, audio-to-LLM answers) and from
// 05df018 (today's shape, version 0), which is kept as it is.
func TestUpgradeJobState_fromEarlierBuilds(t *testing.T) {
	t.Parallel()
	h := newProtoHarness(t, fakeserver.Options{})
	typ := h.resourceType(jobResourceTypeName)
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "job-state-v0", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	t.Run("typed result", func(t *testing.T) {
		stored := read("typed-result-40d2010.json")
		upgraded, diags := upgradeJobState(h, 0, stored)
		failOnDiagnostics(t, "UpgradeResourceState", diags)
		got, old := plainValueOf(t, typ, upgraded), decodeJSONNumbers(t, stored).(map[string]any)
		for _, path := range [][]string{
			{"result", "transcription", "utterances"},
			{"result", "named_entity_recognition", "results"},
			{"result", "sentiment_analysis", "results"},
		} {
			decodeJSONTextAt(t, got, path...)
			wantAt, gotAt := plainAt(old, path), plainAt(got, path)
			if _, isText := wantAt.(string); isText {
				wantAt = decodeJSONNumbers(t, []byte(wantAt.(string)))
			}
			if wantAt == nil || !reflect.DeepEqual(gotAt, wantAt) {
				t.Errorf("%v: upgraded to %v, want the stored %v", path, gotAt, wantAt)
			}
		}
		// Written before include_transcript existed: its default, not null,
		// which a plan would change.
		if _, stored := old["include_transcript"]; stored {
			t.Fatal("fixture: the state has include_transcript")
		}
		if got := plainAt(got, []string{"include_transcript"}); got != false {
			t.Errorf("include_transcript upgraded to %v, want its default, false", got)
		}
		for _, path := range [][]string{{"id"}, {"status"}, {"result", "transcription", "full_transcript"}, {"result", "metadata", "audio_duration"}} {
			if gotAt, wantAt := plainAt(got, path), plainAt(old, path); wantAt == nil || !reflect.DeepEqual(gotAt, wantAt) {
				t.Errorf("%v: upgraded to %v, want the stored %v", path, gotAt, wantAt)
			}
		}
	})

	t.Run("answers gain the attributes added since, null", func(t *testing.T) {
		stored := read("typed-result-40d2010.json")
		upgraded, diags := upgradeJobState(h, 0, stored)
		failOnDiagnostics(t, "UpgradeResourceState", diags)
		got, _ := plainAt(plainValueOf(t, typ, upgraded), []string{"result", "audio_to_llm", "results"}).([]any)
		old, _ := plainAt(decodeJSONNumbers(t, stored), []string{"result", "audio_to_llm", "results"}).([]any)
		if len(old) == 0 || len(got) != len(old) {
			t.Fatalf("audio_to_llm results: %v, want as many as the stored %v", got, old)
		}
		for i, answer := range got {
			answer := answer.(map[string]any)
			stored := old[i].(map[string]any)
			if answer["prompt"] != stored["prompt"] || answer["response"] != stored["response"] || answer["success"] != nil {
				t.Errorf("answer %d: %v, want the stored %v and success null", i, answer, stored)
			}
		}
	})

	t.Run("typed result of a job from an upload", func(t *testing.T) {
		_, diags := upgradeJobState(h, 0, read("typed-result-upload-40d2010.json"))
		failOnDiagnostics(t, "UpgradeResourceState", diags)
	})

	t.Run("today's shape", func(t *testing.T) {
		stored := read("json-result-05df018.json")
		upgraded, diags := upgradeJobState(h, 0, stored)
		failOnDiagnostics(t, "UpgradeResourceState", diags)
		kept, diags := upgradeJobState(h, jobSchemaVersion, stored) // the framework's own reading
		failOnDiagnostics(t, "UpgradeResourceState", diags)
		if got, want := plainValueOf(t, typ, upgraded), plainValueOf(t, typ, kept); !reflect.DeepEqual(got, want) {
			gotJSON, _ := json.Marshal(got)
			t.Errorf("state already in today's shape upgraded to\n%s\nwant it as stored\n%s", gotJSON, stored)
		}
	})
}

// plainValueOf is a state's value as plain Go values (plainValue).
func plainValueOf(tb testing.TB, typ tftypes.Type, state *tfprotov6.DynamicValue) any {
	tb.Helper()
	v, err := state.Unmarshal(typ)
	if err != nil {
		tb.Fatal(err)
	}
	return plainValue(tb, v)
}

// plainAt is the plain value at path, nil where there is none.
func plainAt(plain any, path []string) any {
	for _, name := range path {
		m, ok := plain.(map[string]any)
		if !ok {
			return nil
		}
		plain = m[name]
	}
	return plain
}

// TestAccProcess_upgradeStateOfEarlierBuilds: the real CLI plans no change
// for a job whose state an earlier development build wrote (version 0:
// utterances a typed list, file.source with the audio_url's query), and a
// refresh stores it upgraded. Before version 1, plan and destroy failed
// ("Unable to Read Previously Saved State").
func TestAccProcess_upgradeStateOfEarlierBuilds(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	const audioURL = "https://media.example.com/upgrade.wav?X-Amz-Signature=SECRETSIG"
	w := newCLIWorkspace(t, acctest.ProviderConfig(url)+acctest.JobConfig("old", `
  audio_url          = "`+audioURL+`"
  include_transcript = true
`)+acctest.JobConfig("older", `audio_url = "https://media.example.com/older.wav"`))
	if _, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, stderr)
	}

	// The state as version 0 kept it.
	statePath := filepath.Join(w.dir, "terraform.tfstate")
	editStateInstance(t, statePath, jobResourceTypeName, "old", func(instance map[string]any) {
		if v := instance["schema_version"]; v != json.Number(strconv.Itoa(jobSchemaVersion)) {
			t.Fatalf("fixture: schema_version %v in state, want %d", v, jobSchemaVersion)
		}
		instance["schema_version"] = 0
		attrs := instance["attributes"].(map[string]any)
		attrs["file"].(map[string]any)["source"] = audioURL
		transcription := attrs["result"].(map[string]any)["transcription"].(map[string]any)
		transcription["utterances"] = decodeJSONNumbers(t, []byte(transcription["utterances"].(string)))
	})
	// Written before include_transcript existed: a plan would add it.
	editStateInstance(t, statePath, jobResourceTypeName, "older", func(instance map[string]any) {
		instance["schema_version"] = 0
		delete(instance["attributes"].(map[string]any), "include_transcript")
	})

	if stdout, stderr, err := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("plan of the job in version 0's state: %v (exit 2: changes)\n%s%s", err, stdout, stderr)
	}
	if _, stderr, err := w.run(nil, "apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply -refresh-only: %v\n%s", err, stderr)
	}
	editStateInstance(t, statePath, jobResourceTypeName, "old", func(instance map[string]any) {
		attrs := instance["attributes"].(map[string]any)
		if v := instance["schema_version"]; v != json.Number(strconv.Itoa(jobSchemaVersion)) {
			t.Errorf("schema_version %v after a refresh, want %d", v, jobSchemaVersion)
		}
		if source := attrs["file"].(map[string]any)["source"]; source != client.RedactedURL(audioURL) || strings.Contains(fmt.Sprint(source), "SECRETSIG") {
			t.Errorf("file.source %v after a refresh, want it without the query", source)
		}
		if _, isText := attrs["result"].(map[string]any)["transcription"].(map[string]any)["utterances"].(string); !isText {
			t.Error("utterances are not JSON text after a refresh")
		}
	})
	if _, stderr, err := w.run(nil, "destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, stderr)
	}
}

// editStateInstance lets edit read and change the one instance of the
// resource typeName.name in the state file at path (numbers as written),
// and writes the state back.
func editStateInstance(t *testing.T, path, typeName, name string, edit func(instance map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	state := decodeJSONNumbers(t, data).(map[string]any)
	found := 0
	for _, r := range state["resources"].([]any) {
		r := r.(map[string]any)
		if r["mode"] != "managed" || r["type"] != typeName || r["name"] != name {
			continue
		}
		for _, instance := range r["instances"].([]any) {
			edit(instance.(map[string]any))
			found++
		}
	}
	if found != 1 {
		t.Fatalf("%d %s.%s instances in state, want 1", found, typeName, name)
	}
	if data, err = json.MarshalIndent(state, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
