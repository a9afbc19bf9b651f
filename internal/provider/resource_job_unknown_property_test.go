package provider

// A property test of the replacement rule for request values known only at
// apply (planReplacement, unknownValueOutcomes), against the concrete values
// they may turn out to be.
//
// Jobs of several kinds are applied through the provider's protocol-6
// server, in process, against the fake server (and one is imported, its
// defaults written out): each refreshed state S is a prior state. Its
// configuration (S without its computed-only attributes) gets one or two
// request leaf values (booleans, strings, numbers, list elements, map
// values, set or null) made unknown, on top, for some cases, of a known
// change that plans no replacement (a provider-side setting toggled, a list
// whose order means nothing reordered, a URL written another way, a default
// left out, the configuration of a switch that is off added). It is planned
// against S as Terraform plans it (the proposed new state objchange makes),
// then again with concrete values substituted for the unknowns (every value
// of the domain for one unknown; for two, up to unknownPropertyPairsTried
// combinations drawn by the seed): null, "", the enumerations and defaults
// of the schema, a few
// languages, S's own strings, URLs and numbers, another URL, the numbers 0,
// 0.5, 1, 2 and 5, both booleans. Values the validators or the plan refuse
// are skipped: Terraform never applies them.
//
// A plan replaces the job as Terraform decides it: a path of
// RequiresReplace replaces when its planned value is not the prior one
// (unknown counts as changed). Then:
//
//   - (a) when the plan with unknowns keeps the job, no concrete value may
//     replace it: Terraform would stop the apply with "Provider produced
//     inconsistent final plan" (the planned action changed), or, were the
//     rule to keep what it should replace, the job would silently not be
//     what the configuration says. A failure fails the test.
//   - (b) when every concrete value keeps the job but the plan with unknowns
//     replaces it, the rule was conservative (a new job, billed again, that
//     was not needed): allowed, reported by t.Log as a count with examples
//     (for two unknowns only when every combination was tried).
//
// Deterministic: the seed is the differential test's (DIFFERENTIAL_SEED
// changes it); it draws the cases beyond the single unknowns, the known
// changes and the pairs of values substituted for two unknowns, and a
// failure names the state, the configuration with "(unknown)" where a value
// was made unknown, and the concrete values that replace the job.

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// How many cases beyond one per leaf each state gets (one or two unknown
// leaves, drawn by the seed), and, for two unknowns, how many combinations
// of concrete values are tried (validated) and how many of those are
// planned: more when the plan with unknowns keeps the job, where the
// property can fail. One unknown gets every value of its domain.
const (
	unknownPropertyDrawnCases     = 8
	unknownPropertyPairsTried     = 300
	unknownPropertyPairsKept      = 100
	unknownPropertyPairsReplaced  = 30
	unknownPropertyKnownChangeOdd = 2 // a known change in 1 case out of this many
)

// unknownPropertyAnotherURL is a URL no state holds.
const unknownPropertyAnotherURL = "https://elsewhere.example.org/hook?token=b"

// localCallbacks answers every callback the fake server sends, so that no
// job's callback leaves the machine.
type localCallbacks struct{}

func (localCallbacks) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
}

// unknownProperty is one run: the provider, the job's schema, and the tally.
type unknownProperty struct {
	t      *testing.T
	h      *protoHarness
	ctx    context.Context
	schema *tfprotov6.Schema
	typ    tftypes.Object
	null   tfprotov6.DynamicValue
	rng    *rand.Rand

	nStates, cases, pairCases, changedCases, changesDropped int
	unknownRefused, unknownKept, unknownReplaced            int
	concrete, invalid, refusedAtPlan                        int
	keptBy                                                  map[string]int // plans with unknowns that keep the job, by leaf paths
	conservative                                            map[string]int // by leaf paths, indices as [*]
	conservativeExamples                                    []string
	failures                                                map[string][]string // (a): an example per case, by leaf paths
	undecided                                               int                 // (b) not decided: two unknowns, not every combination tried
}

// unknownPropertyState is a prior state and the configuration that plans it
// unchanged.
type unknownPropertyState struct {
	label         string
	prior, config tftypes.Value
	priorDV       tfprotov6.DynamicValue
}

// leafSlot is a request leaf of a configuration: a boolean, string or number.
type leafSlot struct {
	path *tftypes.AttributePath
	typ  tftypes.Type
}

