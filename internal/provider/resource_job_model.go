package provider

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// jobResourceModel is the state (and plan, and configuration) of a
// transcription_job.
type jobResourceModel struct {
	jobRequestModel

	// Provider-side settings.
	WaitForCompletion   types.Bool     `tfsdk:"wait_for_completion"`
	IncludeTranscript   types.Bool     `tfsdk:"include_transcript"`
	IncludeRawResult    types.Bool     `tfsdk:"include_raw_result"`
	RecreateWhenMissing types.Bool     `tfsdk:"recreate_when_missing"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`

	// Computed from the job record.
	ID          types.String `tfsdk:"id"`
	ResultURL   types.String `tfsdk:"result_url"`
	RequestID   types.String `tfsdk:"request_id"`
	CreatedAt   types.String `tfsdk:"created_at"`
	Status      types.String `tfsdk:"status"`
	CompletedAt types.String `tfsdk:"completed_at"`
	ErrorCode   types.Int64  `tfsdk:"error_code"`
	Retained    types.Bool   `tfsdk:"retained"`
	File        types.Object `tfsdk:"file"`
	Result      types.Object `tfsdk:"result"`
	ResultJSON  jsonText     `tfsdk:"result_json"`
}

// jobRequestModel is the request of a job (InitTranscriptionRequest): one
// attribute per field, named as the field. The transcription_job resource
// and the transcription_transcribe action embed it.
type jobRequestModel struct {
	AudioURL               types.String `tfsdk:"audio_url"`
	Model                  types.String `tfsdk:"model"`
	LanguageConfig         types.Object `tfsdk:"language_config"`
	CustomVocabulary       types.Bool   `tfsdk:"custom_vocabulary"`
	CustomVocabularyConfig types.Object `tfsdk:"custom_vocabulary_config"`
	Callback               types.Bool   `tfsdk:"callback"`
	CallbackConfig         types.Object `tfsdk:"callback_config"`
	CallbackURL            types.String `tfsdk:"callback_url"`
	Subtitles              types.Bool   `tfsdk:"subtitles"`
	SubtitlesConfig        types.Object `tfsdk:"subtitles_config"`
	Diarization            types.Bool   `tfsdk:"diarization"`
	DiarizationConfig      types.Object `tfsdk:"diarization_config"`
	Translation            types.Bool   `tfsdk:"translation"`
	TranslationConfig      types.Object `tfsdk:"translation_config"`
	Summarization          types.Bool   `tfsdk:"summarization"`
	SummarizationConfig    types.Object `tfsdk:"summarization_config"`
	NamedEntityRecognition types.Bool   `tfsdk:"named_entity_recognition"`
	CustomSpelling         types.Bool   `tfsdk:"custom_spelling"`
	CustomSpellingConfig   types.Object `tfsdk:"custom_spelling_config"`
	SentimentAnalysis      types.Bool   `tfsdk:"sentiment_analysis"`
	AudioToLLM             types.Bool   `tfsdk:"audio_to_llm"`
	AudioToLLMConfig       types.Object `tfsdk:"audio_to_llm_config"`
	PIIRedaction           types.Bool   `tfsdk:"pii_redaction"`
	PIIRedactionConfig     types.Object `tfsdk:"pii_redaction_config"`
	CustomMetadata         types.Map    `tfsdk:"custom_metadata"`
	Sentences              types.Bool   `tfsdk:"sentences"`
	PunctuationEnhanced    types.Bool   `tfsdk:"punctuation_enhanced"`
}

// Models of the request's configuration objects. Each converts to its client
// type (expand: what the configuration says, nothing more) and back (flatten:
// from request_params, where the service filled in its defaults, which map to
// the schema's Defaults so that an import plans no change).

type languageConfigModel struct {
	Languages     types.List `tfsdk:"languages"`
	CodeSwitching types.Bool `tfsdk:"code_switching"`
}

