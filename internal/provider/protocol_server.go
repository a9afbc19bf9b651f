package provider

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NewProtocol6Server returns a factory of the provider's protocol-6 server,
// for the plugin's main and for terraform-plugin-testing: the framework's
// server, behind a leanServer.
func NewProtocol6Server(version string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		inner, err := providerserver.NewProtocol6WithError(New(version)())()
		if err != nil {
			return nil, err
		}
		return newLeanServer(inner, passThroughAttributes), nil
	}
}

// passThroughAttributes are, per resource or data source type, the
// computed attributes the provider's code only ever copies whole (it never
// reads into them) or builds through handOver. They are most of the values:
// a job's result holds hundreds of thousands for an hour of audio, a live
// job 519.
var passThroughAttributes = map[string][]string{
	jobResourceTypeName: {"result"},
	liveJobsTypeName:    {"items"},
}

const (
	jobResourceTypeName = "transcription_job"
	liveJobsTypeName    = "transcription_live_jobs"
)

// leanServer spares terraform-plugin-framework (v1.19.0) work that is
// wasted on this provider, which profiles showed to be most of the
// provider's CPU time. For every value crossing the protocol, the framework
// walks the schema from its root once per node (NullifyCollectionBlocks and
// ReifyNullCollectionBlocks, which change nothing in schemas without
// blocks), and a plan rewrites the whole planned value once per top-level
// attribute. So:
//
//   - UpgradeResourceState of state at the current schema version is done
//     here as the framework does it (JSON decoded against the schema, with
//     attributes the schema no longer has dropped), without those walks;
//   - in ReadResource, PlanResourceChange and ApplyResourceChange, each
//     pass-through attribute's prior value is replaced by a small stand-in
//     of the same type, and put back wherever the framework's answer still
//     holds that stand-in. Equal values get the same stand-in, so every
//     comparison the framework makes comes out as it would on the values;
//   - the values the provider's code builds for those attributes (a job's
//     fresh result, live jobs' items) are handed over (handOver) in the
//     same way, here and in ReadDataSource.
//
// Everything else goes to the framework unchanged; the differential tests
// compare both servers' answers.
type leanServer struct {
	tfprotov6.ProviderServer

	passThrough map[string][]string
	standInText string // unique to this process: no service value equals it

	schemasOnce sync.Once
	resources   map[string]schemaFacts // block-less schemas only
	dataSources map[string]schemaFacts
}

// schemaFacts is what the lean paths need of a schema.
type schemaFacts struct {
	typ     tftypes.Object
	version int64
}

var _ tfprotov6.ProviderServer = &leanServer{}

func newLeanServer(inner tfprotov6.ProviderServer, passThrough map[string][]string) *leanServer {
	return &leanServer{ProviderServer: inner, passThrough: passThrough, standInText: "stand-in " + uuid.NewString()}
}

// leanSchemas returns the facts of the resource and data source schemas
// the lean paths serve: those without blocks (the framework's block
// handling is then a no-op). They are read once from the framework; if that
// fails, every call goes to the framework.
func (s *leanServer) leanSchemas(ctx context.Context) (resources, dataSources map[string]schemaFacts) {
	s.schemasOnce.Do(func() {
		resp, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || resp == nil {
			return
		}
		s.resources = blocklessSchemaFacts(resp.ResourceSchemas)
		s.dataSources = blocklessSchemaFacts(resp.DataSourceSchemas)
	})
	return s.resources, s.dataSources
}

func blocklessSchemaFacts(schemas map[string]*tfprotov6.Schema) map[string]schemaFacts {
	facts := make(map[string]schemaFacts, len(schemas))
	for name, schema := range schemas {
		typ, ok := schema.ValueType().(tftypes.Object)
		if !ok || schema.Block == nil || len(schema.Block.BlockTypes) > 0 {
			continue
		}
		facts[name] = schemaFacts{typ: typ, version: schema.Version}
	}
	return facts
}

func (s *leanServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	resources, _ := s.leanSchemas(ctx)
	facts, ok := resources[req.TypeName]
	if !ok || req.Version != facts.version || req.RawState == nil || req.RawState.JSON == nil || req.RawState.Flatmap != nil {
		return s.ProviderServer.UpgradeResourceState(ctx, req)
	}
	state, err := req.RawState.UnmarshalWithOpts(facts.typ, tfprotov6.UnmarshalOpts{
		ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true},
	})
	if err != nil {
		return s.ProviderServer.UpgradeResourceState(ctx, req) // which says what is wrong
	}
	upgraded, err := tfprotov6.NewDynamicValue(facts.typ, state)
	if err != nil {
		return s.ProviderServer.UpgradeResourceState(ctx, req)
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &upgraded}, nil
}