// TestJobPlan_unknownRequestValuesAgainstConcreteValues checks properties
// (a) and (b) of the file's comment on every request leaf of each state
// made unknown alone, and on cases the seed draws.
func TestJobPlan_unknownRequestValuesAgainstConcreteValues(t *testing.T) {
	h := newProtoHarness(t, fakeserver.Options{CallbackClient: &http.Client{Transport: localCallbacks{}}})
	seed := differentialSeed(t)
	u := &unknownProperty{
		t: t, h: h, ctx: context.Background(), schema: h.schemas.ResourceSchemas[jobResourceTypeName],
		typ: h.resourceType(jobResourceTypeName), keptBy: map[string]int{}, conservative: map[string]int{}, failures: map[string][]string{},
	}
	u.null = dynamicValue(t, u.typ, tftypes.NewValue(u.typ, nil))
	for i, s := range u.states() {
		u.rng = rand.New(rand.NewPCG(seed, uint64(i)))
		u.checkState(s, seed)
	}
	t.Logf("seed %d: %d states, %d cases (%d with two unknowns, %d on top of a known change; %d known changes dropped as they replace or are refused); "+
		"plans with unknowns: %d keep the job, %d replace it, %d refused; %d concrete substitutions tried: %d refused by the validators, %d at plan",
		seed, u.nStates, u.cases, u.pairCases, u.changedCases, u.changesDropped, u.unknownKept, u.unknownReplaced, u.unknownRefused,
		u.concrete, u.invalid, u.refusedAtPlan)
	t.Logf("plans with unknowns that keep the job (where (a) is checked), by leaves made unknown: %v", u.keptBy)
	total := 0
	for _, n := range u.conservative {
		total += n
	}
	t.Logf("(b) conservative: %d cases replace with unknowns where every valid concrete value keeps the job (%d more with two unknowns where the combinations tried keep it, not all tried); by leaves made unknown: %v",
		total, u.undecided, u.conservative)
	for _, e := range u.conservativeExamples {
		t.Logf("(b) for example: %s", e)
	}
	for _, k := range slices.Sorted(maps.Keys(u.failures)) {
		t.Errorf("(a) the plan with %s unknown keeps the job, a concrete value replaces it (%d cases), for example:\n%s",
			k, len(u.failures[k]), strings.Join(u.failures[k][:min(2, len(u.failures[k]))], "\n"))
	}
	if u.unknownKept == 0 || u.unknownReplaced == 0 {
		t.Errorf("the cases should give plans with unknowns that keep the job and ones that replace it: %d keep, %d replace", u.unknownKept, u.unknownReplaced)
	}
}

