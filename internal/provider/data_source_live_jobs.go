package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// NewLiveJobsDataSource returns the transcription_live_jobs data source,
// which lists live jobs (GET /v2/live).
func NewLiveJobsDataSource() datasource.DataSource {
	return &listingDataSource[client.LiveJob]{listing: liveJobsListing}
}

// liveJobsListing is GET /v2/live as a listing data source.
var liveJobsListing = newJobListing(liveJobType, jobListing[client.LiveJob]{
	name: "transcription_live_jobs",
	description: "Lists live (streaming) transcription jobs, newest first, with every field of their records. " +
		"Follows the service's pages until `limit` items are collected or the listing ends; without `limit`, every matching job is returned. " +
		"The transcripts are kept only with `include_transcript = true`, and their utterances without word timings, to keep state small " +
		"(a session's real-time `messages` are kept as the service wrote them, word timings included): " +
		"an item with its transcript takes tens of kilobytes, ten thousand of them hundreds of megabytes.",
	what: "live jobs",
	zeroDataRetention: "The provider has zero_data_retention = true, and the service discloses no transcript or metadata of such an account through its API (GET /v2/live answers 403). " +
		"Remove this data source; results reach only the callbacks of the sessions.",
	items: liveJobsItemsView,
	each: func(c *client.Client) func(context.Context, client.ListOptions, int, int, client.Detail, func([]client.LiveJob) error) (int, error) {
		return c.EachLivePage
	},
	item: func(f *flattener, ctx context.Context, j *client.LiveJob, content resultContent) (string, types.Object) {
		return j.ID, f.liveJob(ctx, j, content)
	},
})

// ---------------------------------------------------------------------------
// The live job record.

// liveJobsItemsView is the `items` attribute.
var liveJobsItemsView = listedJobsView("The live jobs, newest first. Values the service leaves out are null.", "live",
	"Debug identifier of the request that started the session.",
	"Parameters the session was started with, as JSON text: the service's values, its top-level keys in alphabetical order: "+
		"`bit_depth`, `callback`, `callback_config` "+
		"(without its `url`, which may carry a token: a value inside `items` cannot be marked sensitive on its own), `channels`, `encoding`, `endpointing`, "+
		"`language_config`, `maximum_duration_without_endpointing`, `messages_config`, `model`, `post_processing`, `pre_processing`, `realtime_processing` and `sample_rate`. "+
		"For example `jsondecode(data.transcription_live_jobs.example.items[0].request_params).sample_rate`.")

// liveJobType is the type of an item, computed once.
var liveJobType = liveJobsItemsView.objectType()

// liveJob converts one live job record, keeping of its result what content
// says (no word timings but those in the messages, kept as sent).
func (f *flattener) liveJob(ctx context.Context, j *client.LiveJob, content resultContent) types.Object {
	return f.listedJob(ctx, liveJobType, &j.JobCommon, f.liveRequestParams(j.RequestParams), content, func() []string {
		if p := j.RequestParams; p != nil && p.RealtimeProcessing != nil && p.RealtimeProcessing.TranslationConfig != nil {
			return p.RealtimeProcessing.TranslationConfig.TargetLanguages
		}
		return nil
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
	return f.shownRequestParams("a live job's", raw, nil)
}

// shownRequestParams is a listed job's request_params (of whose, for
// messages) as the service sent them, raw, without callback_config.url and
// with what hide (if any) takes out: JSON text, null when there are none.
func (f *flattener) shownRequestParams(whose string, raw json.RawMessage, hide func(fields map[string]json.RawMessage)) jsonText {
	if len(raw) == 0 {
		return jsonTextNull()
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		f.diags.AddError("Cannot read "+whose+" request_params", "The service's request_params is not a JSON object: "+err.Error())
		return jsonTextNull()
	}
	if fields == nil { // none, or null
		return jsonTextNull()
	}
	f.dropCallbackConfigURL(fields)
	if hide != nil {
		hide(fields)
	}
	return f.json(fields)
}

// dropCallbackConfigURL leaves callback_config.url out of a job's
// request_params, given as their JSON members: it may carry a token.
func (f *flattener) dropCallbackConfigURL(fields map[string]json.RawMessage) {
	config, ok := fields["callback_config"]
	if !ok {
		return
	}
	var configFields map[string]json.RawMessage
	if err := json.Unmarshal(config, &configFields); err == nil && configFields != nil {
		delete(configFields, "url")
		fields["callback_config"] = f.rawJSON(configFields)
	}
}

// rawJSON encodes v for a JSON value built from the service's members.
func (f *flattener) rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		f.diags.AddError("Cannot encode a value of a listed job as JSON", err.Error())
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