func (m languageConfigModel) expand(ctx context.Context, diags *diag.Diagnostics) *client.LanguageConfig {
	return &client.LanguageConfig{
		Languages:     expandStrings(ctx, m.Languages, diags),
		CodeSwitching: m.CodeSwitching.ValueBoolPointer(),
	}
}

func flattenLanguageConfig(c *client.LanguageConfig) languageConfigModel {
	return languageConfigModel{
		// The service omits an empty list; the schema's default is [].
		Languages:     flattenStringsOr(withoutRepeats(c.Languages), []string{}),
		CodeSwitching: boolOr(c.CodeSwitching, defaultCodeSwitching),
	}
}

type customVocabularyConfigModel struct {
	Vocabulary       []vocabularyEntryModel `tfsdk:"vocabulary"`
	DefaultIntensity numtypes.Float64       `tfsdk:"default_intensity"`
}

type vocabularyEntryModel struct {
	Value          types.String     `tfsdk:"value"`
	Intensity      numtypes.Float64 `tfsdk:"intensity"`
	Pronunciations types.List       `tfsdk:"pronunciations"`
	Language       types.String     `tfsdk:"language"`
}

func (m customVocabularyConfigModel) expand(ctx context.Context, diags *diag.Diagnostics) *client.CustomVocabularyConfig {
	out := &client.CustomVocabularyConfig{
		Vocabulary:       make([]client.VocabularyEntry, len(m.Vocabulary)),
		DefaultIntensity: m.DefaultIntensity.ValueFloat64Pointer(),
	}
	for i, e := range m.Vocabulary {
		out.Vocabulary[i] = client.VocabularyEntry{
			Value:          e.Value.ValueString(),
			Intensity:      e.Intensity.ValueFloat64Pointer(),
			Pronunciations: expandStrings(ctx, e.Pronunciations, diags),
			Language:       e.Language.ValueStringPointer(),
		}
	}
	return out
}

func flattenCustomVocabularyConfig(c *client.CustomVocabularyConfig) customVocabularyConfigModel {
	m := customVocabularyConfigModel{
		Vocabulary:       make([]vocabularyEntryModel, len(c.Vocabulary)),
		DefaultIntensity: numtypes.NewFloat64PointerValue(c.DefaultIntensity),
	}
	for i, e := range c.Vocabulary {
		m.Vocabulary[i] = vocabularyEntryModel{
			Value:          types.StringValue(e.Value),
			Intensity:      numtypes.NewFloat64PointerValue(e.Intensity),
			Pronunciations: flattenStrings(e.Pronunciations),
			Language:       types.StringPointerValue(e.Language),
		}
	}
	return m
}

type callbackConfigModel struct {
	URL    types.String `tfsdk:"url"`
	Method types.String `tfsdk:"method"`
}

func (m callbackConfigModel) expand(context.Context, *diag.Diagnostics) *client.CallbackConfig {
	return &client.CallbackConfig{URL: m.URL.ValueString(), Method: m.Method.ValueStringPointer()}
}

func flattenCallbackConfig(c *client.CallbackConfig) callbackConfigModel {
	return callbackConfigModel{URL: types.StringValue(c.URL), Method: stringOr(c.Method, client.DefaultCallbackMethod)}
}

type subtitlesConfigModel struct {
	Formats                 types.List       `tfsdk:"formats"`
	MinimumDuration         numtypes.Float64 `tfsdk:"minimum_duration"`
	MaximumDuration         numtypes.Float64 `tfsdk:"maximum_duration"`
	MaximumCharactersPerRow numtypes.Int64   `tfsdk:"maximum_characters_per_row"`
	MaximumRowsPerCaption   numtypes.Int64   `tfsdk:"maximum_rows_per_caption"`
	Style                   types.String     `tfsdk:"style"`
}

