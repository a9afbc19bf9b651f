package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// NewJobsDataSource returns the transcription_jobs data source, which lists
// pre-recorded jobs (GET /v2/pre-recorded): what the transcription_job list
// resource finds for `terraform query`, for configurations (and engines
// without query, such as OpenTofu).
func NewJobsDataSource() datasource.DataSource {
	return &listingDataSource[client.PreRecordedRecord]{listing: jobsListing}
}

// jobsListing is GET /v2/pre-recorded as a listing data source.
var jobsListing = newJobListing(jobsItemType, jobListing[client.PreRecordedRecord]{
	name: "transcription_jobs",
	description: "Lists pre-recorded transcription jobs, newest first, with every field of their records: those of this configuration's `transcription_job` resources and those made elsewhere (an application, a script, another configuration). " +
		"Follows the service's pages until `limit` items are collected or the listing ends; without `limit`, every matching job is returned. " +
		"Word timings are not included, and the transcripts only with `include_transcript = true`, to keep state small. " +
		"To list the jobs of `transcription_job` resources of the same configuration, refer to them or name them in `depends_on`: otherwise the data source is read at plan time, before they exist. " +
		"To read one job whole, give its id to the `transcription_job` data source; to bring jobs under management, `terraform query` with the `transcription_job` list resource (Terraform 1.14 and later) writes their resource and import blocks.",
	what: "pre-recorded jobs",
	zeroDataRetention: "The provider has zero_data_retention = true, and the service discloses no job of such an account through its API: " +
		"results reach only the jobs' callbacks. Remove this data source.",
	items: jobsItemsView,
	each: func(c *client.Client) func(context.Context, client.ListOptions, int, int, client.Detail, func([]client.PreRecordedRecord) error) (int, error) {
		return c.EachPreRecordedRecordPage
	},
	item: func(f *flattener, ctx context.Context, j *client.PreRecordedRecord, content resultContent) (string, types.Object) {
		return j.ID, f.listedJob(ctx, jobsItemType, &j.JobCommon, f.preRecordedRequestParams(j.RequestParams), content, func() []string {
			var p struct {
				TranslationConfig *struct {
					TargetLanguages []string `json:"target_languages"`
				} `json:"translation_config"`
			}
			if json.Unmarshal(j.RequestParams, &p) != nil || p.TranslationConfig == nil {
				return nil // shown as they are in request_params
			}
			return p.TranslationConfig.TargetLanguages
		})
	},
})

// jobsItemsView is the `items` attribute.
var jobsItemsView = listedJobsView("The pre-recorded jobs, newest first. Values the service leaves out are null.", "pre-recorded",
	"Debug identifier of the job, for the service's support.",
	"Parameters the job was created with, as JSON text: the service's values (with its defaults filled in), its top-level keys sorted: the fields of the `transcription_job` resource's request, such as "+
		"`model`, `language_config`, `diarization` and `diarization_config`, and `audio_url` shown as `file.source` is (without its query, where a presigned URL keeps its signature). "+
		"`callback_url` and `callback_config.url` are left out: they may carry a token, and a value inside `items` cannot be marked sensitive on its own. "+
		"For example `jsondecode(data.transcription_jobs.example.items[0].request_params).model`.")

// jobsItemType is the type of an item, computed once.
var jobsItemType = jobsItemsView.objectType()

// preRecordedRequestParams is a pre-recorded job's request_params as JSON
// text, as the service sent them, with their audio_url redacted and without
// their callback URLs.
func (f *flattener) preRecordedRequestParams(raw json.RawMessage) jsonText {
	return f.shownRequestParams("a pre-recorded job's", raw, func(fields map[string]json.RawMessage) {
		delete(fields, "callback_url")
		var audioURL *string
		if err := json.Unmarshal(fields["audio_url"], &audioURL); err == nil && audioURL != nil {
			fields["audio_url"] = f.rawJSON(client.RedactedURL(*audioURL))
		}
	})
}
