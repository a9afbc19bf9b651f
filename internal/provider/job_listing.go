package provider

import (
	"context"
	"fmt"
	"strings"

	dstimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/datetimetypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// What the two listing data sources share: transcription_jobs
// (GET /v2/pre-recorded) and transcription_live_jobs (GET /v2/live) take the
// same filters, offset, limit and include_transcript, and return ids and
// items the same way; only the records differ.

// listingPageSize is the number of new items asked of each page of a
// listing: large enough to keep the number of round trips low, small enough
// to keep each answer a reasonable size. The client never asks for more than
// are still wanted, beside the last item received, which each page after
// the first starts at.
const listingPageSize = 100

// listingDataSourceModel is a listing data source's configuration and state.
type listingDataSourceModel struct {
	listFilterModel
	Offset            numtypes.Int64     `tfsdk:"offset"`
	Limit             numtypes.Int64     `tfsdk:"limit"`
	IncludeTranscript types.Bool         `tfsdk:"include_transcript"`
	IDs               terraformListValue `tfsdk:"ids"`
	Items             terraformListValue `tfsdk:"items"`
	Timeouts          dstimeouts.Value   `tfsdk:"timeouts"`
}

// listingIDsType is the type of a listing's ids, which stay the Terraform
// value the read builds (see terraformListType).
var listingIDsType = terraformListType{ListType: types.ListType{ElemType: types.StringType}}

var (
	_ datasource.DataSource              = &listingDataSource[client.LiveJob]{}
	_ datasource.DataSourceWithConfigure = &listingDataSource[client.LiveJob]{}
)

// listingDataSource is a listing data source (transcription_jobs,
// transcription_live_jobs): the framework's methods, over its listing.
type listingDataSource[J any] struct {
	data    *ProviderData
	listing jobListing[J]
}

func (d *listingDataSource[J]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(d.listing.name, "transcription")
}

func (d *listingDataSource[J]) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.listing.schema(ctx)
}

func (d *listingDataSource[J]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *listingDataSource[J]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	d.listing.read(ctx, d.data, req, resp)
}

// jobListing describes one listing data source: its endpoint, its records
// and the words of its documentation and messages.
type jobListing[J any] struct {
	// name is the data source's type name (transcription_...), for its
	// type and messages.
	name string
	// description is the data source's, before what every listing adds.
	description string
	// what names the listed jobs in messages ("live jobs").
	what string
	// zeroDataRetention is the detail of the refusal under zero data
	// retention.
	zeroDataRetention string
	// items is the items attribute's view; its values have itemsType.
	items     viewAttr
	itemsType terraformListType
	// each follows the listing's pages (a client's EachLivePage or
	// EachPreRecordedRecordPage).
	each func(c *client.Client) func(ctx context.Context, opts client.ListOptions, maxItems, pageSize int, detail client.Detail, use func([]J) error) (int, error)
	// item converts one record, keeping of its result what content says.
	item func(f *flattener, ctx context.Context, job *J, content resultContent) (id string, item types.Object)
}

// newJobListing completes a listing's description with the type of its
// items, itemType (its items view's, computed once: a listing builds
// thousands of items).
func newJobListing[J any](itemType types.ObjectType, l jobListing[J]) jobListing[J] {
	l.itemsType = terraformListType{ListType: types.ListType{ElemType: itemType}}
	return l
}

// schema is the data source's schema: the shared filters and paging, ids,
// and the listing's items.
func (l jobListing[J]) schema(ctx context.Context) schema.Schema {
	items, ok := l.items.dataSourceAttribute().(schema.ListAttribute)
	if !ok {
		panic("items is not a list attribute")
	}
	// The framework is given the items as the Terraform values the read
	// builds: with thousands of items, the conversions to framework values
	// it would otherwise make after Read were a tenth of the listing's
	// allocations and raised its peak memory by half.
	items.CustomType = l.itemsType
	return schema.Schema{
		MarkdownDescription: l.description + "\n\n" +
			"**Zero data retention.** With the provider's `zero_data_retention = true` the service discloses no job, so the data source is refused before any request is made.",
		Attributes: map[string]schema.Attribute{
			"include_transcript": schema.BoolAttribute{
				MarkdownDescription: includeTranscriptDescription + " Defaults to `false`.",
				Optional:            true,
			},
			"offset": schema.Int64Attribute{
				MarkdownDescription: "Number of matching jobs to skip before the first one returned. Must be at least 0; defaults to 0.",
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinListOffset)},
			},
			"limit": schema.Int64Attribute{
				MarkdownDescription: "Most jobs returned in total. Must be at least 1. Without it, every matching job is returned.",
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
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
				Validators:          listDateValidators(),
			},
			"after_date": schema.StringAttribute{
				MarkdownDescription: listAfterDateDescription,
				Optional:            true,
				CustomType:          datetimetypes.RFC3339Type{},
				Validators:          listAfterDateValidators(),
			},
			"before_date": schema.StringAttribute{
				MarkdownDescription: listBeforeDateDescription,
				Optional:            true,
				CustomType:          datetimetypes.RFC3339Type{},
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
				CustomType:          listingIDsType,
			},
			l.items.name: items,
			"timeouts": dataSourceTimeouts(ctx, fmt.Sprintf("How long the listing may take, as a Go duration such as `30m`: every page's `GET`, with its retries while the service fails it or turns it away (429, 5xx, `Retry-After`). Defaults to `%s`. "+
				"When it runs out the read fails, and with it the plan or apply.", client.FormatDuration(defaultReadTimeout))),
		},
	}
}

