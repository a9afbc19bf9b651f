package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// jobSchemaVersion is the version of transcription_job's state. Version 0
// is every development build before it: those before 2026-11-23 kept the
// result's transcript-sized values (utterances, named entities, sentences,
// translations…) as typed lists and objects, which the schema now keeps as
// JSON text, so the framework could not read their state at all (plan and
// destroy failed); those before 2026-11-24 kept file.source with the
// audio_url's credentials and query, which a refresh of a finished job
// never rewrites.
const jobSchemaVersion = 1

// UpgradeState upgrades state of version 0, whichever development build
// wrote it.
func (r *jobResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: upgradeJobStateFromV0},
	}
}

// upgradeJobStateFromV0 reads the stored JSON itself (no prior schema:
// version 0 had several shapes), gives an attribute added since its default
// (fillMissingDefaults: include_transcript = false, which a plan would
// otherwise add as a change), fits it to the current schema
// (fitJSONToType), then redacts file.source as the provider now keeps it.
// Nothing is fetched: a job the service no longer holds keeps its values.
func upgradeJobStateFromV0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	s := jobSchema(ctx)
	typ := s.Type().TerraformType(ctx)
	value, err := upgradeStateJSON(req.RawState.JSON, typ, func(stored map[string]any) { fillMissingDefaults(ctx, stored, s.Attributes) }, redactFileSource)
	if err != nil {
		resp.Diagnostics.AddError("Unable to upgrade transcription_job state",
			"The state of this job, written by an earlier development build of the provider, could not be read: "+err.Error()+
				"\n\nRemove it from state and import it again: terraform state rm ADDRESS, then terraform import ADDRESS JOB_ID. Nothing is billed again.")
		return
	}
	dv, err := tfprotov6.NewDynamicValue(typ, value)
	if err != nil {
		resp.Diagnostics.AddError("Unable to upgrade transcription_job state", err.Error())
		return
	}
	resp.DynamicValue = &dv
}

// redactFileSource keeps file.source as the provider keeps it now, without
// the audio_url's user information, query or fragment.
func redactFileSource(state map[string]any) {
	if file, ok := state["file"].(map[string]any); ok {
		if source, ok := file["source"].(string); ok {
			file["source"] = client.RedactedURL(source)
		}
	}
}

// upgradeStateJSON decodes stored state JSON, lets before change it as
// stored, fits it to typ, lets after change the fitted top-level object,
// and reads the result as a value of typ.
func upgradeStateJSON(stored []byte, typ tftypes.Type, before, after func(map[string]any)) (tftypes.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(stored))
	dec.UseNumber() // numbers as written: state keeps them exact
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return tftypes.Value{}, err
	}
	if m, ok := raw.(map[string]any); ok && before != nil {
		before(m)
	}
	fitted, _ := fitJSONToType(raw, typ).(map[string]any)
	if fitted == nil {
		fitted = map[string]any{}
	}
	if after != nil {
		after(fitted)
	}
	data, err := json.Marshal(fitted)
	if err != nil {
		return tftypes.Value{}, err
	}
	return tftypes.ValueFromJSONWithOpts(data, typ, tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true})
}

