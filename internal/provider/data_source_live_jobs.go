package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/inttypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

var (
	_ datasource.DataSource              = &liveJobsDataSource{}
	_ datasource.DataSourceWithConfigure = &liveJobsDataSource{}
)

// liveJobsPageSize is the number of new items asked of each page of GET
// /v2/live: large enough to keep the number of round trips low, small
// enough to keep each answer a reasonable size. EachLivePage never asks for
// more than are still wanted, beside the last item received, which each
// page after the first starts at.
const liveJobsPageSize = 100

// NewLiveJobsDataSource returns the transcription_live_jobs data source.
func NewLiveJobsDataSource() datasource.DataSource { return &liveJobsDataSource{} }

// liveJobsDataSource lists live jobs (GET /v2/live).
type liveJobsDataSource struct {
	data *ProviderData
}

// liveJobsDataSourceModel is the data source's configuration and state.
type liveJobsDataSourceModel struct {
	listFilterModel
	Offset            inttypes.Int64     `tfsdk:"offset"`
	Limit             inttypes.Int64     `tfsdk:"limit"`
	IncludeTranscript types.Bool         `tfsdk:"include_transcript"`
	IDs               terraformListValue `tfsdk:"ids"`
	Items             terraformListValue `tfsdk:"items"`
}

func (d *liveJobsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_jobs"
}

func (d *liveJobsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists live (streaming) transcription jobs, newest first, with every field of their records. " +
			"Follows the service's pages until `limit` items are collected or the listing ends; without `limit`, every matching job is returned. " +
			"Word timings are not included, and the transcripts only with `include_transcript = true`, to keep state small: " +
			"an item with its transcript takes tens of kilobytes, ten thousand of them hundreds of megabytes.\n\n" +
			"**Zero data retention.** With the provider's `zero_data_retention = true` the service discloses no job, so the data source is refused before any request is made.",
		Attributes: map[string]schema.Attribute{
			"include_transcript": schema.BoolAttribute{
				MarkdownDescription: includeTranscriptDescription + " Defaults to `false`.",
				Optional:            true,
			},
			"offset": schema.Int64Attribute{
				MarkdownDescription: "Number of matching jobs to skip before the first one returned. Must be at least 0; defaults to 0.",
				Optional:            true,
				CustomType:          inttypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinListOffset)},
			},
			"limit": schema.Int64Attribute{
				MarkdownDescription: "Most jobs returned in total. Must be at least 1. Without it, every matching job is returned.",
				Optional:            true,
				CustomType:          inttypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinListLimit)},
			},
			"status": schema.ListAttribute{
				MarkdownDescription: listStatusDescription,
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          listStatusValidators(),
			},
			"date": schema.StringAttribute{
				MarkdownDescription: listDateDescription,
				Optional:            true,
				Validators:          []validator.String{validators.CalendarDate()},
			},
			"after_date": schema.StringAttribute{
				MarkdownDescription: listAfterDateDescription,
				Optional:            true,
				CustomType:          timetypes.RFC3339Type{},
				Validators: []validator.String{
					validators.StrictRFC3339(),
					validators.EarlierThan(path.MatchRoot("before_date")),
				},
			},
			"before_date": schema.StringAttribute{
				MarkdownDescription: listBeforeDateDescription,
				Optional:            true,
				CustomType:          timetypes.RFC3339Type{},
				Validators:          []validator.String{validators.StrictRFC3339()},
			},
			"custom_metadata": schema.MapAttribute{
				MarkdownDescription: listCustomMetadataDescription,
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          listCustomMetadataValidators(),
			},
			"ids": schema.ListAttribute{
				MarkdownDescription: "Identifiers of the returned jobs, in the order of `items`: a list, so `for_each` takes it as `toset(...ids)`.",
				Computed:            true,
				ElementType:         types.StringType,
				CustomType:          liveJobsIDsType,
			},
			liveJobsItemsView.name: liveJobsItemsAttribute(),
		},
	}
}

