package provider

// A property test that plans are exact: a value that means the same as what
// was applied plans no change, and a replacement (a new job, billed again)
// happens only when the service's job would really differ.
//
// Configurations A of transcription_job come from the differential test's
// generator (service_differential_test.go); each accepted one is applied
// through the provider's protocol-6 server, in process, against the fake
// server. Each A is then rewritten into configurations B, by rewrites that
// keep its meaning (a default written out or left out, a list whose order
// means nothing reordered, [] for null, the configuration of a switch that
// is off added or removed, the callback written the other way, a number
// written another way, a spelling dictionary key with no spellings, a URL
// written another way that names the same resource, ...) and by
// rewrites that change it (another value of one argument, a list element
// added or removed, a switch turned on or off, an argument left out or
// set). B is created on the fake server too, and planned against A's state
// (PlanResourceChange with that state as prior and the proposal Terraform
// makes, proposedNew): in turn the state A's apply left, and the state an
// import of A's job makes (ImportResourceState, then ReadResource), whose
// request attributes come from the service's record.
//
// The oracle is the service's record of each job: its request_params (the
// request as applied, defaults filled in) and custom_metadata, read over
// HTTP. Identical records must plan no replacement. Records that differ are
// compared again after specMeaning, which reads them as the spec does (a
// *_config used only when its switch is on, callback rule 3, defaults,
// lists whose order means nothing, ...): the same meaning must plan no
// replacement, another meaning must replace. A pair whose records differ
// but mean the same is counted by its rewrite: there the record keeps what
// the service ignores.
//
// Under zero data retention (TestPlanExactnessUnderZeroDataRetention) no
// job can be read back: the oracle is the body of each create the fake
// server accepted, read by the same specMeaning, and A is planned against
// its applied state only (an import is refused there).
//
// Deterministic: DIFFERENTIAL_SEED changes the seed, as for the
// differential test; a failure names the pair (A's configuration index,
// the rewrite, both configurations) to replay.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// How many configurations A are generated (PLAN_EXACTNESS_CONFIGS says
// another number, to explore further), and how many rewrites B each
// applied one gets.
const (
	exactnessConfigs  = 90
	exactnessRewrites = 8
	// Under zero data retention: this share (in percent) of as many
	// configurations, from a stream of the seed of their own.
	exactnessZDRShare  = 20
	exactnessZDRStream = 1 << 32
)

func exactnessConfigCount(t *testing.T) int {
	return int(uintFromEnv(t, "PLAN_EXACTNESS_CONFIGS", exactnessConfigs))
}

// The top-level switches whose *_config is used only when they are true
// (the spec's rule 4); callback is read with callback_url (rule 3).
var configSwitches = []string{"custom_vocabulary", "subtitles", "diarization", "translation", "summarization", "custom_spelling", "audio_to_llm", "pii_redaction"}

// tree is a configuration as plain Go values, easy to rewrite: an object or
// a map is map[string]any (an object holds every attribute, nil when null),
// a list []any, a string string, a number *big.Float, a bool bool.
func toTree(v tftypes.Value) any {
	if v.IsNull() {
		return nil
	}
	switch t := v.Type(); {
	case t.Is(tftypes.Object{}), t.Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = toTree(e)
		}
		return out
	case t.Is(tftypes.List{}):
		var l []tftypes.Value
		_ = v.As(&l)
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = toTree(e)
		}
		return out
	case t.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case t.Is(tftypes.Number):
		n := new(big.Float)
		_ = v.As(&n)
		return n
	case t.Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	}
	panic(fmt.Sprintf("toTree: type %s", v.Type()))
}

func fromTree(typ tftypes.Type, x any) tftypes.Value {
	if x == nil {
		return tftypes.NewValue(typ, nil)
	}
	switch t := typ.(type) {
	case tftypes.Object:
		m := x.(map[string]any)
		vals := make(map[string]tftypes.Value, len(t.AttributeTypes))
		for name, at := range t.AttributeTypes {
			vals[name] = fromTree(at, m[name])
		}
		return tftypes.NewValue(t, vals)
	case tftypes.Map:
		m := x.(map[string]any)
		vals := make(map[string]tftypes.Value, len(m))
		for k, e := range m {
			vals[k] = fromTree(t.ElementType, e)
		}
		return tftypes.NewValue(t, vals)
	case tftypes.List:
		l := x.([]any)
		vals := make([]tftypes.Value, len(l))
		for i, e := range l {
			vals[i] = fromTree(t.ElementType, e)
		}
		return tftypes.NewValue(t, vals)
	}
	return tftypes.NewValue(typ, x)
}

func cloneTree(x any) any {
	switch x := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneTree(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneTree(e)
		}
		return out
	}
	return x // strings, bools and numbers are never changed in place
}

// proposedNew is the planned value Terraform proposes from a prior state
// and a configuration (objchange.ProposedNew for this schema's attribute
// kinds): an optional and computed attribute left out of the configuration
// keeps its prior value; a nested object is proposed attribute by
// attribute, a nested list element by element, by index.
func proposedNew(attrs []*tfprotov6.SchemaAttribute, prior, config map[string]any) map[string]any {
	out := make(map[string]any, len(attrs))
	for _, a := range attrs {
		var pv any
		if prior != nil {
			pv = prior[a.Name]
		}
		cv := config[a.Name]
		switch {
		case a.Computed && cv == nil:
			out[a.Name] = pv
		case a.NestedType != nil && cv != nil:
			switch a.NestedType.Nesting {
			case tfprotov6.SchemaObjectNestingModeSingle:
				pm, _ := pv.(map[string]any)
				out[a.Name] = proposedNew(a.NestedType.Attributes, pm, cv.(map[string]any))
			case tfprotov6.SchemaObjectNestingModeList:
				pl, _ := pv.([]any)
				var l []any
				for i, e := range cv.([]any) {
					if i < len(pl) && pl[i] != nil && e != nil {
						e = proposedNew(a.NestedType.Attributes, pl[i].(map[string]any), e.(map[string]any))
					}
					l = append(l, e)
				}
				if l == nil {
					l = []any{}
				}
				out[a.Name] = l
			default:
				panic(fmt.Sprintf("proposedNew: nesting %v", a.NestedType.Nesting))
			}
		default:
			out[a.Name] = cv
		}
	}
	return out
}

// exactness is one run: the harness, the job's schema and the generator of
// the configuration being rewritten.
type exactness struct {
	t      *testing.T
	h      *protoHarness
	ctx    context.Context
	schema *tfprotov6.Schema
	typ    tftypes.Object
	null   tfprotov6.DynamicValue
	c      *client.Client
	g      *generator
	fw     tfsdk.Config // the framework's schema of the job
	// zdr says that the provider and the service have zero data
	// retention: records are the create bodies, creates counts them.
	zdr     bool
	creates int
	drawn   map[string]int // how many times each rewrite was drawn
}

