package provider

// A property test of the bar "unknown values never cause false errors": a
// value known only after apply (from another resource) must not be refused
// at validate or plan when its known value could be valid, and the checks
// of the final values still happen before any request.
//
// It reuses the differential test's generator (service_differential_test.go)
// and checks, in process through the provider's protocol-6 server, the
// transcription_job resource, the transcription_transcribe action (both
// without and with the provider's zero_data_retention), the filters of the
// transcription_live_jobs data source and of the transcription_job list
// resource, and the provider's own configuration:
//
//   - Property A: a configuration the provider accepts stays accepted
//     (validate and plan give no error) when random parts of it are made
//     unknown: leaf values, list elements, map values, whole lists, maps and
//     nested objects, whole top-level arguments (set or not: an expression
//     known only after apply may turn out null). Its warnings must be ones
//     the final configuration gets too (a warning on an unknown value claims
//     what may be false), and its plan must be sane: unknown where the
//     configuration is, equal to it where it is known, and every value it
//     knows the one the final configuration plans (Terraform refuses an
//     apply whose final plan contradicts the first).
//   - Property B: a configuration the provider refuses for one argument is
//     accepted, as far as that refusal goes, once the refused value (or one
//     above it) is made unknown, or one of the arguments the refusal names
//     (the sibling it is compared to: minimum against maximum, model against
//     languages, a switch against its configuration) unless no value of that
//     argument makes the configuration valid. With the values known again,
//     the refusal comes back where the final values are checked before any
//     request: for a resource or a data source, Terraform validates (and
//     plans) again with them; the action checks them itself in Invoke.
//
// Deterministic: the seed is the differential test's (DIFFERENTIAL_SEED
// changes it), and a failure prints the configuration, with "(unknown)"
// where a value was made unknown, to replay.

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// How many configurations each property test generates, and how many
// mutants with unknown values each accepted one gives.
const (
	unknownJobConfigs    = 120
	unknownFilterConfigs = 400
	unknownMutants       = 3
)

// outcome is what the provider made of a configuration: its errors and
// warnings by diagKey, and its plan when it plans one.
type outcome struct {
	errs, warns map[string]*tfprotov6.Diagnostic
	planned     tftypes.Value
	hasPlan     bool
	// partial: an error (a value the framework cannot read) left the
	// checks of the whole configuration unrun.
	partial bool
}

func diagKey(d *tfprotov6.Diagnostic) string {
	return d.Summary + " @ " + pathName(d.Attribute, true)
}

func newOutcome(diags ...[]*tfprotov6.Diagnostic) outcome {
	o := outcome{errs: map[string]*tfprotov6.Diagnostic{}, warns: map[string]*tfprotov6.Diagnostic{}}
	for _, ds := range diags {
		for _, d := range ds {
			switch d.Severity {
			case tfprotov6.DiagnosticSeverityError:
				o.errs[diagKey(d)] = d
				o.partial = o.partial || d.Summary == numtypes.NotWholeSummary || d.Summary == numtypes.OutOfRangeSummary
			case tfprotov6.DiagnosticSeverityWarning:
				o.warns[diagKey(d)] = d
			}
		}
	}
	return o
}

// roots are the top-level arguments o's errors name.
func (o outcome) roots() []string {
	var roots []string
	for _, d := range o.errs {
		if r := rootName(d.Attribute); !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	sort.Strings(roots)
	return roots
}

func rootName(p *tftypes.AttributePath) string {
	if p == nil || len(p.Steps()) == 0 {
		return ""
	}
	name, _ := p.Steps()[0].(tftypes.AttributeName)
	return string(name)
}

// pathName writes p as the provider's messages do
// (custom_vocabulary_config.vocabulary[0].intensity), or with [*] for every
// list index and map key when indices is false (a class of mismatches).
func pathName(p *tftypes.AttributePath, indices bool) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyInt:
			if indices {
				fmt.Fprintf(&b, "[%d]", int64(s))
			} else {
				b.WriteString("[*]")
			}
		case tftypes.ElementKeyString:
			if indices {
				fmt.Fprintf(&b, "[%q]", string(s))
			} else {
				b.WriteString("[*]")
			}
		}
	}
	return b.String()
}

// node is a place of a configuration that a value known only after apply
// may take: a settable attribute (set or not), a list element or a map
// value.
type node struct {
	path *tftypes.AttributePath
	pool string                     // its values' pool, as jobPools and filterPools name them
	attr *tfprotov6.SchemaAttribute // its attribute; for an element, the collection's
	elem bool                       // a list element or a map value
	typ  tftypes.Type
}

