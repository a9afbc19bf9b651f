package provider

import (
	"context"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var (
	_ datasource.DataSource              = &liveJobsDataSource{}
	_ datasource.DataSourceWithConfigure = &liveJobsDataSource{}
)

// liveJobsPageSize is the page size asked of GET /v2/live: large enough to
// keep the number of round trips low, small enough to keep each answer a
// reasonable size. ListAllLive never asks for more than is still wanted.
const liveJobsPageSize = 100

// NewLiveJobsDataSource returns the transcription_live_jobs data source.
func NewLiveJobsDataSource() datasource.DataSource { return &liveJobsDataSource{} }

// liveJobsDataSource lists live jobs (GET /v2/live).
type liveJobsDataSource struct {
	client *client.Client
}

// liveJobsDataSourceModel is the data source's configuration and state.
type liveJobsDataSourceModel struct {
	Offset            types.Int64  `tfsdk:"offset"`
	Limit             types.Int64  `tfsdk:"limit"`
	Status            types.List   `tfsdk:"status"`
	Date              types.String `tfsdk:"date"`
	AfterDate         types.String `tfsdk:"after_date"`
	BeforeDate        types.String `tfsdk:"before_date"`
	CustomMetadata    types.Map    `tfsdk:"custom_metadata"`
	IncludeTranscript types.Bool   `tfsdk:"include_transcript"`
	IDs               types.List   `tfsdk:"ids"`
	Items             types.List   `tfsdk:"items"`
}

func (d *liveJobsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_jobs"
}

func (d *liveJobsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists live (streaming) transcription jobs, newest first, with every field of their records. " +
			"Follows the service's pages until `limit` items are collected or the listing ends; without `limit`, every matching job is returned. " +
			"Word timings are not included, and the transcripts only with `include_transcript = true`, to keep state small: " +
			"an item with its transcript takes tens of kilobytes, ten thousand of them hundreds of megabytes.",
		Attributes: map[string]schema.Attribute{
			"include_transcript": schema.BoolAttribute{
				MarkdownDescription: includeTranscriptDescription + " Defaults to `false`.",
				Optional:            true,
			},
			"offset": schema.Int64Attribute{
				MarkdownDescription: "Number of matching jobs to skip before the first one returned. Must be at least 0; defaults to 0.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinListOffset)},
			},
			"limit": schema.Int64Attribute{
				MarkdownDescription: "Most jobs returned in total. Must be at least 1. Without it, every matching job is returned.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinListLimit)},
			},
			"status": schema.ListAttribute{
				MarkdownDescription: "Keep jobs in any of these statuses: " + markdownList(client.JobStatuses) + ".",
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          []validator.List{listvalidator.ValueStringsAre(stringvalidator.OneOf(client.JobStatuses...))},
			},
			"date": schema.StringAttribute{
				MarkdownDescription: "Keep jobs created on this UTC calendar day, in the form `YYYY-MM-DD`.",
				Optional:            true,
				Validators:          []validator.String{calendarDate()},
			},
			"after_date": schema.StringAttribute{
				MarkdownDescription: "Keep jobs created after this RFC 3339 (ISO 8601) date-time, such as `2024-05-01T12:00:00Z`. Must be earlier than `before_date` when both are set.",
				Optional:            true,
				Validators: []validator.String{
					rfc3339DateTime(),
					earlierThan(path.MatchRoot("before_date")),
				},
			},
			"before_date": schema.StringAttribute{
				MarkdownDescription: "Keep jobs created before this RFC 3339 (ISO 8601) date-time, such as `2024-05-02T00:00:00Z`.",
				Optional:            true,
				Validators:          []validator.String{rfc3339DateTime()},
			},
			"custom_metadata": schema.MapAttribute{
				MarkdownDescription: "Keep jobs whose `custom_metadata` has every one of these pairs. Non-string metadata values match their JSON text (`2`, `true`). " +
					"Keys cannot contain square brackets, which the query encoding `custom_metadata[key]=value` cannot carry.",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Map{mapvalidator.KeysAre(
					stringvalidator.RegexMatches(metadataKeyPattern, "key must not be empty or contain square brackets"),
				)},
			},
			"ids": schema.ListAttribute{
				MarkdownDescription: "Identifiers of the returned jobs, in the order of `items`; handy for `for_each`.",
				Computed:            true,
				ElementType:         types.StringType,
			},
			liveJobsItemsView.name: liveJobsItemsView.dataSourceAttribute(),
		},
	}
}

