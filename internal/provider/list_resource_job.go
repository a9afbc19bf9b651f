package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/datetimetypes"
)

var (
	_ list.ListResource              = &jobListResource{}
	_ list.ListResourceWithConfigure = &jobListResource{}
)

// NewJobListResource returns the transcription_job list resource, which
// `terraform query` (Terraform 1.14+) uses to find existing jobs.
func NewJobListResource() list.ListResource { return &jobListResource{} }

// jobListResource lists pre-recorded jobs (GET /v2/pre-recorded), each with
// its identity and, when Terraform asks, the state an import would build,
// so that `terraform query -generate-config-out` writes resource blocks and
// import blocks that plan no change.
type jobListResource struct {
	data *ProviderData
}

// jobListConfigModel is the configuration of a `list "transcription_job"`
// block: the listing's filters.
type jobListConfigModel struct {
	listFilterModel
}

func (r *jobListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
}

func (r *jobListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds existing pre-recorded transcription jobs on the service, newest first, for `terraform query`: " +
			"each with its identity (`id`), and with `-generate-config-out`, the `transcription_job` resource block and import block that bring it under management with no change. " +
			"A result's resource object (`include_resource`) leaves out `callback_config.url` and `callback_url`, which may carry a token and which `terraform query -json` would print: the generated configuration cannot hold them either (left out, they keep the job's), and the import reads the job again. " +
			"With `include_resource` (or `-generate-config-out`), a job whose record cannot be rebuilt as a `transcription_job` (the service sent no `request_params`, or ones the provider cannot read) is left out of the results with a warning naming it, as it could not be imported either; the other jobs are listed. " +
			"Every filter is optional; without any, every job the service holds is listed, up to the query's `limit` (100 unless the `list` block sets another).",
		Attributes: map[string]listschema.Attribute{
			"status": listschema.ListAttribute{
				MarkdownDescription: listStatusDescription,
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          listStatusValidators(),
			},
			"date": listschema.StringAttribute{
				MarkdownDescription: listDateDescription,
				Optional:            true,
				Validators:          listDateValidators(),
			},
			"after_date": listschema.StringAttribute{
				MarkdownDescription: listAfterDateDescription,
				Optional:            true,
				CustomType:          datetimetypes.RFC3339Type{},
				Validators:          listAfterDateValidators(),
			},
			"before_date": listschema.StringAttribute{
				MarkdownDescription: listBeforeDateDescription,
				Optional:            true,
				CustomType:          datetimetypes.RFC3339Type{},
			},
			"custom_metadata": listschema.MapAttribute{
				MarkdownDescription: listCustomMetadataDescription,
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          listCustomMetadataValidators(),
			},
		},
	}
}

