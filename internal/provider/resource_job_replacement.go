package provider

import (
	"context"
	"maps"
	"math/big"
	"reflect"
	"slices"
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
// might differ, so it replaces, unless the request does not use it whatever
// it becomes (in the configuration of a switch known to be off,
// code_switching with one language, callback_url beside a callback_config
// in use: unknownValueOutcomes). The plan, not the configuration, is
// compared: it has the schema's defaults, and the job's callback_url where
// the configuration leaves it out.
//
// It returns the request attributes in use that the service would take as
// the job's, wholly known or whatever their unknown values become: another
// form of one (keepAppliedForms) is no change.
func planReplacement(ctx context.Context, plan tfsdk.Plan, state tfsdk.State, resp *resource.ModifyPlanResponse) (unchanged []string) {
	if state.Raw.IsNull() {
		return nil // a creation
	}
	if requestUnchanged(plan.Raw, state.Raw) {
		return nil // the usual plan: reading both requests would find them equal
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
	// unless its only unknowns are a few single values, whose outcomes are
	// compared; the requests compared leave the others out, as a list or
	// map holding an unknown value cannot become the client's request.
	ignored := ignoredConfigurations(plan.Raw)
	outcomes, probed := unknownValueOutcomes(plan.Raw, known, func(name string) bool {
		return !ignored[name] && slices.Contains(requestFieldNames(), name)
	})
	wants, diags := effectiveFieldsOf(ctx, plan, outcomes)
	if diags.HasError() && probed != nil { // a probe the model cannot hold
		probed = nil
		wants, diags = effectiveFieldsOf(ctx, plan, []tftypes.Value{withoutUnknownAttributes(plan.Raw, known)})
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	differs := map[string]bool{}
	for _, want := range wants {
		for _, name := range requestFieldNames() {
			differs[name] = differs[name] || want[name] != have[name]
		}
	}
	for _, name := range requestFieldNames() {
		switch {
		case !known[name] && !probed[name] && !ignored[name] || differs[name]:
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
		case (known[name] || probed[name]) && !ignored[name]:
			// Probed, it keeps the applied value now as it will when
			// Terraform plans again at apply with the value known: a plan
			// that kept the configuration's form here, and the applied
			// one then, would contradict itself.
			unchanged = append(unchanged, name)
		}
	}
	return unchanged
}

// keepAppliedForms plans, for each of names (request attributes the
// service would take as the job's, from planReplacement), the applied value
// where the configuration gives it in another form (languages reordered, a
// default written out, a URL's host in capitals): the plan then shows no
// change for an edit that means nothing, and state keeps the applied form.
// Terraform accepts a planned value that is the prior one in place of the
// configuration's only where neither is null: a configuration object
// written out where the job has none (language_config = {}) still plans an
// update, in state only. The configuration of a switch that is off is not
// among names: an edit there is kept, though the service ignores it.
//
// names may hold timeouts too, when the configuration writes the applied
// durations another way (timeoutsRewritten).
//
// When, the forms kept, no argument differs from the state, the state
// itself is planned: the framework had marked the computed values unknown
// for the edit (a job still running has them re-read), and the plan would
// show that update at every plan until the job ended, as the edit stays in
// the configuration.
func keepAppliedForms(config tfsdk.Config, state tfsdk.State, plan *tfsdk.Plan, names []string) {
	var configured, applied, planned map[string]tftypes.Value
	if len(names) == 0 || config.Raw.As(&configured) != nil || state.Raw.As(&applied) != nil || plan.Raw.As(&planned) != nil {
		return // none (the usual plan), or not objects: planReplacement has said so
	}
	kept := maps.Clone(planned) // As shares plan.Raw's map
	changed := false
	for _, name := range names {
		if !configured[name].IsNull() && !applied[name].IsNull() && !kept[name].Equal(applied[name]) {
			kept[name], changed = applied[name], true
		}
	}
	if !changed {
		return
	}
	for name, a := range plan.Schema.GetAttributes() {
		if (a.IsOptional() || a.IsRequired()) && !kept[name].Equal(applied[name]) {
			plan.Raw = tftypes.NewValue(plan.Raw.Type(), kept)
			return
		}
	}
	plan.Raw = state.Raw
}

// effectiveFieldsOf is what the service would do (client.EffectiveFields)
// with the request of each planned value of plan's schema.
func effectiveFieldsOf(ctx context.Context, plan tfsdk.Plan, planned []tftypes.Value) ([]map[string]string, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := make([]map[string]string, 0, len(planned))
	for _, raw := range planned {
		var m jobResourceModel
		if diags.Append(tfsdk.Plan{Schema: plan.Schema, Raw: raw}.Get(ctx, &m)...); diags.HasError() {
			return nil, diags
		}
		request, d := m.createRequest(ctx)
		if diags.Append(d...); diags.HasError() {
			return nil, diags
		}
		out = append(out, request.EffectiveFields())
	}
	return out, diags
}

// maxProbedValues bounds the outcomes compared (2^n): more unknown values
// than this replace the job, as any unknown list, map or object does.
const maxProbedValues = 4

// probes are the values an unknown boolean, string or number takes in the
// outcomes compared. A boolean's two are every value it can take. A string's
// or number's two differ from each other, and from every value Effective
// compares one with (a language code, a default, the empty string: no
// valid number is negative), so a request that uses the value (Effective
// keeps it or its normal form, or drops it for equalling another) differs
// from the job's for at least one of them: the outcomes are all the job's
// only where the request does not use the value at all.
func probes(t tftypes.Type) []tftypes.Value {
	switch {
	case t.Is(tftypes.Bool):
		return []tftypes.Value{tftypes.NewValue(t, false), tftypes.NewValue(t, true)}
	case t.Is(tftypes.String):
		return []tftypes.Value{tftypes.NewValue(t, "\x00not yet known 1"), tftypes.NewValue(t, "\x00not yet known 2")}
	case t.Is(tftypes.Number):
		return []tftypes.Value{tftypes.NewValue(t, big.NewFloat(-1)), tftypes.NewValue(t, big.NewFloat(-2))}
	}
	return nil
}

// unknownValueOutcomes are the planned object's values for each combination
// of probes of the unknown booleans, strings and numbers of the attributes
// compare names (those of the request the service may use: computed
// values and the provider's own settings are not), and probed names the
// attributes in which they are all that is unknown. Every other attribute
// not wholly known (known says which are) is null in each outcome. With no
// such values, or more than maxProbedValues, the one outcome has every
// attribute not wholly known null, and none is probed.
func unknownValueOutcomes(planned tftypes.Value, known map[string]bool, compare func(name string) bool) ([]tftypes.Value, map[string]bool) {
	var unknowns []*tftypes.AttributePath
	notProbed := map[string]bool{}
	_ = tftypes.Walk(planned, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		if steps := p.Steps(); len(steps) == 1 {
			if name, _ := steps[0].(tftypes.AttributeName); known[string(name)] || !compare(string(name)) {
				return false, nil
			}
		}
		if v.IsKnown() {
			return true, nil
		}
		if probes(v.Type()) != nil {
			unknowns = append(unknowns, p)
		} else if name, ok := p.Steps()[0].(tftypes.AttributeName); ok {
			notProbed[string(name)] = true // a whole list, map or object
		}
		return false, nil
	})
	probed := map[string]bool{}
	kept := maps.Clone(known)
	var compared []*tftypes.AttributePath
	for _, p := range unknowns {
		name, _ := p.Steps()[0].(tftypes.AttributeName)
		if !notProbed[string(name)] {
			probed[string(name)] = true
			kept[string(name)] = true
			compared = append(compared, p)
		}
	}
	if len(compared) == 0 || len(compared) > maxProbedValues {
		return []tftypes.Value{withoutUnknownAttributes(planned, known)}, nil
	}
	base := withoutUnknownAttributes(planned, kept)
	outcomes := make([]tftypes.Value, 0, 1<<len(compared))
	for bits := range 1 << len(compared) {
		outcome, err := tftypes.Transform(base, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			for i, c := range compared {
				if p.Equal(c) {
					return probes(v.Type())[bits>>i&1], nil
				}
			}
			return v, nil
		})
		if err != nil { // the callback returns no error
			return []tftypes.Value{withoutUnknownAttributes(planned, known)}, nil
		}
		outcomes = append(outcomes, outcome)
	}
	return outcomes, probed
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