func (n node) name() string { return pathName(n.path, true) }

func (n node) isMapValue() bool {
	_, isKey := n.path.Steps()[len(n.path.Steps())-1].(tftypes.ElementKeyString)
	return isKey
}

// kind classes a node for the report: where it is and what it holds.
func (n node) kind() string {
	where := "nested attribute"
	switch {
	case n.isMapValue():
		where = "map value"
	case n.elem:
		where = "list element"
	case len(n.path.Steps()) == 1:
		where = "top-level argument"
	}
	what := "value"
	switch {
	case n.typ.Is(tftypes.Object{}):
		what = "object"
	case n.typ.Is(tftypes.List{}):
		what = "list"
	case n.typ.Is(tftypes.Map{}):
		what = "map"
	case n.typ.Is(tftypes.Bool):
		what = "bool"
	}
	return where + ", " + what
}

// collectNodes lists the nodes of v, an object of attrs at p; only, when
// not nil, names the attributes considered.
func collectNodes(attrs []*tfprotov6.SchemaAttribute, only func(string) bool, v tftypes.Value, p *tftypes.AttributePath, pool string) []node {
	var vals map[string]tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&vals) != nil {
		return nil
	}
	var nodes []node
	for _, a := range attrs {
		if (!a.Optional && !a.Required) || (only != nil && !only(a.Name)) {
			continue
		}
		ap, apool, val := p.WithAttributeName(a.Name), join(pool, a.Name), vals[a.Name]
		nodes = append(nodes, node{path: ap, pool: apool, attr: a, typ: val.Type()})
		if !val.IsKnown() || val.IsNull() {
			continue
		}
		switch {
		case a.NestedType != nil && a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle:
			nodes = append(nodes, collectNodes(a.NestedType.Attributes, nil, val, ap, apool)...)
		case val.Type().Is(tftypes.List{}):
			var elems []tftypes.Value
			_ = val.As(&elems)
			for i, e := range elems {
				ep := ap.WithElementKeyInt(i)
				nodes = append(nodes, node{path: ep, pool: apool, attr: a, elem: true, typ: e.Type()})
				if a.NestedType != nil {
					nodes = append(nodes, collectNodes(a.NestedType.Attributes, nil, e, ep, apool)...)
				}
			}
		case val.Type().Is(tftypes.Map{}):
			var elems map[string]tftypes.Value
			_ = val.As(&elems)
			for _, k := range slices.Sorted(maps.Keys(elems)) {
				nodes = append(nodes, node{path: ap.WithElementKeyString(k), pool: apool, attr: a, elem: true, typ: elems[k].Type()})
			}
		}
	}
	return nodes
}

