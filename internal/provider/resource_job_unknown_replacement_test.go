package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestJobPlan_unknownRequestValueReplaces: a request attribute not wholly
// known at plan time replaces the job, whatever it becomes, also when the
// job had it null (an unknown switch whose default the job has, custom
// metadata the job had none of) and when only one value inside a map is
// unknown; and the plan converts nothing unknown into a request (a map
// holding an unknown value cannot become one), so it carries no error.
func TestJobPlan_unknownRequestValueReplaces(t *testing.T) {
	metadataType := tftypes.Map{ElementType: tftypes.String}
	cases := map[string]struct {
		name  string
		value tftypes.Value
	}{
		"switch":         {"diarization", tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)},
		"map":            {"custom_metadata", tftypes.NewValue(metadataType, tftypes.UnknownValue)},
		"value in a map": {"custom_metadata", tftypes.NewValue(metadataType, map[string]tftypes.Value{"team": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})},
	}
	j := newJobBench(t, shortAudio, "")
	state := j.read(j.apply(j.planCreate()))
	for label, c := range cases {
		t.Run(label, func(t *testing.T) {
			if had := objectAttributes(t, j.typ, state)[c.name]; !had.IsNull() && !had.Equal(tftypes.NewValue(tftypes.Bool, false)) {
				t.Fatalf("the job already has %s = %v", c.name, had)
			}
			pv := withAttributes(t, j.typ, state, map[string]tftypes.Value{c.name: c.value})
			cv := dynamicValue(t, j.typ, objectValue(j.typ, map[string]tftypes.Value{
				"audio_url": tftypes.NewValue(tftypes.String, shortAudio),
				c.name:      c.value,
			}))
			resp := j.plan(state, &pv, &cv) // fails on an error diagnostic
			want := tftypes.NewAttributePath().WithAttributeName(c.name)
			if !replaces(resp, want) {
				t.Errorf("%s unknown plans no replacement: RequiresReplace %v", c.name, resp.RequiresReplace)
			}
		})
	}
}

// replaces reports whether resp plans a replacement for the attribute at p.
func replaces(resp *tfprotov6.PlanResourceChangeResponse, p *tftypes.AttributePath) bool {
	for _, r := range resp.RequiresReplace {
		if r.Equal(p) {
			return true
		}
	}
	return false
}
