package provider

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	dstimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

var (
	_ datasource.DataSource              = &jobDataSource{}
	_ datasource.DataSourceWithConfigure = &jobDataSource{}
)

// NewJobDataSource returns the transcription_job data source.
func NewJobDataSource() datasource.DataSource { return &jobDataSource{poll: defaultPollSchedule} }

// jobDataSource reads one pre-recorded job by id (GET /v2/pre-recorded/{id}),
// for jobs created outside this configuration.
type jobDataSource struct {
	data *ProviderData
	// poll paces the wait of wait_for_completion.
	poll pollSchedule
}

// jobDataSourceModel is the data source's configuration and state. The
// record's attributes are those of the transcription_job resource, filled by
// the same code (jobResourceModel.setRecord and setRequestFromParams).
type jobDataSourceModel struct {
	ID                  types.String     `tfsdk:"id"`
	IncludeTranscript   types.Bool       `tfsdk:"include_transcript"`
	IncludeRawResult    types.Bool       `tfsdk:"include_raw_result"`
	WaitForCompletion   types.Bool       `tfsdk:"wait_for_completion"`
	Timeouts            dstimeouts.Value `tfsdk:"timeouts"`
	RequestID           types.String     `tfsdk:"request_id"`
	CreatedAt           types.String     `tfsdk:"created_at"`
	Status              types.String     `tfsdk:"status"`
	CompletedAt         types.String     `tfsdk:"completed_at"`
	ErrorCode           types.Int64      `tfsdk:"error_code"`
	File                types.Object     `tfsdk:"file"`
	Result              types.Object     `tfsdk:"result"`
	ResultJSON          jsonText         `tfsdk:"result_json"`
	RequestParams       types.Object     `tfsdk:"request_params"`
	CustomMetadata      types.Map        `tfsdk:"custom_metadata"`
	Version             types.Int64      `tfsdk:"version"`
	Kind                types.String     `tfsdk:"kind"`
	PostSessionMetadata jsonText         `tfsdk:"post_session_metadata"`
}

func (d *jobDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
}

const jobDataSourceDescription = `Reads a pre-recorded transcription job by its ` + "`id`" + `, typically one created outside Terraform (by an application, a script, another configuration). ` +
	`It exposes the same view of the job as the ` + "`transcription_job`" + ` resource: status, file, typed result, ` + "`result_json`" + `, the parameters the service applied (` + "`request_params`" + `) and ` + "`custom_metadata`" + `.

The job is read as it is at that moment, unless ` + "`wait_for_completion = true`" + `, which waits (up to ` + "`timeouts.read`" + `) for a running job to end.

**Retention.** The service deletes jobs when their retention period ends (3 weeks on paid plans). A data source has no earlier state to fall back on, so reading a deleted job fails, and with it every plan: remove the data source once its job's values are no longer needed, or read them from the ` + "`transcription_job`" + ` resource that made the job: a ` + "`done`" + ` job the service no longer has keeps in its state the values last read (` + "`retained = false`" + `), as far as its own ` + "`include_transcript`" + ` kept them, unless ` + "`recreate_when_missing`" + ` is set.

**Zero data retention.** With the provider's ` + "`zero_data_retention = true`" + ` the service disables reading jobs, so the data source is refused before any request is made: at plan time, or at apply time when ` + "`id`" + ` is known only then.`

// jobDataSourceTimeouts is the timeouts attribute of transcription_job's
// data source: read bounds the read, with the wait of wait_for_completion.
func jobDataSourceTimeouts(ctx context.Context) dschema.Attribute {
	return dataSourceTimeouts(ctx, fmt.Sprintf("How long the read may take, as a Go duration such as `30m`: the `GET` with its retries while the service fails it or turns it away (429, 5xx, `Retry-After`), and with `wait_for_completion` the wait for the job to end. Defaults to `%s`. "+
		"When it runs out the read fails; the service goes on processing the job.", client.FormatDuration(defaultWaitTimeout)))
}

// dataSourceTimeouts is the timeouts package's attribute for a data source,
// with read described by readDescription.
func dataSourceTimeouts(ctx context.Context, readDescription string) dschema.Attribute {
	a, ok := dstimeouts.AttributesWithOpts(ctx, dstimeouts.Opts{ReadDescription: readDescription}).(dschema.SingleNestedAttribute)
	if !ok {
		panic("timeouts.AttributesWithOpts no longer returns a SingleNestedAttribute")
	}
	a.MarkdownDescription = "Time limits of the read."
	documentedPositiveTimeouts(a.Attributes)
	return a
}

