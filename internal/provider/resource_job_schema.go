package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
	"github.com/transcription-service/terraform-provider-transcription/internal/planmodifiers"
	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

// Provider-side defaults.
const (
	// defaultWaitTimeout bounds a wait for a job to end: a create's
	// (timeouts.create), the job data source's (timeouts.read) and the
	// action's (timeouts.invoke).
	defaultWaitTimeout         = 60 * time.Minute
	defaultDeleteTimeout       = 20 * time.Minute
	defaultReadTimeout         = 20 * time.Minute
	defaultWaitForCompletion   = true
	defaultIncludeTranscript   = false
	defaultIncludeRawResult    = false
	defaultRecreateWhenMissing = false
)

// Service defaults of fields the client package names no constant for. The
// schema's Defaults and the import of request_params both use these, so an
// imported job plans without changes.
const (
	defaultSwitch                  = false // every top-level boolean
	defaultCodeSwitching           = false
	defaultMatchOriginalUtterances = true
	defaultLipsync                 = true
	defaultContextAdaptation       = true
	defaultInformal                = false
)

// Paths the lifecycle code reads.
var (
	pathID                = path.Root("id")
	pathIncludeTranscript = path.Root("include_transcript")
	pathIncludeRawResult  = path.Root("include_raw_result")
	pathStatus            = path.Root("status")
	pathResult            = path.Root("result")
	pathRetained          = path.Root("retained")
	pathCallbackURL       = path.Root("callback_url")
)

// switchesNeedingConfig are the switches a new job turns on only with the
// configuration holding the feature's required fields: the service would
// take the job, bill it, and return the feature's result empty. A job that
// exists with one on and no configuration (made elsewhere, then imported)
// is kept as it is, as replacing it would bill it again for nothing.
var switchesNeedingConfig = []switchNeedingConfig{
	{"custom_vocabulary", "custom_vocabulary_config", "vocabulary", true},
	{"translation", "translation_config", "target_languages", false},
	{"custom_spelling", "custom_spelling_config", "spelling_dictionary", true},
	{"audio_to_llm", "audio_to_llm_config", "prompts", false},
}

// switchNeedingConfig is a switch, its configuration and the field of it
// the feature needs.
type switchNeedingConfig struct {
	name, config, needs string
	// entries: the field has no minimum size in the schema, and empty it
	// asks for nothing (target_languages and prompts have SizeAtLeast(1)).
	entries bool
}

// validator is the switch's rule.
func (sw switchNeedingConfig) validator() validator.Bool {
	if sw.entries {
		return validators.SwitchRequiresEntries(sw.config, sw.needs)
	}
	return validators.SwitchRequiresConfig(sw.config, sw.needs)
}

// customMetadataDescription is what custom_metadata is, to the resource
// and to the action, which adds nothing about state.
const customMetadataDescription = "Metadata attached to the job, returned with it and in its callback, and usable to filter listings. An empty map is the same as none."

// resultAt is the sentence of a switch's description that says where the
// resource's result holds what the add-on gives; the action, which keeps
// no result, leaves it out (resultAtSentence).
func resultAt(path string) string { return " Result: `result." + path + "`." }

// resultAtSentence finds what resultAt writes.
var resultAtSentence = regexp.MustCompile(" Result: `result\\.[a-z_.]+`\\.")

// needsConfigForNewJob ends the description of a switch in
// switchesNeedingConfig; the action's says "which must then be set".
const needsConfigForNewJob = ", which a new job must then set (refused at plan otherwise); a job imported with the switch on and no configuration keeps it."

// callbackURLDeprecationMessage is the warning a configuration setting
// callback_url gets.
const callbackURLDeprecationMessage = "callback_url is deprecated by the service: set callback = true and callback_config = { url = ... } instead."

// Beta and alpha features, as the spec labels them.
const (
	betaNote  = "**Beta** in the service: its behaviour may still change. "
	alphaNote = "**Alpha** in the service: experimental, may change or go away. "
)

