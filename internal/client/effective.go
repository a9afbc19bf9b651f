package client

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// WithDefaults returns the request as the service applies it and records it
// in a job's request_params: every top-level switch present (false when
// omitted), the model filled in, and inside each configuration object that
// was sent its omitted defaulted fields filled in. Configuration objects that
// were not sent stay absent; custom_metadata is dropped (a job record carries
// it at its top level).
func (r *InitTranscriptionRequest) WithDefaults() *InitTranscriptionRequest {
	out := *r
	out.CustomMetadata = nil
	fill(&out.Model, DefaultModel)
	for _, flag := range out.switches() {
		fill(flag, false)
	}
	if c := out.LanguageConfig; c != nil {
		cc := *c
		fill(&cc.CodeSwitching, false)
		out.LanguageConfig = &cc
	}
	if c := out.SubtitlesConfig; c != nil {
		cc := *c
		if cc.Formats == nil {
			cc.Formats = []string{DefaultSubtitleFormat}
		}
		fill(&cc.Style, DefaultSubtitleStyle)
		out.SubtitlesConfig = &cc
	}
	if c := out.CallbackConfig; c != nil {
		cc := *c
		fill(&cc.Method, DefaultCallbackMethod)
		out.CallbackConfig = &cc
	}
	if c := out.TranslationConfig; c != nil {
		cc := *c
		fill(&cc.Model, DefaultTranslationModel)
		fill(&cc.MatchOriginalUtterances, true)
		fill(&cc.Lipsync, true)
		fill(&cc.ContextAdaptation, true)
		fill(&cc.Informal, false)
		out.TranslationConfig = &cc
	}
	if c := out.SummarizationConfig; c != nil {
		cc := *c
		fill(&cc.Type, DefaultSummaryType)
		out.SummarizationConfig = &cc
	}
	return &out
}

// switches are the request's top-level booleans.
func (r *InitTranscriptionRequest) switches() []**bool {
	return []**bool{
		&r.CustomVocabulary, &r.Callback, &r.Subtitles, &r.Diarization, &r.Translation,
		&r.Summarization, &r.NamedEntityRecognition, &r.CustomSpelling, &r.SentimentAnalysis,
		&r.AudioToLLM, &r.PIIRedaction, &r.Sentences, &r.PunctuationEnhanced,
	}
}

func fill[T any](field **T, value T) {
	if *field == nil {
		*field = &value
	}
}