func (d *jobDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{
		MarkdownDescription: jobDataSourceDescription,
		Attributes: map[string]dschema.Attribute{
			"id": dschema.StringAttribute{
				MarkdownDescription: "Identifier of the job (a UUID), as returned when it was created.",
				Required:            true,
				Validators:          []validator.String{validators.StringMatches(client.JobIDPattern, "must be a UUID (8-4-4-4-12 hexadecimal digits, as the service gives jobs)")},
			},
			"include_transcript": dschema.BoolAttribute{
				MarkdownDescription: includeTranscriptDescription + " Defaults to `false`.",
				Optional:            true,
			},
			"wait_for_completion": dschema.BoolAttribute{
				MarkdownDescription: "Whether the read waits for the job to end (`done` or `error`), within `timeouts.read`, rather than reading it as it is. " +
					"With `transcription_job` resources created with `wait_for_completion = false`, one such data source per job makes a batch end near its slowest job: " +
					"Terraform runs every quick submission before any wait, so the jobs process together instead of ten at a time (the default `-parallelism`), and the results are in the same apply. " +
					"A job that ends in `error` is read with its `error_code`, and a warning says so. Defaults to `false`.",
				Optional: true,
			},
			"timeouts": jobDataSourceTimeouts(ctx),
			"include_raw_result": dschema.BoolAttribute{
				MarkdownDescription: "Whether to keep the whole result: the transcript as with `include_transcript`, plus the word-level timings (`words` in each utterance of `result.transcription.utterances`) and the whole result as JSON (`result_json`). " +
					"An hour of speech has about 8,000 words, each with its timings and confidence, so they are left out by default to keep state small. Defaults to `false`.",
				Optional: true,
			},
			"request_id": dschema.StringAttribute{
				MarkdownDescription: "Debug identifier of the job, for the service's support.",
				Computed:            true,
			},
			"created_at": dschema.StringAttribute{
				MarkdownDescription: "When the job was created (ISO 8601).",
				Computed:            true,
			},
			"status": dschema.StringAttribute{
				MarkdownDescription: "Status of the job: " + markdownList(client.JobStatuses) + ". `done` and `error` are final.",
				Computed:            true,
			},
			"completed_at": dschema.StringAttribute{
				MarkdownDescription: "When the job ended (ISO 8601); null until it is `done` or `error`.",
				Computed:            true,
			},
			"error_code": dschema.Int64Attribute{
				MarkdownDescription: "HTTP-style code of the job's failure when its status is `error`: an HTTP status such as 422 or 500, or a code of the service's own, which the provider keeps as sent; null otherwise.",
				Computed:            true,
			},
			fileView.name:   fileView.dataSourceAttribute(),
			resultView.name: resultView.dataSourceAttribute(),
			// As in transcription_jobs' items.
			"version": dschema.Int64Attribute{MarkdownDescription: recordVersionView.description, Computed: true},
			"kind":    dschema.StringAttribute{MarkdownDescription: recordKindView(client.KindPreRecorded).description, Computed: true},
			"post_session_metadata": dschema.StringAttribute{
				MarkdownDescription: postSessionMetadataView.description,
				CustomType:          jsonTextType{},
				Computed:            true,
			},
			"result_json": dschema.StringAttribute{
				MarkdownDescription: "The whole result as JSON, word timings included, when `include_raw_result` is `true`; null otherwise, and until the job is `done`.",
				CustomType:          jsonTextType{},
				Computed:            true,
			},
			"request_params": requestParamsDataSourceAttribute(ctx),
			"custom_metadata": dschema.MapAttribute{
				MarkdownDescription: "Metadata attached to the job by its creator; values that are not strings are JSON-encoded.",
				ElementType:         types.StringType,
				Computed:            true,
			},
		},
	}
}