// jobSchema is the schema of transcription_job. Request attributes carry the
// spec's JSON names. A job cannot be changed once submitted, so a change of
// what the service would do with the request replaces it; the resource's
// ModifyPlan decides that for all of them at once (planReplacement).
func jobSchema(ctx context.Context) schema.Schema {
	attrs := map[string]schema.Attribute{
		// The request: InitTranscriptionRequest.
		"audio_url": schema.StringAttribute{
			MarkdownDescription: "URL of the audio or video file to transcribe: a file uploaded to the service or an external file. An absolute `http` or `https` URL. " +
				"Under zero data retention uploads are disabled, so it must be an external URL (public or signed).",
			Required:   true,
			Validators: []validator.String{validators.AbsoluteHTTPURL()},
		},
		"model": schema.StringAttribute{
			MarkdownDescription: "Transcription model: " + markdownList(client.Models) + ". Defaults to `" + client.DefaultModel + "`. " +
				"`model-1` handles 100+ languages and code switching. `" + client.ModelThree + "` transcribes one of " + markdownList(client.ModelThreeLanguages) +
				" and needs exactly that one language in `language_config.languages`, without code switching.",
			Optional:   true,
			Computed:   true,
			Default:    stringdefault.StaticString(client.DefaultModel),
			Validators: []validator.String{stringvalidator.OneOf(client.Models...)},
		},
		"language_config": requestObject("Languages of the audio.", "", map[string]schema.Attribute{
			"languages": schema.ListAttribute{
				MarkdownDescription: "Transcription language codes, each at most once. With exactly one, that language is used; otherwise the model detects the language. Defaults to `[]`. " +
					"Allowed codes: " + markdownList(client.TranscriptionLanguages) + ".",
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{})),
				Validators:  []validator.List{validators.NoNullElements(), validators.NoDuplicates(), listvalidator.ValueStringsAre(languageCode(client.TranscriptionLanguages))},
			},
			"code_switching": schema.BoolAttribute{
				MarkdownDescription: "`true`: the language is detected on each utterance; `false`: on the first one and then kept. Ignored when one language is set; must not be `true` with `model-3`. Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(defaultCodeSwitching),
			},
		}),

		"custom_vocabulary": requestSwitch(betaNote + "Enables custom vocabulary, configured by `custom_vocabulary_config`" + needsConfigForNewJob),
		"custom_vocabulary_config": requestObject(betaNote+"Words and phrases the transcription should favour.", "custom_vocabulary", map[string]schema.Attribute{
			"vocabulary": schema.ListNestedAttribute{
				MarkdownDescription: "The vocabulary entries, for example `{ value = \"Kubernetes\" }`. Required; with `custom_vocabulary` on, a new job needs at least one.",
				Required:            true,
				Validators:          []validator.List{validators.NoNullElements()},
				NestedObject: schema.NestedAttributeObject{Validators: []validator.Object{validators.RequiredInElement("value")}, Attributes: map[string]schema.Attribute{
					"value": schema.StringAttribute{
						MarkdownDescription: "Text used in the transcription. Required, not blank.",
						// Required by validators.RequiredInElement, not by the schema.
						Optional:   true,
						Validators: []validator.String{notBlank()},
					},
					"intensity": schema.Float64Attribute{
						CustomType:          numtypes.Float64Type{},
						MarkdownDescription: "How strongly to favour this entry, from 0 to 1. Defaults to `default_intensity`.",
						Optional:            true,
						Validators:          []validator.Float64{intensityBounds()},
					},
					"pronunciations": schema.ListAttribute{
						MarkdownDescription: "Other ways the entry may sound; a new job's may not be blank (refused at plan). An empty list is the same as none.",
						ElementType:         types.StringType,
						Optional:            true,
						Validators:          []validator.List{validators.NoNullElements()},
					},
					"language": schema.StringAttribute{
						MarkdownDescription: "Transcription language code used for sound comparison (see `language_config.languages`). Defaults to the transcription language.",
						Optional:            true,
						Validators:          []validator.String{languageCode(client.TranscriptionLanguages)},
					},
				}},
			},
			"default_intensity": schema.Float64Attribute{
				CustomType:          numtypes.Float64Type{},
				MarkdownDescription: "Intensity of entries that set none, from 0 to 1.",
				Optional:            true,
				Validators:          []validator.Float64{intensityBounds()},
			},
		}),

		// callback = true needs a destination: checked on the plan
		// (checkCallbackDestination), where a callback_url left out is the job's.
		"callback": requestSwitch("Sends the result to `callback_config.url` when the job ends (`callback_url` is used instead when `callback` is false or `callback_config` is not set). " +
			"When `true`, `callback_config` or `callback_url` must be set. Under zero data retention a callback is the only way to receive the result, so every job needs one."),
		"callback_config": requestObject("Where and how the callback is sent.", "callback", map[string]schema.Attribute{
			// Left out of the configuration, the job's is kept, as for
			// callback_url; a new job needs one (checkCallbackConfigURL).
			"url": schema.StringAttribute{
				MarkdownDescription: "URL called with the result: an absolute `http` or `https` URL. Sensitive, because such a URL often carries a token. " +
					"Required for a new job (one created, or made again by a replacement) whenever `callback_config` is set. " +
					"Leaving it out of the configuration of an existing job keeps the job's: the configuration Terraform generates for an import cannot hold sensitive values, so it writes `url = null`. " +
					"A change that replaces the job then needs it again. " +
					"Another URL replaces the job (billed again), even one whose callback was delivered: to rotate a token in it, keep the old URL in the configuration of jobs already made, or make them with `lifecycle { ignore_changes = [callback_config] }`.",
				Optional:      true,
				Computed:      true,
				Sensitive:     true,
				Validators:    []validator.String{validators.SensitiveAbsoluteHTTPURL()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"method": schema.StringAttribute{
				MarkdownDescription: "HTTP method of the callback: " + markdownList(client.CallbackMethods) + ". Defaults to `" + client.DefaultCallbackMethod + "`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(client.DefaultCallbackMethod),
				// Its line may hold the URL too (`callback_config = { url = ..., method = ... }`).
				Validators: []validator.String{validators.ReportedAtBlock(stringvalidator.OneOf(client.CallbackMethods...))},
			},
		}),
		"callback_url": schema.StringAttribute{
			MarkdownDescription: "**Deprecated**: use `callback = true` and `callback_config` instead. URL the service sends the result to with a `POST`. " +
				"An absolute `http` or `https` URL. Sensitive, because such a URL often carries a token. " +
				"Leaving it out of the configuration keeps the job's: a job's callback cannot be removed, and the configuration Terraform generates for an import cannot hold sensitive values. " +
				"To make the job again without it, run `terraform apply -replace` on the resource. " +
				"Moving it to `callback = true` and `callback_config` with the same URL changes the job in place, in state only (the service would call the same URL the same way), " +
				"and state may keep the `callback` the job was created with (`false`): the job's callback goes to that URL all the same.",
			// Not a DeprecationMessage: OpenTofu 1.12 would warn of every
			// reference to a whole job (for_each over jobs, an output of
			// one), set or not. The warning is for a configuration that sets it.
			Optional:      true,
			Computed:      true,
			Sensitive:     true,
			Validators:    []validator.String{validators.SensitiveAbsoluteHTTPURL(), validators.DeprecatedWhenSet(callbackURLDeprecationMessage)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},

		"subtitles": requestSwitch("Generates subtitles, configured by `subtitles_config`." + resultAt("transcription.subtitles")),
		"subtitles_config": requestObject("Subtitle generation.", "subtitles", map[string]schema.Attribute{
			"formats": schema.ListAttribute{
				MarkdownDescription: "Subtitle formats: " + markdownList(client.SubtitleFormats) + ". At least one, each at most once. Defaults to `[\"" + client.DefaultSubtitleFormat + "\"]`.",
				ElementType:         types.StringType,
				Optional:            true,
				Computed:            true,
				Default:             listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{types.StringValue(client.DefaultSubtitleFormat)})),
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					validators.NoNullElements(),
					validators.NoDuplicates(),
					listvalidator.ValueStringsAre(stringvalidator.OneOf(client.SubtitleFormats...)),
				},
			},
			"minimum_duration": schema.Float64Attribute{
				CustomType:          numtypes.Float64Type{},
				MarkdownDescription: fmt.Sprintf("Minimum duration of a subtitle, in seconds: at least %s and at most `maximum_duration`.", formatFloat(client.MinSubtitleMinimumDuration)),
				Optional:            true,
				Validators:          []validator.Float64{validators.Float64AtLeast(client.MinSubtitleMinimumDuration), validators.AtMostSibling("maximum_duration")},
			},
			"maximum_duration": schema.Float64Attribute{
				CustomType:          numtypes.Float64Type{},
				MarkdownDescription: fmt.Sprintf("Maximum duration of a subtitle, in seconds: from %s to %s.", formatFloat(client.MinSubtitleMaximumDuration), formatFloat(client.MaxSubtitleMaximumDuration)),
				Optional:            true,
				Validators:          []validator.Float64{validators.Float64Between(client.MinSubtitleMaximumDuration, client.MaxSubtitleMaximumDuration)},
			},
			"maximum_characters_per_row": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Maximum number of characters per row: at least %d.", client.MinSubtitleCharactersPerRow),
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinSubtitleCharactersPerRow)},
			},
			"maximum_rows_per_caption": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Maximum number of rows per caption: from %d to %d.", client.MinSubtitleRowsPerCaption, client.MaxSubtitleRowsPerCaption),
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.Between(client.MinSubtitleRowsPerCaption, client.MaxSubtitleRowsPerCaption)},
			},
			"style": schema.StringAttribute{
				MarkdownDescription: "Subtitle style: " + markdownList(client.SubtitleStyles) + ". `compliance` follows the published description of the SRT format kept by a national library. Defaults to `" + client.DefaultSubtitleStyle + "`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(client.DefaultSubtitleStyle),
				Validators:          []validator.String{stringvalidator.OneOf(client.SubtitleStyles...)},
			},
		}),

		"diarization": requestSwitch("Enables speaker recognition (diarization), configured by `diarization_config`; utterances then carry a `speaker`."),
		"diarization_config": requestObject("Speaker recognition.", "diarization", map[string]schema.Attribute{
			"number_of_speakers": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Exact number of speakers: at least %d.", client.MinNumberOfSpeakers),
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinNumberOfSpeakers)},
			},
			"min_speakers": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Minimum number of speakers: at least %d and at most `max_speakers`.", client.MinSpeakersBound),
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinSpeakersBound), validators.AtMostSibling("max_speakers")},
			},
			"max_speakers": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Maximum number of speakers: at least %d.", client.MinSpeakersBound),
				Optional:            true,
				CustomType:          numtypes.Int64Type{},
				Validators:          []validator.Int64{int64validator.AtLeast(client.MinSpeakersBound)},
			},
		}),

		"translation": requestSwitch(betaNote + "Translates the transcript, configured by `translation_config`" + needsConfigForNewJob),
		"translation_config": requestObject(betaNote+"Translation.", "translation", map[string]schema.Attribute{
			"target_languages": schema.ListAttribute{
				MarkdownDescription: "Translation language codes to translate into. Required, at least one, each at most once. Allowed codes: the transcription codes plus `wo`: " + markdownList(client.TranslationLanguages) + ".",
				ElementType:         types.StringType,
				Required:            true,
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					validators.NoNullElements(),
					validators.NoDuplicates(),
					listvalidator.ValueStringsAre(languageCode(client.TranslationLanguages)),
				},
			},
			"model": schema.StringAttribute{
				MarkdownDescription: "Translation model: " + markdownList(client.TranslationModels) + ". Defaults to `" + client.DefaultTranslationModel + "`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(client.DefaultTranslationModel),
				Validators:          []validator.String{stringvalidator.OneOf(client.TranslationModels...)},
			},
			"match_original_utterances": serviceDefaultBool("Aligns the translated utterances with the original ones.", defaultMatchOriginalUtterances),
			"lipsync":                   serviceDefaultBool("Keeps the translation in step with the speakers' lips.", defaultLipsync),
			"context_adaptation":        serviceDefaultBool("Makes the translation context-aware.", defaultContextAdaptation),
			"context": schema.StringAttribute{
				MarkdownDescription: "Context that improves the accuracy of the translation.",
				Optional:            true,
			},
			"informal": serviceDefaultBool("Forces informal forms where the target language has them.", defaultInformal),
		}),

		"summarization": requestSwitch("Summarizes the transcript, configured by `summarization_config`." + resultAt("summarization")),
		"summarization_config": requestObject("Summarization.", "summarization", map[string]schema.Attribute{
			"type": schema.StringAttribute{
				MarkdownDescription: "Kind of summary: " + markdownList(client.SummaryTypes) + ". Defaults to `" + client.DefaultSummaryType + "`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(client.DefaultSummaryType),
				Validators:          []validator.String{stringvalidator.OneOf(client.SummaryTypes...)},
			},
		}),

		"named_entity_recognition": requestSwitch(alphaNote + "Finds named entities in the transcript." + resultAt("named_entity_recognition")),

		"custom_spelling": requestSwitch(alphaNote + "Replaces spellings in the transcript, configured by `custom_spelling_config`" + needsConfigForNewJob),
		"custom_spelling_config": requestObject(alphaNote+"Custom spelling.", "custom_spelling", map[string]schema.Attribute{
			"spelling_dictionary": schema.MapAttribute{
				MarkdownDescription: "Keys are the spellings to write; each value lists the spellings to replace by its key, for example `{ \"Gettleman\" = [\"gettleman\", \"getleman\"] }`. A key with an empty list replaces nothing: the same as leaving it out. A new job's spellings to replace may not be blank (refused at plan). Required; with `custom_spelling` on, a new job needs at least one spelling to replace.",
				ElementType:         types.ListType{ElemType: types.StringType},
				Required:            true,
				Validators:          []validator.Map{validators.NoNullElements(), mapvalidator.ValueListsAre(validators.NoNullElements(), validators.NoDuplicates())},
			},
		}),

		"sentiment_analysis": requestSwitch("Analyses the sentiment of the transcript." + resultAt("sentiment_analysis")),

		"audio_to_llm": requestSwitch("Asks an LLM the prompts of `audio_to_llm_config` about the audio" + needsConfigForNewJob + resultAt("audio_to_llm")),
		"audio_to_llm_config": requestObject("Audio-to-LLM prompts.", "audio_to_llm", map[string]schema.Attribute{
			"prompts": schema.ListAttribute{
				MarkdownDescription: "Prompt texts. Required, at least one; a new job's may not be blank (refused at plan).",
				ElementType:         types.StringType,
				Required:            true,
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), validators.NoNullElements()},
			},
			"model": schema.StringAttribute{
				MarkdownDescription: "LLM to use, as `<provider>/<model_name>` from the list of the service's LLM routing provider. When not set, the service uses a small default model.",
				Optional:            true,
				Validators:          []validator.String{validators.StringMatches(client.LLMModelPattern, "must have the form <provider>/<model_name>")},
			},
		}),

		"pii_redaction": requestSwitch("Redacts personally identifiable information from the transcript, configured by `pii_redaction_config`."),
		"pii_redaction_config": requestObject("PII redaction.", "pii_redaction", map[string]schema.Attribute{
			"entity_types": schema.ListAttribute{
				MarkdownDescription: "Entity types to redact, each at most once. An empty list is the same as none. Allowed: " + markdownList(client.PIIEntityTypes) + ".",
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.List{validators.NoNullElements(), validators.NoDuplicates(), listvalidator.ValueStringsAre(stringvalidator.OneOf(client.PIIEntityTypes...))},
			},
			"processed_text_type": schema.StringAttribute{
				MarkdownDescription: "How redacted text is shown: " + markdownList(client.ProcessedTextTypes) + ".",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf(client.ProcessedTextTypes...)},
			},
		}),

		"custom_metadata": schema.MapAttribute{
			MarkdownDescription: customMetadataDescription + " A refresh ignores keys the job's record holds beyond those in state; an imported job's state holds all of them, so its configuration must list every one (leaving one out replaces the job). " +
				"The provider sends only strings; a job created elsewhere with other JSON values reads them as their JSON text, as compact JSON (`1`, `true`, `{\"a\":1}`): write that text, as `jsonencode` gives it, to keep such a job.",
			ElementType: types.StringType,
			Optional:    true,
			Validators:  []validator.Map{validators.NoNullElements()},
		},
		"sentences":            requestSwitch("Splits the transcript into sentences." + resultAt("transcription.sentences")),
		"punctuation_enhanced": requestSwitch(alphaNote + "Improves the punctuation of the transcript."),

		// Provider-side settings: they change in place, never touching the job.
		"wait_for_completion": schema.BoolAttribute{
			MarkdownDescription: "Whether creation waits for the job to end (`done` or `error`), within `timeouts.create`. A job that ends in `error` then fails the apply and is replaced by the next one. " +
				"With `false`, the apply ends once the job is submitted (after one look at it for its status, given at most 5 seconds: a service that answers later, or asks to be asked later, gets a warning, not a wait) and later refreshes fill in its status and result; the refresh that first sees it done warns of its failed add-ons, as a create that waits does. Used at creation only. " +
				"Defaults to `true`, or to `false` when the provider has `zero_data_retention`, where there is nothing to poll; setting it to `true` there is an error.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(defaultWaitForCompletion),
		},
		"include_transcript": schema.BoolAttribute{
			MarkdownDescription: includeTranscriptDescription + " A job then takes about 3 KB of state whatever its length. " +
				"The service keeps the whole result at `result_url` for its retention period. " + resultSettingChange + " Defaults to `false`.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(defaultIncludeTranscript),
		},
		"include_raw_result": schema.BoolAttribute{
			MarkdownDescription: "Whether state keeps the whole result: the transcript as with `include_transcript`, plus the word-level timings (`words` in each utterance of `result.transcription.utterances`) and the whole result as JSON (`result_json`). " +
				"An hour of speech has about 8,000 words, each with its timings and confidence, so they are left out by default to keep state small. " + resultSettingChange + " Defaults to `false`.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(defaultIncludeRawResult),
		},
		"recreate_when_missing": schema.BoolAttribute{
			MarkdownDescription: "What to do when the service no longer has the job (it deletes jobs when their retention period ends: 3 weeks on paid plans, 1 year on the free plan). " +
				"With `false` (the default), the job stays in state with its last known values and `retained = false`, so the recording is not transcribed and billed again: one that had ended (`done`, or `error`), and one last seen `queued` or `processing` too (created without waiting and not refreshed since), since the service deletes a job only once it has ended, which then has no `result`. " +
				"With `true`, the plan replaces any job the service no longer has (a new job, billed again; the old one's values stay in state until then, and setting `false` again before the apply keeps them), and so it does when the value is known only at apply (it might be `true`). " +
				"Being a replacement, it is refused by `lifecycle { prevent_destroy = true }`: remove one or the other. " +
				"A job made from a `transcription_upload` needs its file uploaded again too (the service deletes uploads at the end of the same retention period): replace the upload with `terraform apply -replace`, which replaces its jobs.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(defaultRecreateWhenMissing),
		},
		"timeouts": timeoutsAttribute(ctx),

		// Computed from the service.
		"id": schema.StringAttribute{
			MarkdownDescription: "Identifier of the job (a UUID), assigned by the service. Import a job with it.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"result_url": schema.StringAttribute{
			MarkdownDescription: "URL of the job's record on the service (`GET`, with the API key), as the service returned it on creation; for an imported job, built from `base_url` in the same form (`{base_url}/v2/transcription/{id}`).",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"request_id": schema.StringAttribute{
			MarkdownDescription: "Debug identifier of the job, for the service's support. Null under zero data retention.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: "When the job was created (ISO 8601). Null under zero data retention.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"status": schema.StringAttribute{
			MarkdownDescription: "Status of the job: " + markdownList(client.JobStatuses) + ". `done` and `error` are final. Null under zero data retention, where the service does not disclose jobs.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{planmodifiers.UseStateWhenJobFinal()},
		},
		"completed_at": schema.StringAttribute{
			MarkdownDescription: "When the job ended (ISO 8601); null until it is `done` or `error`.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{planmodifiers.UseStateWhenJobFinal()},
		},
		"error_code": schema.Int64Attribute{
			MarkdownDescription: "HTTP-style code of the job's failure when its status is `error`: an HTTP status such as 422 or 500, or a code of the service's own, which the provider keeps as sent; null otherwise.",
			Computed:            true,
			PlanModifiers:       []planmodifier.Int64{planmodifiers.UseStateWhenJobFinal()},
		},
		"retained": schema.BoolAttribute{
			MarkdownDescription: "Whether the service still holds the job. `false` once the service no longer has it (it deletes jobs at the end of their retention period): " +
				"the values in state are then the last ones known, and a job last seen `queued` or `processing` has no result (see `recreate_when_missing`, with which a plan replaces such a job and shows `retained` as what forces the replacement, or `recreate_when_missing` instead when this plan turns it on). Always `false` for a job created under zero data retention, where the service keeps nothing.",
			Computed:      true,
			PlanModifiers: []planmodifier.Bool{planmodifiers.UseStateWhenJobFinal(pathIncludeTranscript, pathIncludeRawResult)},
		},
		"file":   withObjectPlanModifiers(fileView.resourceAttribute(), planmodifiers.UseStateWhenJobFinal()),
		"result": withObjectPlanModifiers(resultView.resourceAttribute(), planmodifiers.UseStateWhenJobFinal(pathIncludeTranscript, pathIncludeRawResult)),
		"result_json": schema.StringAttribute{
			MarkdownDescription: "The whole result as JSON, word timings included, when `include_raw_result` is `true`; null otherwise.",
			CustomType:          jsonTextType{},
			Computed:            true,
			PlanModifiers:       []planmodifier.String{planmodifiers.NullWhenSwitchOff(pathIncludeRawResult), planmodifiers.UseStateWhenJobFinal(pathIncludeRawResult)},
		},
	}

	return schema.Schema{
		MarkdownDescription: jobResourceDescription,
		Attributes:          attrs,
		Version:             jobSchemaVersion,
	}
}