func (r *jobListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *jobListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config jobListConfigModel
	diags := req.Config.Get(ctx, &config)
	switch {
	case diags.HasError():
	case r.data != nil && r.data.ZeroDataRetention: // whether or not the client is pending
		diags.AddError("Cannot list jobs under zero data retention",
			"The provider has zero_data_retention = true, and the service discloses no job of such an account: there is nothing to list or import.")
	default:
		r.data.clientForQuery("the transcription_job list resource", &diags)
	}
	opts, optDiags := config.listOptions(ctx)
	diags.Append(optDiags...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	// The pages are fetched as Terraform takes the results: each page's jobs
	// are pushed as it arrives (the next one already asked for), so that a
	// listing of thousands of jobs holds about two pages of records at a
	// time, and no page is asked for once Terraform has stopped taking
	// results (an interruption: push returns false). No more than the
	// query's limit is asked for anyway.
	stream.Results = func(push func(list.ListResult) bool) {
		nullTimeouts := nullJobTimeouts()
		pushed := 0
		// Only what state would keep by default: the import that follows
		// reads the job again anyway.
		// request_params are read job by job, and only for a resource
		// object: one job's that the provider cannot read leaves that job
		// out, not the listing (Terraform shows no result of a list block
		// one of whose results holds an error).
		pages, err := r.data.Client.EachPreRecordedRecordPage(ctx, opts, int(req.Limit), listingPageSize, resultDetail(summaryContent), func(jobs []client.PreRecordedRecord) error {
			for i := range jobs {
				if !push(r.listResult(ctx, req, &jobs[i], nullTimeouts)) {
					return errListingStopped
				}
				pushed++
			}
			return nil
		})
		tflog.Debug(ctx, "listed transcription jobs", map[string]any{"jobs": pushed, "pages": pages})
		if err != nil && !errors.Is(err, errListingStopped) {
			// After the results already pushed: a result holding only the
			// error diagnostic, which ends the listing (list.ListResultsStream).
			var diags diag.Diagnostics
			addAPIError(&diags, "Cannot list transcription jobs", err)
			push(list.ListResult{Diagnostics: diags})
		}
	}
}

// errListingStopped stops the pages' walk when Terraform takes no more
// results.
var errListingStopped = errors.New("terraform takes no more results")

// listResult is the result of one listed job: its identity and name, and
// with include_resource the state an import builds. A job whose state
// cannot be built (request_params the provider cannot read, or none) is a
// result holding only a warning that names it: Terraform would show no
// result of the listing if it held an error, and the framework takes a
// result without its resource object for a fault of the provider's.
func (r *jobListResource) listResult(ctx context.Context, req list.ListRequest, record *client.PreRecordedRecord, nullTimeouts timeouts.Value) list.ListResult {
	result := req.NewListResult(ctx)
	if req.IncludeResource {
		job, err := record.Job()
		var state jobResourceModel
		var diags diag.Diagnostics
		if err == nil {
			state, diags = listedJob(ctx, job, r.data.Client.ResultURL(job.ID), nullTimeouts)
		}
		if err != nil || diags.HasError() {
			why := ""
			if err != nil {
				why = client.Printable(err.Error())
			} else {
				why = client.Printable(diags.Errors()[0].Detail())
			}
			var left list.ListResult
			left.Diagnostics.AddWarning("A listed job is left out",
				fmt.Sprintf("Job %s, %s, is left out of the results: the provider cannot build its transcription_job from its record, so it can be neither generated nor imported: %s", record.ID, jobDisplayName(&record.JobCommon), why))
			return left
		}
		result.Diagnostics.Append(result.Resource.Set(ctx, state)...)
	}
	result.DisplayName = jobDisplayName(&record.JobCommon)
	result.Diagnostics.Append(result.Identity.Set(ctx, jobIdentityModel{ID: types.StringValue(record.ID)})...)
	return result
}

// listedJob is the state an import of job builds, without its callback
// URLs, which may carry a token: terraform query -json prints a result's
// state whole, sensitive values included. Nothing is lost: the
// configuration Terraform generates cannot hold sensitive values anyway,
// and the import that follows reads the job again.
func listedJob(ctx context.Context, job *client.PreRecordedJob, resultURL string, timeoutsValue timeouts.Value) (jobResourceModel, diag.Diagnostics) {
	state, diags := importedJob(ctx, job, resultURL, timeoutsValue)
	if diags.HasError() {
		return state, diags
	}
	state.CallbackURL = types.StringNull()
	if !state.CallbackConfig.IsNull() && !state.CallbackConfig.IsUnknown() {
		attrs := state.CallbackConfig.Attributes() // a copy
		attrs["url"] = types.StringNull()
		var d diag.Diagnostics
		state.CallbackConfig, d = types.ObjectValue(state.CallbackConfig.AttributeTypes(ctx), attrs)
		diags.Append(d...)
	}
	return state, diags
}

// jobDisplayName names a listed job for people: its file, status and date.
func jobDisplayName(job *client.JobCommon) string {
	name := job.ID
	if job.File != nil && job.File.Filename != nil && *job.File.Filename != "" {
		name = *job.File.Filename
	}
	// A file name is its creator's, and terraform query prints display
	// names as they are: a new line would forge a line of its output, an
	// escape sequence reach the terminal. Each part bounded on its own, so
	// that a long name leaves the status and date.
	return fmt.Sprintf("%s (%s, %s)", client.Printable(name), client.Printable(job.Status), client.Printable(job.CreatedAt))
}

// nullJobTimeouts is transcription_job's timeouts left unset, for a state
// built outside a plan.
func nullJobTimeouts() timeouts.Value {
	t, ok := jobAttrTypes()["timeouts"].(timeouts.Type)
	if !ok {
		panic("transcription_job's timeouts is not of the timeouts package's type")
	}
	return timeouts.Value{Object: types.ObjectNull(t.AttrTypes)}
}