// metadataKeyPattern matches the custom metadata keys the query encoding
// custom_metadata[key]=value can carry.
var metadataKeyPattern = regexp.MustCompile(`^[^\[\]]+$`)

// markdownList writes values as `a`, `b`, `c`.
func markdownList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	return strings.Join(quoted, ", ")
}

func (d *liveJobsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := providerDataFrom(req.ProviderData, &resp.Diagnostics); data != nil {
		d.client = data.Client
	}
}

func (d *liveJobsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var state liveJobsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
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
	jobs, pages, err := d.client.ListAllLive(ctx, opts, maxItems, liveJobsPageSize, resultDetail(content))
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot list live jobs", err)
		return
	}
	tflog.Debug(ctx, "listed live jobs", map[string]any{"items": len(jobs), "pages": pages})

	f := &flattener{}
	ids := make([]attr.Value, len(jobs))
	items := make([]attr.Value, len(jobs))
	for i := range jobs {
		ids[i] = types.StringValue(jobs[i].ID)
		items[i] = f.liveJob(ctx, &jobs[i], content)
	}
	state.IDs = f.list(types.StringType, ids)
	state.Items = handOver(ctx, f.list(liveJobType, items))
	resp.Diagnostics.Append(f.diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// listOptions converts the configured filters. Offset and limit are
// checked at plan time; limit is not a page size, so it is not set here.
func (m liveJobsDataSourceModel) listOptions(ctx context.Context) (client.ListLiveOptions, diag.Diagnostics) {
	var diags diag.Diagnostics
	opts := client.ListLiveOptions{
		Offset:     int(m.Offset.ValueInt64()),
		Date:       m.Date.ValueString(),
		AfterDate:  m.AfterDate.ValueString(),
		BeforeDate: m.BeforeDate.ValueString(),
	}
	if !m.Status.IsNull() {
		diags.Append(m.Status.ElementsAs(ctx, &opts.Status, false)...)
	}
	if !m.CustomMetadata.IsNull() {
		diags.Append(m.CustomMetadata.ElementsAs(ctx, &opts.CustomMetadata, false)...)
	}
	return opts, diags
}

// ---------------------------------------------------------------------------
// The live job record.

// messageFlagViews are the nine message-category flags of messages_config
// and callback_config.
func messageFlagViews() []viewAttr {
	what := map[string]string{
		"receive_partial_transcripts":        "partial transcripts",
		"receive_final_transcripts":          "final transcripts",
		"receive_speech_events":              "speech start and end events",
		"receive_pre_processing_events":      "pre-processing events",
		"receive_realtime_processing_events": "real-time processing events",
		"receive_post_processing_events":     "post-processing events",
		"receive_acknowledgments":            "acknowledgments",
		"receive_errors":                     "errors",
		"receive_lifecycle_events":           "lifecycle events",
	}
	out := make([]viewAttr, 0, len(liveMessageFlags))
	for _, name := range liveMessageFlags {
		out = append(out, viewBool(name, "Whether "+what[name]+" are delivered."))
	}
	return out
}

// liveMessageFlags lists the flags in the spec's order.
var liveMessageFlags = []string{
	"receive_partial_transcripts", "receive_final_transcripts", "receive_speech_events",
	"receive_pre_processing_events", "receive_realtime_processing_events", "receive_post_processing_events",
	"receive_acknowledgments", "receive_errors", "receive_lifecycle_events",
}

var liveLanguageConfigView = viewObject("language_config", "Languages of the session.",
	viewStringList("languages", "Language codes the session was given; empty or null means auto-detection."),
	viewBool("code_switching", "Whether the language is detected on each utterance."),
)

var liveVocabularyConfigView = viewObject("custom_vocabulary_config", "Custom vocabulary settings.",
	viewObjectList("vocabulary", "Vocabulary entries.",
		viewString("value", "Text used in the transcription."),
		viewFloat64("intensity", "Intensity of the entry, from 0 to 1."),
		viewStringList("pronunciations", "Alternative pronunciations."),
		viewString("language", "Language used for sound comparison."),
	),
	viewFloat64("default_intensity", "Intensity of entries without their own, from 0 to 1."),
)

var liveSpellingConfigView = viewObject("custom_spelling_config", "Custom spelling settings.",
	viewAttr{name: "spelling_dictionary", description: "Target spellings, each with the spellings it replaces.", typ: types.MapType{ElemType: types.ListType{ElemType: types.StringType}}},
)

var liveTranslationConfigView = viewObject("translation_config", "Translation settings.",
	viewStringList("target_languages", "Languages to translate into."),
	viewString("model", "Translation model: "+markdownList(client.TranslationModels)+"."),
	viewBool("match_original_utterances", "Whether translated utterances are aligned with the original ones."),
	viewBool("lipsync", "Whether lip-sync alignment is on."),
	viewBool("context_adaptation", "Whether translation is context-aware."),
	viewString("context", "Context given to improve accuracy."),
	viewBool("informal", "Whether informal forms are forced."),
)

var liveRequestParamsView = viewObject("request_params", "Parameters the session was started with.",
	viewString("encoding", "Audio encoding, such as `wav/pcm`."),
	viewInt64("bit_depth", "Bits per sample."),
	viewInt64("sample_rate", "Samples per second."),
	viewInt64("channels", "Number of audio channels."),
	viewString("model", "Model identifier."),
	viewFloat64("endpointing", "Silence, in seconds, that ends an utterance."),
	viewFloat64("maximum_duration_without_endpointing", "Longest utterance, in seconds, without endpointing."),
	liveLanguageConfigView,
	viewObject("pre_processing", "Pre-processing settings.",
		viewBool("audio_enhancer", "Whether the audio enhancer is on."),
		viewFloat64("speech_threshold", "Speech detection threshold."),
	),
	viewObject("realtime_processing", "Real-time processing settings.",
		viewBool("custom_vocabulary", "Whether custom vocabulary is on."),
		liveVocabularyConfigView,
		viewBool("custom_spelling", "Whether custom spelling is on."),
		liveSpellingConfigView,
		viewBool("translation", "Whether translation is on."),
		liveTranslationConfigView,
		viewBool("named_entity_recognition", "Whether named entity recognition is on."),
		viewBool("sentiment_analysis", "Whether sentiment analysis is on."),
	),
	viewObject("post_processing", "Post-processing settings.",
		viewBool("summarization", "Whether summarization is on."),
		viewObject("summarization_config", "Summarization settings.",
			viewString("type", "Summary type: "+markdownList(client.SummaryTypes)+"."),
		),
		viewBool("chapterization", "Whether chapterization is on."),
	),
	viewObject("messages_config", "Message categories delivered over the session.", messageFlagViews()...),
	viewBool("callback", "Whether callbacks are sent."),
	viewObject("callback_config", "Callback settings: the URL and the message categories sent to it.",
		append([]viewAttr{viewString("url", "URL the callbacks are sent to.")}, messageFlagViews()...)...),
)

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
	viewString("post_session_metadata", "Metadata about the session, as a JSON object text (use `jsondecode`)."),
	fileView,
	liveRequestParamsView,
	resultView,
)