// accepted reports whether the provider accepts config as a new job:
// validation and the plan of a creation (which holds the plan's own
// refusals).
func (e *exactness) accepted(config tftypes.Value) (*tfprotov6.PlanResourceChangeResponse, bool) {
	dv := dynamicValue(e.t, e.typ, config)
	validated, err := e.h.server.ValidateResourceConfig(e.ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: &dv})
	if err != nil {
		e.t.Fatal(err)
	}
	if hasError(validated.Diagnostics) {
		return nil, false
	}
	planned, err := e.h.server.PlanResourceChange(e.ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: &e.null, ProposedNewState: &dv, Config: &dv})
	if err != nil {
		e.t.Fatal(err)
	}
	return planned, !hasError(planned.Diagnostics)
}

// apply applies a new job of config through the provider and returns its
// state, or nil when the apply fails.
func (e *exactness) apply(config tftypes.Value, planned *tfprotov6.PlanResourceChangeResponse) tftypes.Value {
	dv := dynamicValue(e.t, e.typ, config)
	resp, err := e.h.server.ApplyResourceChange(e.ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: &e.null, PlannedState: planned.PlannedState, Config: &dv})
	if err != nil {
		e.t.Fatal(err)
	}
	if hasError(resp.Diagnostics) {
		return tftypes.Value{}
	}
	state, err := resp.NewState.Unmarshal(e.typ)
	if err != nil {
		e.t.Fatal(err)
	}
	return state
}

