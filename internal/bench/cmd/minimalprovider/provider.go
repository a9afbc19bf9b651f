package main

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type minimalProvider struct{}

func newProvider() provider.Provider { return minimalProvider{} }

type providerModel struct {
	BaseURL types.String `tfsdk:"base_url"`
	APIKey  types.String `tfsdk:"api_key"`
}

func (minimalProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "minimal"
}

func (minimalProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerschema.Schema{Attributes: map[string]providerschema.Attribute{
		"base_url": providerschema.StringAttribute{Optional: true},
		"api_key":  providerschema.StringAttribute{Optional: true, Sensitive: true},
	}}
}

func (minimalProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	base, key := settings(cfg, os.Getenv)
	if base == "" || key == "" {
		resp.Diagnostics.AddError("Missing settings", "set base_url and api_key, or TRANSCRIPTION_BASE_URL and TRANSCRIPTION_API_KEY")
		return
	}
	a := newAPI(base, key)
	resp.ResourceData, resp.DataSourceData = a, a
}

// settings returns the base URL and key: the provider's arguments, else the
// environment.
func settings(cfg providerModel, getenv func(string) string) (base, key string) {
	base, key = cfg.BaseURL.ValueString(), cfg.APIKey.ValueString()
	if base == "" {
		base = getenv("TRANSCRIPTION_BASE_URL")
	}
	if key == "" {
		key = getenv("TRANSCRIPTION_API_KEY")
	}
	return base, key
}

func (minimalProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &jobResource{} },
		func() resource.Resource { return &jobResource{wide: true} },
	}
}

func (minimalProvider) DataSources(context.Context) []func() datasource.DataSource {
	return nil
}

// jobResource is minimal_job or, when wide, minimal_wide_job: the same
// resource with wideExtra more optional string attributes that nothing
// sets, so that it has as many top-level attributes as transcription_job.
// The two measure what a schema's width alone costs the framework and
// Terraform.
type jobResource struct {
	api  *api
	wide bool
}

// model is the resource's model: a jobModel, or a wideJobModel around one.
type model interface{ job() *jobModel }

type jobModel struct {
	ID       types.String `tfsdk:"id"`
	AudioURL types.String `tfsdk:"audio_url"`
	Status   types.String `tfsdk:"status"`
}

func (m *jobModel) job() *jobModel { return m }

func (r *jobResource) newModel() model {
	if r.wide {
		return &wideJobModel{}
	}
	return &jobModel{}
}

func (r *jobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
	if r.wide {
		resp.TypeName = req.ProviderTypeName + "_wide_job"
	}
}

func (r *jobResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"audio_url": schema.StringAttribute{
			Required:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"status": schema.StringAttribute{Computed: true},
	}}
	if r.wide {
		for i := range wideExtra {
			resp.Schema.Attributes[wideExtraName(i)] = schema.StringAttribute{Optional: true}
		}
	}
}

func (r *jobResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if a, ok := req.ProviderData.(*api); ok {
		r.api = a
	}
}

func (r *jobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m := r.newModel()
	resp.Diagnostics.Append(req.Plan.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	j, err := r.api.create(ctx, m.job().AudioURL.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Creating the job failed", err.Error())
		return
	}
	m.job().ID, m.job().Status = types.StringValue(j.ID), types.StringValue(j.Status)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *jobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m := r.newModel()
	resp.Diagnostics.Append(req.State.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	j, found, err := r.api.read(ctx, m.job().ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Reading the job failed", err.Error())
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	m.job().Status = types.StringValue(j.Status)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Update is never called with a change to make (audio_url replaces the job,
// the rest is computed); it keeps the plan.
func (r *jobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m := r.newModel()
	resp.Diagnostics.Append(req.Plan.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *jobResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m := r.newModel()
	resp.Diagnostics.Append(req.State.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.delete(ctx, m.job().ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Deleting the job failed", err.Error())
	}
}