func (m subtitlesConfigModel) expand(ctx context.Context, diags *diag.Diagnostics) *client.SubtitlesConfig {
	return &client.SubtitlesConfig{
		Formats:                 expandStrings(ctx, m.Formats, diags),
		MinimumDuration:         m.MinimumDuration.ValueFloat64Pointer(),
		MaximumDuration:         m.MaximumDuration.ValueFloat64Pointer(),
		MaximumCharactersPerRow: m.MaximumCharactersPerRow.ValueInt64Pointer(),
		MaximumRowsPerCaption:   m.MaximumRowsPerCaption.ValueInt64Pointer(),
		Style:                   m.Style.ValueStringPointer(),
	}
}

func flattenSubtitlesConfig(c *client.SubtitlesConfig) subtitlesConfigModel {
	return subtitlesConfigModel{
		Formats:                 flattenStringsOr(withoutRepeats(c.Formats), []string{client.DefaultSubtitleFormat}),
		MinimumDuration:         numtypes.NewFloat64PointerValue(c.MinimumDuration),
		MaximumDuration:         numtypes.NewFloat64PointerValue(c.MaximumDuration),
		MaximumCharactersPerRow: numtypes.NewInt64PointerValue(c.MaximumCharactersPerRow),
		MaximumRowsPerCaption:   numtypes.NewInt64PointerValue(c.MaximumRowsPerCaption),
		Style:                   stringOr(c.Style, client.DefaultSubtitleStyle),
	}
}

type diarizationConfigModel struct {
	NumberOfSpeakers numtypes.Int64 `tfsdk:"number_of_speakers"`
	MinSpeakers      numtypes.Int64 `tfsdk:"min_speakers"`
	MaxSpeakers      numtypes.Int64 `tfsdk:"max_speakers"`
}

func (m diarizationConfigModel) expand(context.Context, *diag.Diagnostics) *client.DiarizationConfig {
	return &client.DiarizationConfig{
		NumberOfSpeakers: m.NumberOfSpeakers.ValueInt64Pointer(),
		MinSpeakers:      m.MinSpeakers.ValueInt64Pointer(),
		MaxSpeakers:      m.MaxSpeakers.ValueInt64Pointer(),
	}
}

func flattenDiarizationConfig(c *client.DiarizationConfig) diarizationConfigModel {
	return diarizationConfigModel{
		NumberOfSpeakers: numtypes.NewInt64PointerValue(c.NumberOfSpeakers),
		MinSpeakers:      numtypes.NewInt64PointerValue(c.MinSpeakers),
		MaxSpeakers:      numtypes.NewInt64PointerValue(c.MaxSpeakers),
	}
}

type translationConfigModel struct {
	TargetLanguages         types.List   `tfsdk:"target_languages"`
	Model                   types.String `tfsdk:"model"`
	MatchOriginalUtterances types.Bool   `tfsdk:"match_original_utterances"`
	Lipsync                 types.Bool   `tfsdk:"lipsync"`
	ContextAdaptation       types.Bool   `tfsdk:"context_adaptation"`
	Context                 types.String `tfsdk:"context"`
	Informal                types.Bool   `tfsdk:"informal"`
}

func (m translationConfigModel) expand(ctx context.Context, diags *diag.Diagnostics) *client.TranslationConfig {
	return &client.TranslationConfig{
		TargetLanguages:         expandStrings(ctx, m.TargetLanguages, diags),
		Model:                   m.Model.ValueStringPointer(),
		MatchOriginalUtterances: m.MatchOriginalUtterances.ValueBoolPointer(),
		Lipsync:                 m.Lipsync.ValueBoolPointer(),
		ContextAdaptation:       m.ContextAdaptation.ValueBoolPointer(),
		Context:                 m.Context.ValueStringPointer(),
		Informal:                m.Informal.ValueBoolPointer(),
	}
}

