package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// InitTranscriptionRequest is the body of POST /v2/pre-recorded. Every optional
// field is a pointer, nil slice or nil map so that an unset field is omitted
// from the JSON rather than sent as null or as its zero value.
type InitTranscriptionRequest struct {
	AudioURL               string                  `json:"audio_url"`
	Model                  *string                 `json:"model,omitempty"`
	LanguageConfig         *LanguageConfig         `json:"language_config,omitempty"`
	CustomVocabulary       *bool                   `json:"custom_vocabulary,omitempty"`
	CustomVocabularyConfig *CustomVocabularyConfig `json:"custom_vocabulary_config,omitempty"`
	Callback               *bool                   `json:"callback,omitempty"`
	CallbackConfig         *CallbackConfig         `json:"callback_config,omitempty"`
	CallbackURL            *string                 `json:"callback_url,omitempty"`
	Subtitles              *bool                   `json:"subtitles,omitempty"`
	SubtitlesConfig        *SubtitlesConfig        `json:"subtitles_config,omitempty"`
	Diarization            *bool                   `json:"diarization,omitempty"`
	DiarizationConfig      *DiarizationConfig      `json:"diarization_config,omitempty"`
	Translation            *bool                   `json:"translation,omitempty"`
	TranslationConfig      *TranslationConfig      `json:"translation_config,omitempty"`
	Summarization          *bool                   `json:"summarization,omitempty"`
	SummarizationConfig    *SummarizationConfig    `json:"summarization_config,omitempty"`
	NamedEntityRecognition *bool                   `json:"named_entity_recognition,omitempty"`
	CustomSpelling         *bool                   `json:"custom_spelling,omitempty"`
	CustomSpellingConfig   *CustomSpellingConfig   `json:"custom_spelling_config,omitempty"`
	SentimentAnalysis      *bool                   `json:"sentiment_analysis,omitempty"`
	AudioToLLM             *bool                   `json:"audio_to_llm,omitempty"`
	AudioToLLMConfig       *AudioToLLMConfig       `json:"audio_to_llm_config,omitempty"`
	PIIRedaction           *bool                   `json:"pii_redaction,omitempty"`
	PIIRedactionConfig     *PIIRedactionConfig     `json:"pii_redaction_config,omitempty"`
	CustomMetadata         Metadata                `json:"custom_metadata,omitempty"`
	Sentences              *bool                   `json:"sentences,omitempty"`
	PunctuationEnhanced    *bool                   `json:"punctuation_enhanced,omitempty"`
}

// LanguageConfig chooses the transcription languages.
type LanguageConfig struct {
	Languages     []string `json:"languages,omitempty"`
	CodeSwitching *bool    `json:"code_switching,omitempty"`
}

// CustomVocabularyConfig is CustomVocabularyConfigDTO.
type CustomVocabularyConfig struct {
	Vocabulary       []VocabularyEntry `json:"vocabulary"`
	DefaultIntensity *float64          `json:"default_intensity,omitempty"`
}

// VocabularyEntry is CustomVocabularyEntryDTO. The service also accepts a bare
// string as an entry; such an entry decodes to a VocabularyEntry holding only
// Value and, when sent, is sent as an object.
type VocabularyEntry struct {
	Value          string   `json:"value"`
	Intensity      *float64 `json:"intensity,omitempty"`
	Pronunciations []string `json:"pronunciations,omitempty"`
	Language       *string  `json:"language,omitempty"`
}

// UnmarshalJSON accepts either form the service accepts: "text" or {"value": "text", ...}.
func (e *VocabularyEntry) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '"' {
		var s string
		if err := json.Unmarshal(trimmed, &s); err != nil {
			return err
		}
		*e = VocabularyEntry{Value: s}
		return nil
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("vocabulary entry must be a string or an object")
	}
	type plain VocabularyEntry
	var p plain
	// Fields it does not know are left out, as in every decoding of the
	// service's answers: a field the service adds keeps its jobs readable.
	// The fake server refuses them in a create (its shapeCheck).
	if err := json.Unmarshal(trimmed, &p); err != nil {
		return err
	}
	*e = VocabularyEntry(p)
	return nil
}