// Effective returns what the service does with the request, so that two
// requests with the same Effective make the same job: WithDefaults, then
//   - a configuration object whose switch is false is dropped (the service
//     uses it only when its switch is true), and so is one that says nothing
//     but the service's defaults;
//   - an empty list or map is the same as none;
//   - lists whose order means nothing (languages, subtitle formats,
//     translation targets, PII entity types) are sorted and without repeats
//     (a value twice asks for nothing more);
//   - an empty translation context is none;
//   - code_switching is false when exactly one language is set, once
//     repeats are dropped (the service ignores it then);
//   - audio_url and the callback's URL are in their normal form
//     (EquivalentHTTPURL): URLs that name the same resource fetch the same
//     audio and reach the same callback;
//   - the callback is its target (CallbackTarget), kept in callback_config
//     with callback true, whichever fields named it;
//   - the spellings under a key and an entry's pronunciations are sorted
//     and without repeats (each is one of a set of alternatives), and a
//     key with no spellings is dropped (it replaces nothing);
//   - an entry's intensity left out is default_intensity, which is then
//     dropped: no entry is left to use it;
//   - an entry's language that is the transcription language (the one
//     language set) is left out, as it defaults to it.
//
// custom_metadata is kept: it is attached to the job.
func (r *InitTranscriptionRequest) Effective() *InitTranscriptionRequest {
	out := r.WithDefaults()
	out.AudioURL = EquivalentHTTPURL(r.AudioURL)
	out.CustomMetadata = nil
	if len(r.CustomMetadata) > 0 {
		out.CustomMetadata = maps.Clone(r.CustomMetadata)
	}
	if c := out.LanguageConfig; c != nil {
		cc := *c
		cc.Languages = sortedSetOrNil(cc.Languages)
		if len(cc.Languages) == 1 {
			cc.CodeSwitching = new(bool)
		}
		out.LanguageConfig = &cc
		if cc.Languages == nil && !*cc.CodeSwitching {
			out.LanguageConfig = nil
		}
	}
	if c := out.SubtitlesConfig; c != nil {
		cc := *c
		cc.Formats = sortedSetOrNil(cc.Formats)
		if cc.Formats == nil { // none, as an empty list is: the default
			cc.Formats = []string{DefaultSubtitleFormat}
		}
		out.SubtitlesConfig = &cc
		if equalJSON(cc, SubtitlesConfig{Formats: []string{DefaultSubtitleFormat}, Style: &defaultSubtitleStyle}) {
			out.SubtitlesConfig = nil
		}
	}
	if c := out.DiarizationConfig; c != nil && equalJSON(*c, DiarizationConfig{}) {
		out.DiarizationConfig = nil
	}
	if c := out.TranslationConfig; c != nil {
		cc := *c
		cc.TargetLanguages = sortedSetOrNil(cc.TargetLanguages)
		if cc.Context != nil && *cc.Context == "" { // nothing to use
			cc.Context = nil
		}
		out.TranslationConfig = &cc
	}
	if c := out.SummarizationConfig; c != nil && *c.Type == DefaultSummaryType {
		out.SummarizationConfig = nil
	}
	if c := out.PIIRedactionConfig; c != nil {
		cc := *c
		cc.EntityTypes = sortedSetOrNil(cc.EntityTypes)
		out.PIIRedactionConfig = &cc
		if cc.EntityTypes == nil && cc.ProcessedTextType == nil {
			out.PIIRedactionConfig = nil
		}
	}
	if c := out.CustomVocabularyConfig; c != nil {
		cc := *c
		cc.Vocabulary = slices.Clone(cc.Vocabulary)
		language := out.transcriptionLanguage()
		for i := range cc.Vocabulary {
			e := &cc.Vocabulary[i]
			e.Pronunciations = sortedSetOrNil(e.Pronunciations)
			if e.Intensity == nil {
				e.Intensity = cc.DefaultIntensity
			}
			if e.Language != nil && language != "" && *e.Language == language {
				e.Language = nil
			}
		}
		cc.DefaultIntensity = nil
		// Each entry carries its own intensity, pronunciations and
		// language: their order means nothing.
		slices.SortStableFunc(cc.Vocabulary, func(a, b VocabularyEntry) int { return strings.Compare(jsonText(a), jsonText(b)) })
		out.CustomVocabularyConfig = &cc
	}
	if c := out.CustomSpellingConfig; c != nil {
		cc := *c
		cc.SpellingDictionary = make(map[string][]string, len(c.SpellingDictionary))
		for key, spellings := range c.SpellingDictionary {
			// A key with no spellings replaces nothing.
			if set := sortedSetOrNil(spellings); set != nil {
				cc.SpellingDictionary[key] = set
			}
		}
		out.CustomSpellingConfig = &cc
	}
	out.Callback, out.CallbackConfig, out.CallbackURL = new(bool), nil, nil
	if url, method, ok := r.CallbackTarget(); ok {
		*out.Callback = true
		out.CallbackConfig = &CallbackConfig{URL: EquivalentHTTPURL(url), Method: &method}
	}
	// Unused configurations last: dropping them must not depend on their
	// content.
	out.dropUnusedConfigurations()
	return out
}

// WithoutUnusedConfigurations returns a copy of r without the configuration
// objects whose switch is not true (ConfigurationSwitches): the service
// ignores them, so the request means the same without them.
func (r *InitTranscriptionRequest) WithoutUnusedConfigurations() *InitTranscriptionRequest {
	out := *r
	out.dropUnusedConfigurations()
	return &out
}

func (r *InitTranscriptionRequest) dropUnusedConfigurations() {
	for _, unused := range []struct {
		on     *bool
		config func()
	}{
		{r.CustomVocabulary, func() { r.CustomVocabularyConfig = nil }},
		{r.Callback, func() { r.CallbackConfig = nil }},
		{r.Subtitles, func() { r.SubtitlesConfig = nil }},
		{r.Diarization, func() { r.DiarizationConfig = nil }},
		{r.Translation, func() { r.TranslationConfig = nil }},
		{r.Summarization, func() { r.SummarizationConfig = nil }},
		{r.CustomSpelling, func() { r.CustomSpellingConfig = nil }},
		{r.AudioToLLM, func() { r.AudioToLLMConfig = nil }},
		{r.PIIRedaction, func() { r.PIIRedactionConfig = nil }},
	} {
		if unused.on == nil || !*unused.on {
			unused.config()
		}
	}
}