func flattenTranslationConfig(c *client.TranslationConfig) translationConfigModel {
	return translationConfigModel{
		TargetLanguages:         flattenStringsOr(withoutRepeats(c.TargetLanguages), []string{}),
		Model:                   stringOr(c.Model, client.DefaultTranslationModel),
		MatchOriginalUtterances: boolOr(c.MatchOriginalUtterances, defaultMatchOriginalUtterances),
		Lipsync:                 boolOr(c.Lipsync, defaultLipsync),
		ContextAdaptation:       boolOr(c.ContextAdaptation, defaultContextAdaptation),
		Context:                 types.StringPointerValue(nonEmpty(c.Context)),
		Informal:                boolOr(c.Informal, defaultInformal),
	}
}

type summarizationConfigModel struct {
	Type types.String `tfsdk:"type"`
}

func (m summarizationConfigModel) expand(context.Context, *diag.Diagnostics) *client.SummarizationConfig {
	return &client.SummarizationConfig{Type: m.Type.ValueStringPointer()}
}

func flattenSummarizationConfig(c *client.SummarizationConfig) summarizationConfigModel {
	return summarizationConfigModel{Type: stringOr(c.Type, client.DefaultSummaryType)}
}

type customSpellingConfigModel struct {
	SpellingDictionary map[string][]string `tfsdk:"spelling_dictionary"`
}

func (m customSpellingConfigModel) expand(context.Context, *diag.Diagnostics) *client.CustomSpellingConfig {
	dict := make(map[string][]string, len(m.SpellingDictionary))
	for k, v := range m.SpellingDictionary {
		dict[k] = append([]string{}, v...) // an empty list stays [] (the field is required)
	}
	return &client.CustomSpellingConfig{SpellingDictionary: dict}
}

func flattenCustomSpellingConfig(c *client.CustomSpellingConfig) customSpellingConfigModel {
	dict := make(map[string][]string, len(c.SpellingDictionary))
	for k, v := range c.SpellingDictionary {
		dict[k] = append([]string{}, withoutRepeats(v)...)
	}
	return customSpellingConfigModel{SpellingDictionary: dict}
}

type audioToLLMConfigModel struct {
	Prompts types.List   `tfsdk:"prompts"`
	Model   types.String `tfsdk:"model"`
}

func (m audioToLLMConfigModel) expand(ctx context.Context, diags *diag.Diagnostics) *client.AudioToLLMConfig {
	return &client.AudioToLLMConfig{Prompts: expandStrings(ctx, m.Prompts, diags), Model: m.Model.ValueStringPointer()}
}

func flattenAudioToLLMConfig(c *client.AudioToLLMConfig) audioToLLMConfigModel {
	return audioToLLMConfigModel{Prompts: flattenStringsOr(c.Prompts, []string{}), Model: types.StringPointerValue(c.Model)}
}

type piiRedactionConfigModel struct {
	EntityTypes       types.List   `tfsdk:"entity_types"`
	ProcessedTextType types.String `tfsdk:"processed_text_type"`
}

func (m piiRedactionConfigModel) expand(ctx context.Context, diags *diag.Diagnostics) *client.PIIRedactionConfig {
	return &client.PIIRedactionConfig{EntityTypes: expandStrings(ctx, m.EntityTypes, diags), ProcessedTextType: m.ProcessedTextType.ValueStringPointer()}
}

func flattenPIIRedactionConfig(c *client.PIIRedactionConfig) piiRedactionConfigModel {
	return piiRedactionConfigModel{EntityTypes: flattenStrings(withoutRepeats(c.EntityTypes)), ProcessedTextType: types.StringPointerValue(c.ProcessedTextType)}
}

