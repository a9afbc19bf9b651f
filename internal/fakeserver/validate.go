package fakeserver

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// validateRequest checks a well-formed create request against the rules of
// the spec (enumerations, the Limits table, URL fields, model-3, cross-field
// rules) and returns one problem per broken rule, naming the field path; no
// problems means the request is accepted. Every *_config object is checked
// whether or not its boolean is on, as the service validates the whole body.
func validateRequest(req *client.InitTranscriptionRequest) []string {
	var v validator

	v.absoluteURL("audio_url", req.AudioURL)
	model := client.DefaultModel
	if req.Model != nil {
		model = *req.Model
		v.oneOf("model", model, client.Models)
	}
	if lc := req.LanguageConfig; lc != nil {
		for i, lang := range lc.Languages {
			v.transcriptionLanguage(fmt.Sprintf("language_config.languages[%d]", i), lang)
		}
	}
	if model == client.ModelThree {
		v.modelThree(req.LanguageConfig)
	}
	if c := req.CustomVocabularyConfig; c != nil {
		v.customVocabulary(c)
	}
	if c := req.CallbackConfig; c != nil {
		v.absoluteURL("callback_config.url", c.URL)
		if c.Method != nil {
			v.oneOf("callback_config.method", *c.Method, client.CallbackMethods)
		}
	}
	if req.CallbackURL != nil {
		v.absoluteURL("callback_url", *req.CallbackURL)
	}
	if isOn(req.Callback) && req.CallbackConfig == nil && req.CallbackURL == nil {
		v.add("callback_config.url or callback_url is required when callback is true")
	}
	if c := req.SubtitlesConfig; c != nil {
		v.subtitles(c)
	}
	if c := req.DiarizationConfig; c != nil {
		v.diarization(c)
	}
	if c := req.TranslationConfig; c != nil {
		v.translation(c)
	}
	if c := req.SummarizationConfig; c != nil && c.Type != nil {
		v.oneOf("summarization_config.type", *c.Type, client.SummaryTypes)
	}
	if c := req.AudioToLLMConfig; c != nil {
		v.minItems("audio_to_llm_config.prompts", len(c.Prompts), 1)
		if c.Model != nil && !client.LLMModelPattern.MatchString(*c.Model) {
			v.add("audio_to_llm_config.model must have the form <provider>/<model_name> (got %q)", *c.Model)
		}
	}
	if c := req.PIIRedactionConfig; c != nil {
		for i, e := range c.EntityTypes {
			if !client.Contains(client.PIIEntityTypes, e) {
				v.add("pii_redaction_config.entity_types[%d] must be a PII entity type of the service (got %q)", i, e)
			}
		}
		if c.ProcessedTextType != nil {
			v.oneOf("pii_redaction_config.processed_text_type", *c.ProcessedTextType, client.ProcessedTextTypes)
		}
	}
	return v.problems
}

// validator collects rule violations.
type validator struct {
	problems []string
}

func (v *validator) add(format string, args ...any) {
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

func (v *validator) oneOf(path, value string, allowed []string) {
	if !client.Contains(allowed, value) {
		v.add("%s must be one of: %s (got %q)", path, strings.Join(allowed, ", "), value)
	}
}

func (v *validator) transcriptionLanguage(path, code string) {
	switch {
	case client.Contains(client.TranscriptionLanguages, code):
	case client.Contains(client.TranslationLanguages, code):
		v.add("%s must be a transcription language code; %q is a translation target only", path, code)
	default:
		v.add("%s must be a transcription language code (got %q)", path, code)
	}
}

func (v *validator) absoluteURL(path, raw string) {
	if strings.ContainsFunc(raw, unicode.IsSpace) {
		// A URI holds no white space (RFC 3986); url.Parse takes it in a
		// path or query.
		v.add("%s must be an absolute http or https URL without white space (got %q)", path, raw)
		return
	}
	if strings.ContainsFunc(raw, unicode.IsControl) { // url.Parse takes them in a fragment
		v.add("%s must be an absolute http or https URL without control characters (got %q)", path, raw)
		return
	}
	u, err := url.Parse(raw)
	// A port without a host name ("https://:8080/a.wav") names no host.
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		v.add("%s must be an absolute http or https URL (got %q)", path, raw)
		return
	}
	// Go's parser takes any digits as a port; a URL validator does not.
	if port, err := strconv.ParseUint(u.Port(), 10, 16); u.Port() != "" && (err != nil || port == 0) {
		v.add("%s must be an absolute http or https URL with a port from 1 to 65535 (got %q)", path, raw)
	}
}

func (v *validator) atLeast(path string, value, bound float64) {
	if value < bound {
		v.add("%s must not be less than %s", path, formatBound(bound))
	}
}

func (v *validator) atMost(path string, value, bound float64) {
	if value > bound {
		v.add("%s must not be greater than %s", path, formatBound(bound))
	}
}

func (v *validator) minItems(path string, n, bound int) {
	if n < bound {
		v.add("%s must contain at least %d item(s)", path, bound)
	}
}