func (d *jobDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Read runs at plan time when id is known (at apply time otherwise), so the
// zero data retention refusal comes first, before any request: data sources
// have no plan modification, and validation happens without the provider's
// configuration.
func (d *jobDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx, stop := d.data.untilStopped(ctx)
	defer stop()
	var config jobDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Before the client, which may be pending: applying what it comes from
	// first would lead only to this refusal.
	if d.data != nil && d.data.ZeroDataRetention {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Cannot read a job under zero data retention",
			"The provider has zero_data_retention = true, and the service disables reading jobs (GET /v2/pre-recorded/{id}) for accounts with zero data retention: "+
				"a job's result reaches only its callback. Remove this data source, and take the result from the callback instead.")
		return
	}
	if d.data.clientFor("the transcription_job data source", &resp.Diagnostics) == nil {
		return
	}
	id := config.ID.ValueString()

	ctx = tflog.SetField(ctx, "job_id", id)
	record := config.recordModel()
	detail := resultDetail(record.resultContent())
	var job *client.PreRecordedJob
	var err error
	timeout, diags := config.Timeouts.Read(ctx, defaultWaitTimeout)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	read, cancel := newJobRead(ctx, timeout, nil)
	defer cancel()
	if config.WaitForCompletion.ValueBool() {
		job, err = waitUntilFinal(read.ctx, d.data.Client, id, d.poll, detail, nil, true)
		if err != nil && !client.IsNotFound(err) {
			// The job goes on processing only if it was seen doing so.
			aftermath := ""
			if job != nil && !client.IsFinal(job.Status) {
				aftermath = jobLeftRunning
			}
			after := waitAftermath{running: aftermath}
			if job == nil && !d.data.Client.Succeeded() {
				after.unreached = "No request to base_url has succeeded in this run: while nothing there answers at all, a longer timeouts.read does not help, as the wait ends once the client's retries (max_retries) of a look that gets no answer are spent."
			}
			addWaitError(&resp.Diagnostics, id, job, timeout, err, "timeouts.read", after)
			return
		}
		if err == nil && job.Status == client.StatusError {
			resp.Diagnostics.AddWarning("Transcription job failed", jobFailureDetail(job)+uploadNotFoundNote(d.data, requestedAudioURL(job), job.ErrorCode))
		} else if err == nil {
			warnOfFailedAddons(&resp.Diagnostics, job)
		}
	} else {
		job, err = d.data.Client.GetPreRecorded(read.ctx, id, detail)
	}
	switch {
	case read.timedOut(err):
		resp.Diagnostics.AddError("Timed out reading the transcription job",
			fmt.Sprintf("Job %s could not be read within %s (timeouts.read): %s\n\nRaise timeouts.read, or try again later.", id, client.FormatDuration(timeout), apiErrorDetail(err)))
		return
	case client.IsNotFound(err) && job != nil:
		// Seen by the wait, then gone: the id is right.
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Transcription job not found",
			fmt.Sprintf("The service no longer has job %q, which was %s when last seen while this data source waited for it: it was deleted meanwhile "+
				"(terraform destroy of its resource, another client, or the end of its retention period).", id, job.Status))
		return
	case client.IsNotFound(err):
		addJobNotFound(read.ctx, d.data.Client, &resp.Diagnostics, id, err, path.Root("id"), "Transcription job not found",
			fmt.Sprintf("The service at %s has no pre-recorded job with id %q. Check the id (a live session's id is no pre-recorded job's: the transcription_live_jobs data source reads live sessions), "+
				"and that the data source's provider configuration (base_url, api_key) is the one the job was created with; the service also deletes jobs when their retention period ends (3 weeks on paid plans).", d.data.Client.ServiceAddress(), id))
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, fmt.Sprintf("Cannot read the transcription job %q", id), err)
		return
	}
	tflog.Debug(ctx, "read transcription job", map[string]any{"status": job.Status})

	state, diags := jobDataSourceState(ctx, config, job)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// recordModel is the resource model a job record is converted with, which
// keeps of the result what the resource would with the same settings.
func (c jobDataSourceModel) recordModel() jobResourceModel {
	return jobResourceModel{IncludeTranscript: types.BoolValue(c.IncludeTranscript.ValueBool()), IncludeRawResult: types.BoolValue(c.IncludeRawResult.ValueBool())}
}

// jobDataSourceState converts a job record with the resource's code: the
// record's attributes by setRecord, request_params by the conversion import
// uses (service defaults filled in, absent objects null).
func jobDataSourceState(ctx context.Context, config jobDataSourceModel, job *client.PreRecordedJob) (jobDataSourceModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	m := config.recordModel()
	diags.Append(m.setRecord(ctx, job)...)

	params := types.ObjectNull(requestParamsAttrTypes())
	if job.RequestParams != nil {
		diags.Append(m.setRequestFromParams(ctx, job.RequestParams, nil)...)
		// Shown as file.source is: a presigned URL's signature is a secret,
		// and here Terraform cannot know it came from a sensitive value.
		m.AudioURL = redactedURLValue(m.AudioURL.ValueStringPointer())
		var d diag.Diagnostics
		params, d = requestParamsValue(m.jobRequestModel)
		diags.Append(d...)
	}

	return jobDataSourceModel{
		ID:                  config.ID,
		IncludeTranscript:   config.IncludeTranscript,
		IncludeRawResult:    config.IncludeRawResult,
		WaitForCompletion:   config.WaitForCompletion,
		Timeouts:            config.Timeouts,
		RequestID:           m.RequestID,
		CreatedAt:           m.CreatedAt,
		Status:              m.Status,
		CompletedAt:         m.CompletedAt,
		ErrorCode:           m.ErrorCode,
		File:                m.File,
		Result:              m.Result,
		ResultJSON:          m.ResultJSON,
		RequestParams:       params,
		CustomMetadata:      flattenCustomMetadata(job.CustomMetadata),
		Version:             types.Int64Value(job.Version),
		Kind:                types.StringValue(job.Kind),
		PostSessionMetadata: flattenJSON(job.PostSessionMetadata),
	}, diags
}