// createRequest builds the request body m describes. A create gives it the
// configuration (not the plan): a field the configuration leaves out is left
// out of the request, so the service receives exactly what the
// configuration says and applies its own defaults. A plan gives it the
// state and the plan, to compare what the service would do with each.
func (m jobRequestModel) createRequest(ctx context.Context) (*client.InitTranscriptionRequest, diag.Diagnostics) {
	var diags diag.Diagnostics
	req := &client.InitTranscriptionRequest{
		AudioURL:               m.AudioURL.ValueString(),
		Model:                  m.Model.ValueStringPointer(),
		LanguageConfig:         expandObject[languageConfigModel](ctx, m.LanguageConfig, &diags),
		CustomVocabulary:       m.CustomVocabulary.ValueBoolPointer(),
		CustomVocabularyConfig: expandObject[customVocabularyConfigModel](ctx, m.CustomVocabularyConfig, &diags),
		Callback:               m.Callback.ValueBoolPointer(),
		CallbackConfig:         expandObject[callbackConfigModel](ctx, m.CallbackConfig, &diags),
		CallbackURL:            m.CallbackURL.ValueStringPointer(),
		Subtitles:              m.Subtitles.ValueBoolPointer(),
		SubtitlesConfig:        expandObject[subtitlesConfigModel](ctx, m.SubtitlesConfig, &diags),
		Diarization:            m.Diarization.ValueBoolPointer(),
		DiarizationConfig:      expandObject[diarizationConfigModel](ctx, m.DiarizationConfig, &diags),
		Translation:            m.Translation.ValueBoolPointer(),
		TranslationConfig:      expandObject[translationConfigModel](ctx, m.TranslationConfig, &diags),
		Summarization:          m.Summarization.ValueBoolPointer(),
		SummarizationConfig:    expandObject[summarizationConfigModel](ctx, m.SummarizationConfig, &diags),
		NamedEntityRecognition: m.NamedEntityRecognition.ValueBoolPointer(),
		CustomSpelling:         m.CustomSpelling.ValueBoolPointer(),
		CustomSpellingConfig:   expandObject[customSpellingConfigModel](ctx, m.CustomSpellingConfig, &diags),
		SentimentAnalysis:      m.SentimentAnalysis.ValueBoolPointer(),
		AudioToLLM:             m.AudioToLLM.ValueBoolPointer(),
		AudioToLLMConfig:       expandObject[audioToLLMConfigModel](ctx, m.AudioToLLMConfig, &diags),
		PIIRedaction:           m.PIIRedaction.ValueBoolPointer(),
		PIIRedactionConfig:     expandObject[piiRedactionConfigModel](ctx, m.PIIRedactionConfig, &diags),
		Sentences:              m.Sentences.ValueBoolPointer(),
		PunctuationEnhanced:    m.PunctuationEnhanced.ValueBoolPointer(),
	}
	if !m.CustomMetadata.IsNull() && !m.CustomMetadata.IsUnknown() {
		var metadata map[string]string
		diags.Append(m.CustomMetadata.ElementsAs(ctx, &metadata, false)...)
		req.CustomMetadata = make(map[string]any, len(metadata))
		for k, v := range metadata {
			req.CustomMetadata[k] = v
		}
	}
	return req, diags
}