// fitJSONToType makes v, decoded from state JSON, a value of typ where the
// meaning carries over: a list or object where typ is a string becomes its
// JSON text (what a typed value is kept as once it moved to JSON text); a
// string of JSON text where typ is a list or object is decoded; attributes
// typ does not have are dropped and those it has but v lacks are null. What
// cannot carry over (a string where typ is a number, say) is null.
func fitJSONToType(v any, typ tftypes.Type) any {
	if v == nil {
		return nil
	}
	switch {
	case typ.Is(tftypes.String):
		if s, ok := v.(string); ok {
			return s
		}
		text, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		return string(text)
	case typ.Is(tftypes.Number):
		if n, ok := v.(json.Number); ok {
			return n
		}
		return nil
	case typ.Is(tftypes.Bool):
		if b, ok := v.(bool); ok {
			return b
		}
		return nil
	case typ.Is(tftypes.DynamicPseudoType):
		return nil // the schema has none: a value would need its type written out
	}
	if s, ok := v.(string); ok {
		var decoded any
		dec := json.NewDecoder(bytes.NewReader([]byte(s)))
		dec.UseNumber()
		if dec.Decode(&decoded) != nil {
			return nil
		}
		v = decoded
	}
	switch t := typ.(type) {
	case tftypes.Object:
		attrs, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := make(map[string]any, len(t.AttributeTypes))
		for name, attrType := range t.AttributeTypes {
			out[name] = fitJSONToType(attrs[name], attrType)
		}
		return out
	case tftypes.Map:
		elems, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := make(map[string]any, len(elems))
		for k, e := range elems {
			out[k] = fitJSONToType(e, t.ElementType)
		}
		return out
	case tftypes.List:
		return fitJSONElements(v, t.ElementType)
	case tftypes.Set:
		return fitJSONElements(v, t.ElementType)
	}
	return nil
}

// fitJSONElements fits each element of a JSON array to elem.
func fitJSONElements(v any, elem tftypes.Type) any {
	elems, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]any, len(elems))
	for i, e := range elems {
		out[i] = fitJSONToType(e, elem)
	}
	return out
}

// fillMissingDefaults gives each attribute of attrs that stored lacks (one
// added after the state was written), at any depth of nested objects, its
// schema default, if it has one: the value the provider plans for it when
// the configuration leaves it out. An attribute stored as null stays null.
func fillMissingDefaults(ctx context.Context, stored map[string]any, attrs map[string]schema.Attribute) {
	for name, a := range attrs {
		v, present := stored[name]
		if !present {
			if d, ok := attributeDefault(ctx, a); ok {
				stored[name] = d
			}
			continue
		}
		switch a := a.(type) {
		case schema.SingleNestedAttribute:
			if m, ok := v.(map[string]any); ok {
				fillMissingDefaults(ctx, m, a.Attributes)
			}
		case schema.ListNestedAttribute:
			if elems, ok := v.([]any); ok {
				for _, e := range elems {
					if m, ok := e.(map[string]any); ok {
						fillMissingDefaults(ctx, m, a.NestedObject.Attributes)
					}
				}
			}
		}
	}
}

// attributeDefault is a's schema default as stored JSON decodes (numbers as
// json.Number), if it has one.
func attributeDefault(ctx context.Context, a schema.Attribute) (any, bool) {
	var value attr.Value
	switch a := a.(type) {
	case schema.BoolAttribute:
		if a.Default == nil {
			return nil, false
		}
		var resp defaults.BoolResponse
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, &resp)
		value = resp.PlanValue
	case schema.StringAttribute:
		if a.Default == nil {
			return nil, false
		}
		var resp defaults.StringResponse
		a.Default.DefaultString(ctx, defaults.StringRequest{}, &resp)
		value = resp.PlanValue
	case schema.ListAttribute:
		if a.Default == nil {
			return nil, false
		}
		var resp defaults.ListResponse
		a.Default.DefaultList(ctx, defaults.ListRequest{}, &resp)
		value = resp.PlanValue
	default:
		return nil, false // the schema has defaults of these kinds only
	}
	tv, err := value.ToTerraformValue(ctx)
	if err != nil {
		return nil, false
	}
	return storedJSONOf(tv), true
}

// storedJSONOf is a known value as stored state JSON decodes.
func storedJSONOf(v tftypes.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch typ := v.Type(); {
	case typ.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case typ.Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case typ.Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return json.Number(f.Text('g', -1))
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		out := make([]any, len(elems))
		for i, e := range elems {
			out[i] = storedJSONOf(e)
		}
		return out
	}
	var attrs map[string]tftypes.Value // an object or a map
	_ = v.As(&attrs)
	out := make(map[string]any, len(attrs))
	for k, e := range attrs {
		out[k] = storedJSONOf(e)
	}
	return out
}