const jobResourceDescription = `A pre-recorded transcription job: the audio at ` + "`audio_url`" + ` transcribed with the options given, each checked at plan time against the service's rules.

A job cannot change once submitted: a change of what the service would do with its request replaces it (a new job, billed again). A request attribute written another way that means the same to the service (a default written out or left out, a list whose order means nothing reordered, a URL naming the same file or address by HTTP's rules: the scheme or host in another case, an internationalized host name or its ASCII (` + "`xn--`" + `) form, an IPv6 address written another way, the scheme's default port, a port's leading zeros, a fragment, an unreserved character percent-encoded or not, a character no URL holds as it is, such as non-ASCII text, written raw or percent-encoded) plans no change: state keeps the form applied. The configuration objects are the configuration's alone (the provider computes no value for them), and Terraform lets a plan keep the applied value of such an attribute in place of the configuration's only where both are set, so a value that means none written out where the job has none (` + "`custom_metadata = {}`" + `, ` + "`summarization_config = { type = \"general\" }`" + ` on a job without one), or one left out that the job has, plans an update in place, in state only, which sends nothing (but makes ` + "`terraform plan -detailed-exitcode`" + ` exit 2), except where the attribute has a default the provider fills in (` + "`model`" + `, the switches, ` + "`subtitles_config.style`" + `): writing that default out plans no change at all. A value known only at apply might change what the service does, so it replaces the job, unless the request does not use it whatever it becomes: in the configuration of an add-on known to be off, ` + "`code_switching`" + ` with one language, ` + "`callback_url`" + ` beside a ` + "`callback_config`" + ` in use, ` + "`default_intensity`" + ` when every vocabulary entry has its own intensity. ` + "`wait_for_completion`, `include_transcript`, `include_raw_result`, `recreate_when_missing` and `timeouts`" + ` change in place without touching the job.

By default the apply waits until the job is ` + "`done`" + ` and its result is in ` + "`result`" + `; a job that ends in ` + "`error`" + ` fails the apply and is tainted, so the next apply replaces it.

**State size.** State keeps the transcript itself (text, utterances, subtitles, translations and the other values that grow with the recording) only with ` + "`include_transcript = true`" + `: an hour of audio would otherwise put about 150 KB into state for every job, and every plan reads it again. By default a job takes about 3 KB of state whatever its length, with its status, ` + "`result.metadata`" + `, the detected languages, the summary and the audio-to-LLM answers.

**Retention.** The service deletes jobs when their retention period ends (3 weeks on paid plans). A job that had ended (` + "`done`" + `, or ` + "`error`" + `) that the service no longer has stays in state with its last known results and ` + "`retained = false`" + `, and a warning says why: transcribing the recording again would be billed again and change everything that uses the result. So does one last seen ` + "`queued`" + ` or ` + "`processing`" + ` (created without waiting and not refreshed since), without a result: the service deletes a job only once it has ended, so it ended unseen. Set ` + "`recreate_when_missing = true`" + ` to create again any job the service no longer has. The service deletes uploads at the end of the same retention period, and the provider cannot see that an upload is gone: to make again a job whose ` + "`audio_url`" + ` comes from a ` + "`transcription_upload`" + `, replace the upload (` + "`terraform apply -replace`" + ` on it), which replaces its jobs; a job made again from the old ` + "`audio_url`" + ` fails. The warning that reports such a job gone says so.

**Zero data retention.** With the provider's ` + "`zero_data_retention = true`" + ` the service stores nothing and disables uploads and result retrieval: every job must send its result to a callback (` + "`callback = true`" + ` with ` + "`callback_config`" + `, or ` + "`callback_url`" + `) and read an external ` + "`audio_url`" + ` (one on the host of the provider's ` + "`base_url`" + `, where uploaded files are, is refused at plan; behind a gateway whose host is not the one the service names in its uploads' URLs, the service refuses it when the job is created), the provider does not wait nor refresh, ` + "`status` and `result`" + ` stay null, and jobs cannot be imported.

**Import.** ` + "`terraform import transcription_job.example <id>`" + ` (or an ` + "`import`" + ` block) rebuilds every request attribute from the job's record, except a configuration object whose switch is off, which the service ignores: a configuration that writes one out is warned of, and its import plans an update in state only, which sends nothing.`