func (s *leanServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resources, _ := s.leanSchemas(ctx)
	return callWithStandIns(ctx, s.standIns(resources, req.TypeName), req, s.ProviderServer.ReadResource,
		func(r *tfprotov6.ReadResourceRequest) []**tfprotov6.DynamicValue {
			return []**tfprotov6.DynamicValue{&r.CurrentState}
		},
		func(r *tfprotov6.ReadResourceResponse) **tfprotov6.DynamicValue { return &r.NewState })
}

func (s *leanServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resources, _ := s.leanSchemas(ctx)
	return callWithStandIns(ctx, s.standIns(resources, req.TypeName), req, s.ProviderServer.PlanResourceChange,
		func(r *tfprotov6.PlanResourceChangeRequest) []**tfprotov6.DynamicValue {
			return []**tfprotov6.DynamicValue{&r.PriorState, &r.ProposedNewState}
		},
		func(r *tfprotov6.PlanResourceChangeResponse) **tfprotov6.DynamicValue { return &r.PlannedState })
}

func (s *leanServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resources, _ := s.leanSchemas(ctx)
	return callWithStandIns(ctx, s.standIns(resources, req.TypeName), req, s.ProviderServer.ApplyResourceChange,
		func(r *tfprotov6.ApplyResourceChangeRequest) []**tfprotov6.DynamicValue {
			return []**tfprotov6.DynamicValue{&r.PriorState, &r.PlannedState}
		},
		func(r *tfprotov6.ApplyResourceChangeResponse) **tfprotov6.DynamicValue { return &r.NewState })
}

func (s *leanServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	_, dataSources := s.leanSchemas(ctx)
	return callWithStandIns(ctx, s.standIns(dataSources, req.TypeName), req, s.ProviderServer.ReadDataSource,
		func(*tfprotov6.ReadDataSourceRequest) []**tfprotov6.DynamicValue { return nil }, // its config has no computed values
		func(r *tfprotov6.ReadDataSourceResponse) **tfprotov6.DynamicValue { return &r.State })
}

// callWithStandIns makes one call to the framework with the request's
// values (inputs) hidden behind stand-ins, a context for handOver, and the
// originals put back in the answer's value (output); without stand-ins (a
// type with no pass-through attributes) it is the plain call. The caller's
// request is not changed: a copy is.
func callWithStandIns[Req, Resp any](ctx context.Context, stand *standIns, req *Req,
	call func(context.Context, *Req) (*Resp, error),
	inputs func(*Req) []**tfprotov6.DynamicValue, output func(*Resp) **tfprotov6.DynamicValue,
) (*Resp, error) {
	if stand == nil {
		return call(ctx, req)
	}
	lean := *req
	for _, value := range inputs(&lean) {
		*value = stand.hide(*value)
	}
	resp, err := call(stand.in(ctx), &lean)
	if err == nil && resp != nil {
		value := output(resp)
		*value, err = stand.restore(*value)
	}
	return resp, err
}

// standIns returns the stand-ins of one call, for a type among schemas
// that has pass-through attributes; nil for any other type.
func (s *leanServer) standIns(schemas map[string]schemaFacts, typeName string) *standIns {
	attrs := s.passThrough[typeName]
	facts, ok := schemas[typeName]
	if len(attrs) == 0 || !ok {
		return nil
	}
	return &standIns{typ: facts.typ, attrs: attrs, text: s.standInText}
}

// standIns swaps pass-through attribute values for stand-ins in the
// values of one call, and back.
type standIns struct {
	typ   tftypes.Object
	attrs []string
	text  string

	originals []tftypes.Value // originals[i] is what standIns[i] stands for
	standIns  []tftypes.Value
}

type standInsKey struct{}

// in returns ctx carrying s, for handOver.
func (s *standIns) in(ctx context.Context) context.Context {
	return context.WithValue(ctx, standInsKey{}, s)
}