// setRequestFromParams fills the request attributes from a job's
// request_params and custom_metadata, as import does: service defaults map
// to the schema's Defaults, absent configuration objects to null, so that a
// plan after import shows no change.
func (m *jobRequestModel) setRequestFromParams(ctx context.Context, p *client.InitTranscriptionRequest, metadata map[string]any) diag.Diagnostics {
	var diags diag.Diagnostics
	m.AudioURL = types.StringValue(p.AudioURL)
	m.Model = stringOr(p.Model, client.DefaultModel)
	m.LanguageConfig = flattenObject(ctx, "language_config", p.LanguageConfig, flattenLanguageConfig, &diags)
	m.CustomVocabulary = boolOr(p.CustomVocabulary, defaultSwitch)
	m.CustomVocabularyConfig = flattenObject(ctx, "custom_vocabulary_config", p.CustomVocabularyConfig, flattenCustomVocabularyConfig, &diags)
	m.Callback = boolOr(p.Callback, defaultSwitch)
	m.CallbackConfig = flattenObject(ctx, "callback_config", p.CallbackConfig, flattenCallbackConfig, &diags)
	m.CallbackURL = types.StringPointerValue(p.CallbackURL)
	m.Subtitles = boolOr(p.Subtitles, defaultSwitch)
	m.SubtitlesConfig = flattenObject(ctx, "subtitles_config", p.SubtitlesConfig, flattenSubtitlesConfig, &diags)
	m.Diarization = boolOr(p.Diarization, defaultSwitch)
	m.DiarizationConfig = flattenObject(ctx, "diarization_config", p.DiarizationConfig, flattenDiarizationConfig, &diags)
	m.Translation = boolOr(p.Translation, defaultSwitch)
	m.TranslationConfig = flattenObject(ctx, "translation_config", p.TranslationConfig, flattenTranslationConfig, &diags)
	m.Summarization = boolOr(p.Summarization, defaultSwitch)
	m.SummarizationConfig = flattenObject(ctx, "summarization_config", p.SummarizationConfig, flattenSummarizationConfig, &diags)
	m.NamedEntityRecognition = boolOr(p.NamedEntityRecognition, defaultSwitch)
	m.CustomSpelling = boolOr(p.CustomSpelling, defaultSwitch)
	m.CustomSpellingConfig = flattenObject(ctx, "custom_spelling_config", p.CustomSpellingConfig, flattenCustomSpellingConfig, &diags)
	m.SentimentAnalysis = boolOr(p.SentimentAnalysis, defaultSwitch)
	m.AudioToLLM = boolOr(p.AudioToLLM, defaultSwitch)
	m.AudioToLLMConfig = flattenObject(ctx, "audio_to_llm_config", p.AudioToLLMConfig, flattenAudioToLLMConfig, &diags)
	m.PIIRedaction = boolOr(p.PIIRedaction, defaultSwitch)
	m.PIIRedactionConfig = flattenObject(ctx, "pii_redaction_config", p.PIIRedactionConfig, flattenPIIRedactionConfig, &diags)
	m.Sentences = boolOr(p.Sentences, defaultSwitch)
	m.PunctuationEnhanced = boolOr(p.PunctuationEnhanced, defaultSwitch)

	// An empty map is sent as none, so none reads back as null.
	m.CustomMetadata = types.MapNull(types.StringType)
	if len(metadata) > 0 {
		m.CustomMetadata = flattenCustomMetadata(metadata)
	}
	return diags
}

// setProviderDefaults gives the provider-side settings their defaults, for
// an imported job.
func (m *jobResourceModel) setProviderDefaults() {
	m.WaitForCompletion = types.BoolValue(defaultWaitForCompletion)
	m.IncludeTranscript = types.BoolValue(defaultIncludeTranscript)
	m.IncludeRawResult = types.BoolValue(defaultIncludeRawResult)
	m.RecreateWhenMissing = types.BoolValue(defaultRecreateWhenMissing)
}

// resultContent is how much of the job's result state keeps:
// include_raw_result adds the word timings to include_transcript's
// transcript.
func (m *jobResourceModel) resultContent() resultContent {
	switch {
	case m.IncludeRawResult.ValueBool():
		return rawContent
	case m.IncludeTranscript.ValueBool():
		return transcriptContent
	}
	return summaryContent
}

// resultDetail is how much of a result the provider decodes for content:
// what state does not keep is skipped before decoding. An hour of audio has
// about 7,700 words in 540 utterances.
func resultDetail(content resultContent) client.Detail {
	switch content {
	case rawContent:
		return client.WithRawResult
	case transcriptContent:
		return client.WithoutWords
	}
	return client.WithoutUtterances
}