// read lists the jobs the configuration asks for into the state.
func (l jobListing[J]) read(ctx context.Context, data *ProviderData, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, stop := data.untilStopped(ctx)
	defer stop()
	var state listingDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if data != nil && data.ZeroDataRetention {
		resp.Diagnostics.AddError("Cannot list "+l.what+" under zero data retention", l.zeroDataRetention)
		return
	}
	c := data.clientFor("the "+l.name+" data source", &resp.Diagnostics)
	opts, diags := state.listOptions(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	maxItems := 0 // every matching item
	if !state.Limit.IsNull() {
		maxItems = int(state.Limit.ValueInt64())
	}

	timeout, diags := state.Timeouts.Read(ctx, defaultReadTimeout)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	read, cancel := newJobRead(ctx, timeout, nil)
	defer cancel()
	ctx = read.ctx

	content := summaryContent
	if state.IncludeTranscript.ValueBool() {
		content = transcriptContent
	}
	itemType := l.itemsType.ElemType.TerraformType(ctx)
	// Each page's records are converted as they come, so that a listing of
	// thousands of jobs holds one page of decoded records at a time.
	f := &flattener{}
	var ids, items []tftypes.Value
	pages, err := l.each(c)(ctx, opts, maxItems, listingPageSize, resultDetail(content), func(jobs []J) error {
		for i := range jobs {
			id, object := l.item(f, ctx, &jobs[i], content)
			item, err := terraformValue(ctx, itemType, object)
			if err != nil {
				f.diags.AddError("Cannot convert a listed job", "This is a bug in the provider: the item of job "+id+" does not match its type: "+err.Error())
				return err
			}
			ids = append(ids, tftypes.NewValue(tftypes.String, id))
			items = append(items, item)
		}
		return nil
	})
	resp.Diagnostics.Append(f.diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch {
	case read.timedOut(err):
		resp.Diagnostics.AddError("Timed out listing "+l.what,
			fmt.Sprintf("The listing did not end within %s (timeouts.read), after %s and %s: %s\n\nRaise timeouts.read, narrow the listing (its filters, limit), or try again later.", client.FormatDuration(timeout), counted(pages, "page"), counted(len(items), "job"), apiErrorDetail(err)))
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Cannot list "+l.what, err)
		return
	}
	tflog.Debug(ctx, "listed "+l.what, map[string]any{"items": len(items), "pages": pages})

	// ids and items stay the Terraform values built here (see
	// terraformListType): converting them to framework values and back
	// costs several times more.
	state.IDs = newTerraformListValue(listingIDsType, tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nonNil(ids)))
	state.Items = newTerraformListValue(l.itemsType, tftypes.NewValue(tftypes.List{ElementType: itemType}, nonNil(items)))
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Fields of a job record shown alike by the listings' items and the
// transcription_job data source.
var (
	recordVersionView       = viewInt64("version", "Version of the record.")
	postSessionMetadataView = viewJSON("post_session_metadata", "Metadata about the session, as a JSON object text (use `jsondecode`).")
)

func recordKindView(kind string) viewAttr { return viewString("kind", "Kind of job: `"+kind+"`.") }

// listedJobsView is a listing's items attribute: every field of a job's
// record, request_params as JSON text, and the result without word timings
// (a listing has no include_raw_result).
func listedJobsView(description, kind, requestIDDescription, requestParamsDescription string) viewAttr {
	return viewObjectList("items", description,
		viewString("id", "Identifier of the job (a UUID)."),
		viewString("request_id", requestIDDescription),
		recordVersionView,
		viewString("status", "Status: "+markdownList(client.JobStatuses)+"."),
		viewString("created_at", "When the job was created (ISO 8601)."),
		viewString("completed_at", "When the job ended (ISO 8601); null until it is `done` or `error`."),
		recordKindView(kind),
		viewStringMap("custom_metadata", "Metadata attached by the caller; values that are not strings are JSON-encoded."),
		viewInt64("error_code", "HTTP-style code of the failure; null unless the job failed."),
		postSessionMetadataView,
		fileView,
		viewJSON("request_params", requestParamsDescription),
		resultView.withDescription("transcription.utterances", listedUtterancesDescription+transcriptSized),
	)
}

// listedJob converts the fields of a job record every listing has, with the
// listing's own request_params, keeping of its result what content says;
// targetLanguages gives its translation's target languages, asked for only
// when it has a translation.
func (f *flattener) listedJob(ctx context.Context, t types.ObjectType, j *client.JobCommon, requestParams jsonText, content resultContent, targetLanguages func() []string) types.Object {
	var targets []string
	if j.Result != nil && j.Result.Translation != nil && content != summaryContent {
		targets = targetLanguages()
	}
	result, diags := flattenResult(ctx, j.Result, content, targets)
	f.diags.Append(diags...)
	return f.object(t, map[string]attr.Value{
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
		"request_params":        requestParams,
		"result":                result,
	})
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
func (m listingDataSourceModel) listOptions(ctx context.Context) (client.ListOptions, diag.Diagnostics) {
	opts, diags := m.listFilterModel.listOptions(ctx)
	opts.Offset = int(m.Offset.ValueInt64())
	return opts, diags
}

// counted is n with its noun, plural unless n is 1: "1 page", "2 pages".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