// CallbackConfig is CallbackConfigDto.
type CallbackConfig struct {
	URL    string  `json:"url"`
	Method *string `json:"method,omitempty"`
}

// SubtitlesConfig is SubtitlesConfigDTO.
type SubtitlesConfig struct {
	Formats                 []string `json:"formats,omitempty"`
	MinimumDuration         *float64 `json:"minimum_duration,omitempty"`
	MaximumDuration         *float64 `json:"maximum_duration,omitempty"`
	MaximumCharactersPerRow *int64   `json:"maximum_characters_per_row,omitempty"`
	MaximumRowsPerCaption   *int64   `json:"maximum_rows_per_caption,omitempty"`
	Style                   *string  `json:"style,omitempty"`
}

// DiarizationConfig is DiarizationConfigDTO.
type DiarizationConfig struct {
	NumberOfSpeakers *int64 `json:"number_of_speakers,omitempty"`
	MinSpeakers      *int64 `json:"min_speakers,omitempty"`
	MaxSpeakers      *int64 `json:"max_speakers,omitempty"`
}

// TranslationConfig is TranslationConfigDTO.
type TranslationConfig struct {
	TargetLanguages         []string `json:"target_languages"`
	Model                   *string  `json:"model,omitempty"`
	MatchOriginalUtterances *bool    `json:"match_original_utterances,omitempty"`
	Lipsync                 *bool    `json:"lipsync,omitempty"`
	ContextAdaptation       *bool    `json:"context_adaptation,omitempty"`
	Context                 *string  `json:"context,omitempty"`
	Informal                *bool    `json:"informal,omitempty"`
}

// SummarizationConfig is SummarizationConfigDTO.
type SummarizationConfig struct {
	Type *string `json:"type,omitempty"`
}

// CustomSpellingConfig is CustomSpellingConfigDTO: target spelling → spellings to replace.
type CustomSpellingConfig struct {
	SpellingDictionary map[string][]string `json:"spelling_dictionary"`
}

// AudioToLLMConfig is AudioToLlmListConfigDTO. The spec's schema types each
// prompt as an array while its sample sends prompt texts; texts are used.
type AudioToLLMConfig struct {
	Prompts []string `json:"prompts"`
	Model   *string  `json:"model,omitempty"`
}

// PIIRedactionConfig is PiiRedactionConfigDTO.
type PIIRedactionConfig struct {
	EntityTypes       []string `json:"entity_types,omitempty"`
	ProcessedTextType *string  `json:"processed_text_type,omitempty"`
}

// InitResponse is InitPreRecordedTranscriptionResponse.
type InitResponse struct {
	ID        string `json:"id"`
	ResultURL string `json:"result_url"`
	// Mislabeled says how an answer not labeled JSON, but whose body was
	// the service's answer nonetheless (a JSON object with a UUID id), was
	// labeled: `Content-Type "text/plain"`, or `no Content-Type`. Empty when
	// it was labeled JSON. Not the service's: the client sets it, so that a
	// created job is not lost to a proxy that relabels answers.
	Mislabeled string `json:"-"`
}

// JobCommon holds the fields every job record carries, whatever its kind.
type JobCommon struct {
	ID                  string          `json:"id"`
	RequestID           string          `json:"request_id"`
	Version             int64           `json:"version"`
	Status              string          `json:"status"`
	CreatedAt           string          `json:"created_at"`
	CompletedAt         *string         `json:"completed_at"`
	Kind                string          `json:"kind"`
	CustomMetadata      Metadata        `json:"custom_metadata,omitempty"` // absent when none (the official types: optional, never null)
	ErrorCode           *int64          `json:"error_code"`
	PostSessionMetadata json.RawMessage `json:"post_session_metadata,omitempty"`
	File                *FileInfo       `json:"file"`
	Result              *Result         `json:"result"`
}

// PreRecordedJob is the record returned by GET /v2/pre-recorded/{id}.
// RequestParams is the create body as the service applied it, defaults filled
// in, without custom_metadata.
type PreRecordedJob struct {
	JobCommon
	RequestParams *InitTranscriptionRequest `json:"request_params"`
}