// ConfigurationSwitches names, by their JSON names, each configuration
// object of the request and the switch without which the service ignores
// it, as Effective drops it: whatever a configuration holds, it changes
// nothing while its switch is false.
var ConfigurationSwitches = map[string]string{
	"custom_vocabulary_config": "custom_vocabulary",
	"callback_config":          "callback",
	"subtitles_config":         "subtitles",
	"diarization_config":       "diarization",
	"translation_config":       "translation",
	"summarization_config":     "summarization",
	"custom_spelling_config":   "custom_spelling",
	"audio_to_llm_config":      "audio_to_llm",
	"pii_redaction_config":     "pii_redaction",
}

// transcriptionLanguage is the language the service transcribes in when the
// request sets exactly one, else "" (the model detects it).
func (r *InitTranscriptionRequest) transcriptionLanguage() string {
	if r.LanguageConfig == nil || len(r.LanguageConfig.Languages) != 1 {
		return ""
	}
	return r.LanguageConfig.Languages[0]
}

func sortedOrNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func sortedSetOrNil(s []string) []string {
	return slices.Compact(sortedOrNil(s))
}

// CallbackTarget returns where and how the service sends a job's result:
// to callback_config (POST unless its method says otherwise) when callback
// is true, else to the deprecated callback_url with a POST. ok is false
// when the request asks for no callback.
func (r *InitTranscriptionRequest) CallbackTarget() (url, method string, ok bool) {
	if r.Callback != nil && *r.Callback && r.CallbackConfig != nil {
		method = DefaultCallbackMethod
		if r.CallbackConfig.Method != nil {
			method = *r.CallbackConfig.Method
		}
		return r.CallbackConfig.URL, method, true
	}
	if r.CallbackURL != nil {
		return *r.CallbackURL, http.MethodPost, true
	}
	return "", "", false
}

// CallbackURLs returns the callback URLs the request holds, which may carry
// a token, longest first: masked in turn, a URL that begins the other (the
// same address without its token) must not leave the rest of it shown.
func (r *InitTranscriptionRequest) CallbackURLs() []string {
	var urls []string
	if r.CallbackConfig != nil && r.CallbackConfig.URL != "" {
		urls = append(urls, r.CallbackConfig.URL)
	}
	if r.CallbackURL != nil && *r.CallbackURL != "" {
		urls = append(urls, *r.CallbackURL)
	}
	slices.SortStableFunc(urls, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return urls
}

// readTogether are fields the service reads as one: a job's fields are
// compared as what they make together, so that a change of what they make
// names each of them.
var readTogether = [][]string{{"callback", "callback_config", "callback_url"}}

var defaultSubtitleStyle = DefaultSubtitleStyle

// equalJSON reports whether a and b encode to the same JSON, which for the
// request's types means the same fields set to the same values.
func equalJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// jsonText is v's JSON encoding, an order for values of the request's
// types (which always encode).
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// EffectiveFields returns Effective's fields by JSON name, each as its JSON
// encoding, absent when the service would not receive it: two requests make
// the same job when every field is equal, and the names that differ are the
// ones that would make another job.
func (r *InitTranscriptionRequest) EffectiveFields() map[string]string {
	raw, err := json.Marshal(r.Effective())
	if err != nil { // the request's types always encode
		panic("encoding a transcription request: " + err.Error())
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		panic("decoding a transcription request: " + err.Error())
	}
	out := make(map[string]string, len(fields))
	for name, value := range fields {
		out[name] = string(value)
	}
	for _, group := range readTogether {
		together := make([]string, len(group))
		for i, name := range group {
			together[i] = out[name]
		}
		joined, _ := json.Marshal(together) // strings always encode
		for _, name := range group {
			out[name] = string(joined)
		}
	}
	return out
}