// record is the service's record of job id: its request_params and
// custom_metadata, as JSON values.
func (e *exactness) record(id string) map[string]any {
	req, err := http.NewRequest(http.MethodGet, e.h.url+"/v2/pre-recorded/"+id, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("x-service-key", acctest.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		e.t.Fatalf("reading job %s: %d %s %v", id, resp.StatusCode, body, err)
	}
	var job map[string]any
	if err := json.Unmarshal(body, &job); err != nil {
		e.t.Fatal(err)
	}
	return map[string]any{"request_params": job["request_params"], "custom_metadata": job["custom_metadata"]}
}

// createWithService sends the request Create would send for config to the
// fake server, and returns the new job's record, or nil when the service
// refuses it.
func (e *exactness) createWithService(config tftypes.Value) map[string]any {
	var model jobResourceModel
	if d := (tfsdk.Config{Schema: e.fw.Schema, Raw: config}).Get(e.ctx, &model); d.HasError() {
		e.t.Fatalf("reading a configuration: %v", d)
	}
	body, d := model.createRequest(e.ctx)
	if d.HasError() {
		e.t.Fatalf("building a request: %v", d)
	}
	created, err := e.c.CreatePreRecorded(e.ctx, body)
	if err != nil {
		return nil
	}
	return e.created(created.ID)
}

// created is the service's record of job id, just created: read over
// HTTP, or under zero data retention, where no job can be read, made of
// the body of the create the fake server accepted last (request_params
// the request without custom_metadata, as sent: specMeaning fills in the
// defaults the record would hold).
func (e *exactness) created(id string) map[string]any {
	if !e.zdr {
		return e.record(id)
	}
	bodies := e.h.fake.CreateBodies()
	if len(bodies) != e.creates+1 {
		e.t.Fatalf("job %s: the fake server accepted %d creates, %d expected", id, len(bodies), e.creates+1)
	}
	e.creates++
	var params map[string]any
	if err := json.Unmarshal(bodies[len(bodies)-1], &params); err != nil {
		e.t.Fatal(err)
	}
	metadata := params["custom_metadata"]
	delete(params, "custom_metadata")
	return map[string]any{"request_params": params, "custom_metadata": metadata}
}

// withCallback is config with a callback, drawn, when it has none: under
// zero data retention a job without one is refused.
func (e *exactness) withCallback(config tftypes.Value) tftypes.Value {
	b := toTree(config).(map[string]any)
	if b["callback_url"] != nil || (b["callback"] == true && b["callback_config"] != nil) {
		return config
	}
	if e.pick(3) == 0 {
		b["callback_url"] = e.g.pick("callback_url")
	} else {
		if b["callback_config"] == nil {
			b["callback_config"] = e.draw("callback_config")
		}
		object(b, "callback_config")["url"] = e.g.pick("callback_config.url")
		b["callback"] = true
	}
	return fromTree(e.typ, b)
}

// importJob imports job id as Terraform does (ImportResourceState, then
// ReadResource) and returns its state.
func (e *exactness) importJob(id string) tftypes.Value {
	return e.h.importJob(e.typ, id)
}

// planAgainst plans config against the applied state, as Terraform plans a
// changed configuration.
func (e *exactness) planAgainst(state tftypes.Value, config tftypes.Value) *tfprotov6.PlanResourceChangeResponse {
	stateTree := toTree(state).(map[string]any)
	proposed := proposedNew(e.schema.Block.Attributes, stateTree, toTree(config).(map[string]any))
	prior := dynamicValue(e.t, e.typ, state)
	pv := dynamicValue(e.t, e.typ, fromTree(e.typ, proposed))
	cv := dynamicValue(e.t, e.typ, config)
	resp, err := e.h.server.PlanResourceChange(e.ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: &prior, ProposedNewState: &pv, Config: &cv})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

// plannedRequestProblems checks each request attribute of a plan of config
// against prior as Terraform does (objchange.AssertPlanValid, in
// plannedValueValid). kept says the plan keeps the job: then a request
// attribute in use that the configuration writes in another form of a
// value the job has (neither null) must be planned as it was
// (keepAppliedForms), so that the edit plans no change.
func plannedRequestProblems(schema *tfprotov6.Schema, prior, config, planned tftypes.Value, kept bool) []string {
	var priors, configured, plans map[string]tftypes.Value
	if prior.As(&priors) != nil || config.As(&configured) != nil || planned.As(&plans) != nil {
		return []string{"a plan that is not an object"}
	}
	attrs := map[string]*tfprotov6.SchemaAttribute{}
	for _, a := range schema.Block.Attributes {
		attrs[a.Name] = a
	}
	ignored := ignoredConfigurations(planned)
	var problems []string
	for _, name := range requestFieldNames() {
		p, c, was := plans[name], configured[name], priors[name]
		if !c.IsFullyKnown() || !was.IsKnown() {
			continue
		}
		if !plannedValueValid(attrs[name], was, c, p) {
			problems = append(problems, "a plan Terraform refuses: "+name+" planned neither as configured nor as it was")
		}
		if kept && !ignored[name] && !was.IsNull() && !c.IsNull() && !p.Equal(was) {
			problems = append(problems, "a change planned for a value that means the same: "+name)
		}
	}
	return problems
}

// plannedValueValid is Terraform's rule for a planned attribute value (its
// objchange.assertPlannedValueValid): as configured; as it was where
// neither is null; anything for a computed attribute left out; and for a
// nested object, the same rule for each of its attributes.
func plannedValueValid(a *tfprotov6.SchemaAttribute, prior, config, planned tftypes.Value) bool {
	switch {
	case planned.Equal(config), planned.Equal(prior) && !prior.IsNull() && !config.IsNull():
		return true
	case a.Computed && (!a.Optional || config.IsNull()):
		return true
	case config.IsNull() || planned.IsNull() || a.NestedType == nil:
		return false
	}
	switch a.NestedType.Nesting {
	case tfprotov6.SchemaObjectNestingModeSingle:
		return nestedAttributesValid(a.NestedType.Attributes, prior, config, planned)
	case tfprotov6.SchemaObjectNestingModeList:
		var priors, configs, plans []tftypes.Value
		_ = prior.As(&priors)
		if config.As(&configs) != nil || planned.As(&plans) != nil || len(configs) != len(plans) {
			return false
		}
		for i := range plans {
			was := tftypes.NewValue(plans[i].Type(), nil)
			if i < len(priors) {
				was = priors[i]
			}
			if !nestedAttributesValid(a.NestedType.Attributes, was, configs[i], plans[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// nestedAttributesValid applies plannedValueValid to each attribute of a
// nested object (prior may be null).
func nestedAttributesValid(attrs []*tfprotov6.SchemaAttribute, prior, config, planned tftypes.Value) bool {
	var priors, configs, plans map[string]tftypes.Value
	_ = prior.As(&priors)
	if config.As(&configs) != nil || planned.As(&plans) != nil {
		return false
	}
	for _, a := range attrs {
		was, ok := priors[a.Name]
		if !ok {
			was = tftypes.NewValue(plans[a.Name].Type(), nil)
		}
		if !plannedValueValid(a, was, configs[a.Name], plans[a.Name]) {
			return false
		}
	}
	return true
}

// exactnessClass counts the pairs of one rewrite.
type exactnessClass struct {
	pairs, sameRecord, sameMeaning, replaced, skipped int
}

func TestPlanExactness(t *testing.T) {
	testPlanExactness(t, newProtoHarness(t, fakeserver.Options{}), false, exactnessConfigCount(t))
}

// TestPlanExactnessUnderZeroDataRetention is the same with the provider's
// zero_data_retention and a service that has it on. The service lets no
// one read a job there (the spec: GET /v2/pre-recorded/<id> is disabled),
// and the provider refuses to import one, so A is planned against the
// state its apply left only, and the oracle is the body of each create the
// fake server accepted (Server.CreateBodies), read by specMeaning as a
// record is. Only configurations with a callback are jobs there: a rewrite
// that takes it away makes a B the provider refuses, counted as skipped.
// Its configurations A come from another stream of the seed than
// TestPlanExactness's, so that the two explore different ones.
func TestPlanExactnessUnderZeroDataRetention(t *testing.T) {
	// Jobs stay queued: none ends, so no callback is sent anywhere.
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true, ProcessingTime: time.Hour})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	testPlanExactness(t, &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}, true, exactnessConfigCount(t)*exactnessZDRShare/100)
}

// testPlanExactness checks configs configurations A against the provider
// of h, whose zero_data_retention is zdr.
func testPlanExactness(t *testing.T, h *protoHarness, zdr bool, configs int) {
	ctx := context.Background()
	c, err := client.New(client.Config{BaseURL: h.url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	typ := h.resourceType(jobResourceTypeName)
	e := &exactness{
		t: t, h: h, ctx: ctx, c: c, typ: typ, zdr: zdr, drawn: map[string]int{},
		schema: h.schemas.ResourceSchemas[jobResourceTypeName],
		null:   dynamicValue(t, typ, tftypes.NewValue(typ, nil)),
		fw:     tfsdk.Config{Schema: jobSchema(ctx)},
	}
	seed := differentialSeed(t)
	stream := uint64(0)
	if zdr {
		stream = exactnessZDRStream
	}
	classes := map[string]*exactnessClass{}
	mismatches := map[string][]string{}
	applied := 0
	perPrior := map[string]int{}
	// Past configs, more are drawn (up to four times as many) while a
	// rewrite has not been: rare ones need a configuration that fits them,
	// which another seed may draw late.
	undrawn := func() bool {
		return !zdr && slices.ContainsFunc(rewriteKinds, func(rw rewrite) bool { return e.drawn[rw.name] == 0 })
	}
	generated := 0
	for i := 0; i < configs || (i < 4*configs && undrawn()); i++ {
		generated++
		e.g = &generator{t: t, rng: rand.New(rand.NewPCG(seed, stream+uint64(i))), pools: jobPools, noise: noiseLevels[i%len(noiseLevels)]}
		a := e.g.jobConfig(e.schema)
		if zdr {
			a = e.withCallback(a)
		}
		planned, ok := e.accepted(a)
		if !ok {
			continue
		}
		state := e.apply(a, planned)
		if state.Type() == nil {
			continue
		}
		applied++
		var stateAttrs map[string]tftypes.Value
		_ = state.As(&stateAttrs)
		var id string
		_ = stateAttrs["id"].As(&id)
		recordA := e.created(id)
		aTree := toTree(a).(map[string]any)
		priors := []struct {
			name  string
			state tftypes.Value
		}{{"applied", state}}
		if !zdr {
			priors = append(priors, struct {
				name  string
				state tftypes.Value
			}{"imported", e.importJob(id)})
		}

		for j := range exactnessRewrites + len(priors) {
			// First A itself against each prior, then rewrites, against
			// each prior in turn.
			prior := priors[j%len(priors)]
			rw, bTree := rewrite{name: "unchanged", preserving: true}, cloneTree(aTree).(map[string]any)
			if j >= len(priors) {
				rw, bTree = e.rewrite(aTree)
			}
			perPrior[prior.name]++
			class := classes[rw.name]
			if class == nil {
				class = &exactnessClass{}
				classes[rw.name] = class
			}
			b := fromTree(typ, bTree)
			label := fmt.Sprintf("configuration %d of seed %d, rewrite %d (%s), planned against the %s job\n  A: %s\n  B: %s", i, seed, j, rw.name, prior.name, configText(a), configText(b))
			// A itself was accepted, and applied, above.
			if j >= len(priors) {
				if _, ok := e.accepted(b); !ok {
					class.skipped++
					continue
				}
			}
			recordB := e.createWithService(b)
			if recordB == nil {
				class.skipped++
				continue
			}
			class.pairs++
			resp := e.planAgainst(prior.state, b)
			if hasError(resp.Diagnostics) {
				mismatches["the plan against the prior job fails"] = append(mismatches["the plan against the prior job fails"],
					fmt.Sprintf("%s\n  %v", label, diagnosticSummaries(resp.Diagnostics)))
				continue
			}
			replaced := len(resp.RequiresReplace) > 0
			planned, err := resp.PlannedState.Unmarshal(e.typ)
			if err != nil {
				t.Fatal(err)
			}
			for _, problem := range plannedRequestProblems(e.schema, prior.state, b, planned, !replaced) {
				mismatches[problem] = append(mismatches[problem], label)
			}
			sameRecord := reflect.DeepEqual(recordA, recordB)
			meaningA, meaningB := specMeaning(recordA), specMeaning(recordB)
			sameMeaning := reflect.DeepEqual(meaningA, meaningB)
			if sameRecord {
				class.sameRecord++
			}
			if sameMeaning {
				class.sameMeaning++
			}
			if replaced {
				class.replaced++
			}
			detail := fmt.Sprintf("%s\n  replaces: %v\n  record A: %s\n  record B: %s", label, resp.RequiresReplace, asJSON(recordA), asJSON(recordB))
			switch {
			case sameRecord && replaced:
				mismatches["needless replacement: identical records"] = append(mismatches["needless replacement: identical records"], detail)
			case sameMeaning && replaced:
				key := "needless replacement: records mean the same (" + rw.name + ")"
				mismatches[key] = append(mismatches[key], detail+"\n  meaning: "+asJSON(meaningA))
			case !sameMeaning && !replaced:
				key := "missed replacement: records mean different jobs (" + rw.name + ")"
				mismatches[key] = append(mismatches[key], detail+"\n  meaning A: "+asJSON(meaningA)+"\n  meaning B: "+asJSON(meaningB))
			}
			if rw.preserving && !sameMeaning {
				key := "oracle: a rewrite that keeps the meaning made records of another meaning (" + rw.name + ")"
				mismatches[key] = append(mismatches[key], detail+"\n  meaning A: "+asJSON(meaningA)+"\n  meaning B: "+asJSON(meaningB))
			}
		}
	}

	names := make([]string, 0, len(classes))
	for name := range classes {
		names = append(names, name)
	}
	sort.Strings(names)
	total := 0
	for _, name := range names {
		c := classes[name]
		total += c.pairs
		t.Logf("%-55s pairs %4d  same record %4d  same meaning %4d  replaced %4d  (skipped, B refused: %d)", name, c.pairs, c.sameRecord, c.sameMeaning, c.replaced, c.skipped)
	}
	t.Logf("%d configurations applied of %d generated; %d pairs checked (rewrites drawn against each prior: %v)", applied, generated, total, perPrior)
	keys := make([]string, 0, len(mismatches))
	for k := range mismatches {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		examples := mismatches[k]
		t.Errorf("%s: %d pairs, for example:\n%s", k, len(examples), strings.Join(examples[:min(2, len(examples))], "\n"))
	}
	// The fixed seed must draw every rewrite, so that the test in every
	// run checks them all, and apply enough configurations; another seed,
	// exploring, checks what it draws (under zero data retention, 18
	// configurations: seed 7074 had 2 accepted).
	report := t.Errorf
	if seed != defaultDifferentialSeed {
		report = t.Logf
	}
	for _, rw := range rewriteKinds {
		if e.drawn[rw.name] == 0 && !zdr {
			report("rewrite %q was never drawn: no configuration generated fits it", rw.name)
		}
	}
	if total < applied*exactnessRewrites/2 {
		t.Errorf("only %d pairs checked for %d configurations applied: most rewrites make configurations the provider or the service refuses", total, applied)
	}
	if applied < configs/4 {
		report("only %d of %d configurations applied: the generator should make accepted configurations common", applied, configs)
	}
}

func diagnosticSummaries(diags []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary+": "+d.Detail)
	}
	return out
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// rewrite turns a configuration A into a configuration B. preserving says
// that the spec gives B the meaning of A: the oracle checks that it does
// (a pair that says otherwise points at the oracle or the fake server).
// apply reports false when the rewrite does not fit the configuration.
type rewrite struct {
	name       string
	preserving bool
	apply      func(e *exactness, b map[string]any) bool
}

// rewrite draws a rewrite that fits a, and applies it to a copy of it:
// one of those drawn least so far (e.drawn), so that a rewrite that fits
// few configurations is drawn as soon as one comes.
func (e *exactness) rewrite(a map[string]any) (rewrite, map[string]any) {
	var fit []int
	var bs []map[string]any
	for i, rw := range rewriteKinds {
		b := cloneTree(a).(map[string]any)
		if !rw.apply(e, b) {
			continue
		}
		switch {
		case len(fit) > 0 && e.drawn[rw.name] > e.drawn[rewriteKinds[fit[0]].name]:
			continue
		case len(fit) > 0 && e.drawn[rw.name] < e.drawn[rewriteKinds[fit[0]].name]:
			fit, bs = nil, nil
		}
		fit, bs = append(fit, i), append(bs, b)
	}
	if len(fit) == 0 {
		e.t.Fatal("no rewrite fits a configuration")
	}
	k := e.pick(len(fit))
	rw := rewriteKinds[fit[k]]
	e.drawn[rw.name]++
	return rw, bs[k]
}

// objectType is the type of the object attribute at path (top-level name,
// then nested names).
func (e *exactness) objectType(path ...string) tftypes.Object {
	t := e.typ
	for _, name := range path {
		switch at := t.AttributeTypes[name].(type) {
		case tftypes.Object:
			t = at
		case tftypes.List:
			t = at.ElementType.(tftypes.Object)
		}
	}
	return t
}

func newObject(t tftypes.Object) map[string]any {
	m := make(map[string]any, len(t.AttributeTypes))
	for name := range t.AttributeTypes {
		m[name] = nil
	}
	return m
}

func (e *exactness) attribute(name string) *tfprotov6.SchemaAttribute {
	i := slices.IndexFunc(e.schema.Block.Attributes, func(a *tfprotov6.SchemaAttribute) bool { return a.Name == name })
	return e.schema.Block.Attributes[i]
}

// draw is a new value of the top-level attribute name, as the generator
// makes one.
func (e *exactness) draw(name string) any {
	a := e.attribute(name)
	return toTree(e.g.value(name, a, a.ValueType()))
}

func (e *exactness) pick(choices int) int { return e.g.rng.IntN(choices) }

func object(b map[string]any, name string) map[string]any {
	m, _ := b[name].(map[string]any)
	return m
}

func isOff(v any) bool { return v == nil || v == false }

// aList is a list of strings in a configuration: its container and key.
type aList struct {
	in  map[string]any
	key string
}

func (l aList) get() []any { v, _ := l.in[l.key].([]any); return v }

// setLikeLists are the lists whose order means nothing, where set.
func setLikeLists(b map[string]any) []aList {
	var out []aList
	for _, p := range [][2]string{{"language_config", "languages"}, {"subtitles_config", "formats"}, {"translation_config", "target_languages"}, {"pii_redaction_config", "entity_types"}, {"custom_vocabulary_config", "vocabulary"}} {
		if o := object(b, p[0]); o != nil {
			out = append(out, aList{o, p[1]})
		}
	}
	return out
}

// vocabularyEntries are the entries of custom_vocabulary_config.
func vocabularyEntries(b map[string]any) []map[string]any {
	var out []map[string]any
	if o := object(b, "custom_vocabulary_config"); o != nil {
		l, _ := o["vocabulary"].([]any)
		for _, e := range l {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// oneLanguage is the one transcription language set, or "".
func oneLanguage(b map[string]any) string {
	if o := object(b, "language_config"); o != nil {
		if l, _ := o["languages"].([]any); len(l) == 1 {
			s, _ := l[0].(string)
			return s
		}
	}
	return ""
}

// choose applies one of the fitting candidates, at random.
func choose(e *exactness, candidates []func()) bool {
	if len(candidates) == 0 {
		return false
	}
	candidates[e.pick(len(candidates))]()
	return true
}

// leaf is a string, number or bool of a configuration, with the pool path
// it is drawn from.
type leaf struct {
	path  string
	value any
	set   func(any)
}

func leaves(prefix string, x any, set func(any), out *[]leaf) {
	switch x := x.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			v := x[k]
			path := prefix // a map's values share its path
			if !strings.HasSuffix(prefix, "custom_metadata") && !strings.HasSuffix(prefix, "spelling_dictionary") {
				path = join(prefix, k)
			}
			leaves(path, v, func(n any) { x[k] = n }, out)
		}
	case []any:
		for i, v := range x {
			leaves(prefix, v, func(n any) { x[i] = n }, out)
		}
	case nil:
	default:
		*out = append(*out, leaf{prefix, x, set})
	}
}

func sameLeaf(a, b any) bool {
	if fa, ok := a.(*big.Float); ok {
		fb, ok := b.(*big.Float)
		return ok && fa.Cmp(fb) == 0
	}
	return a == b
}

// anotherValue gives a leaf of the request, under only when not empty,
// another value drawn from its pool.
func anotherValue(e *exactness, b map[string]any, only string) bool {
	var all []leaf
	for _, name := range requestFieldNames() {
		if only != "" && name != only {
			continue
		}
		leaves(name, b[name], func(n any) { b[name] = n }, &all)
	}
	if len(all) == 0 {
		return false
	}
	l := all[e.pick(len(all))]
	for range 20 {
		var n any
		switch v := l.value.(type) {
		case bool:
			n = !v
		case string:
			n = e.g.pick(l.path)
		case *big.Float:
			f, _, err := big.ParseFloat(e.g.pick(l.path), 10, 512, big.ToNearestEven)
			if err != nil {
				e.t.Fatal(err)
			}
			n = f
		}
		if !sameLeaf(n, l.value) {
			l.set(n)
			return true
		}
	}
	return false
}

var rewriteKinds = []rewrite{
	{"model default written out or left out", true, func(e *exactness, b map[string]any) bool {
		switch b["model"] {
		case nil:
			b["model"] = client.DefaultModel
		case client.DefaultModel:
			b["model"] = nil
		default:
			return false
		}
		return true
	}},
	{"switch false written out or left out", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, name := range requestFieldNames() {
			if v, isBool := b[name].(bool); (isBool && !v) || (b[name] == nil && e.typ.AttributeTypes[name].Is(tftypes.Bool)) {
				c = append(c, func() {
					if b[name] == nil {
						b[name] = false
					} else {
						b[name] = nil
					}
				})
			}
		}
		return choose(e, c)
	}},
	{"language_config defaults written out or left out", true, func(e *exactness, b map[string]any) bool {
		lc := object(b, "language_config")
		if lc == nil {
			lc = newObject(e.objectType("language_config"))
			switch e.pick(4) {
			case 1:
				lc["languages"] = []any{}
			case 2:
				lc["code_switching"] = false
			case 3:
				lc["languages"], lc["code_switching"] = []any{}, false
			}
			b["language_config"] = lc
			return true
		}
		var c []func()
		if l, isList := lc["languages"].([]any); lc["languages"] == nil || (isList && len(l) == 0) {
			c = append(c, func() {
				if lc["languages"] == nil {
					lc["languages"] = []any{}
				} else {
					lc["languages"] = nil
				}
			})
		}
		if isOff(lc["code_switching"]) {
			c = append(c, func() {
				if lc["code_switching"] == nil {
					lc["code_switching"] = false
				} else {
					lc["code_switching"] = nil
				}
			})
		}
		if l, _ := lc["languages"].([]any); len(l) == 0 && isOff(lc["code_switching"]) {
			c = append(c, func() { b["language_config"] = nil })
		}
		return choose(e, c)
	}},
	{"code_switching changed with one language set", true, func(e *exactness, b map[string]any) bool {
		if oneLanguage(b) == "" {
			return false
		}
		lc := object(b, "language_config")
		values := slices.DeleteFunc([]any{nil, false, true}, func(v any) bool { return v == lc["code_switching"] })
		lc["code_switching"] = values[e.pick(len(values))]
		return true
	}},
	{"list whose order means nothing reordered", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, l := range setLikeLists(b) {
			if len(l.get()) >= 2 {
				c = append(c, func() {
					r := slices.Clone(l.get())
					slices.Reverse(r)
					l.in[l.key] = r
				})
			}
		}
		return choose(e, c)
	}},
	{"empty list or map for none, or none for empty", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		toggleEmpty := func(in map[string]any, key string, empty any) {
			switch v := in[key].(type) {
			case nil:
				c = append(c, func() { in[key] = empty })
			case []any:
				if len(v) == 0 {
					c = append(c, func() { in[key] = nil })
				}
			case map[string]any:
				if len(v) == 0 {
					c = append(c, func() { in[key] = nil })
				}
			}
		}
		if lc := object(b, "language_config"); lc != nil {
			toggleEmpty(lc, "languages", []any{})
		}
		if pii := object(b, "pii_redaction_config"); pii != nil {
			toggleEmpty(pii, "entity_types", []any{})
		}
		for _, entry := range vocabularyEntries(b) {
			toggleEmpty(entry, "pronunciations", []any{})
		}
		toggleEmpty(b, "custom_metadata", map[string]any{})
		return choose(e, c)
	}},
	{"configuration of a switch that is off added, removed or changed", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, sw := range append(slices.Clone(configSwitches), "callback") {
			if !isOff(b[sw]) {
				continue
			}
			name := sw + "_config"
			c = append(c, func() {
				switch {
				case b[name] == nil:
					b[name] = e.draw(name)
					if sw == "callback" {
						object(b, name)["url"] = e.g.pick("callback_config.url")
					}
				case e.pick(3) == 0:
					b[name] = nil
				default:
					if !anotherValue(e, b, name) {
						b[name] = nil
					}
				}
			})
		}
		return choose(e, c)
	}},
	{"default inside a configuration written out or left out", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, d := range []struct {
			config, attr string
			value        any
		}{
			{"subtitles_config", "style", client.DefaultSubtitleStyle},
			{"subtitles_config", "formats", []any{client.DefaultSubtitleFormat}},
			{"translation_config", "model", client.DefaultTranslationModel},
			{"translation_config", "match_original_utterances", true},
			{"translation_config", "lipsync", true},
			{"translation_config", "context_adaptation", true},
			{"translation_config", "informal", false},
			{"summarization_config", "type", client.DefaultSummaryType},
		} {
			o := object(b, d.config)
			if o == nil {
				continue
			}
			switch {
			case o[d.attr] == nil:
				c = append(c, func() { o[d.attr] = d.value })
			case reflect.DeepEqual(o[d.attr], d.value):
				c = append(c, func() { o[d.attr] = nil })
			}
		}
		return choose(e, c)
	}},
	{"configuration of only defaults for a switch that is on", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, d := range []struct {
			sw       string
			defaults map[string]any
		}{
			{"subtitles", map[string]any{"formats": []any{client.DefaultSubtitleFormat}, "style": client.DefaultSubtitleStyle}},
			{"summarization", map[string]any{"type": client.DefaultSummaryType}},
			{"diarization", map[string]any{}},
			{"pii_redaction", map[string]any{}},
		} {
			if b[d.sw] != true {
				continue
			}
			name := d.sw + "_config"
			o := object(b, name)
			if o == nil {
				c = append(c, func() {
					o := newObject(e.objectType(name))
					for k, v := range d.defaults {
						if e.pick(2) == 0 {
							o[k] = v
						}
					}
					b[name] = o
				})
				continue
			}
			onlyDefaults := true
			for k, v := range o {
				if def, ok := d.defaults[k]; v != nil && (!ok || !reflect.DeepEqual(v, def)) {
					onlyDefaults = false
				}
			}
			if onlyDefaults {
				c = append(c, func() { b[name] = nil })
			}
		}
		return choose(e, c)
	}},
	{"callback written the other way", true, func(e *exactness, b map[string]any) bool {
		cc := object(b, "callback_config")
		switch {
		case b["callback_url"] != nil && b["callback"] != true:
			cc = newObject(e.objectType("callback_config"))
			cc["url"] = b["callback_url"]
			if e.pick(2) == 0 {
				cc["method"] = http.MethodPost
			}
			b["callback"], b["callback_config"], b["callback_url"] = true, cc, nil
		case b["callback"] == true && cc != nil && b["callback_url"] == nil && (cc["method"] == nil || cc["method"] == http.MethodPost):
			b["callback"], b["callback_config"], b["callback_url"] = []any{nil, false}[e.pick(2)], nil, cc["url"]
		default:
			return false
		}
		return true
	}},
	{"URL written another way that names the same resource", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, at := range []struct {
			in  map[string]any
			key string
		}{{b, "audio_url"}, {b, "callback_url"}, {object(b, "callback_config"), "url"}} {
			raw, _ := at.in[at.key].(string)
			for _, variant := range sameResourceVariants(raw) {
				c = append(c, func() { at.in[at.key] = variant })
			}
		}
		return choose(e, c)
	}},
	{"vocabulary intensity written as default_intensity or left out", true, func(e *exactness, b map[string]any) bool {
		cvc := object(b, "custom_vocabulary_config")
		if cvc == nil || cvc["default_intensity"] == nil {
			return false
		}
		var c []func()
		for _, entry := range vocabularyEntries(b) {
			switch {
			case entry["intensity"] == nil:
				c = append(c, func() { entry["intensity"] = respell(e, cvc["default_intensity"].(*big.Float)) })
			case sameLeaf(entry["intensity"], cvc["default_intensity"]):
				c = append(c, func() { entry["intensity"] = nil })
			}
		}
		return choose(e, c)
	}},
	{"vocabulary language written as the transcription language or left out", true, func(e *exactness, b map[string]any) bool {
		language := oneLanguage(b)
		if language == "" {
			return false
		}
		var c []func()
		for _, entry := range vocabularyEntries(b) {
			switch entry["language"] {
			case nil:
				c = append(c, func() { entry["language"] = language })
			case language:
				c = append(c, func() { entry["language"] = nil })
			}
		}
		return choose(e, c)
	}},
	// No rewrite reorders custom_vocabulary_config.vocabulary: whether the
	// order of its entries means anything is an open decision (the spec
	// says nothing of it; the provider compares the list in order, so a
	// reordered list replaces the job). Drawn as keeping the meaning it
	// would fail on that decision, drawn as changing it would assert it.
	{"alternatives reordered or repeated", true, func(e *exactness, b map[string]any) bool {
		var c []func()
		alternatives := func(in map[string]any, key string) {
			l, _ := in[key].([]any)
			if len(l) >= 2 {
				c = append(c, func() { r := slices.Clone(l); slices.Reverse(r); in[key] = r })
			}
			if len(l) >= 1 {
				c = append(c, func() { in[key] = append(slices.Clone(l), l[e.pick(len(l))]) })
			}
		}
		for _, entry := range vocabularyEntries(b) {
			alternatives(entry, "pronunciations")
		}
		if csc := object(b, "custom_spelling_config"); csc != nil {
			if d, ok := csc["spelling_dictionary"].(map[string]any); ok {
				for _, k := range slices.Sorted(maps.Keys(d)) {
					alternatives(d, k)
				}
			}
		}
		return choose(e, c)
	}},
	{"number written another way with the same value", true, func(e *exactness, b map[string]any) bool {
		var numbers []leaf
		for _, name := range requestFieldNames() {
			leaves(name, b[name], func(n any) { b[name] = n }, &numbers)
		}
		numbers = slices.DeleteFunc(numbers, func(l leaf) bool { _, isNumber := l.value.(*big.Float); return !isNumber })
		if len(numbers) == 0 {
			return false
		}
		l := numbers[e.pick(len(numbers))]
		l.set(respell(e, l.value.(*big.Float)))
		return true
	}},
	{"spelling dictionary key with no spellings added or removed", true, func(e *exactness, b map[string]any) bool {
		csc := object(b, "custom_spelling_config")
		d, _ := csc["spelling_dictionary"].(map[string]any)
		if d == nil {
			return false
		}
		var c []func()
		for _, k := range slices.Sorted(maps.Keys(d)) {
			if l, _ := d[k].([]any); len(l) == 0 {
				c = append(c, func() { delete(d, k) })
			}
		}
		if key := e.g.pick("custom_spelling_config.spelling_dictionary{}"); d[key] == nil {
			c = append(c, func() { d[key] = []any{} })
		}
		return choose(e, c)
	}},
	{"map keys written in another order", true, func(e *exactness, b map[string]any) bool {
		// A configuration's map has no order once Terraform reads it (a
		// cty map, sent to the provider sorted by key), so B is A's value
		// at the protocol: this checks that nothing the provider sends or
		// plans depends on the order a map is built in.
		var c []func()
		reorder := func(in map[string]any, key string) {
			if m, _ := in[key].(map[string]any); len(m) >= 2 {
				c = append(c, func() {
					r := make(map[string]any, len(m))
					keys := slices.Sorted(maps.Keys(m))
					slices.Reverse(keys)
					for _, k := range keys {
						r[k] = m[k]
					}
					in[key] = r
				})
			}
		}
		reorder(b, "custom_metadata")
		if csc := object(b, "custom_spelling_config"); csc != nil {
			reorder(csc, "spelling_dictionary")
		}
		return choose(e, c)
	}},
	{"callback_config.method written as its default or left out", true, func(e *exactness, b map[string]any) bool {
		cc := object(b, "callback_config")
		switch {
		case cc == nil:
			return false
		case cc["method"] == nil:
			cc["method"] = client.DefaultCallbackMethod
		case cc["method"] == client.DefaultCallbackMethod:
			cc["method"] = nil
		default:
			return false
		}
		return true
	}},
	{"one transcription language written out or left to the default", false, func(e *exactness, b map[string]any) bool {
		// The default, no language, is detected by the model: another job
		// than one transcribed in the language written out.
		lc := object(b, "language_config")
		if language := oneLanguage(b); language != "" {
			switch e.pick(3) {
			case 0:
				lc["languages"] = nil
			case 1:
				lc["languages"] = []any{}
			default:
				if isOff(lc["code_switching"]) {
					b["language_config"] = nil
				} else {
					lc["languages"] = nil
				}
			}
			return true
		}
		if l, _ := lc["languages"].([]any); len(l) > 0 {
			return false
		}
		if lc == nil {
			lc = newObject(e.objectType("language_config"))
			b["language_config"] = lc
		}
		lc["languages"] = []any{e.g.pick("language_config.languages")}
		return true
	}},
	{"case of an enumerated value changed", false, func(e *exactness, b map[string]any) bool {
		var c []func()
		recase := func(in map[string]any, key string) {
			if s, ok := in[key].(string); ok && flipCase(s) != s {
				c = append(c, func() { in[key] = flipCase(s) })
			}
		}
		recase(b, "model")
		for _, p := range [][2]string{{"callback_config", "method"}, {"subtitles_config", "style"}, {"summarization_config", "type"}, {"translation_config", "model"}, {"pii_redaction_config", "processed_text_type"}} {
			if o := object(b, p[0]); o != nil {
				recase(o, p[1])
			}
		}
		for _, l := range setLikeLists(b) {
			list := l.get()
			for i, v := range list {
				if s, ok := v.(string); ok && flipCase(s) != s {
					c = append(c, func() { r := slices.Clone(list); r[i] = flipCase(s); l.in[l.key] = r })
				}
			}
		}
		return choose(e, c)
	}},
	{"another value of one argument", false, func(e *exactness, b map[string]any) bool {
		return anotherValue(e, b, "")
	}},
	{"list element added or removed", false, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, name := range requestFieldNames() {
			if name == "custom_vocabulary_config" {
				continue // a list of objects
			}
			var visit func(path string, x any)
			visit = func(path string, x any) {
				m, ok := x.(map[string]any)
				if !ok {
					return
				}
				for _, k := range slices.Sorted(maps.Keys(m)) {
					v := m[k]
					p := join(path, k)
					if strings.HasSuffix(path, "spelling_dictionary") {
						p = path
					}
					if l, ok := v.([]any); ok {
						c = append(c, func() {
							if len(l) > 0 && e.pick(2) == 0 {
								m[k] = l[:len(l)-1]
							} else {
								m[k] = append(slices.Clone(l), e.g.pick(p))
							}
						})
					}
					visit(p, v)
				}
			}
			visit(name, b[name])
		}
		return choose(e, c)
	}},
	{"argument left out", false, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, s := range attributeSlots(e, b) {
			// callback_url and callback_config.url left out keep the job's
			// (DESIGN.md, Replacement): not a change of the request.
			if s.value != nil && s.path != "audio_url" && s.path != "callback_url" && s.path != "callback_config.url" {
				c = append(c, func() { s.in[s.name] = nil })
			}
		}
		return choose(e, c)
	}},
	{"argument that was left out set", false, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, s := range attributeSlots(e, b) {
			if s.value == nil {
				c = append(c, func() { s.in[s.name] = toTree(e.g.value(s.path, s.attr, s.attr.ValueType())) })
			}
		}
		return choose(e, c)
	}},
	{"switch turned on or off", false, func(e *exactness, b map[string]any) bool {
		var c []func()
		for _, sw := range append(slices.Clone(configSwitches), "callback") {
			if b[sw+"_config"] != nil {
				c = append(c, func() {
					if isOff(b[sw]) {
						b[sw] = true
					} else {
						b[sw] = []any{nil, false}[e.pick(2)]
					}
				})
			}
		}
		return choose(e, c)
	}},
}

