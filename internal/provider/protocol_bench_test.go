package provider

// The harness of the in-process benchmarks: the provider served by the
// framework's protocol-6 server, called as Terraform calls it (msgpack
// DynamicValues), against a fake server on loopback (httptest). Run them
// with `make bench` or:
//
//	go test -run '^$' -bench . -benchmem ./internal/provider/

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// protoHarness is a configured provider behind its protocol-6 server.
type protoHarness struct {
	tb      testing.TB
	server  tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
	fake    *fakeserver.Server
	url     string
}

// benchFakeServer serves a fake server on loopback for one benchmark.
func benchFakeServer(tb testing.TB, opts fakeserver.Options) (*fakeserver.Server, string) {
	tb.Helper()
	opts.APIKey = acctest.APIKey
	fs := fakeserver.New(opts)
	srv := httptest.NewServer(fs)
	tb.Cleanup(func() { srv.Close(); fs.Close() })
	return fs, srv.URL
}

// Type names of the resource and data source the benchmarks call.
const (
	jobResourceTypeName = "transcription_job"
	liveJobsTypeName    = "transcription_live_jobs"
)

// startProvider creates the provider's protocol server, reads its schemas
// and configures it for baseURL: what a CLI does when it starts a plugin.
func startProvider(tb testing.TB, baseURL string) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	return startServer(tb, providerserver.NewProtocol6WithError(New("bench")()), baseURL)
}

// startServer is startProvider with the server the factory makes.
func startServer(tb testing.TB, factory func() (tfprotov6.ProviderServer, error), baseURL string) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	tb.Helper()
	server, schemas := serveProvider(tb, factory)
	if errs := configure(tb, server, schemas, "1.8.5", map[string]tftypes.Value{
		"base_url": tftypes.NewValue(tftypes.String, baseURL),
		"api_key":  tftypes.NewValue(tftypes.String, acctest.APIKey),
	}); len(errs) > 0 {
		tb.Fatalf("ConfigureProvider: %s", strings.Join(errs, "; "))
	}
	return server, schemas
}

// serveProvider creates the protocol server the factory makes and reads its
// schemas, as a CLI does first when it starts a plugin.
func serveProvider(tb testing.TB, factory func() (tfprotov6.ProviderServer, error)) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	tb.Helper()
	server, err := factory()
	if err != nil {
		tb.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	failOnDiagnostics(tb, "GetProviderSchema", schemas.Diagnostics)
	return server, schemas
}

// configure configures the provider as the given Terraform version does,
// with args (every other argument null), and returns its errors as
// "summary: detail".
func configure(tb testing.TB, server tfprotov6.ProviderServer, schemas *tfprotov6.GetProviderSchemaResponse, terraformVersion string, args map[string]tftypes.Value) []string {
	tb.Helper()
	providerType, ok := schemas.Provider.ValueType().(tftypes.Object)
	if !ok {
		tb.Fatal("the provider schema is not an object")
	}
	config := dynamicValue(tb, providerType, objectValue(providerType, args))
	resp, err := server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{TerraformVersion: terraformVersion, Config: &config})
	if err != nil {
		tb.Fatal(err)
	}
	return errorTexts(resp.Diagnostics)
}

// errorTexts are the errors among diags, each as "summary: detail".
func errorTexts(diags []*tfprotov6.Diagnostic) []string {
	return diagnosticSummaries(errorsAmong(diags))
}

// errorsAmong are the diagnostics of diags that are errors.
func errorsAmong(diags []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	var errs []*tfprotov6.Diagnostic
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	return errs
}

func newProtoHarness(tb testing.TB, opts fakeserver.Options) *protoHarness {
	tb.Helper()
	fs, url := benchFakeServer(tb, opts)
	return newProtoHarnessAt(tb, fs, url)
}

// newProtoHarnessAt is a harness whose provider calls url, which serves fs
// (possibly through a handler of the test's).
func newProtoHarnessAt(tb testing.TB, fs *fakeserver.Server, url string) *protoHarness {
	tb.Helper()
	server, schemas := startProvider(tb, url)
	return &protoHarness{tb: tb, server: server, schemas: schemas, fake: fs, url: url}
}

func (h *protoHarness) resourceType(name string) tftypes.Object {
	s, ok := h.schemas.ResourceSchemas[name]
	if !ok {
		h.tb.Fatalf("no resource %s", name)
	}
	t, ok := s.ValueType().(tftypes.Object)
	if !ok {
		h.tb.Fatalf("resource %s is not an object", name)
	}
	return t
}