// replaceAt is v with the value at p replaced by nv.
func replaceAt(t *testing.T, v tftypes.Value, p *tftypes.AttributePath, nv tftypes.Value) tftypes.Value {
	t.Helper()
	out, err := tftypes.Transform(v, func(at *tftypes.AttributePath, x tftypes.Value) (tftypes.Value, error) {
		if at.Equal(p) {
			return nv, nil
		}
		return x, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func unknownOf(typ tftypes.Type) tftypes.Value { return tftypes.NewValue(typ, tftypes.UnknownValue) }

// knownValues are values a node may turn out to hold once known: null,
// and values drawn from its pool as the generator draws them.
func knownValues(g *generator, n node) []tftypes.Value {
	values := []tftypes.Value{tftypes.NewValue(n.typ, nil)}
	for range 2 {
		switch {
		case n.typ.Is(tftypes.Bool):
			return append(values, tftypes.NewValue(tftypes.Bool, true), tftypes.NewValue(tftypes.Bool, false))
		case n.elem && n.attr.NestedType != nil:
			values = append(values, g.object(n.pool, n.attr.NestedType.Attributes, nil))
		case n.elem:
			values = append(values, g.value(n.pool, nil, n.typ))
		default:
			values = append(values, g.value(n.pool, n.attr, n.typ))
		}
	}
	return values
}

// unknownSubject is what the property tests check: a resource, an action, a
// data source or a list resource, as Terraform calls it.
type unknownSubject struct {
	name  string
	typ   tftypes.Object
	attrs []*tfprotov6.SchemaAttribute
	top   func(string) bool // the top-level arguments considered
	// check is what Terraform asks with values possibly unknown:
	// validate, and plan for a resource or an action.
	check func(config tftypes.Value) outcome
	// final is what checks the final values before any request: Terraform
	// validates and plans a resource (ValidateResourceConfig, then
	// PlanResourceChange) and validates a data source again at apply; the
	// action checks them itself in Invoke.
	final func(config tftypes.Value) outcome
	ty    *unknownTally
}

// unknownTally counts what the property tests checked and collects their
// mismatches by class, which fail the test.
type unknownTally struct {
	accepted, refused, singleRoot int
	mutants                       map[string]int // by kind of node made unknown
	gone, stays, comeBack         int
	mismatches                    map[string][]string
}

func newUnknownTally() *unknownTally {
	return &unknownTally{mutants: map[string]int{}, mismatches: map[string][]string{}}
}

func (ty *unknownTally) mismatch(class, example string) {
	if len(ty.mismatches[class]) < 3 {
		ty.mismatches[class] = append(ty.mismatches[class], example)
	} else {
		ty.mismatches[class] = append(ty.mismatches[class], "")
	}
}

func (ty *unknownTally) report(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: %d configurations accepted, %d refused (%d for one argument); property A: mutants by node made unknown %v; "+
		"property B: refusal gone with the value unknown %d times, kept for want of a valid value %d times, back with the final values %d times",
		what, ty.accepted, ty.refused, ty.singleRoot, ty.mutants, ty.gone, ty.stays, ty.comeBack)
	for _, c := range slices.Sorted(maps.Keys(ty.mismatches)) {
		examples := slices.DeleteFunc(slices.Clone(ty.mismatches[c]), func(s string) bool { return s == "" })
		t.Errorf("%s: %s (%d times), for example:\n%s", what, c, len(ty.mismatches[c]), strings.Join(examples, "\n"))
	}
	if ty.accepted == 0 || ty.singleRoot == 0 {
		t.Errorf("%s: the generator should give both accepted configurations and ones refused for one argument", what)
	}
}

// run checks config, drawn by g, against both properties.
func (s *unknownSubject) run(t *testing.T, g *generator, label string, config tftypes.Value) {
	t.Helper()
	o := s.check(config)
	switch {
	case len(o.errs) == 0:
		s.ty.accepted++
		s.propertyA(t, g, label, config, o)
	default:
		s.ty.refused++
		if !o.partial && len(o.roots()) == 1 {
			s.ty.singleRoot++
			s.propertyB(t, g, label, config, o)
		}
	}
}

// propertyA makes random nodes of config, which the provider accepts with
// outcome o, unknown.
func (s *unknownSubject) propertyA(t *testing.T, g *generator, label string, config tftypes.Value, o outcome) {
	t.Helper()
	nodes := collectNodes(s.attrs, s.top, config, tftypes.NewAttributePath(), "")
	for range unknownMutants {
		mutant := config
		var kinds []string
		for range 1 + g.rng.IntN(3) {
			n := nodes[g.rng.IntN(len(nodes))]
			mutant = replaceAt(t, mutant, n.path, unknownOf(n.typ))
			kinds = append(kinds, n.kind())
		}
		for _, k := range kinds {
			s.ty.mutants[k]++
		}
		m := s.check(mutant)
		example := fmt.Sprintf("%s\n  made unknown: %s", label, configText(mutant))
		for _, d := range m.errs {
			s.ty.mismatch(fmt.Sprintf("A: error on a configuration whose final values are valid: %q at %s", d.Summary, pathName(d.Attribute, false)),
				fmt.Sprintf("%s\n  error: %s", example, d.Detail))
		}
		for k, d := range m.warns {
			if _, final := o.warns[k]; !final {
				s.ty.mismatch(fmt.Sprintf("A: warning the final values do not get: %q at %s", d.Summary, pathName(d.Attribute, false)),
					fmt.Sprintf("%s\n  warning: %s", example, d.Detail))
			}
		}
		if !m.hasPlan || len(m.errs) > 0 {
			continue
		}
		for _, p := range planFollowsConfig(mutant, m.planned, tftypes.NewAttributePath()) {
			s.ty.mismatch("A: plan not following the configuration at "+p, example)
		}
		for _, p := range knownAgrees(o.planned, m.planned, tftypes.NewAttributePath()) {
			s.ty.mismatch("A: plan knows a value the final plan contradicts at "+p, example)
		}
	}
}

// propertyB checks config, which the provider refuses for one argument
// with outcome o: each refusal goes away when the value it is about (or
// one above it) is unknown, and when an argument it names is, unless no
// value of that argument makes config valid; it comes back where the final
// values are checked.
func (s *unknownSubject) propertyB(t *testing.T, g *generator, label string, config tftypes.Value, o outcome) {
	t.Helper()
	nodes := collectNodes(s.attrs, s.top, config, tftypes.NewAttributePath(), "")
	var final *outcome
	for _, key := range slices.Sorted(maps.Keys(o.errs)) {
		e := o.errs[key]
		text := e.Summary + " " + e.Detail
		for _, n := range nodes {
			// A map value's refusal may be about its key, which stays
			// known: the value's own check is the one below.
			own := isPrefix(n.path, e.Attribute) && !n.isMapValue()
			if !own && !mentions(text, n.name()) {
				continue
			}
			mutant := replaceAt(t, config, n.path, unknownOf(n.typ))
			m := s.check(mutant)
			example := fmt.Sprintf("%s\n  refused: %s: %s\n  made unknown: %s", label, e.Summary, e.Detail, configText(mutant))
			for k, d := range m.errs {
				if _, before := o.errs[k]; !before {
					s.ty.mismatch(fmt.Sprintf("B: a new error once %s is unknown: %q at %s", pathName(n.path, false), d.Summary, pathName(d.Attribute, false)),
						fmt.Sprintf("%s\n  new error: %s", example, d.Detail))
				}
			}
			if _, stays := m.errs[key]; !stays {
				s.ty.gone++
				if final == nil {
					f := s.final(config)
					final = &f
				}
				if slices.Contains(final.roots(), rootName(e.Attribute)) {
					s.ty.comeBack++
				} else {
					s.ty.mismatch(fmt.Sprintf("B: refused at plan, not once the values are known: %q at %s", e.Summary, pathName(e.Attribute, false)),
						fmt.Sprintf("%s\n  with the final values: %v", label, slices.Collect(maps.Keys(final.errs))))
				}
				continue
			}
			if own {
				s.ty.mismatch(fmt.Sprintf("B: refusal kept with its own value unknown: %q at %s", e.Summary, pathName(e.Attribute, false)), example)
				continue
			}
			// The refusal holds whatever the argument it names is, unless
			// one of its values makes the configuration valid.
			valid := ""
			for _, v := range knownValues(g, n) {
				if len(s.check(replaceAt(t, config, n.path, v)).errs) == 0 {
					valid = configText(v)
					break
				}
			}
			if valid == "" {
				s.ty.stays++
				continue
			}
			s.ty.mismatch(fmt.Sprintf("B: refusal kept with %s unknown, though a value of it makes the configuration valid: %q at %s", pathName(n.path, false), e.Summary, pathName(e.Attribute, false)),
				fmt.Sprintf("%s\n  valid with %s = %s", example, n.name(), valid))
		}
	}
}

// isPrefix reports whether p is q or above it.
func isPrefix(p, q *tftypes.AttributePath) bool {
	if q == nil || len(p.Steps()) > len(q.Steps()) {
		return false
	}
	for i, s := range p.Steps() {
		if !s.Equal(q.Steps()[i]) {
			return false
		}
	}
	return true
}

// mentions reports whether text names the argument name, as a whole name
// (callback is not named by callback_config).
func mentions(text, name string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.\[])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_\[])`)
	return re.MatchString(text)
}

// planFollowsConfig lists the paths where a plan does not hold what the
// configuration says: unknown where it is unknown, equal where it is known
// (what is null in the configuration may be computed).
func planFollowsConfig(config, planned tftypes.Value, p *tftypes.AttributePath) []string {
	switch {
	case config.IsNull():
		return nil
	case !config.IsKnown():
		if planned.IsKnown() {
			return []string{pathName(p, false) + " (unknown in the configuration, known in the plan)"}
		}
		return nil
	case !planned.IsKnown() || planned.IsNull():
		return []string{pathName(p, false) + " (known in the configuration, not in the plan)"}
	}
	return walkBoth(config, planned, p, planFollowsConfig)
}

// knownAgrees lists the paths where earlier, a plan made with values
// unknown, knows a value that final, the plan of the final values, does
// not hold.
func knownAgrees(final, earlier tftypes.Value, p *tftypes.AttributePath) []string {
	switch {
	case !earlier.IsKnown():
		return nil
	case earlier.IsNull() != final.IsNull() || !final.IsKnown():
		return []string{fmt.Sprintf("%s (planned %s, finally %s)", pathName(p, false), configText(earlier), configText(final))}
	case earlier.IsNull():
		return nil
	}
	return walkBoth(final, earlier, p, knownAgrees)
}

// walkBoth compares two known, non-null values of the same type with
// compare, element by element.
func walkBoth(a, b tftypes.Value, p *tftypes.AttributePath, compare func(a, b tftypes.Value, p *tftypes.AttributePath) []string) []string {
	switch {
	case a.Type().Is(tftypes.Object{}), a.Type().Is(tftypes.Map{}):
		var as, bs map[string]tftypes.Value
		_, _ = a.As(&as), b.As(&bs)
		if a.Type().Is(tftypes.Map{}) && len(as) != len(bs) {
			return []string{pathName(p, false) + " (keys differ)"}
		}
		var out []string
		for _, k := range slices.Sorted(maps.Keys(as)) {
			bv, ok := bs[k]
			if !ok {
				return append(out, pathName(p, false)+" (keys differ)")
			}
			next := p.WithAttributeName(k)
			if a.Type().Is(tftypes.Map{}) {
				next = p.WithElementKeyString(k)
			}
			out = append(out, compare(as[k], bv, next)...)
		}
		return out
	case a.Type().Is(tftypes.List{}), a.Type().Is(tftypes.Set{}):
		var as, bs []tftypes.Value
		_, _ = a.As(&as), b.As(&bs)
		if len(as) != len(bs) {
			return []string{pathName(p, false) + " (lengths differ)"}
		}
		var out []string
		for i := range as {
			out = append(out, compare(as[i], bs[i], p.WithElementKeyInt(i))...)
		}
		return out
	case a.Type().Is(tftypes.Number):
		var x, y big.Float
		_, _ = a.As(&x), b.As(&y)
		if x.Cmp(&y) != 0 {
			return []string{pathName(p, false) + " (numbers differ)"}
		}
		return nil
	}
	if !a.Equal(b) {
		return []string{fmt.Sprintf("%s (%s, not %s)", pathName(p, false), configText(b), configText(a))}
	}
	return nil
}

// startConfiguredProvider is startServer with the provider arguments
// given (base_url and api_key aside).
func startConfiguredProvider(t *testing.T, url string, args map[string]tftypes.Value) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()
	set := map[string]tftypes.Value{"base_url": tftypes.NewValue(tftypes.String, url), "api_key": tftypes.NewValue(tftypes.String, acctest.APIKey)}
	maps.Copy(set, args)
	server, schemas := serveProvider(t, providerserver.NewProtocol6WithError(New("test")()))
	if errs := configure(t, server, schemas, "1.14.0", set); len(errs) > 0 {
		t.Fatalf("ConfigureProvider: %s", strings.Join(errs, "; "))
	}
	return server, schemas
}

// jobSubjects are the resource and the action of the provider behind h.
func jobSubjects(t *testing.T, h *protoHarness) (job, act *unknownSubject) {
	ctx := context.Background()
	jobType := h.resourceType(jobResourceTypeName)
	null := dynamicValue(t, jobType, tftypes.NewValue(jobType, nil))
	request := map[string]bool{"wait_for_completion": true}
	for _, name := range requestFieldNames() {
		request[name] = true
	}
	checkJob := func(config tftypes.Value) outcome {
		dv := dynamicValue(t, jobType, config)
		validated, err := h.server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: jobResourceTypeName, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		// Planned even when refused, as in the differential test: the
		// plan's own refusals are not hidden behind the validators'.
		planned, err := h.server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: &null, ProposedNewState: &dv, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		o := newOutcome(validated.Diagnostics, planned.Diagnostics)
		if planned.PlannedState != nil {
			if o.planned, err = planned.PlannedState.Unmarshal(jobType); err != nil {
				t.Fatal(err)
			}
			o.hasPlan = true
		}
		return o
	}
	job = &unknownSubject{
		name: "transcription_job", attrs: h.schemas.ResourceSchemas[jobResourceTypeName].Block.Attributes,
		top: func(name string) bool { return request[name] }, check: checkJob, final: checkJob, ty: newUnknownTally(),
	}

	server, actionSchema, actionType := transcribeActionOf(t, h)
	request["timeout"] = true
	act = &unknownSubject{
		name: transcribeActionTypeName, typ: actionType, attrs: actionSchema.Schema.Block.Attributes,
		top: func(name string) bool { return request[name] }, ty: newUnknownTally(),
		check: func(config tftypes.Value) outcome {
			dv := dynamicValue(t, actionType, config)
			validated, err := server.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: transcribeActionTypeName, Config: &dv})
			if err != nil {
				t.Fatal(err)
			}
			planned, err := server.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: transcribeActionTypeName, Config: &dv})
			if err != nil {
				t.Fatal(err)
			}
			return newOutcome(validated.Diagnostics, planned.Diagnostics)
		},
		// Invoked with the final values, which the action checks itself:
		// it must refuse them before any request.
		final: func(config tftypes.Value) outcome {
			dv := dynamicValue(t, actionType, config)
			before := len(h.fake.Requests())
			stream, err := server.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: transcribeActionTypeName, Config: &dv})
			if err != nil {
				t.Fatal(err)
			}
			var diags []*tfprotov6.Diagnostic
			for ev := range stream.Events {
				if done, ok := ev.Type.(tfprotov6.CompletedInvokeActionEventType); ok {
					diags = append(diags, done.Diagnostics...)
				}
			}
			if sent := len(h.fake.Requests()) - before; sent > 0 {
				t.Errorf("the action, invoked with a configuration its plan refused, sent %d requests: %s", sent, configText(config))
			}
			return newOutcome(diags)
		},
	}
	return job, act
}

// actionConfig is the action's configuration of a job's arguments, with
// its own arguments drawn by g.
func actionConfig(t *testing.T, act *unknownSubject, g *generator, jobConfig tftypes.Value) tftypes.Value {
	var request map[string]tftypes.Value
	if err := jobConfig.As(&request); err != nil {
		t.Fatal(err)
	}
	values := map[string]tftypes.Value{}
	for _, name := range requestFieldNames() {
		values[name] = request[name]
	}
	if g.chance(0.3) {
		values["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, g.chance(0.5))
	}
	if g.chance(0.3) {
		values["timeout"] = tftypes.NewValue(tftypes.String, g.pick("timeout"))
	}
	return objectValue(act.typ, values)
}

// actionPools are the job's, and the action's own timeout.
func actionPools() map[string]pool {
	pools := map[string]pool{"timeout": {ordinary: []string{"30m", "2h", "90s"}, edge: []string{"0s", "-5m", "soon", ""}}}
	for k, v := range jobPools {
		pools[k] = v
	}
	return pools
}

func testJobUnknownValues(t *testing.T, h *protoHarness, configs int) {
	seed := differentialSeed(t)
	job, act := jobSubjects(t, h)
	jobSchemaProto := h.schemas.ResourceSchemas[jobResourceTypeName]
	pools := actionPools()
	for i := range configs {
		g := &generator{t: t, rng: rand.New(rand.NewPCG(seed, uint64(i))), pools: pools, noise: noiseLevels[i%len(noiseLevels)]}
		config := g.jobConfig(jobSchemaProto)
		label := fmt.Sprintf("configuration %d of seed %d: %s", i, seed, configText(config))
		job.run(t, g, label, config)
		ac := actionConfig(t, act, g, config)
		act.run(t, g, fmt.Sprintf("action configuration %d of seed %d: %s", i, seed, configText(ac)), ac)
	}
	job.ty.report(t, job.name)
	act.ty.report(t, act.name)
}

// TestUnknownValuesJob checks both properties on transcription_job and
// the transcription_transcribe action.
func TestUnknownValuesJob(t *testing.T) {
	testJobUnknownValues(t, newProtoHarness(t, fakeserver.Options{}), unknownJobConfigs)
}

// TestUnknownValuesJobUnderZeroDataRetention is the same with the
// provider's zero_data_retention, whose rules (a callback, no wait, an
// external audio_url) are checked on values possibly unknown too.
func TestUnknownValuesJobUnderZeroDataRetention(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	testJobUnknownValues(t, &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}, unknownJobConfigs/2)
}

// TestUnknownValuesFilters checks both properties on the filters of the
// transcription_live_jobs data source and of the transcription_job list
// resource.
func TestUnknownValuesFilters(t *testing.T) {
	ctx := context.Background()
	h := newProtoHarness(t, fakeserver.Options{})
	listServer, listType := jobListOf(t, h)
	seed := differentialSeed(t)
	liveSchema := h.schemas.DataSourceSchemas[liveJobsTypeName]
	liveType := h.dataSourceType(liveJobsTypeName)
	listSchema := h.schemas.ListResourceSchemas[jobResourceTypeName]
	validateLive := func(config tftypes.Value) outcome {
		dv := dynamicValue(t, liveType, config)
		resp, err := h.server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: liveJobsTypeName, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		return newOutcome(resp.Diagnostics)
	}
	validateList := func(config tftypes.Value) outcome {
		dv := dynamicValue(t, listType, config)
		resp, err := listServer.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: jobResourceTypeName, Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		return newOutcome(resp.Diagnostics)
	}
	// Terraform validates a data source again with the final values
	// before reading it; a list resource is listed with known values.
	live := &unknownSubject{name: liveJobsTypeName, attrs: liveSchema.Block.Attributes, check: validateLive, final: validateLive, ty: newUnknownTally()}
	listed := &unknownSubject{name: "transcription_job list resource", attrs: listSchema.Block.Attributes, check: validateList, final: validateList, ty: newUnknownTally()}
	for i := range unknownFilterConfigs {
		g := &generator{t: t, rng: rand.New(rand.NewPCG(seed, uint64(i))), pools: filterPools, noise: noiseLevels[i%len(noiseLevels)]}
		config := g.object("", liveSchema.Block.Attributes, nil)
		live.run(t, g, fmt.Sprintf("filters %d of seed %d: %s", i, seed, configText(config)), config)
		listConfig := listFiltersOf(t, config, listType)
		listed.run(t, g, fmt.Sprintf("list filters %d of seed %d: %s", i, seed, configText(listConfig)), listConfig)
	}
	live.ty.report(t, live.name)
	listed.ty.report(t, listed.name)
}

// providerPools are the values of the provider's arguments.
var providerPools = map[string]pool{
	"api_key":     {ordinary: []string{acctest.APIKey, "another-key"}, edge: []string{" " + acctest.APIKey, acctest.APIKey + "\n", "a\x00b"}},
	"max_retries": {ordinary: []string{"0", "3", "50"}, edge: []string{"-1", "51", "9223372036854775807"}},
}

// TestUnknownValuesProviderConfig checks both properties on the provider's
// configuration: api_key, base_url and max_retries may come from a resource
// created in the same apply (the provider then plans without its client, and
// a new job plans as usual); zero_data_retention, which the documentation
// says must be known at plan time, is refused unknown, naming it.
func TestUnknownValuesProviderConfig(t *testing.T) {
	ctx := context.Background()
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	pools := maps.Clone(providerPools)
	pools["base_url"] = pool{ordinary: []string{url, url + "/v2"}, edge: []string{"", "ftp://example.com", "example.com", "https://"}}

	newServer := func() (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
		return serveProvider(t, providerserver.NewProtocol6WithError(New("test")()))
	}
	_, schemas := newServer()
	providerType, ok := schemas.Provider.ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the provider schema is not an object")
	}
	jobType, ok := schemas.ResourceSchemas[jobResourceTypeName].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the job's schema is not an object")
	}
	// A new job the provider plans, whatever it is configured with.
	jobConfig := objectValue(jobType, map[string]tftypes.Value{
		"audio_url":       tftypes.NewValue(tftypes.String, "https://example.com/a.wav"),
		"callback":        tftypes.NewValue(tftypes.Bool, true),
		"callback_config": objectValue(jobType.AttributeTypes["callback_config"].(tftypes.Object), map[string]tftypes.Value{"url": tftypes.NewValue(tftypes.String, "https://hooks.example.com/x")}),
	})
	jobDV := dynamicValue(t, jobType, jobConfig)
	nullJob := dynamicValue(t, jobType, tftypes.NewValue(jobType, nil))

	// Terraform validates the provider's configuration, configures it, and
	// then plans its resources; it configures it again with the final
	// values before the apply.
	check := func(config tftypes.Value) outcome {
		server, _ := newServer()
		dv := dynamicValue(t, providerType, config)
		validated, err := server.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		configured, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.14.0", Config: &dv})
		if err != nil {
			t.Fatal(err)
		}
		diags := [][]*tfprotov6.Diagnostic{validated.Diagnostics, configured.Diagnostics}
		if !hasError(validated.Diagnostics) && !hasError(configured.Diagnostics) {
			planned, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: jobResourceTypeName, PriorState: &nullJob, ProposedNewState: &jobDV, Config: &jobDV})
			if err != nil {
				t.Fatal(err)
			}
			diags = append(diags, planned.Diagnostics)
		}
		return newOutcome(diags...)
	}
	subject := &unknownSubject{
		name: "provider", attrs: schemas.Provider.Block.Attributes, typ: providerType,
		top:   func(name string) bool { return name != "zero_data_retention" },
		check: check, final: check, ty: newUnknownTally(),
	}
	seed := differentialSeed(t)
	for i := range unknownFilterConfigs / 4 {
		g := &generator{t: t, rng: rand.New(rand.NewPCG(seed, uint64(i))), pools: pools, noise: noiseLevels[i%len(noiseLevels)]}
		config := g.object("", schemas.Provider.Block.Attributes, func(name string) bool { return name != "zero_data_retention" })
		subject.run(t, g, fmt.Sprintf("provider configuration %d of seed %d: %s", i, seed, configText(config)), config)
	}
	subject.ty.report(t, subject.name)

	// zero_data_retention unknown: the documented refusal, naming it.
	o := check(objectValue(providerType, map[string]tftypes.Value{
		"base_url":            tftypes.NewValue(tftypes.String, url),
		"api_key":             tftypes.NewValue(tftypes.String, acctest.APIKey),
		"zero_data_retention": unknownOf(tftypes.Bool),
	}))
	if _, refused := o.errs["Unknown provider argument zero_data_retention @ zero_data_retention"]; !refused || len(o.errs) != 1 {
		t.Errorf("zero_data_retention unknown: want the documented refusal, got %v", slices.Collect(maps.Keys(o.errs)))
	}
}

// TestUnknownValuesVocabularyEntry: a vocabulary entry known only after
// apply as a whole (vocabulary = [var.entry] under terraform validate, or an
// entry from another resource's output) was refused, by the resource and
// the action, as if its required value were left out; an entry whose value
// is left out is still refused, and the action invoked with it sends
// nothing.
func TestUnknownValuesVocabularyEntry(t *testing.T) {
	h := newProtoHarness(t, fakeserver.Options{})
	job, act := jobSubjects(t, h)
	jobType := h.resourceType(jobResourceTypeName)
	cvType := jobType.AttributeTypes["custom_vocabulary_config"].(tftypes.Object)
	vocabularyType := cvType.AttributeTypes["vocabulary"].(tftypes.List)
	entryType := vocabularyType.ElementType.(tftypes.Object)
	config := func(entry tftypes.Value) tftypes.Value {
		return objectValue(jobType, map[string]tftypes.Value{
			"audio_url":         tftypes.NewValue(tftypes.String, "https://example.com/a.wav"),
			"custom_vocabulary": tftypes.NewValue(tftypes.Bool, true),
			"custom_vocabulary_config": objectValue(cvType, map[string]tftypes.Value{
				"vocabulary": tftypes.NewValue(vocabularyType, []tftypes.Value{
					objectValue(entryType, map[string]tftypes.Value{"value": tftypes.NewValue(tftypes.String, "Kubernetes")}),
					entry,
				}),
			}),
		})
	}
	g := &generator{t: t, rng: rand.New(rand.NewPCG(1, 2)), pools: actionPools()}
	missing := "Missing Configuration for Required Attribute @ custom_vocabulary_config.vocabulary[1].value"
	for _, s := range []*unknownSubject{job, act} {
		unknown, left := config(unknownOf(entryType)), config(objectValue(entryType, nil))
		if s == act {
			unknown, left = actionConfig(t, act, g, unknown), actionConfig(t, act, g, left)
		}
		if o := s.check(unknown); len(o.errs) > 0 {
			t.Errorf("%s: an entry known only after apply is refused: %v", s.name, slices.Collect(maps.Keys(o.errs)))
		}
		if o := s.check(left); len(o.errs) != 1 || o.errs[missing] == nil {
			t.Errorf("%s: an entry without value: want only %q, got %v", s.name, missing, slices.Collect(maps.Keys(o.errs)))
		}
		if o := s.final(left); o.errs[missing] == nil {
			t.Errorf("%s: an entry without value, with the final values: want %q, got %v", s.name, missing, slices.Collect(maps.Keys(o.errs)))
		}
	}
}
