package provider

import (
	"context"
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
// configuration of a switch known to be off). The plan, not the configuration, is
// compared: it has the schema's defaults, and the job's callback_url where
// the configuration leaves it out.
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
	// An attribute not wholly known replaces the job whatever it becomes;
	// the requests compared leave it out, as a list or map holding an
	// unknown value cannot become the client's request.
	var planned, applied jobResourceModel
	resp.Diagnostics.Append(tfsdk.Plan{Schema: plan.Schema, Raw: withoutUnknownAttributes(plan.Raw, known)}.Get(ctx, &planned)...)
	resp.Diagnostics.Append(state.Get(ctx, &applied)...)
	if resp.Diagnostics.HasError() {
		return
	}
	wanted, diags := planned.createRequest(ctx)
	resp.Diagnostics.Append(diags...)
	had, diags := applied.createRequest(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	want, have := wanted.EffectiveFields(), had.EffectiveFields()
	ignored := ignoredConfigurations(plan.Raw)
	for _, name := range requestFieldNames() {
		if !known[name] && !ignored[name] || want[name] != have[name] {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
		}
	}
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