// handOver returns, when the lean server serves the call, a stand-in for a
// value of a pass-through attribute, which the server puts back in the
// answer: the framework then never walks the value. Otherwise (or if the
// value cannot have a stand-in) it returns the value itself.
func handOver[T attr.Value](ctx context.Context, value T) T {
	s, ok := ctx.Value(standInsKey{}).(*standIns)
	if !ok || value.IsNull() || value.IsUnknown() {
		return value
	}
	tfValue, err := value.ToTerraformValue(ctx)
	if err != nil {
		return value
	}
	standIn, ok := s.standInFor(tfValue)
	if !ok {
		return value
	}
	converted, err := value.Type(ctx).ValueFromTerraform(ctx, standIn)
	if err != nil {
		return value
	}
	if typed, ok := converted.(T); ok {
		return typed
	}
	return value
}

// hide returns value with each known, non-null pass-through attribute
// replaced by its stand-in. A value it cannot decode or rebuild goes to the
// framework as it is, which then reports the problem.
func (s *standIns) hide(value *tfprotov6.DynamicValue) *tfprotov6.DynamicValue {
	attrs, ok := s.decode(value)
	if !ok {
		return value
	}
	hidden := false
	for _, name := range s.attrs {
		original, present := attrs[name]
		if !present || !original.IsFullyKnown() || original.IsNull() {
			continue
		}
		standIn, ok := s.standInFor(original)
		if !ok {
			return value
		}
		attrs[name] = standIn
		hidden = true
	}
	if !hidden {
		return value
	}
	lean, err := tfprotov6.NewDynamicValue(s.typ, tftypes.NewValue(s.typ, attrs))
	if err != nil {
		return value
	}
	return &lean
}

// restore puts the originals back where value holds their stand-ins.
func (s *standIns) restore(value *tfprotov6.DynamicValue) (*tfprotov6.DynamicValue, error) {
	if len(s.standIns) == 0 {
		return value, nil
	}
	attrs, ok := s.decode(value)
	if !ok {
		return value, nil
	}
	restored := false
	for _, name := range s.attrs {
		v, present := attrs[name]
		if !present {
			continue
		}
		if i := slices.IndexFunc(s.standIns, v.Equal); i >= 0 {
			attrs[name] = s.originals[i]
			restored = true
		}
	}
	if !restored {
		return value, nil
	}
	full, err := tfprotov6.NewDynamicValue(s.typ, tftypes.NewValue(s.typ, attrs))
	if err != nil {
		return nil, fmt.Errorf("restoring pass-through attributes: %w", err)
	}
	return &full, nil
}

// decode returns the attributes of a known, non-null object value.
func (s *standIns) decode(value *tfprotov6.DynamicValue) (map[string]tftypes.Value, bool) {
	if value == nil {
		return nil, false
	}
	v, err := value.Unmarshal(s.typ)
	if err != nil || !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return nil, false
	}
	return attrs, true
}

// standInFor returns the stand-in of original: the one already made for an
// equal value, or a new one.
func (s *standIns) standInFor(original tftypes.Value) (tftypes.Value, bool) {
	if i := slices.IndexFunc(s.originals, original.Equal); i >= 0 {
		return s.standIns[i], true
	}
	standIn, ok := markedValue(original.Type(), fmt.Sprintf("%s #%d", s.text, len(s.standIns)))
	if !ok {
		return tftypes.Value{}, false
	}
	s.originals = append(s.originals, original)
	s.standIns = append(s.standIns, standIn)
	return standIn, true
}

// markedValue returns a small value of typ that holds text in its first
// string (null everywhere else), or false if typ has no string to hold it.
func markedValue(typ tftypes.Type, text string) (tftypes.Value, bool) {
	switch t := typ.(type) {
	case tftypes.Object:
		names := make([]string, 0, len(t.AttributeTypes))
		for name := range t.AttributeTypes {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			marked, ok := markedValue(t.AttributeTypes[name], text)
			if !ok {
				continue
			}
			attrs := make(map[string]tftypes.Value, len(t.AttributeTypes))
			for n, at := range t.AttributeTypes {
				attrs[n] = tftypes.NewValue(at, nil)
			}
			attrs[name] = marked
			return tftypes.NewValue(t, attrs), true
		}
	case tftypes.List:
		if marked, ok := markedValue(t.ElementType, text); ok {
			return tftypes.NewValue(t, []tftypes.Value{marked}), true
		}
	case tftypes.Map:
		if marked, ok := markedValue(t.ElementType, text); ok {
			return tftypes.NewValue(t, map[string]tftypes.Value{text: marked}), true
		}
	default:
		if typ.Is(tftypes.String) {
			return tftypes.NewValue(tftypes.String, text), true
		}
	}
	return tftypes.Value{}, false
}