func (v *validator) modelThree(lc *client.LanguageConfig) {
	var langs []string
	if lc != nil {
		langs = lc.Languages
	}
	if len(langs) != 1 {
		v.add("language_config.languages must hold exactly one language when model is %s (got %d)", client.ModelThree, len(langs))
	}
	for i, lang := range langs {
		if client.Contains(client.TranscriptionLanguages, lang) && !client.Contains(client.ModelThreeLanguages, lang) {
			v.add("language_config.languages[%d] must be one of: %s when model is %s (got %q)",
				i, strings.Join(client.ModelThreeLanguages, ", "), client.ModelThree, lang)
		}
	}
	if lc != nil && isOn(lc.CodeSwitching) {
		v.add("language_config.code_switching must not be true when model is %s", client.ModelThree)
	}
}

func (v *validator) customVocabulary(c *client.CustomVocabularyConfig) {
	if c.DefaultIntensity != nil {
		v.atLeast("custom_vocabulary_config.default_intensity", *c.DefaultIntensity, client.MinIntensity)
		v.atMost("custom_vocabulary_config.default_intensity", *c.DefaultIntensity, client.MaxIntensity)
	}
	for i, e := range c.Vocabulary {
		path := fmt.Sprintf("custom_vocabulary_config.vocabulary[%d]", i)
		if strings.TrimSpace(e.Value) == "" {
			v.add("%s.value must not be empty", path)
		}
		if e.Intensity != nil {
			v.atLeast(path+".intensity", *e.Intensity, client.MinIntensity)
			v.atMost(path+".intensity", *e.Intensity, client.MaxIntensity)
		}
		if e.Language != nil {
			v.transcriptionLanguage(path+".language", *e.Language)
		}
	}
}

func (v *validator) subtitles(c *client.SubtitlesConfig) {
	if c.Formats != nil {
		v.minItems("subtitles_config.formats", len(c.Formats), 1)
		for i, f := range c.Formats {
			v.oneOf(fmt.Sprintf("subtitles_config.formats[%d]", i), f, client.SubtitleFormats)
		}
	}
	if c.MinimumDuration != nil {
		v.atLeast("subtitles_config.minimum_duration", *c.MinimumDuration, client.MinSubtitleMinimumDuration)
	}
	if c.MaximumDuration != nil {
		v.atLeast("subtitles_config.maximum_duration", *c.MaximumDuration, client.MinSubtitleMaximumDuration)
		v.atMost("subtitles_config.maximum_duration", *c.MaximumDuration, client.MaxSubtitleMaximumDuration)
	}
	if c.MinimumDuration != nil && c.MaximumDuration != nil && *c.MinimumDuration > *c.MaximumDuration {
		v.add("subtitles_config.minimum_duration must not be greater than subtitles_config.maximum_duration")
	}
	if c.MaximumCharactersPerRow != nil {
		v.atLeast("subtitles_config.maximum_characters_per_row", float64(*c.MaximumCharactersPerRow), client.MinSubtitleCharactersPerRow)
	}
	if c.MaximumRowsPerCaption != nil {
		v.atLeast("subtitles_config.maximum_rows_per_caption", float64(*c.MaximumRowsPerCaption), client.MinSubtitleRowsPerCaption)
		v.atMost("subtitles_config.maximum_rows_per_caption", float64(*c.MaximumRowsPerCaption), client.MaxSubtitleRowsPerCaption)
	}
	if c.Style != nil {
		v.oneOf("subtitles_config.style", *c.Style, client.SubtitleStyles)
	}
}

func (v *validator) diarization(c *client.DiarizationConfig) {
	if c.NumberOfSpeakers != nil {
		v.atLeast("diarization_config.number_of_speakers", float64(*c.NumberOfSpeakers), client.MinNumberOfSpeakers)
	}
	if c.MinSpeakers != nil {
		v.atLeast("diarization_config.min_speakers", float64(*c.MinSpeakers), client.MinSpeakersBound)
	}
	if c.MaxSpeakers != nil {
		v.atLeast("diarization_config.max_speakers", float64(*c.MaxSpeakers), client.MinSpeakersBound)
	}
	if c.MinSpeakers != nil && c.MaxSpeakers != nil && *c.MinSpeakers > *c.MaxSpeakers {
		v.add("diarization_config.min_speakers must not be greater than diarization_config.max_speakers")
	}
}

func (v *validator) translation(c *client.TranslationConfig) {
	v.minItems("translation_config.target_languages", len(c.TargetLanguages), 1)
	for i, lang := range c.TargetLanguages {
		if !client.Contains(client.TranslationLanguages, lang) {
			v.add("translation_config.target_languages[%d] must be a translation language code (got %q)", i, lang)
		}
	}
	if c.Model != nil {
		v.oneOf("translation_config.model", *c.Model, client.TranslationModels)
	}
}

func formatBound(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func isOn(b *bool) bool { return b != nil && *b }