// states applies and reads the jobs whose states the cases start from.
func (u *unknownProperty) states() []unknownPropertyState {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	num := func(f float64) tftypes.Value { return tftypes.NewValue(tftypes.Number, big.NewFloat(f)) }
	on := tftypes.NewValue(tftypes.Bool, true)
	off := tftypes.NewValue(tftypes.Bool, false)
	strs := func(ss ...string) tftypes.Value {
		vals := make([]tftypes.Value, len(ss))
		for i, s := range ss {
			vals[i] = str(s)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, vals)
	}
	obj := func(path string, attrs map[string]tftypes.Value) tftypes.Value {
		return objectValue(u.objectType(path), attrs)
	}
	vocabulary := func(entries ...map[string]tftypes.Value) tftypes.Value {
		lt := u.objectType("custom_vocabulary_config").AttributeTypes["vocabulary"].(tftypes.List)
		vals := make([]tftypes.Value, len(entries))
		for i, e := range entries {
			vals[i] = objectValue(lt.ElementType.(tftypes.Object), e)
		}
		return tftypes.NewValue(lt, vals)
	}
	audio := str(shortAudio)
	configs := []struct {
		label string
		attrs map[string]tftypes.Value
	}{
		{"plain", map[string]tftypes.Value{"audio_url": audio}},
		{"one language, vocabulary with and without intensity and language, default_intensity", map[string]tftypes.Value{
			"audio_url":         audio,
			"language_config":   obj("language_config", map[string]tftypes.Value{"languages": strs("en")}),
			"custom_vocabulary": on,
			"custom_vocabulary_config": obj("custom_vocabulary_config", map[string]tftypes.Value{
				"vocabulary": vocabulary(
					map[string]tftypes.Value{"value": str("Kubernetes"), "intensity": num(0.5), "language": str("en")},
					map[string]tftypes.Value{"value": str("Terraform")},
					map[string]tftypes.Value{"value": str("Gettleman"), "pronunciations": strs("getleman"), "language": str("fr")},
				),
				"default_intensity": num(0.6),
			}),
		}},
		{"vocabulary where every entry has an intensity, model-3", map[string]tftypes.Value{
			"audio_url":         audio,
			"model":             str(client.ModelThree),
			"language_config":   obj("language_config", map[string]tftypes.Value{"languages": strs("fr"), "code_switching": off}),
			"custom_vocabulary": on,
			"custom_vocabulary_config": obj("custom_vocabulary_config", map[string]tftypes.Value{
				"vocabulary": vocabulary(
					map[string]tftypes.Value{"value": str("Kubernetes"), "intensity": num(1)},
					map[string]tftypes.Value{"value": str("Terraform"), "intensity": num(0)},
				),
				"default_intensity": num(0.2),
			}),
		}},
		{"callback_config with callback = true", map[string]tftypes.Value{
			"audio_url":       audio,
			"callback":        on,
			"callback_config": obj("callback_config", map[string]tftypes.Value{"url": str("https://hooks.example.com/x?token=a")}),
		}},
		{"callback_config with callback = true, callback_url beside it", map[string]tftypes.Value{
			"audio_url":       audio,
			"callback":        on,
			"callback_config": obj("callback_config", map[string]tftypes.Value{"url": str("https://hooks.example.com/x?token=a"), "method": str("PUT")}),
			"callback_url":    str("https://old-hooks.example.com/y"),
		}},
		{"callback_url alone, callback false", map[string]tftypes.Value{
			"audio_url":    audio,
			"callback":     off,
			"callback_url": str("https://old-hooks.example.com/y"),
		}},
		{"callback_url, callback_config while callback is false", map[string]tftypes.Value{
			"audio_url":       audio,
			"callback":        off,
			"callback_config": obj("callback_config", map[string]tftypes.Value{"url": str("https://hooks.example.com/x?token=a")}),
			"callback_url":    str("https://old-hooks.example.com/y"),
		}},
		{"translation with targets and context, two languages", map[string]tftypes.Value{
			"audio_url":       audio,
			"language_config": obj("language_config", map[string]tftypes.Value{"languages": strs("en", "es"), "code_switching": on}),
			"translation":     on,
			"translation_config": obj("translation_config", map[string]tftypes.Value{
				"target_languages": strs("fr", "de"), "context": str("A meeting about budgets"), "informal": on,
			}),
		}},
		{"subtitles", map[string]tftypes.Value{
			"audio_url": audio,
			"subtitles": on,
			"subtitles_config": obj("subtitles_config", map[string]tftypes.Value{
				"formats": strs("srt", "vtt"), "minimum_duration": num(1), "maximum_duration": num(5),
				"maximum_characters_per_row": num(40), "maximum_rows_per_caption": num(2), "style": str("compliance"),
			}),
		}},
		{"summarization, translation without context, diarization configured while off", map[string]tftypes.Value{
			"audio_url":            audio,
			"translation":          on,
			"translation_config":   obj("translation_config", map[string]tftypes.Value{"target_languages": strs("it")}),
			"summarization":        on,
			"summarization_config": obj("summarization_config", map[string]tftypes.Value{"type": str("bullet_points")}),
			"diarization":          off,
			"diarization_config":   obj("diarization_config", map[string]tftypes.Value{"number_of_speakers": num(2)}),
		}},
		{"pii redaction, custom spelling", map[string]tftypes.Value{
			"audio_url":            audio,
			"pii_redaction":        on,
			"pii_redaction_config": obj("pii_redaction_config", map[string]tftypes.Value{"entity_types": strs("NAME", "EMAIL_ADDRESS"), "processed_text_type": str("MASK")}),
			"custom_spelling":      on,
			"custom_spelling_config": obj("custom_spelling_config", map[string]tftypes.Value{
				"spelling_dictionary": tftypes.NewValue(tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.String}}, map[string]tftypes.Value{
					"Gettleman": strs("gettleman", "getleman"),
				}),
			}),
		}},
		{"custom_metadata, audio to LLM", map[string]tftypes.Value{
			"audio_url": audio,
			"custom_metadata": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{
				"team": str("asr"), "env": str("prod"),
			}),
			"audio_to_llm":        on,
			"audio_to_llm_config": obj("audio_to_llm_config", map[string]tftypes.Value{"prompts": strs("Summarize", "List the speakers"), "model": str("openai/gpt-4o")}),
		}},
	}
	var out []unknownPropertyState
	var importID string
	for _, c := range configs {
		config := dynamicValue(u.t, u.typ, objectValue(u.typ, c.attrs))
		planned := u.h.planChange(jobResourceTypeName, &u.null, &config, &config).PlannedState
		applied := u.h.applyChange(jobResourceTypeName, &u.null, planned, &config).NewState
		out = append(out, u.newState(c.label, u.h.readJob(u.typ, applied)))
		if strings.HasPrefix(c.label, "translation") {
			importID = u.attribute(out[len(out)-1].prior, "id")
		}
	}
	// An imported job: every request attribute from the service's record,
	// defaults written out.
	return append(out, u.newState("imported translation job, defaults written out", u.h.importJob(u.typ, importID)))
}