// respell is n written another way, read as Terraform reads a number
// literal (cty: base 10, 512 bits, to nearest even): with a trailing zero,
// in exponent form, or as -0 for 0. It must be n's value.
func respell(e *exactness, n *big.Float) *big.Float {
	plain := n.Text('f', -1)
	spellings := []string{n.Text('e', -1), plain + "e0"}
	if strings.Contains(plain, ".") {
		spellings = append(spellings, plain+"0")
	} else {
		spellings = append(spellings, plain+".0", plain+".000")
	}
	if n.Sign() == 0 {
		spellings = append(spellings, "-0", "0e5")
	}
	s := spellings[e.pick(len(spellings))]
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil || f.Cmp(n) != 0 {
		e.t.Fatalf("%s, written %s, is %v (%v)", plain, s, f, err)
	}
	return f
}

// flipCase writes s in upper case, or in lower case when it is already.
func flipCase(s string) string {
	if strings.ToUpper(s) == s {
		return strings.ToLower(s)
	}
	return strings.ToUpper(s)
}

// sameResourceVariants are raw, an absolute http(s) URL, written in other
// ways that name the same resource by RFC 9110 §4.2.3: scheme and host in
// upper case, the scheme's default port written out, a fragment (which no
// client sends), a letter of the path percent-encoded.
func sameResourceVariants(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || !strings.HasPrefix(raw, u.Scheme+"://"+u.Host) {
		return nil
	}
	authority := u.Scheme + "://" + u.Host
	rest := strings.TrimPrefix(raw, authority)
	out := []string{strings.ToUpper(authority) + rest}
	if u.Port() == "" {
		out = append(out, authority+map[string]string{"http": ":80", "https": ":443"}[u.Scheme]+rest)
	}
	if !strings.Contains(raw, "#") {
		out = append(out, raw+"#t=1")
	}
	path := rest[:strings.IndexAny(rest+"?", "?#")]
	if i := strings.LastIndex(path, "/"); i >= 0 && i+1 < len(path) && ('a' <= path[i+1] && path[i+1] <= 'z' || 'A' <= path[i+1] && path[i+1] <= 'Z') {
		out = append(out, authority+rest[:i+1]+fmt.Sprintf("%%%02X", rest[i+1])+rest[i+2:])
	}
	return out
}