var (
	liveJobType            = liveJobsItemsView.objectType()
	liveRequestParamsType  = liveRequestParamsView.objectType()
	liveLanguageConfigType = liveLanguageConfigView.objectType()
	livePreProcessingType  = liveRequestParamsView.child("pre_processing").objectType()
	liveRealtimeType       = liveRequestParamsView.child("realtime_processing").objectType()
	liveVocabularyType     = liveVocabularyConfigView.objectType()
	liveVocabularyEntry    = liveVocabularyConfigView.child("vocabulary").objectType()
	liveSpellingType       = liveSpellingConfigView.objectType()
	liveTranslationCfgType = liveTranslationConfigView.objectType()
	livePostProcessingType = liveRequestParamsView.child("post_processing").objectType()
	liveSummaryCfgType     = liveRequestParamsView.child("post_processing").child("summarization_config").objectType()
	liveMessagesType       = liveRequestParamsView.child("messages_config").objectType()
	liveCallbackCfgType    = liveRequestParamsView.child("callback_config").objectType()
)

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

func (f *flattener) liveRequestParams(p *client.LiveRequestParams) types.Object {
	if p == nil {
		return types.ObjectNull(liveRequestParamsType.AttrTypes)
	}
	return f.object(liveRequestParamsType, map[string]attr.Value{
		"encoding":                             types.StringPointerValue(p.Encoding),
		"bit_depth":                            types.Int64PointerValue(p.BitDepth),
		"sample_rate":                          types.Int64PointerValue(p.SampleRate),
		"channels":                             types.Int64PointerValue(p.Channels),
		"model":                                types.StringPointerValue(p.Model),
		"endpointing":                          types.Float64PointerValue(p.Endpointing),
		"maximum_duration_without_endpointing": types.Float64PointerValue(p.MaximumDurationWithoutEndpointing),
		"language_config":                      f.liveLanguageConfig(p.LanguageConfig),
		"pre_processing":                       f.livePreProcessing(p.PreProcessing),
		"realtime_processing":                  f.liveRealtime(p.RealtimeProcessing),
		"post_processing":                      f.livePostProcessing(p.PostProcessing),
		"messages_config":                      f.liveMessages(p.MessagesConfig),
		"callback":                             types.BoolPointerValue(p.Callback),
		"callback_config":                      f.liveCallbackConfig(p.CallbackConfig),
	})
}