// newState is the state prior with its configuration: every argument
// written out as the state has it, computed-only attributes null.
func (u *unknownProperty) newState(label string, prior tftypes.Value) unknownPropertyState {
	var attrs map[string]tftypes.Value
	if err := prior.As(&attrs); err != nil {
		u.t.Fatal(err)
	}
	config := maps.Clone(attrs)
	for _, a := range u.schema.Block.Attributes {
		if a.Computed && !a.Optional && !a.Required {
			config[a.Name] = tftypes.NewValue(u.typ.AttributeTypes[a.Name], nil)
		}
	}
	s := unknownPropertyState{label: label, prior: prior, config: tftypes.NewValue(u.typ, config), priorDV: dynamicValue(u.t, u.typ, prior)}
	if resp, replaced, refused := u.plan(s, s.config); resp == nil || len(replaced) > 0 {
		u.t.Fatalf("%s: the unchanged configuration is refused (%v) or replaces the job (%v)", label, refused, replaced)
	}
	return s
}

func (u *unknownProperty) attribute(v tftypes.Value, name string) string {
	var attrs map[string]tftypes.Value
	var s string
	if err := v.As(&attrs); err != nil || attrs[name].As(&s) != nil {
		u.t.Fatalf("no string %s", name)
	}
	return s
}

// objectType is the type of the nested object at the dotted path.
func (u *unknownProperty) objectType(dotted string) tftypes.Object {
	var t tftypes.Type = u.typ
	for _, name := range strings.Split(dotted, ".") {
		t = t.(tftypes.Object).AttributeTypes[name]
	}
	return t.(tftypes.Object)
}

// plan validates config and plans it against s's prior state as Terraform
// does, with the proposed new state objchange makes. It returns nil and
// the errors when the validators or the plan refuse config, else the plan
// and the paths Terraform replaces the job for.
func (u *unknownProperty) plan(s unknownPropertyState, config tftypes.Value) (resp *tfprotov6.PlanResourceChangeResponse, replaced, refused []string) {
	cv := dynamicValue(u.t, u.typ, config)
	validated, err := u.h.server.ValidateResourceConfig(u.ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: &cv})
	if err != nil {
		u.t.Fatal(err)
	}
	if errs := errorTexts(validated.Diagnostics); len(errs) > 0 {
		return nil, nil, append(errs, "(validation)")
	}
	pv := dynamicValue(u.t, u.typ, proposedValue(u.schema.Block.Attributes, u.typ, s.prior, config))
	resp, err = u.h.server.PlanResourceChange(u.ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: jobResourceTypeName, PriorState: &s.priorDV, ProposedNewState: &pv, Config: &cv,
	})
	if err != nil {
		u.t.Fatal(err)
	}
	if errs := errorTexts(resp.Diagnostics); len(errs) > 0 {
		return nil, nil, errs
	}
	planned, err := resp.PlannedState.Unmarshal(u.typ)
	if err != nil {
		u.t.Fatal(err)
	}
	return resp, terraformReplaces(resp.RequiresReplace, s.prior, planned), nil
}

// terraformReplaces are the paths of requiresReplace for which Terraform
// replaces the resource: those whose planned value is not the prior one
// (a value not wholly known is not known to be equal).
func terraformReplaces(requiresReplace []*tftypes.AttributePath, prior, planned tftypes.Value) []string {
	var out []string
	for _, p := range requiresReplace {
		a, _, errA := tftypes.WalkAttributePath(prior, p)
		b, _, errB := tftypes.WalkAttributePath(planned, p)
		av, okA := a.(tftypes.Value)
		bv, okB := b.(tftypes.Value)
		switch {
		case errA != nil && errB != nil:
			continue // in neither: Terraform reports a provider error
		case errA != nil || errB != nil || !okA || !okB:
			out = append(out, p.String())
		case !bv.IsFullyKnown() || !av.Equal(bv):
			out = append(out, p.String())
		}
	}
	return out
}

