package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

func TestWalkObjectsSettingNothing(t *testing.T) {
	t.Parallel()
	inner := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Number}}
	root := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"config":  inner,
		"entries": tftypes.List{ElementType: inner},
		"by_name": tftypes.Map{ElementType: inner},
	}}
	empty := tftypes.NewValue(inner, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, nil), "b": tftypes.NewValue(tftypes.Number, nil)})
	set := tftypes.NewValue(inner, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, "x"), "b": tftypes.NewValue(tftypes.Number, nil)})
	unknownAttr := tftypes.NewValue(inner, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "b": tftypes.NewValue(tftypes.Number, nil)})
	value := func(config tftypes.Value, entries []tftypes.Value, byName map[string]tftypes.Value) tftypes.Value {
		return tftypes.NewValue(root, map[string]tftypes.Value{
			"config":  config,
			"entries": tftypes.NewValue(root.AttributeTypes["entries"], entries),
			"by_name": tftypes.NewValue(root.AttributeTypes["by_name"], byName),
		})
	}
	for _, tc := range []struct {
		name  string
		value tftypes.Value
		want  []string
	}{
		{"an empty object", value(empty, nil, nil), []string{"config"}},
		{"an object setting something", value(set, nil, nil), nil},
		{"a null object", value(tftypes.NewValue(inner, nil), nil, nil), nil},
		{"an unknown object", value(tftypes.NewValue(inner, tftypes.UnknownValue), nil, nil), nil},
		{"an object with an unknown argument", value(unknownAttr, nil, nil), nil},
		{"in a list", value(set, []tftypes.Value{set, empty}, nil), []string{"entries[1]"}},
		{"in a map", value(set, nil, map[string]tftypes.Value{"k": empty}), []string{`by_name["k"]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			walkObjectsSettingNothing(tc.value, path.Empty(), func(p path.Path, names []string) {
				if !slices.Equal(names, []string{"a", "b"}) {
					t.Errorf("%s: names %v", p, names)
				}
				got = append(got, p.String())
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("found %v, want %v", got, tc.want)
			}
		})
	}
}

// A misspelled argument inside an object reaches the provider as an object
// setting nothing (Terraform drops it without an error): the plan of a new
// job warns, naming the object and its arguments. A plan that makes no job
// does not (an empty object may be meant: the configuration generated for
// an imported job can write diarization_config = {}).
func TestJobPlan_warnsOfAnObjectSettingNothing(t *testing.T) {
	t.Parallel()
	h := newProtoHarness(t, fakeserver.Options{})
	typ := h.resourceType(jobResourceTypeName)
	nullObject := func(name string) tftypes.Value {
		objType := typ.AttributeTypes[name].(tftypes.Object)
		return objectValue(objType, nil)
	}
	config := dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{
		"audio_url":          tftypes.NewValue(tftypes.String, "https://media.example.com/a.wav"),
		"subtitles":          tftypes.NewValue(tftypes.Bool, true),
		"subtitles_config":   nullObject("subtitles_config"), // { format = ["vtt"] }
		"diarization":        tftypes.NewValue(tftypes.Bool, true),
		"diarization_config": nullObject("diarization_config"),
	}))
	null := dynamicValue(t, typ, tftypes.NewValue(typ, nil))
	const detail = "Terraform drops an argument whose name it does not know inside an object"
	created := h.planChange(jobResourceTypeName, &null, &config, &config)
	for _, name := range []string{"subtitles_config", "diarization_config"} {
		if !hasWarning(created.Diagnostics, name+" sets none of its arguments", detail) {
			t.Errorf("the plan of a new job does not warn of %s: %v", name, created.Diagnostics)
		}
	}
	state := h.applyChange(jobResourceTypeName, &null, created.PlannedState, &config).NewState
	again := h.planChange(jobResourceTypeName, state, &config, &config)
	if slices.ContainsFunc(again.Diagnostics, func(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityWarning }) {
		for _, d := range again.Diagnostics {
			t.Errorf("an unchanged plan warns: %s: %s", d.Summary, d.Detail)
		}
	}
}

// The action's plan warns as a new job's does: each run makes a job.
func TestTranscribePlan_warnsOfAnObjectSettingNothing(t *testing.T) {
	t.Parallel()
	h := newProtoHarness(t, fakeserver.Options{})
	server, _, actionType := transcribeActionOf(t, h)
	config := dynamicValue(t, actionType, objectValue(actionType, map[string]tftypes.Value{
		"audio_url":        tftypes.NewValue(tftypes.String, "https://media.example.com/a.wav"),
		"subtitles":        tftypes.NewValue(tftypes.Bool, true),
		"subtitles_config": objectValue(actionType.AttributeTypes["subtitles_config"].(tftypes.Object), nil),
	}))
	planned, err := server.PlanAction(context.Background(), &tfprotov6.PlanActionRequest{ActionType: transcribeActionTypeName, Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(planned.Diagnostics, "subtitles_config sets none of its arguments", "Terraform drops an argument whose name it does not know") {
		t.Errorf("the action's plan does not warn of subtitles_config: %v", planned.Diagnostics)
	}
}