func (f *flattener) liveLanguageConfig(c *client.LanguageConfig) types.Object {
	if c == nil {
		return types.ObjectNull(liveLanguageConfigType.AttrTypes)
	}
	return f.object(liveLanguageConfigType, map[string]attr.Value{
		"languages":      f.stringList(c.Languages),
		"code_switching": types.BoolPointerValue(c.CodeSwitching),
	})
}

func (f *flattener) livePreProcessing(c *client.LivePreProcessing) types.Object {
	if c == nil {
		return types.ObjectNull(livePreProcessingType.AttrTypes)
	}
	return f.object(livePreProcessingType, map[string]attr.Value{
		"audio_enhancer":   types.BoolPointerValue(c.AudioEnhancer),
		"speech_threshold": types.Float64PointerValue(c.SpeechThreshold),
	})
}

func (f *flattener) liveRealtime(c *client.LiveRealtimeProcessing) types.Object {
	if c == nil {
		return types.ObjectNull(liveRealtimeType.AttrTypes)
	}
	return f.object(liveRealtimeType, map[string]attr.Value{
		"custom_vocabulary":        types.BoolPointerValue(c.CustomVocabulary),
		"custom_vocabulary_config": f.liveVocabulary(c.CustomVocabularyConfig),
		"custom_spelling":          types.BoolPointerValue(c.CustomSpelling),
		"custom_spelling_config":   f.liveSpelling(c.CustomSpellingConfig),
		"translation":              types.BoolPointerValue(c.Translation),
		"translation_config":       f.liveTranslationConfig(c.TranslationConfig),
		"named_entity_recognition": types.BoolPointerValue(c.NamedEntityRecognition),
		"sentiment_analysis":       types.BoolPointerValue(c.SentimentAnalysis),
	})
}