// ---------------------------------------------------------------------------
// request_params: the request attributes of transcription_job, read only.
// Their schema and values come from the resource, so the two cannot drift
// apart and a job read here looks like one declared there.

// requestParamNames are the request attributes request_params holds: every
// one but custom_metadata, which the service keeps out of request_params too
// and which has its own attribute here.
var requestParamNames = sync.OnceValue(func() []string {
	names := slices.DeleteFunc(slices.Clone(requestFieldNames()), func(name string) bool { return name == "custom_metadata" })
	slices.Sort(names)
	return names
})

// requestParamsAttrTypes is the type of request_params.
var requestParamsAttrTypes = sync.OnceValue(func() map[string]attr.Type {
	all := jobAttrTypes()
	out := make(map[string]attr.Type, len(requestParamNames()))
	for _, name := range requestParamNames() {
		out[name] = all[name]
	}
	return out
})

// requestParamsDataSourceAttribute is request_params in the data source's
// schema: the resource's request attributes, computed only.
func requestParamsDataSourceAttribute(ctx context.Context) dschema.SingleNestedAttribute {
	resourceAttrs := jobSchema(ctx).Attributes
	attrs := make(map[string]dschema.Attribute, len(requestParamNames()))
	for _, name := range requestParamNames() {
		a, ok := resourceAttrs[name]
		if !ok {
			panic("transcription_job has no request attribute " + name)
		}
		attrs[name] = computedDataSourceAttribute(a)
	}
	// The resource's texts for the callback URLs are about what its
	// configuration may leave out; here they are only read.
	callbackURL, ok1 := attrs["callback_url"].(dschema.StringAttribute)
	callbackConfig, ok2 := attrs["callback_config"].(dschema.SingleNestedAttribute)
	configURL, ok3 := callbackConfig.Attributes["url"].(dschema.StringAttribute)
	if !ok1 || !ok2 || !ok3 {
		panic("the job's callback attributes changed kind")
	}
	audioURL, ok0 := attrs["audio_url"].(dschema.StringAttribute)
	if !ok0 {
		panic("the job's audio_url changed kind")
	}
	audioURL.MarkdownDescription = "URL of the audio or video file transcribed, shown as `file.source` is: without its user information, " +
		"and with `?…` for its query or fragment, where a presigned URL keeps its signature."
	attrs["audio_url"] = audioURL
	// The switches' texts say what a new job needs; here they are only read.
	for _, sw := range switchesNeedingConfig {
		a, ok := attrs[sw.name].(dschema.BoolAttribute)
		if !ok {
			panic(sw.name + " is no longer a bool attribute of the job's schema")
		}
		a.MarkdownDescription = strings.Replace(a.MarkdownDescription, needsConfigForNewJob, ".", 1)
		attrs[sw.name] = a
	}
	callbackURL.MarkdownDescription = "**Deprecated** by the service, for `callback = true` and `callback_config`. The URL the job's result is sent to with a `POST`. " + readCallbackURLSensitive
	attrs["callback_url"] = callbackURL
	configURL.MarkdownDescription = "The URL called with the job's result. " + readCallbackURLSensitive
	callbackConfig.Attributes["url"] = configURL
	attrs["callback_config"] = callbackConfig
	return dschema.SingleNestedAttribute{
		MarkdownDescription: "The parameters the job was created with, as the service applied them (its defaults filled in), " +
			"with the names and shapes of the `transcription_job` resource's arguments. Null when the service does not return them.",
		Computed:   true,
		Attributes: attrs,
	}
}

// readCallbackURLSensitive says why a callback URL read from a job is
// sensitive.
const readCallbackURLSensitive = "Sensitive, because such a URL often carries a token."

// requestParamsValue takes the request attributes out of a request model,
// by their tfsdk names.
func requestParamsValue(m jobRequestModel) (types.Object, diag.Diagnostics) {
	v := reflect.ValueOf(m)
	wanted := requestParamsAttrTypes()
	values := make(map[string]attr.Value, len(wanted))
	var diags diag.Diagnostics
	for i := range v.NumField() {
		name := v.Type().Field(i).Tag.Get("tfsdk")
		if _, ok := wanted[name]; !ok {
			continue
		}
		value, ok := v.Field(i).Interface().(attr.Value)
		if !ok {
			diags.AddError("Cannot convert the job's request_params", "The field of "+name+" is not a framework value. This is a bug in the provider; please report it.")
			return types.ObjectNull(wanted), diags
		}
		values[name] = value
	}
	o, d := types.ObjectValue(wanted, values)
	diags.Append(d...)
	return o, diags
}

// requestedAudioURL is the audio_url a job was created with, "" when its
// record has no request_params.
func requestedAudioURL(job *client.PreRecordedJob) string {
	if job.RequestParams == nil {
		return ""
	}
	return job.RequestParams.AudioURL
}