// setRecord fills the computed attributes from a job record, keeping of
// its result what resultContent says; result_json only with
// include_raw_result.
func (m *jobResourceModel) setRecord(ctx context.Context, job *client.PreRecordedJob) diag.Diagnostics {
	var diags diag.Diagnostics
	content := m.resultContent()
	m.ID = types.StringValue(job.ID)
	m.RequestID = types.StringValue(job.RequestID)
	m.CreatedAt = types.StringValue(job.CreatedAt)
	m.Status = types.StringValue(job.Status)
	m.CompletedAt = types.StringPointerValue(job.CompletedAt)
	m.ErrorCode = types.Int64PointerValue(job.ErrorCode)
	m.Retained = types.BoolValue(true)
	m.File = flattenFile(job.File)
	result, d := flattenResult(ctx, job.Result, content, translationTargets(job))
	diags.Append(d...)
	m.Result = result
	m.ResultJSON = jsonTextNull()
	if content == rawContent && job.Result != nil {
		// As the service sent it: the client's types leave out what
		// they do not know (diarization, moderation, ...), and nulls.
		raw := job.Result.JSON
		if raw == nil {
			var err error
			if raw, err = json.Marshal(job.Result); err != nil {
				diags.AddError("Cannot encode the job's result", err.Error())
			}
		}
		m.ResultJSON = flattenJSON(raw)
	}
	return diags
}

// keepDeclaredMetadata returns the service's custom_metadata restricted to
// the keys of declared: keys added to the job elsewhere are not this
// configuration's business and must not turn into a diff (which would
// replace the job).
func keepDeclaredMetadata(declared types.Map, service map[string]any) types.Map {
	if declared.IsNull() || declared.IsUnknown() {
		return declared
	}
	all := flattenCustomMetadata(service).Elements()
	kept := make(map[string]attr.Value, len(declared.Elements()))
	for k := range declared.Elements() {
		if v, ok := all[k]; ok {
			kept[k] = v
		}
	}
	return types.MapValueMust(types.StringType, kept)
}

// recordField is one computed value of a job record in the model: where it
// is, and its null.
type recordField[T attr.Value] struct {
	at   func(*jobResourceModel) *T
	null T
}

func (f recordField[T]) unknown(m *jobResourceModel) bool { return (*f.at(m)).IsUnknown() }

func (f recordField[T]) nullIfUnknown(m *jobResourceModel) {
	if p := f.at(m); (*p).IsUnknown() {
		*p = f.null
	}
}

func (f recordField[T]) priorIfUnknown(m, prior *jobResourceModel) {
	if p := f.at(m); (*p).IsUnknown() {
		*p = *f.at(prior)
	}
}

// recordFields are the computed values a job record gives, listed once for
// the three walks over them below.
var recordFields = []interface {
	unknown(*jobResourceModel) bool
	nullIfUnknown(*jobResourceModel)
	priorIfUnknown(m, prior *jobResourceModel)
}{
	recordField[types.String]{func(m *jobResourceModel) *types.String { return &m.RequestID }, types.StringNull()},
	recordField[types.String]{func(m *jobResourceModel) *types.String { return &m.CreatedAt }, types.StringNull()},
	recordField[types.String]{func(m *jobResourceModel) *types.String { return &m.Status }, types.StringNull()},
	recordField[types.String]{func(m *jobResourceModel) *types.String { return &m.CompletedAt }, types.StringNull()},
	recordField[types.Int64]{func(m *jobResourceModel) *types.Int64 { return &m.ErrorCode }, types.Int64Null()},
	recordField[types.Bool]{func(m *jobResourceModel) *types.Bool { return &m.Retained }, types.BoolNull()},
	recordField[types.Object]{func(m *jobResourceModel) *types.Object { return &m.File }, types.ObjectNull(fileType.AttrTypes)},
	recordField[types.Object]{func(m *jobResourceModel) *types.Object { return &m.Result }, types.ObjectNull(resultType.AttrTypes)},
	recordField[jsonText]{func(m *jobResourceModel) *jsonText { return &m.ResultJSON }, jsonTextNull()},
}