func (f *flattener) liveVocabulary(c *client.CustomVocabularyConfig) types.Object {
	if c == nil {
		return types.ObjectNull(liveVocabularyType.AttrTypes)
	}
	entries := types.ListNull(liveVocabularyEntry)
	if c.Vocabulary != nil {
		elems := make([]attr.Value, len(c.Vocabulary))
		for i, e := range c.Vocabulary {
			elems[i] = f.object(liveVocabularyEntry, map[string]attr.Value{
				"value":          types.StringValue(e.Value),
				"intensity":      types.Float64PointerValue(e.Intensity),
				"pronunciations": f.stringList(e.Pronunciations),
				"language":       types.StringPointerValue(e.Language),
			})
		}
		entries = f.list(liveVocabularyEntry, elems)
	}
	return f.object(liveVocabularyType, map[string]attr.Value{
		"vocabulary":        entries,
		"default_intensity": types.Float64PointerValue(c.DefaultIntensity),
	})
}

func (f *flattener) liveSpelling(c *client.CustomSpellingConfig) types.Object {
	if c == nil {
		return types.ObjectNull(liveSpellingType.AttrTypes)
	}
	dict := types.MapNull(stringListType)
	if c.SpellingDictionary != nil {
		elems := make(map[string]attr.Value, len(c.SpellingDictionary))
		for target, replaced := range c.SpellingDictionary {
			elems[target] = f.stringList(replaced)
		}
		m, d := types.MapValue(stringListType, elems)
		f.diags.Append(d...)
		dict = m
	}
	return f.object(liveSpellingType, map[string]attr.Value{"spelling_dictionary": dict})
}

func (f *flattener) liveTranslationConfig(c *client.TranslationConfig) types.Object {
	if c == nil {
		return types.ObjectNull(liveTranslationCfgType.AttrTypes)
	}
	return f.object(liveTranslationCfgType, map[string]attr.Value{
		"target_languages":          f.stringList(c.TargetLanguages),
		"model":                     types.StringPointerValue(c.Model),
		"match_original_utterances": types.BoolPointerValue(c.MatchOriginalUtterances),
		"lipsync":                   types.BoolPointerValue(c.Lipsync),
		"context_adaptation":        types.BoolPointerValue(c.ContextAdaptation),
		"context":                   types.StringPointerValue(c.Context),
		"informal":                  types.BoolPointerValue(c.Informal),
	})
}

func (f *flattener) livePostProcessing(c *client.LivePostProcessing) types.Object {
	if c == nil {
		return types.ObjectNull(livePostProcessingType.AttrTypes)
	}
	summary := types.ObjectNull(liveSummaryCfgType.AttrTypes)
	if c.SummarizationConfig != nil {
		summary = f.object(liveSummaryCfgType, map[string]attr.Value{"type": types.StringPointerValue(c.SummarizationConfig.Type)})
	}
	return f.object(livePostProcessingType, map[string]attr.Value{
		"summarization":        types.BoolPointerValue(c.Summarization),
		"summarization_config": summary,
		"chapterization":       types.BoolPointerValue(c.Chapterization),
	})
}

// messageFlagValues fills the nine flags into values.
func messageFlagValues(c *client.LiveMessagesConfig, values map[string]attr.Value) map[string]attr.Value {
	flags := []*bool{
		c.ReceivePartialTranscripts, c.ReceiveFinalTranscripts, c.ReceiveSpeechEvents,
		c.ReceivePreProcessingEvents, c.ReceiveRealtimeProcessingEvents, c.ReceivePostProcessingEvents,
		c.ReceiveAcknowledgments, c.ReceiveErrors, c.ReceiveLifecycleEvents,
	}
	for i, name := range liveMessageFlags {
		values[name] = types.BoolPointerValue(flags[i])
	}
	return values
}

func (f *flattener) liveMessages(c *client.LiveMessagesConfig) types.Object {
	if c == nil {
		return types.ObjectNull(liveMessagesType.AttrTypes)
	}
	return f.object(liveMessagesType, messageFlagValues(c, map[string]attr.Value{}))
}

func (f *flattener) liveCallbackConfig(c *client.LiveCallbackConfig) types.Object {
	if c == nil {
		return types.ObjectNull(liveCallbackCfgType.AttrTypes)
	}
	return f.object(liveCallbackCfgType, messageFlagValues(&c.LiveMessagesConfig, map[string]attr.Value{
		"url": types.StringPointerValue(c.URL),
	}))
}