// PreRecordedRecord is a pre-recorded job's record with its request_params
// left as the service sent them: what a listing shows of them, without the
// cost of decoding them, and whatever they hold (forms and fields
// InitTranscriptionRequest does not keep).
type PreRecordedRecord struct {
	JobCommon
	RequestParams json.RawMessage `json:"request_params"`
}

// Job decodes the record's request_params, as GetPreRecorded does: the job
// as a job's own read gives it, or why its request_params cannot be read.
func (r *PreRecordedRecord) Job() (*PreRecordedJob, error) {
	job := &PreRecordedJob{JobCommon: r.JobCommon}
	if len(r.RequestParams) > 0 {
		if err := json.Unmarshal(r.RequestParams, &job.RequestParams); err != nil {
			return nil, fmt.Errorf("its request_params cannot be read: %w", err)
		}
	}
	return job, nil
}

// LiveJob is an item of the live listing.
type LiveJob struct {
	JobCommon
	RequestParams *LiveRequestParams `json:"request_params"`
}

// FileInfo describes the audio a job transcribed.
type FileInfo struct {
	ID string `json:"id"`
	// Filename and Source are null when the service has none (a live
	// session has no download link).
	Filename         *string  `json:"filename"`
	Source           *string  `json:"source"`
	AudioDuration    *float64 `json:"audio_duration"`
	NumberOfChannels *int64   `json:"number_of_channels"`
}

// LiveRequestParams are the parameters a live session was started with.
type LiveRequestParams struct {
	Encoding                          *string                 `json:"encoding,omitempty"`
	BitDepth                          *int64                  `json:"bit_depth,omitempty"`
	SampleRate                        *int64                  `json:"sample_rate,omitempty"`
	Channels                          *int64                  `json:"channels,omitempty"`
	Model                             *string                 `json:"model,omitempty"`
	Endpointing                       *float64                `json:"endpointing,omitempty"`
	MaximumDurationWithoutEndpointing *float64                `json:"maximum_duration_without_endpointing,omitempty"`
	LanguageConfig                    *LanguageConfig         `json:"language_config,omitempty"`
	PreProcessing                     *LivePreProcessing      `json:"pre_processing,omitempty"`
	RealtimeProcessing                *LiveRealtimeProcessing `json:"realtime_processing,omitempty"`
	PostProcessing                    *LivePostProcessing     `json:"post_processing,omitempty"`
	MessagesConfig                    *LiveMessagesConfig     `json:"messages_config,omitempty"`
	Callback                          *bool                   `json:"callback,omitempty"`
	CallbackConfig                    *LiveCallbackConfig     `json:"callback_config,omitempty"`

	// raw is the JSON these were decoded from: the service's fields as it
	// sent them, including forms and fields the types above do not keep.
	raw json.RawMessage
}

// UnmarshalJSON decodes the parameters and keeps the JSON they came from.
func (p *LiveRequestParams) UnmarshalJSON(data []byte) error {
	type plain LiveRequestParams
	var decoded plain
	if err := json.Unmarshal(data, &decoded); err != nil {
		return err
	}
	*p = LiveRequestParams(decoded)
	p.raw = append(json.RawMessage(nil), data...)
	return nil
}

// Raw is the JSON the parameters were decoded from, as the service sent
// them; nil when they were not decoded.
func (p *LiveRequestParams) Raw() json.RawMessage { return p.raw }

// LivePreProcessing is request_params.pre_processing of a live job.
type LivePreProcessing struct {
	AudioEnhancer   *bool    `json:"audio_enhancer,omitempty"`
	SpeechThreshold *float64 `json:"speech_threshold,omitempty"`
}

// LiveRealtimeProcessing is request_params.realtime_processing of a live job.
type LiveRealtimeProcessing struct {
	CustomVocabulary       *bool                   `json:"custom_vocabulary,omitempty"`
	CustomVocabularyConfig *CustomVocabularyConfig `json:"custom_vocabulary_config,omitempty"`
	CustomSpelling         *bool                   `json:"custom_spelling,omitempty"`
	CustomSpellingConfig   *CustomSpellingConfig   `json:"custom_spelling_config,omitempty"`
	Translation            *bool                   `json:"translation,omitempty"`
	TranslationConfig      *TranslationConfig      `json:"translation_config,omitempty"`
	NamedEntityRecognition *bool                   `json:"named_entity_recognition,omitempty"`
	SentimentAnalysis      *bool                   `json:"sentiment_analysis,omitempty"`
}