// sameResourceForm reads a URL as sameResourceVariants writes it: the
// scheme and host in lower case, no default port, no fragment, the path's
// unreserved letters not encoded.
func sameResourceForm(v any) any {
	raw, _ := v.(string)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return v
	}
	u.Host = strings.ToLower(u.Host)
	if port := u.Port(); (port == "80" && u.Scheme == "http") || (port == "443" && u.Scheme == "https") {
		u.Host = strings.TrimSuffix(u.Host, ":"+port)
	}
	u.Fragment, u.RawFragment, u.RawPath = "", "", ""
	return u.String()
}

// specMeaning reads a job's record as the spec says the service reads its
// request, so that two records of the same meaning are equal. The spec's
// rules: a field left out has its default (model, switches, language_config,
// subtitles_config, callback_config.method, translation_config,
// summarization_config); a *_config is used only when its switch is true
// (rule 4); the callback goes to callback_config when callback is true, with
// its method, else to callback_url with a POST (rule 3 and callback_url);
// code_switching is ignored when one language is set; an entry's language
// defaults to the transcription language. The readings of the spec's
// silences that the provider documents: lists of languages, subtitle formats,
// translation targets and PII entity types are sets; an entry's
// pronunciations and the spellings under a key are sets of alternatives (a
// key with none replaces nothing, the spec's reading of the dictionary); an
// entry's intensity left out is default_intensity; an empty list or map, or
// a PII configuration that sets nothing, is none; so is an empty
// translation context (there is nothing to adapt to).
func specMeaning(record map[string]any) map[string]any {
	p, _ := cloneJSON(record["request_params"]).(map[string]any)
	if p == nil {
		return map[string]any{"request_params": nil}
	}
	out := map[string]any{}
	if m, _ := record["custom_metadata"].(map[string]any); len(m) > 0 {
		out["custom_metadata"] = m
	}
	on := func(name string) bool { return p[name] == true }
	if p["model"] == nil {
		p["model"] = client.DefaultModel
	}

	// Callback: the one target the service sends the result to.
	var target any
	if cc, _ := p["callback_config"].(map[string]any); on("callback") && cc != nil {
		method := cc["method"]
		if method == nil {
			method = http.MethodPost
		}
		target = map[string]any{"url": cc["url"], "method": method}
	} else if u := p["callback_url"]; u != nil {
		target = map[string]any{"url": u, "method": http.MethodPost}
	}
	delete(p, "callback")
	delete(p, "callback_config")
	delete(p, "callback_url")
	p["callback_target"] = target
	p["audio_url"] = sameResourceForm(p["audio_url"])
	if target != nil {
		target.(map[string]any)["url"] = sameResourceForm(target.(map[string]any)["url"])
	}

	// Switches: false when left out; a configuration only when on.
	for _, name := range []string{"custom_vocabulary", "subtitles", "diarization", "translation", "summarization", "named_entity_recognition",
		"custom_spelling", "sentiment_analysis", "audio_to_llm", "pii_redaction", "sentences", "punctuation_enhanced"} {
		if p[name] == nil {
			p[name] = false
		}
	}
	for _, sw := range configSwitches {
		if !on(sw) {
			delete(p, sw+"_config")
		}
	}
	config := func(name string) map[string]any {
		c, _ := p[name].(map[string]any)
		if c == nil && on(strings.TrimSuffix(name, "_config")) {
			c = map[string]any{}
		}
		if c != nil {
			p[name] = c
		}
		return c
	}
	withDefault := func(c map[string]any, key string, def any) {
		if c[key] == nil {
			c[key] = def
		}
	}

	// language_config: languages [] and code_switching false by default,
	// code_switching ignored with one language.
	lc, _ := p["language_config"].(map[string]any)
	if lc == nil {
		lc = map[string]any{}
	}
	languages := setOf(lc["languages"])
	lc["languages"] = languages
	withDefault(lc, "code_switching", false)
	if len(languages) == 1 {
		lc["code_switching"] = false
	}
	p["language_config"] = lc
	transcriptionLanguage := ""
	if len(languages) == 1 {
		transcriptionLanguage, _ = languages[0].(string)
	}

	if c := config("subtitles_config"); c != nil {
		withDefault(c, "formats", []any{client.DefaultSubtitleFormat})
		c["formats"] = setOf(c["formats"])
		withDefault(c, "style", client.DefaultSubtitleStyle)
	}
	config("diarization_config")
	if c := config("translation_config"); c != nil {
		c["target_languages"] = setOf(c["target_languages"])
		withDefault(c, "model", client.DefaultTranslationModel)
		withDefault(c, "match_original_utterances", true)
		withDefault(c, "lipsync", true)
		withDefault(c, "context_adaptation", true)
		withDefault(c, "informal", false)
		if c["context"] == "" {
			delete(c, "context")
		}
	}
	if c := config("summarization_config"); c != nil {
		withDefault(c, "type", client.DefaultSummaryType)
	}
	if c := config("pii_redaction_config"); c != nil {
		c["entity_types"] = setOf(c["entity_types"])
		if len(c["entity_types"].([]any)) == 0 {
			delete(c, "entity_types")
		}
	}
	if c := config("custom_vocabulary_config"); c != nil {
		entries, _ := c["vocabulary"].([]any)
		for _, e := range entries {
			entry, ok := e.(map[string]any)
			if !ok {
				continue
			}
			if entry["intensity"] == nil && c["default_intensity"] != nil {
				entry["intensity"] = c["default_intensity"]
			}
			if entry["language"] == nil && transcriptionLanguage != "" {
				entry["language"] = transcriptionLanguage
			}
			entry["pronunciations"] = setOf(entry["pronunciations"])
		}
		delete(c, "default_intensity") // used by the entries, above
		// Entries in any order are the same vocabulary (client.Effective
		// sorts them; it keeps a repeated one).
		sort.SliceStable(entries, func(i, j int) bool { return asJSON(entries[i]) < asJSON(entries[j]) })
	}
	if c := config("custom_spelling_config"); c != nil {
		if d, ok := c["spelling_dictionary"].(map[string]any); ok {
			for k, v := range d {
				d[k] = setOf(v)
				if len(d[k].([]any)) == 0 {
					delete(d, k) // replaces nothing
				}
			}
		}
	}
	out["request_params"] = p
	return out
}