func (h *protoHarness) dataSourceType(name string) tftypes.Object {
	s, ok := h.schemas.DataSourceSchemas[name]
	if !ok {
		h.tb.Fatalf("no data source %s", name)
	}
	t, ok := s.ValueType().(tftypes.Object)
	if !ok {
		h.tb.Fatalf("data source %s is not an object", name)
	}
	return t
}

// planChange and applyChange are the two steps of every change of a
// resource of typeName, as Terraform calls them; errors fail the test,
// warnings are the caller's to check.
func (h *protoHarness) planChange(typeName string, prior, proposed, config *tfprotov6.DynamicValue) *tfprotov6.PlanResourceChangeResponse {
	h.tb.Helper()
	resp, err := h.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, ProposedNewState: proposed, Config: config,
	})
	if err != nil {
		h.tb.Fatal(err)
	}
	failOnDiagnostics(h.tb, "PlanResourceChange", resp.Diagnostics)
	return resp
}

func (h *protoHarness) applyChange(typeName string, prior, planned, config *tfprotov6.DynamicValue) *tfprotov6.ApplyResourceChangeResponse {
	h.tb.Helper()
	resp, err := h.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PlannedState: planned, Config: config,
	})
	if err != nil {
		h.tb.Fatal(err)
	}
	failOnDiagnostics(h.tb, "ApplyResourceChange", resp.Diagnostics)
	return resp
}

// readJob refreshes a job's state as Terraform does before a plan, and
// returns it as a value of typ.
func (h *protoHarness) readJob(typ tftypes.Type, state *tfprotov6.DynamicValue) tftypes.Value {
	h.tb.Helper()
	resp, err := h.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: state})
	if err != nil {
		h.tb.Fatal(err)
	}
	failOnDiagnostics(h.tb, "ReadResource", resp.Diagnostics)
	v, err := resp.NewState.Unmarshal(typ)
	if err != nil {
		h.tb.Fatal(err)
	}
	return v
}

// importJob imports job id as Terraform does (ImportResourceState, then
// ReadResource) and returns its state as a value of typ.
func (h *protoHarness) importJob(typ tftypes.Type, id string) tftypes.Value {
	h.tb.Helper()
	imported, err := h.server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: jobResourceTypeName, ID: id})
	if err != nil {
		h.tb.Fatal(err)
	}
	failOnDiagnostics(h.tb, "ImportResourceState", imported.Diagnostics)
	return h.readJob(typ, imported.ImportedResources[0].State)
}

// hasWarning reports whether diags hold a warning of summary whose detail
// contains detail.
func hasWarning(diags []*tfprotov6.Diagnostic, summary, detail string) bool {
	return slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool {
		return d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary && strings.Contains(d.Detail, detail)
	})
}

// expectIdentityID checks that identity, which op gave, is a resource
// identity holding id, a known id.
func expectIdentityID(tb testing.TB, op string, identity *tfprotov6.ResourceIdentityData, id tftypes.Value) {
	tb.Helper()
	if identity == nil {
		tb.Fatalf("%s gave no identity", op)
	}
	got, err := identity.IdentityData.Unmarshal(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}})
	if err != nil {
		tb.Fatal(err)
	}
	if !id.IsKnown() || id.IsNull() || !got.Equal(tftypes.NewValue(got.Type(), map[string]tftypes.Value{"id": id})) {
		tb.Errorf("%s: identity %v, want id %v", op, got, id)
	}
}

// objectValue is an object of type t with the given attributes set and
// every other one null.
func objectValue(t tftypes.Object, set map[string]tftypes.Value) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(t.AttributeTypes))
	for name, at := range t.AttributeTypes {
		if v, ok := set[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(t, vals)
}

func dynamicValue(tb testing.TB, t tftypes.Type, v tftypes.Value) tfprotov6.DynamicValue {
	tb.Helper()
	dv, err := tfprotov6.NewDynamicValue(t, v)
	if err != nil {
		tb.Fatal(err)
	}
	return dv
}

func failOnDiagnostics(tb testing.TB, op string, diags []*tfprotov6.Diagnostic) {
	tb.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			tb.Fatalf("%s: %s: %s", op, d.Summary, d.Detail)
		}
	}
}

// reportCPU, deferred at the start of a benchmark's loop, reports the CPU
// time per operation as cpu-ns/op.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-start)/time.Duration(b.N)), "cpu-ns/op") }
}

// BenchmarkProviderStartup is the provider's side of a CLI starting the
// plugin in process: the protocol server, GetProviderSchema and
// ConfigureProvider, without the process start.
func BenchmarkProviderStartup(b *testing.B) {
	_, url := benchFakeServer(b, fakeserver.Options{})
	defer reportCPU(b)()
	for b.Loop() {
		startProvider(b, url)
	}
}