func (d *liveJobsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *liveJobsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, stop := d.data.untilStopped(ctx)
	defer stop()
	var state liveJobsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data != nil && d.data.ZeroDataRetention {
		resp.Diagnostics.AddError("Cannot list live jobs under zero data retention",
			"The provider has zero_data_retention = true, and the service discloses no transcript or metadata of such an account through its API (GET /v2/live answers 403). "+
				"Remove this data source; results reach only the callbacks of the sessions.")
		return
	}
	c := d.data.clientFor("the transcription_live_jobs data source", &resp.Diagnostics)
	opts, diags := state.listOptions(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	maxItems := 0 // every matching item
	if !state.Limit.IsNull() {
		maxItems = int(state.Limit.ValueInt64())
	}

	content := summaryContent
	if state.IncludeTranscript.ValueBool() {
		content = transcriptContent
	}
	// Each page's records are converted as they come, so that a listing of
	// thousands of sessions holds one page of decoded records at a time.
	f := &flattener{}
	var ids, items []tftypes.Value
	pages, err := c.EachLivePage(ctx, opts, maxItems, liveJobsPageSize, resultDetail(content), func(jobs []client.LiveJob) error {
		for i := range jobs {
			item, err := terraformValue(ctx, liveJobTerraformType, f.liveJob(ctx, &jobs[i], content))
			if err != nil {
				f.diags.AddError("Cannot convert a live job", "This is a bug in the provider: the item of job "+jobs[i].ID+" does not match its type: "+err.Error())
				return err
			}
			ids = append(ids, tftypes.NewValue(tftypes.String, jobs[i].ID))
			items = append(items, item)
		}
		return nil
	})
	resp.Diagnostics.Append(f.diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list live jobs", err)
		return
	}
	tflog.Debug(ctx, "listed live jobs", map[string]any{"items": len(items), "pages": pages})

	// ids and items stay the Terraform values built here (see
	// terraformListType): converting them to framework values and back
	// costs several times more.
	state.IDs = newTerraformListValue(liveJobsIDsType, tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nonNil(ids)))
	state.Items = newTerraformListValue(liveJobsItemsType, tftypes.NewValue(tftypes.List{ElementType: liveJobTerraformType}, nonNil(items)))
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// nonNil keeps an empty listing an empty list rather than a null one.
func nonNil[T any](values []T) []T {
	if values == nil {
		return []T{}
	}
	return values
}

// listOptions converts the configured filters, with the offset. Offset and
// limit are checked at plan time; limit is not a page size, so it is not set
// here.
func (m liveJobsDataSourceModel) listOptions(ctx context.Context) (client.ListOptions, diag.Diagnostics) {
	opts, diags := m.listFilterModel.listOptions(ctx)
	opts.Offset = int(m.Offset.ValueInt64())
	return opts, diags
}

// ---------------------------------------------------------------------------
// The live job record.

// liveJobsItemsView is the `items` attribute.
var liveJobsItemsView = viewObjectList("items", "The live jobs, newest first. Values the service leaves out are null.",
	viewString("id", "Identifier of the job (a UUID)."),
	viewString("request_id", "Debug identifier of the request that started the session."),
	viewInt64("version", "Version of the record."),
	viewString("status", "Status: "+markdownList(client.JobStatuses)+"."),
	viewString("created_at", "When the job was created (ISO 8601)."),
	viewString("completed_at", "When the job ended (ISO 8601); null until it is `done` or `error`."),
	viewString("kind", "Kind of job: `live`."),
	viewStringMap("custom_metadata", "Metadata attached by the caller; values that are not strings are JSON-encoded."),
	viewInt64("error_code", "HTTP-style code of the failure; null unless the job failed."),
	viewJSON("post_session_metadata", "Metadata about the session, as a JSON object text (use `jsondecode`)."),
	fileView,
	viewJSON("request_params", "Parameters the session was started with, as JSON text, as the service sent them: "+
		"`encoding`, `bit_depth`, `sample_rate`, `channels`, `model`, `endpointing`, `maximum_duration_without_endpointing`, `language_config`, "+
		"`pre_processing`, `realtime_processing`, `post_processing`, `messages_config`, `callback` and `callback_config` "+
		"(without its `url`, which may carry a token: a value inside `items` cannot be marked sensitive on its own). "+
		"For example `jsondecode(data.transcription_live_jobs.example.items[0].request_params).sample_rate`."),
	// The listing keeps no word timings: no include_raw_result here.
	resultView.withDescription("transcription.utterances", liveUtterancesDescription+transcriptSized),
)

var (
	liveJobType          = liveJobsItemsView.objectType()
	liveJobTerraformType = liveJobType.TerraformType(context.Background())
	liveJobsItemsType    = terraformListType{ListType: types.ListType{ElemType: liveJobType}}
	liveJobsIDsType      = terraformListType{ListType: types.ListType{ElemType: types.StringType}}
)

// liveJobsItemsAttribute is `items`, whose values the framework is given
// as the Terraform values the read builds: with thousands of items, the
// conversions to framework values it would otherwise make after Read were
// a tenth of the listing's allocations and raised its peak memory by half.
func liveJobsItemsAttribute() schema.Attribute {
	a, ok := liveJobsItemsView.dataSourceAttribute().(schema.ListAttribute)
	if !ok {
		panic("items is not a list attribute")
	}
	a.CustomType = liveJobsItemsType
	return a
}

// liveJob converts one live job record, keeping of its result what content
// says (never word timings).
func (f *flattener) liveJob(ctx context.Context, j *client.LiveJob, content resultContent) types.Object {
	result, diags := flattenResult(ctx, j.Result, content)
	f.diags.Append(diags...)
	return f.object(liveJobType, map[string]attr.Value{
		"id":                    types.StringValue(j.ID),
		"request_id":            types.StringValue(j.RequestID),
		"version":               types.Int64Value(j.Version),
		"status":                types.StringValue(j.Status),
		"created_at":            types.StringValue(j.CreatedAt),
		"completed_at":          types.StringPointerValue(j.CompletedAt),
		"kind":                  types.StringValue(j.Kind),
		"custom_metadata":       flattenCustomMetadata(j.CustomMetadata),
		"error_code":            types.Int64PointerValue(j.ErrorCode),
		"post_session_metadata": flattenJSON(j.PostSessionMetadata),
		"file":                  flattenFile(j.File),
		"request_params":        f.liveRequestParams(j.RequestParams),
		"result":                result,
	})
}

// liveRequestParams is a live job's request_params as JSON text: as the
// service sent them (a vocabulary entry given as a bare string, an empty
// list, a field the client's types do not know), without
// callback_config.url.
func (f *flattener) liveRequestParams(p *client.LiveRequestParams) jsonText {
	if p == nil {
		return jsonTextNull()
	}
	raw := p.Raw()
	if raw == nil { // not decoded from the service's answer
		return f.json(withoutCallbackURL(p))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		f.diags.AddError("Cannot read a live job's request_params", "The service's request_params is not a JSON object: "+err.Error())
		return jsonTextNull()
	}
	if config, ok := fields["callback_config"]; ok {
		var configFields map[string]json.RawMessage
		if err := json.Unmarshal(config, &configFields); err == nil && configFields != nil {
			delete(configFields, "url")
			fields["callback_config"] = f.rawJSON(configFields)
		}
	}
	return f.json(fields)
}

// rawJSON encodes v for a JSON value built from the service's members.
func (f *flattener) rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		f.diags.AddError("Cannot encode a value of a live job as JSON", err.Error())
		return json.RawMessage("null")
	}
	return b
}

// withoutCallbackURL returns the parameters without callback_config.url.
func withoutCallbackURL(p *client.LiveRequestParams) *client.LiveRequestParams {
	if p == nil || p.CallbackConfig == nil || p.CallbackConfig.URL == nil {
		return p
	}
	out, config := *p, *p.CallbackConfig
	config.URL = nil
	out.CallbackConfig = &config
	return &out
}