// requestSwitch is a top-level boolean of the request: optional, false when
// omitted as in the service.
func requestSwitch(description string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: description + " Defaults to `false`.",
		Optional:            true,
		Computed:            true,
		Default:             booldefault.StaticBool(defaultSwitch),
	}
}

// requestObject is a configuration object of the request. With switchName,
// the service uses it only when that boolean is true, and a warning says so.
func requestObject(description, switchName string, attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
	a := schema.SingleNestedAttribute{
		MarkdownDescription: description,
		Optional:            true,
		Attributes:          attrs,
	}
	if switchName != "" {
		a.MarkdownDescription += " Used only when `" + switchName + "` is `true`."
		a.Validators = []validator.Object{validators.ConfigRequiresSwitch(switchName)}
	}
	return a
}

// serviceDefaultBool is a boolean inside a configuration object whose
// service default is def.
func serviceDefaultBool(description string, def bool) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: fmt.Sprintf("%s Defaults to `%t`.", description, def),
		Optional:            true,
		Computed:            true,
		Default:             booldefault.StaticBool(def),
	}
}

// languageCode validates a language code against one of the service's lists.
func languageCode(allowed []string) validator.String {
	var translationOnly []string
	for _, code := range client.TranslationLanguages {
		if !slices.Contains(allowed, code) {
			translationOnly = append(translationOnly, code)
		}
	}
	return validators.LanguageCode(allowed, translationOnly)
}