// proposedValue is the planned value Terraform proposes (objchange's
// ProposedNew for this schema's attribute kinds) from the prior state and a
// configuration that may hold unknown values: an optional and computed
// attribute null in the configuration keeps its prior value; a nested
// object is proposed attribute by attribute, a nested list element by
// element, by index; an unknown configuration value is proposed unknown.
func proposedValue(attrs []*tfprotov6.SchemaAttribute, typ tftypes.Object, prior, config tftypes.Value) tftypes.Value {
	var pm, cm map[string]tftypes.Value
	if prior.IsKnown() && !prior.IsNull() {
		_ = prior.As(&pm)
	}
	_ = config.As(&cm)
	out := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for _, a := range attrs {
		at := typ.AttributeTypes[a.Name]
		pv, ok := pm[a.Name]
		if !ok {
			pv = tftypes.NewValue(at, nil)
		}
		cv := cm[a.Name]
		switch {
		case a.Computed && cv.IsNull():
			out[a.Name] = pv
		case a.NestedType != nil && cv.IsKnown() && !cv.IsNull() && a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle:
			out[a.Name] = proposedValue(a.NestedType.Attributes, at.(tftypes.Object), pv, cv)
		case a.NestedType != nil && cv.IsKnown() && !cv.IsNull() && a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeList:
			var cl, pl []tftypes.Value
			_ = cv.As(&cl)
			if pv.IsKnown() && !pv.IsNull() {
				_ = pv.As(&pl)
			}
			et := at.(tftypes.List).ElementType.(tftypes.Object)
			elems := make([]tftypes.Value, len(cl))
			for i, e := range cl {
				if i < len(pl) && !pl[i].IsNull() && e.IsKnown() && !e.IsNull() {
					e = proposedValue(a.NestedType.Attributes, et, pl[i], e)
				}
				elems[i] = e
			}
			out[a.Name] = tftypes.NewValue(at, elems)
		default:
			out[a.Name] = cv
		}
	}
	for name, at := range typ.AttributeTypes { // none expected: every attribute is in attrs
		if _, ok := out[name]; !ok {
			out[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(typ, out)
}

// slots are the request leaves of config: booleans, strings and numbers,
// set or null, at the top level, in nested objects, list elements and map
// values.
func (u *unknownProperty) slots(config tftypes.Value) []leafSlot {
	request := map[string]bool{}
	for _, name := range requestFieldNames() {
		request[name] = true
	}
	var out []leafSlot
	_ = tftypes.Walk(config, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		steps := p.Steps()
		if len(steps) == 0 {
			return true, nil
		}
		if name, _ := steps[0].(tftypes.AttributeName); !request[string(name)] {
			return false, nil
		}
		if t := v.Type(); t.Is(tftypes.Bool) || t.Is(tftypes.String) || t.Is(tftypes.Number) {
			out = append(out, leafSlot{path: p, typ: t})
		}
		return true, nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].path.String() < out[j].path.String() })
	return out
}

// domain is the concrete values a slot of type t may take, for a state
// whose configuration is config.
func (u *unknownProperty) domain(config tftypes.Value, t tftypes.Type) []tftypes.Value {
	values := []tftypes.Value{tftypes.NewValue(t, nil)}
	switch {
	case t.Is(tftypes.Bool):
		return append(values, tftypes.NewValue(t, false), tftypes.NewValue(t, true))
	case t.Is(tftypes.Number):
		seen := map[string]bool{}
		add := func(f *big.Float) {
			if k := f.Text('g', -1); !seen[k] {
				seen[k] = true
				values = append(values, tftypes.NewValue(t, f))
			}
		}
		for _, f := range []float64{0, 0.5, 1, 2, 5} {
			add(big.NewFloat(f))
		}
		for _, v := range u.leaves(config, t) {
			var f big.Float
			_ = v.As(&f)
			add(&f)
		}
		return values
	}
	strs := []string{"", unknownPropertyAnotherURL, "openai/gpt-4o", "en", "fr", "de", "es", "it", "wo", "NAME", "SSN", client.DefaultModel}
	for _, list := range [][]string{client.Models, client.CallbackMethods, client.SubtitleFormats, client.SubtitleStyles, client.TranslationModels, client.SummaryTypes, client.ProcessedTextTypes} {
		strs = append(strs, list...)
	}
	for _, v := range u.leaves(config, t) {
		var s string
		_ = v.As(&s)
		strs = append(strs, s)
		if parsed, err := url.Parse(s); err == nil && parsed.Host != "" {
			parsed.Host = strings.ToUpper(parsed.Host) // the same resource
			strs = append(strs, parsed.String())
		}
	}
	slices.Sort(strs)
	for _, s := range slices.Compact(strs) {
		values = append(values, tftypes.NewValue(t, s))
	}
	return values
}

// leaves are the known, non-null values of type t in config's request
// attributes.
func (u *unknownProperty) leaves(config tftypes.Value, t tftypes.Type) []tftypes.Value {
	var out []tftypes.Value
	for _, s := range u.slots(config) {
		if v := valueAt(u.t, config, s.path); s.typ.Is(t) && v.IsKnown() && !v.IsNull() {
			out = append(out, v)
		}
	}
	return out
}

func valueAt(t *testing.T, v tftypes.Value, p *tftypes.AttributePath) tftypes.Value {
	t.Helper()
	x, _, err := tftypes.WalkAttributePath(v, p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return x.(tftypes.Value)
}

// knownChange is a change of a state's configuration meant to plan no
// replacement, or false when it does not apply to it.
type knownChange struct {
	label  string
	change func(u *unknownProperty, attrs map[string]tftypes.Value) bool
}

var knownChanges = []knownChange{
	{"a provider-side setting toggled", func(u *unknownProperty, attrs map[string]tftypes.Value) bool {
		name := []string{"include_transcript", "wait_for_completion", "recreate_when_missing"}[u.rng.IntN(3)]
		var b bool
		_ = attrs[name].As(&b)
		attrs[name] = tftypes.NewValue(tftypes.Bool, !b)
		return true
	}},
	{"a list whose order means nothing reversed", func(u *unknownProperty, attrs map[string]tftypes.Value) bool {
		var lists []*tftypes.AttributePath
		for _, p := range []*tftypes.AttributePath{
			tftypes.NewAttributePath().WithAttributeName("language_config").WithAttributeName("languages"),
			tftypes.NewAttributePath().WithAttributeName("translation_config").WithAttributeName("target_languages"),
			tftypes.NewAttributePath().WithAttributeName("subtitles_config").WithAttributeName("formats"),
			tftypes.NewAttributePath().WithAttributeName("pii_redaction_config").WithAttributeName("entity_types"),
			tftypes.NewAttributePath().WithAttributeName("custom_vocabulary_config").WithAttributeName("vocabulary"),
		} {
			if x, _, err := tftypes.WalkAttributePath(tftypes.NewValue(u.typ, attrs), p); err == nil {
				var elems []tftypes.Value
				if v := x.(tftypes.Value); v.IsKnown() && !v.IsNull() && v.As(&elems) == nil && len(elems) > 1 {
					lists = append(lists, p)
				}
			}
		}
		if len(lists) == 0 {
			return false
		}
		p := lists[u.rng.IntN(len(lists))]
		v := replaceAt(u.t, tftypes.NewValue(u.typ, attrs), p, reversed(valueAt(u.t, tftypes.NewValue(u.typ, attrs), p)))
		_ = v.As(&attrs)
		return true
	}},
	{"audio_url's host in capitals", func(u *unknownProperty, attrs map[string]tftypes.Value) bool {
		var s string
		_ = attrs["audio_url"].As(&s)
		parsed, err := url.Parse(s)
		if err != nil {
			return false
		}
		parsed.Host = strings.ToUpper(parsed.Host)
		attrs["audio_url"] = tftypes.NewValue(tftypes.String, parsed.String())
		return true
	}},
	{"an optional and computed argument left out", func(u *unknownProperty, attrs map[string]tftypes.Value) bool {
		var names []string
		for _, a := range u.schema.Block.Attributes {
			if a.Optional && a.Computed && slices.Contains(requestFieldNames(), a.Name) {
				names = append(names, a.Name)
			}
		}
		slices.Sort(names)
		name := names[u.rng.IntN(len(names))]
		attrs[name] = tftypes.NewValue(u.typ.AttributeTypes[name], nil)
		return true
	}},
	{"the configuration of a switch that is off added", func(u *unknownProperty, attrs map[string]tftypes.Value) bool {
		configs := map[string]map[string]tftypes.Value{
			"diarization_config":   {"number_of_speakers": tftypes.NewValue(tftypes.Number, big.NewFloat(3))},
			"summarization_config": {"type": tftypes.NewValue(tftypes.String, "concise")},
			"subtitles_config":     {"style": tftypes.NewValue(tftypes.String, "compliance")},
		}
		var free []string
		for config := range configs {
			var on bool
			if attrs[config].IsNull() && attrs[client.ConfigurationSwitches[config]].As(&on) == nil && !on {
				free = append(free, config)
			}
		}
		if len(free) == 0 {
			return false
		}
		slices.Sort(free)
		config := free[u.rng.IntN(len(free))]
		attrs[config] = objectValue(u.objectType(config), configs[config])
		return true
	}},
}

func reversed(v tftypes.Value) tftypes.Value {
	var elems []tftypes.Value
	_ = v.As(&elems)
	slices.Reverse(elems)
	return tftypes.NewValue(v.Type(), elems)
}

// checkState runs the cases of state s: each request leaf alone, then
// cases drawn by the seed.
func (u *unknownProperty) checkState(s unknownPropertyState, seed uint64) {
	u.nStates++
	slots := u.slots(s.config)
	for _, sl := range slots {
		u.checkCase(s, seed, s.config, "", []leafSlot{sl})
	}
	for range unknownPropertyDrawnCases {
		config, label := s.config, ""
		if u.rng.IntN(unknownPropertyKnownChangeOdd) == 0 {
			config, label = u.withKnownChange(s)
		}
		chosen := []leafSlot{slots[u.rng.IntN(len(slots))]}
		if u.rng.IntN(3) > 0 {
			if other := slots[u.rng.IntN(len(slots))]; !other.path.Equal(chosen[0].path) {
				chosen = append(chosen, other)
			}
		}
		u.checkCase(s, seed, config, label, chosen)
	}
}

// withKnownChange is s's configuration with a known change drawn that
// plans no replacement, or unchanged when the one drawn does not apply,
// is refused or replaces the job.
func (u *unknownProperty) withKnownChange(s unknownPropertyState) (tftypes.Value, string) {
	c := knownChanges[u.rng.IntN(len(knownChanges))]
	var attrs map[string]tftypes.Value
	_ = s.config.As(&attrs)
	attrs = maps.Clone(attrs)
	if !c.change(u, attrs) {
		return s.config, ""
	}
	changed := tftypes.NewValue(u.typ, attrs)
	if resp, replaced, _ := u.plan(s, changed); resp == nil || len(replaced) > 0 {
		u.changesDropped++
		return s.config, ""
	}
	return changed, c.label
}

// checkCase makes the slots chosen unknown in config, plans it, and plans
// each substitution of concrete values for them.
func (u *unknownProperty) checkCase(s unknownPropertyState, seed uint64, config tftypes.Value, change string, chosen []leafSlot) {
	unknown := config
	names := make([]string, len(chosen))
	for i, sl := range chosen {
		unknown = replaceAt(u.t, unknown, sl.path, tftypes.NewValue(sl.typ, tftypes.UnknownValue))
		if x, _, err := tftypes.WalkAttributePath(unknown, sl.path); err != nil || x.(tftypes.Value).IsKnown() {
			return // the known change took the leaf away
		}
		names[i] = pathName(sl.path, false)
	}
	sort.Strings(names)
	key := strings.Join(names, " and ")
	u.cases++
	if len(chosen) > 1 {
		u.pairCases++
	}
	if change != "" {
		u.changedCases++
	}
	resp, replacedU, _ := u.plan(s, unknown)
	if resp == nil {
		u.unknownRefused++
		return
	}
	kept := len(replacedU) == 0
	if kept {
		u.unknownKept++
		u.keptBy[key]++
	} else {
		u.unknownReplaced++
	}
	label := func() string {
		text := fmt.Sprintf("state %q (seed %d): configuration %s", s.label, seed, configText(unknown))
		if change != "" {
			text += " (on top of " + change + ")"
		}
		return text
	}
	substitutions := u.substitutions(config, chosen, kept)
	all, planLimit := len(substitutions), len(substitutions)
	if len(chosen) > 1 {
		substitutions = substitutions[:min(len(substitutions), unknownPropertyPairsTried)]
		planLimit = unknownPropertyPairsReplaced
		if kept {
			planLimit = unknownPropertyPairsKept
		}
	}
	valid, replacing, tried := 0, 0, 0
	for _, values := range substitutions {
		if valid == planLimit {
			break
		}
		tried++
		concrete := unknown
		for i, sl := range chosen {
			concrete = replaceAt(u.t, concrete, sl.path, values[i])
		}
		u.concrete++
		respV, replacedV, refused := u.plan(s, concrete)
		if respV == nil {
			if slices.Contains(refused, "(validation)") {
				u.invalid++
			} else {
				u.refusedAtPlan++
			}
			continue
		}
		valid++
		if len(replacedV) == 0 {
			// Terraform plans again at apply, with the values known, and
			// refuses a plan that changed what the first one knew
			// ("Provider produced inconsistent final plan").
			if kept {
				final, err := respV.PlannedState.Unmarshal(u.typ)
				first, err2 := resp.PlannedState.Unmarshal(u.typ)
				if err != nil || err2 != nil {
					u.t.Fatal(err, err2)
				}
				if at := knownValuesChanged(first, final, tftypes.NewAttributePath()); at != "" {
					var with []string
					for i, sl := range chosen {
						with = append(with, fmt.Sprintf("%s = %s", pathName(sl.path, true), configText(values[i])))
					}
					ikey := "inconsistent final plan: " + key
					u.failures[ikey] = append(u.failures[ikey], fmt.Sprintf("%s\n  with %s the plan changes %s, known before", label(), strings.Join(with, ", "), at))
				}
			}
			continue
		}
		replacing++
		if kept { // one concrete value that replaces is the case's example
			var with []string
			for i, sl := range chosen {
				with = append(with, fmt.Sprintf("%s = %s", pathName(sl.path, true), configText(values[i])))
			}
			u.failures[key] = append(u.failures[key], fmt.Sprintf("%s\n  with %s the plan replaces the job for %v (RequiresReplace %v)",
				label(), strings.Join(with, ", "), replacedV, respV.RequiresReplace))
		}
		break // one concrete value that replaces decides the case
	}
	switch {
	case kept || valid == 0 || replacing > 0:
	case tried < all:
		u.undecided++ // only some of the combinations were tried
	default:
		u.conservative[key]++
		if len(u.conservativeExamples) < 4 {
			u.conservativeExamples = append(u.conservativeExamples, fmt.Sprintf("%s replaces for %v; %d valid concrete values keep the job", label(), replacedU, valid))
		}
	}
}

// knownValuesChanged names the first value known in first (a plan with
// unknowns) that final (the plan of the same with the values known) does
// not keep, "" when it keeps them all, as Terraform requires of the plan it
// makes again at apply (objchange.AssertObjectCompatible).
func knownValuesChanged(first, final tftypes.Value, at *tftypes.AttributePath) string {
	switch {
	case !first.IsKnown():
		return ""
	case first.IsNull() || final.IsNull() || !final.IsKnown() || first.IsFullyKnown():
		if first.Equal(final) {
			return ""
		}
		return pathName(at, true)
	}
	var firstElems, finalElems []tftypes.Value
	if first.As(&firstElems) == nil && final.As(&finalElems) == nil {
		if len(firstElems) != len(finalElems) {
			return pathName(at, true)
		}
		for i := range firstElems {
			if p := knownValuesChanged(firstElems[i], finalElems[i], at.WithElementKeyInt(i)); p != "" {
				return p
			}
		}
		return ""
	}
	var firstAttrs, finalAttrs map[string]tftypes.Value
	if first.As(&firstAttrs) != nil || final.As(&finalAttrs) != nil || len(firstAttrs) != len(finalAttrs) {
		return pathName(at, true)
	}
	names := slices.Sorted(maps.Keys(firstAttrs))
	for _, name := range names {
		step := at.WithAttributeName(name)
		if _, isMap := first.Type().(tftypes.Map); isMap {
			step = at.WithElementKeyString(name)
		}
		if p := knownValuesChanged(firstAttrs[name], finalAttrs[name], step); p != "" {
			return p
		}
	}
	return ""
}

// substitutions are the combinations of concrete values for the slots
// chosen, in an order drawn by the seed. When the plan with unknowns keeps
// the job, combinations holding one of the job's own values come first
// (the other unknown alone decides there); when it replaces it, they come
// last, as do nulls (often the job's value again): the first concrete
// value that replaces it ends the case.
func (u *unknownProperty) substitutions(config tftypes.Value, chosen []leafSlot, kept bool) [][]tftypes.Value {
	domains := make([][]tftypes.Value, len(chosen))
	prior := make([]tftypes.Value, len(chosen))
	for i, sl := range chosen {
		domains[i] = u.domain(config, sl.typ)
		prior[i] = valueAt(u.t, config, sl.path)
	}
	var out [][]tftypes.Value
	if len(chosen) == 1 {
		for _, v := range domains[0] {
			out = append(out, []tftypes.Value{v})
		}
	} else {
		for _, a := range domains[0] {
			for _, b := range domains[1] {
				out = append(out, []tftypes.Value{a, b})
			}
		}
	}
	u.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	rank := func(values []tftypes.Value) int {
		r := 0
		for i, v := range values {
			switch {
			case v.Equal(prior[i]):
				r += 2
			case v.IsNull():
				r++
			}
		}
		if kept {
			return -r
		}
		return r
	}
	slices.SortStableFunc(out, func(x, y []tftypes.Value) int { return rank(x) - rank(y) })
	return out
}

// knownValuesChanged finds a value known in the first plan that the final
// one changed, nested in lists and objects, and nothing where the final
// plan only filled in what was unknown.
func TestKnownValuesChanged(t *testing.T) {
	entry := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"value": tftypes.String, "intensity": tftypes.Number}}
	config := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"vocabulary": tftypes.List{ElementType: entry}, "default_intensity": tftypes.Number}}
	vocabulary := func(intensity any, values ...string) tftypes.Value {
		entries := make([]tftypes.Value, len(values))
		for i, v := range values {
			entries[i] = tftypes.NewValue(entry, map[string]tftypes.Value{"value": tftypes.NewValue(tftypes.String, v), "intensity": tftypes.NewValue(tftypes.Number, big.NewFloat(0.1))})
		}
		return tftypes.NewValue(config, map[string]tftypes.Value{
			"vocabulary":        tftypes.NewValue(tftypes.List{ElementType: entry}, entries),
			"default_intensity": tftypes.NewValue(tftypes.Number, intensity),
		})
	}
	first := vocabulary(tftypes.UnknownValue, "B", "A")
	for _, tc := range []struct {
		name  string
		final tftypes.Value
		want  string
	}{
		{"unknown filled in", vocabulary(big.NewFloat(0.3), "B", "A"), ""},
		{"known value changed", vocabulary(big.NewFloat(0.3), "A", "B"), "vocabulary"},
		{"known list shortened", vocabulary(big.NewFloat(0.3), "B"), "vocabulary"},
	} {
		if got := knownValuesChanged(first, tc.final, tftypes.NewAttributePath()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