// setUnknownComputedToNull makes the computed values that are still unknown
// null, so that a state saved early (right after the job's creation) is
// wholly known.
func (m *jobResourceModel) setUnknownComputedToNull() {
	for _, f := range recordFields {
		f.nullIfUnknown(m)
	}
}

// copyUnknownComputed takes from prior the computed values still unknown in m.
func (m *jobResourceModel) copyUnknownComputed(prior jobResourceModel) {
	for _, f := range recordFields {
		f.priorIfUnknown(m, &prior)
	}
}

// computedUnknown reports whether a value that only the job record can give
// is unknown in m (a plan), so that applying it needs a fresh record.
func (m jobResourceModel) computedUnknown() bool {
	for _, f := range recordFields {
		if f.unknown(&m) {
			return true
		}
	}
	return false
}

// Conversion helpers shared by the configuration objects.

// expandObject converts a configuration object to its client type; a null
// object is nil, so it is left out of the request.
func expandObject[M interface {
	expand(context.Context, *diag.Diagnostics) *T
}, T any](ctx context.Context, o types.Object, diags *diag.Diagnostics) *T {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	var m M
	if d := o.As(ctx, &m, basetypes.ObjectAsOptions{}); d.HasError() {
		diags.Append(d...)
		return nil
	}
	return m.expand(ctx, diags)
}

// flattenObject converts a configuration object of request_params to the
// attribute name's object value; nil is null.
func flattenObject[T, M any](ctx context.Context, name string, v *T, flatten func(*T) M, diags *diag.Diagnostics) types.Object {
	attrTypes := requestObjectAttrTypes(name)
	if v == nil {
		return types.ObjectNull(attrTypes)
	}
	o, d := types.ObjectValueFrom(ctx, attrTypes, flatten(v))
	diags.Append(d...)
	return o
}

// requestObjectAttrTypes gives the attribute types of a configuration
// object, read from the schema so that they cannot drift apart.
func requestObjectAttrTypes(name string) map[string]attr.Type {
	t, ok := jobAttrTypes()[name].(types.ObjectType)
	if !ok {
		panic("transcription_job has no object attribute " + name)
	}
	return t.AttrTypes
}

var jobAttrTypes = sync.OnceValue(func() map[string]attr.Type {
	t, ok := jobSchema(context.Background()).Type().(types.ObjectType)
	if !ok {
		panic("the transcription_job schema is not an object type")
	}
	return t.AttrTypes
})

// expandStrings converts a list of strings; null is nil (left out).
func expandStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	out := make([]string, 0, len(l.Elements()))
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// flattenStrings converts a list of strings; nil is null.
func flattenStrings(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	elems := make([]attr.Value, len(s))
	for i, v := range s {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

// withoutRepeats is a list of alternatives (languages, subtitle formats,
// translation targets, PII entity types, a key's spellings) as a job made
// elsewhere may hold it, without
// its repeats, in its order: the configuration the provider accepts
// (NoDuplicates), which asks for the same (client.Effective), so that a
// configuration generated for an import is valid and plans no change.
func withoutRepeats(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if s != nil && out == nil {
		return []string{}
	}
	return out
}

// nonEmpty is p, or nil when it points to an empty text: the translation
// context "" means none (client.Effective), and Terraform generates null
// for it.
func nonEmpty(p *string) *string {
	if p == nil || *p == "" {
		return nil
	}
	return p
}

// flattenStringsOr is flattenStrings with def for an absent or empty list,
// for lists whose schema has a default.
func flattenStringsOr(s, def []string) types.List {
	if len(s) == 0 {
		return flattenStrings(def)
	}
	return flattenStrings(s)
}

func stringOr(p *string, def string) types.String {
	if p == nil {
		return types.StringValue(def)
	}
	return types.StringValue(*p)
}

func boolOr(p *bool, def bool) types.Bool {
	if p == nil {
		return types.BoolValue(def)
	}
	return types.BoolValue(*p)
}