// LivePostProcessing is request_params.post_processing of a live job.
type LivePostProcessing struct {
	Summarization       *bool                `json:"summarization,omitempty"`
	SummarizationConfig *SummarizationConfig `json:"summarization_config,omitempty"`
	Chapterization      *bool                `json:"chapterization,omitempty"`
}

// LiveMessagesConfig holds the nine message-category flags of a live job.
type LiveMessagesConfig struct {
	ReceivePartialTranscripts       *bool `json:"receive_partial_transcripts,omitempty"`
	ReceiveFinalTranscripts         *bool `json:"receive_final_transcripts,omitempty"`
	ReceiveSpeechEvents             *bool `json:"receive_speech_events,omitempty"`
	ReceivePreProcessingEvents      *bool `json:"receive_pre_processing_events,omitempty"`
	ReceiveRealtimeProcessingEvents *bool `json:"receive_realtime_processing_events,omitempty"`
	ReceivePostProcessingEvents     *bool `json:"receive_post_processing_events,omitempty"`
	ReceiveAcknowledgments          *bool `json:"receive_acknowledgments,omitempty"`
	ReceiveErrors                   *bool `json:"receive_errors,omitempty"`
	ReceiveLifecycleEvents          *bool `json:"receive_lifecycle_events,omitempty"`
}

// LiveCallbackConfig is a live job's callback_config: a URL plus the nine flags.
type LiveCallbackConfig struct {
	URL *string `json:"url,omitempty"`
	LiveMessagesConfig
}

// Result is a job's result: the same shape for pre-recorded and live jobs.
// Each add-on result is present only when that add-on was enabled.
type Result struct {
	Metadata               ResultMetadata                   `json:"metadata"`
	Transcription          *Transcription                   `json:"transcription,omitempty"`
	Translation            *AddonResult[[]TranslationItem]  `json:"translation,omitempty"`
	Summarization          *AddonResult[*string]            `json:"summarization,omitempty"` // results null when it failed
	NamedEntityRecognition *AddonResult[[]NamedEntity]      `json:"named_entity_recognition,omitempty"`
	SentimentAnalysis      *AddonResult[string]             `json:"sentiment_analysis,omitempty"`
	AudioToLLM             *AddonResult[[]AudioToLLMResult] `json:"audio_to_llm,omitempty"`
	Sentences              *AddonResult[[]string]           `json:"sentences,omitempty"`
	Messages               []string                         `json:"messages,omitempty"`

	// JSON is the result as the service sent it, read with WithRawResult;
	// nil otherwise.
	JSON json.RawMessage `json:"-"`
}

// keepRawResult sets j.Result.JSON from body, the whole answer j was
// decoded from.
func (j *JobCommon) keepRawResult(body []byte) error {
	if j.Result == nil {
		return nil
	}
	var raw struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return err
	}
	j.Result.JSON = raw.Result
	return nil
}

// ResultMetadata is result.metadata.
type ResultMetadata struct {
	AudioDuration            float64 `json:"audio_duration"`
	NumberOfDistinctChannels int64   `json:"number_of_distinct_channels"`
	BillingTime              float64 `json:"billing_time"`
	TranscriptionTime        float64 `json:"transcription_time"`
}

// Transcription is result.transcription.
type Transcription struct {
	FullTranscript string                  `json:"full_transcript"`
	Languages      []string                `json:"languages"`
	Utterances     []Utterance             `json:"utterances"`
	Sentences      []AddonResult[[]string] `json:"sentences,omitempty"`
	Subtitles      []Subtitle              `json:"subtitles,omitempty"`
}

// Utterance is one utterance of a transcript. Start and end are in seconds.
type Utterance struct {
	Start      float64 `json:"start"`
	End        float64 `json:"end"`
	Confidence float64 `json:"confidence"`
	Channel    int64   `json:"channel"`
	Words      []Word  `json:"words"`
	Text       string  `json:"text"`
	Language   string  `json:"language"`
	Speaker    *int64  `json:"speaker,omitempty"`
}

