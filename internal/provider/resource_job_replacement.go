package provider

import (
	"context"
	"maps"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// requestFieldNames are the create body's JSON field names, which the
// request attributes of transcription_job are named after.
var requestFieldNames = sync.OnceValue(func() []string {
	t := reflect.TypeFor[client.InitTranscriptionRequest]()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
})

// planReplacement is the one rule that replaces a job: a job cannot change
// once submitted, so it is replaced (a new job, billed again) when what the
// service would do with the planned request differs from what it did with
// the job's. Both sides go through client.Effective, so a value that means
// the same (a service default written out, an empty list for none, a list
// whose order means nothing reordered, the configuration of a switch that
// is off) changes the job in place, in state only. A value not yet known
// might differ, so it replaces, unless the service ignores it (in the
// configuration of a switch known to be off) or it is a boolean that makes
// the same job whichever it becomes (code_switching with one language).
// The plan, not the configuration, is compared: it has the schema's
// defaults, and the job's callback_url where the configuration leaves it out.
func planReplacement(ctx context.Context, plan tfsdk.Plan, state tfsdk.State, resp *resource.ModifyPlanResponse) {
	if state.Raw.IsNull() {
		return // a creation
	}
	if requestUnchanged(plan.Raw, state.Raw) {
		return // the usual plan: reading both requests would find them equal
	}
	known, diags := fullyKnownAttributes(plan.Raw)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	var applied jobResourceModel
	resp.Diagnostics.Append(state.Get(ctx, &applied)...)
	had, diags := applied.createRequest(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	have := had.EffectiveFields()
	// An attribute not wholly known replaces the job whatever it becomes,
	// unless its only unknowns are a few booleans, each outcome of which is
	// compared; the requests compared leave the others out, as a list or map
	// holding an unknown value cannot become the client's request.
	outcomes, enumerated := unknownBooleanOutcomes(plan.Raw, known)
	differs := map[string]bool{}
	for _, outcome := range outcomes {
		var planned jobResourceModel
		resp.Diagnostics.Append(tfsdk.Plan{Schema: plan.Schema, Raw: outcome}.Get(ctx, &planned)...)
		if resp.Diagnostics.HasError() {
			return
		}
		wanted, diags := planned.createRequest(ctx)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		want := wanted.EffectiveFields()
		for _, name := range requestFieldNames() {
			differs[name] = differs[name] || want[name] != have[name]
		}
	}
	ignored := ignoredConfigurations(plan.Raw)
	for _, name := range requestFieldNames() {
		if !known[name] && !enumerated[name] && !ignored[name] || differs[name] {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
		}
	}
}

// maxUnknownBooleans bounds the outcomes compared (2^n): more unknown
// booleans than this replace the job, as any other unknown value does.
const maxUnknownBooleans = 4

// unknownBooleanOutcomes are the planned object's values for each way its
// unknown booleans could turn out, and enumerated names the attributes in
// which they are all that is unknown. Every other attribute not wholly
// known (known says which are) is null in each outcome. With no such
// booleans, or more than maxUnknownBooleans, the one outcome has every
// attribute not wholly known null, and none is enumerated.
func unknownBooleanOutcomes(planned tftypes.Value, known map[string]bool) ([]tftypes.Value, map[string]bool) {
	var booleans []*tftypes.AttributePath
	notOnlyBooleans := map[string]bool{}
	_ = tftypes.Walk(planned, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		if v.IsKnown() {
			return true, nil
		}
		if v.Type().Is(tftypes.Bool) {
			booleans = append(booleans, p)
		} else if name, ok := p.Steps()[0].(tftypes.AttributeName); ok {
			notOnlyBooleans[string(name)] = true
		}
		return false, nil
	})
	enumerated := map[string]bool{}
	kept := maps.Clone(known)
	var compared []*tftypes.AttributePath
	for _, p := range booleans {
		name, _ := p.Steps()[0].(tftypes.AttributeName)
		if !notOnlyBooleans[string(name)] {
			enumerated[string(name)] = true
			kept[string(name)] = true
			compared = append(compared, p)
		}
	}
	if len(compared) == 0 || len(compared) > maxUnknownBooleans {
		return []tftypes.Value{withoutUnknownAttributes(planned, known)}, nil
	}
	base := withoutUnknownAttributes(planned, kept)
	outcomes := make([]tftypes.Value, 0, 1<<len(compared))
	for bits := range 1 << len(compared) {
		outcome, err := tftypes.Transform(base, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			for i, b := range compared {
				if p.Equal(b) {
					return tftypes.NewValue(tftypes.Bool, bits&(1<<i) != 0), nil
				}
			}
			return v, nil
		})
		if err != nil { // the callback returns no error
			return []tftypes.Value{withoutUnknownAttributes(planned, known)}, nil
		}
		outcomes = append(outcomes, outcome)
	}
	return outcomes, enumerated
}

// ignoredConfigurations names the configuration attributes of a planned
// object whose switch is known to be false: the service ignores them, so a
// value not yet known there changes nothing, whatever it becomes.
func ignoredConfigurations(planned tftypes.Value) map[string]bool {
	var attrs map[string]tftypes.Value
	if planned.As(&attrs) != nil {
		return nil
	}
	ignored := map[string]bool{}
	for config, name := range client.ConfigurationSwitches {
		var on *bool
		if sw, ok := attrs[name]; ok && sw.IsKnown() && sw.As(&on) == nil && on != nil && !*on {
			ignored[config] = true
		}
	}
	return ignored
}

// requestUnchanged reports whether every request attribute of the planned
// object is the applied one's value, in which case the service would do the
// same with both requests. Anything it cannot read is left to the full
// comparison.
func requestUnchanged(planned, applied tftypes.Value) bool {
	var p, a map[string]tftypes.Value
	if planned.As(&p) != nil || applied.As(&a) != nil {
		return false
	}
	for _, name := range requestFieldNames() {
		pv, ok := p[name]
		if !ok || !pv.Equal(a[name]) {
			return false
		}
	}
	return true
}

// fullyKnownAttributes tells, for each top-level attribute of an object
// value, whether it is wholly known.
func fullyKnownAttributes(v tftypes.Value) (map[string]bool, diag.Diagnostics) {
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		var diags diag.Diagnostics
		diags.AddError("Cannot read the configuration", "The configuration of transcription_job is not an object: "+err.Error()+". This is a bug in the provider; please report it.")
		return nil, diags
	}
	out := make(map[string]bool, len(attrs))
	for name, a := range attrs {
		out[name] = a.IsFullyKnown()
	}
	return out, nil
}

// withoutUnknownAttributes is the object value v with each top-level
// attribute that known does not say is wholly known made null.
func withoutUnknownAttributes(v tftypes.Value, known map[string]bool) tftypes.Value {
	var attrs map[string]tftypes.Value
	typ, ok := v.Type().(tftypes.Object)
	if !ok || v.As(&attrs) != nil {
		return v
	}
	out := make(map[string]tftypes.Value, len(attrs)) // As shares v's map
	for name, a := range attrs {
		if !known[name] {
			a = tftypes.NewValue(typ.AttributeTypes[name], nil)
		}
		out[name] = a
	}
	return tftypes.NewValue(typ, out)
}