func intensityBounds() validator.Float64 {
	return validators.Float64Between(client.MinIntensity, client.MaxIntensity)
}

// notBlankPattern matches a character that is not white space as Unicode
// (and the service, trimming values) defines it; RE2's \S knows only ASCII.
var notBlankPattern = regexp.MustCompile(`[^\t\n\v\f\r\x{85}\p{Z}]`)

func notBlank() validator.String {
	return validators.StringMatches(notBlankPattern, "must not be empty or blank")
}

func timeoutsAttribute(ctx context.Context) schema.Attribute {
	a, ok := timeouts.Attributes(ctx, timeouts.Opts{
		Create: true,
		Read:   true,
		Delete: true,
		CreateDescription: fmt.Sprintf("How long creation may take, as a Go duration such as `30m` or `2h`: the create request's tries while the service turns it away (429, 503), then the wait for the job to end. Defaults to `%s`. "+
			"No try of the create is sent after it runs out: a refused create then made no job, and nothing is saved in state; a try in flight goes on to the service's answer, and the job it makes is saved in state: when the create was to wait for the job (`wait_for_completion`), tainted, with an error, as when the limit runs out during the wait. "+
			"Failures of the service while waiting (429, 5xx, a lost connection), past the retries of one request (`max_retries`), do not end the wait before this. "+
			"When it runs out during the wait the apply fails, the job stays in state tainted, and the service goes on processing it.", client.FormatDuration(defaultWaitTimeout)),
		ReadDescription: fmt.Sprintf("How long a refresh may take, as a Go duration: the `GET` with its retries while the service fails it or turns it away (429, 5xx, `Retry-After`); for a job that has ended, the look that checks the service still has it. It also bounds an update's read of a job still running. Defaults to `%s`, which an import uses. "+
			"When it runs out the plan or apply fails, and the job stays in state as last read. A refresh uses the value last applied: a new value takes effect once applied (`terraform apply -refresh=false` applies it without the refresh that fails).", client.FormatDuration(defaultReadTimeout)),
		DeleteDescription: fmt.Sprintf("How long deletion may take, as a Go duration: the `DELETE` with its retries when the service fails it, and the wait for a job that is still running to become deletable (the service deletes only jobs that have ended). Defaults to `%s`. "+
			"When it runs out the destroy fails and the job stays in state and on the service. A deletion, in a destroy or a replacement, uses the value last applied: a new value takes effect once applied alone, the rest of the configuration as last applied (`terraform apply -refresh=false` then changes it in place, without touching the job).", client.FormatDuration(defaultDeleteTimeout)),
	}).(schema.SingleNestedAttribute)
	if !ok {
		panic("timeouts.Attributes no longer returns a SingleNestedAttribute")
	}
	a.MarkdownDescription = "Time limits of the provider's waits. Changing them does not touch the job."
	documentedPositiveTimeouts(a.Attributes)
	return a
}

func withObjectPlanModifiers(a schema.Attribute, modifiers ...planmodifier.Object) schema.Attribute {
	object, ok := a.(schema.ObjectAttribute)
	if !ok {
		panic(fmt.Sprintf("expected an object attribute, got %T", a))
	}
	object.PlanModifiers = append(object.PlanModifiers, modifiers...)
	return object
}

// resultSettingChange says what changing include_transcript or
// include_raw_result does, before and after the service's retention.
const resultSettingChange = "Changing it re-reads the job in place while the service still has it; once it no longer does (`retained = false`), " +
	"what state did not keep cannot be fetched, and turning it on keeps the last known result, as the plan warns."