// Word is one word of an utterance with its timing in seconds.
type Word struct {
	Word       string  `json:"word"`
	Start      float64 `json:"start"`
	End        float64 `json:"end"`
	Confidence float64 `json:"confidence"`
}

// Subtitle is one rendered subtitle file.
type Subtitle struct {
	Format    string `json:"format"`
	Subtitles string `json:"subtitles"`
}

// AddonResult is the add-on result object; Results' type varies by add-on.
type AddonResult[T any] struct {
	Success  bool        `json:"success"`
	IsEmpty  bool        `json:"is_empty"`
	ExecTime float64     `json:"exec_time"`
	Error    *AddonError `json:"error"`
	Results  T           `json:"results"`
}

// AddonError is the error object of a failed add-on.
type AddonError struct {
	StatusCode int64  `json:"status_code"`
	Exception  string `json:"exception"`
	Message    string `json:"message"`
}

// TranslationItem is one target language's translation.
type TranslationItem struct {
	Error          *AddonError             `json:"error"`
	FullTranscript string                  `json:"full_transcript"`
	Languages      []string                `json:"languages"`
	Utterances     []Utterance             `json:"utterances"`
	Sentences      []AddonResult[[]string] `json:"sentences,omitempty"`
	Subtitles      []Subtitle              `json:"subtitles,omitempty"`
}

// NamedEntity is one entity found by named entity recognition.
type NamedEntity struct {
	EntityType string  `json:"entity_type"`
	Text       string  `json:"text"`
	Start      float64 `json:"start"`
	End        float64 `json:"end"`
}

// AudioToLLMResult is the add-on result of one audio-to-LLM prompt: the
// add-on's results list holds one per prompt, each with its own success and
// error (the official client's AudioToLlmList and AudioToLlm types).
type AudioToLLMResult = AddonResult[*AudioToLLMAnswer]

// AudioToLLMAnswer is a prompt and the LLM's answer to it; the service may
// send null for either.
type AudioToLLMAnswer struct {
	Prompt   *string `json:"prompt"`
	Response *string `json:"response"`
}

// Page is one page of a listing: links to the first, current and next
// pages (next is null on the last page) and the items.
type Page[T any] struct {
	First   string  `json:"first"`
	Current string  `json:"current"`
	Next    *string `json:"next"`
	Items   []T     `json:"items"`
}

// LivePage is one page of GET /v2/live.
type LivePage = Page[LiveJob]

// PreRecordedPage is one page of GET /v2/pre-recorded.
type PreRecordedPage = Page[PreRecordedJob]

// UploadResponse is the body of POST /v2/upload.
type UploadResponse struct {
	AudioURL      string         `json:"audio_url"`
	AudioMetadata *AudioMetadata `json:"audio_metadata"`
}

// AudioMetadata describes an uploaded file.
type AudioMetadata struct {
	ID               string  `json:"id"`
	Filename         string  `json:"filename"`
	Extension        string  `json:"extension"`
	Size             int64   `json:"size"`
	AudioDuration    float64 `json:"audio_duration"`
	NumberOfChannels int64   `json:"number_of_channels"`
}

// ErrorBody is the service's error body, shared by every error status.
type ErrorBody struct {
	Timestamp        string   `json:"timestamp"`
	Path             string   `json:"path"`
	RequestID        string   `json:"request_id"`
	StatusCode       int      `json:"statusCode"`
	Message          string   `json:"message"`
	ValidationErrors []string `json:"validation_errors,omitempty"`
}

// CallbackBody is what the service sends to a callback URL.
type CallbackBody struct {
	ID             string         `json:"id"`
	Event          string         `json:"event"`
	Payload        *Result        `json:"payload,omitempty"`
	Error          *CallbackError `json:"error,omitempty"`
	CustomMetadata Metadata       `json:"custom_metadata"`
}

// CallbackError is the error of a failure callback.
type CallbackError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// Callback events.
const (
	EventTranscriptionSuccess = "transcription.success"
	EventTranscriptionError   = "transcription.error"
)
