package bench

// BenchmarkFrameworkPlan measures terraform-plugin-framework alone, with a
// resource that does nothing: how its cost for one unchanged plan and one
// read grows with the number of top-level attributes. It is the benchmark of
// the upstream report in DESIGN.md ("What the framework should fix"), kept
// here so that a new framework version can be measured against it:
//
//	go test -run '^$' -bench BenchmarkFrameworkPlan -benchmem ./internal/bench/

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// inertProvider serves one resource, inert_thing, whose schema is given and
// whose methods do nothing: what is measured is the framework's own work.
type inertProvider struct{ schema schema.Schema }

func (p *inertProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "inert"
}
func (p *inertProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (p *inertProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (p *inertProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (p *inertProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return inertResource{schema: p.schema} }}
}

type inertResource struct{ schema schema.Schema }

func (r inertResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "inert_thing"
}
func (r inertResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}
func (inertResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (inertResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse)       {}
func (inertResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (inertResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// attributeSchema has n optional string attributes besides a computed id.
func attributeSchema(n int) schema.Schema {
	attrs := map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}
	for i := range n {
		attrs[fmt.Sprintf("a%02d", i)] = schema.StringAttribute{Optional: true}
	}
	return schema.Schema{Attributes: attrs}
}

func BenchmarkFrameworkPlan(b *testing.B) {
	for _, n := range []int{2, 10, 20, 42} {
		b.Run(fmt.Sprintf("attributes=%d", n+1), func(b *testing.B) {
			ctx := context.Background()
			server, err := providerserver.NewProtocol6WithError(&inertProvider{schema: attributeSchema(n)})()
			if err != nil {
				b.Fatal(err)
			}
			schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
			if err != nil {
				b.Fatal(err)
			}
			typ, ok := schemas.ResourceSchemas["inert_thing"].ValueType().(tftypes.Object)
			if !ok {
				b.Fatal("the schema is not an object")
			}
			// State: every attribute set; configuration: the same without id.
			state, config := map[string]tftypes.Value{}, map[string]tftypes.Value{}
			for name, t := range typ.AttributeTypes {
				state[name] = tftypes.NewValue(t, "value of "+name)
				config[name] = state[name]
			}
			config["id"] = tftypes.NewValue(tftypes.String, nil)
			stateValue, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, state))
			if err != nil {
				b.Fatal(err)
			}
			configValue, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, config))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &configValueOfEmptyObject}); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				read, err := server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "inert_thing", CurrentState: &stateValue})
				if err != nil || len(read.Diagnostics) > 0 {
					b.Fatalf("read: %v %v", err, read.Diagnostics)
				}
				plan, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
					TypeName: "inert_thing", PriorState: read.NewState, ProposedNewState: read.NewState, Config: &configValue,
				})
				if err != nil || len(plan.Diagnostics) > 0 {
					b.Fatalf("plan: %v %v", err, plan.Diagnostics)
				}
			}
		})
	}
}

// configValueOfEmptyObject is the provider's configuration: an empty
// object, in msgpack (a map of no entries).
var configValueOfEmptyObject = tfprotov6.DynamicValue{MsgPack: []byte{0x80}}