// setOf is a JSON list as a set: sorted, without repeats, [] for none.
func setOf(v any) []any {
	l, _ := v.([]any)
	out := make([]any, 0, len(l))
	seen := map[string]bool{}
	for _, e := range l {
		k := asJSON(e)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return asJSON(out[i]) < asJSON(out[j]) })
	return out
}

func cloneJSON(v any) any {
	var out any
	if err := json.Unmarshal([]byte(asJSON(v)), &out); err != nil {
		panic(err)
	}
	return out
}

// slot is an attribute of the request, top-level or in a nested object that
// is set (not in list elements).
type slot struct {
	in    map[string]any
	name  string
	path  string
	value any
	attr  *tfprotov6.SchemaAttribute
}

func attributeSlots(e *exactness, b map[string]any) []slot {
	var out []slot
	var visit func(prefix string, attrs []*tfprotov6.SchemaAttribute, in map[string]any)
	visit = func(prefix string, attrs []*tfprotov6.SchemaAttribute, in map[string]any) {
		for _, a := range attrs {
			path := join(prefix, a.Name)
			out = append(out, slot{in, a.Name, path, in[a.Name], a})
			if m, ok := in[a.Name].(map[string]any); ok && a.NestedType != nil && a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle {
				visit(path, a.NestedType.Attributes, m)
			}
		}
	}
	request := map[string]bool{}
	for _, name := range requestFieldNames() {
		request[name] = true
	}
	visit("", slices.DeleteFunc(slices.Clone(e.schema.Block.Attributes), func(a *tfprotov6.SchemaAttribute) bool { return !request[a.Name] }), b)
	return out
}
