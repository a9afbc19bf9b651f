package client

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// request decodes a create body written as JSON, as a user would send it.
func request(t *testing.T, body string) *InitTranscriptionRequest {
	t.Helper()
	var r InitTranscriptionRequest
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return &r
}

// differingFields names the fields whose effective values differ.
func differingFields(a, b *InitTranscriptionRequest) []string {
	fa, fb := a.EffectiveFields(), b.EffectiveFields()
	var out []string
	for name := range fa {
		if fa[name] != fb[name] {
			out = append(out, name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func TestEffective_sameJob(t *testing.T) {
	const url = `"audio_url": "https://example.com/a.wav"`
	for name, pair := range map[string][2]string{
		"model omitted":                  {`{` + url + `}`, `{` + url + `, "model": "model-1"}`},
		"switch omitted":                 {`{` + url + `}`, `{` + url + `, "diarization": false}`},
		"empty custom_metadata":          {`{` + url + `}`, `{` + url + `, "custom_metadata": {}}`},
		"empty language_config":          {`{` + url + `}`, `{` + url + `, "language_config": {}}`},
		"no languages":                   {`{` + url + `}`, `{` + url + `, "language_config": {"languages": []}}`},
		"code_switching false":           {`{` + url + `}`, `{` + url + `, "language_config": {"code_switching": false}}`},
		"code_switching with 1 language": {`{` + url + `, "language_config": {"languages": ["en"]}}`, `{` + url + `, "language_config": {"languages": ["en"], "code_switching": true}}`},
		"languages reordered":            {`{` + url + `, "language_config": {"languages": ["en", "fr"]}}`, `{` + url + `, "language_config": {"languages": ["fr", "en"]}}`},
		"summary type general": {`{` + url + `, "summarization": true}`,
			`{` + url + `, "summarization": true, "summarization_config": {"type": "general"}}`},
		"empty summarization_config": {`{` + url + `, "summarization": true}`, `{` + url + `, "summarization": true, "summarization_config": {}}`},
		"subtitles srt": {`{` + url + `, "subtitles": true}`,
			`{` + url + `, "subtitles": true, "subtitles_config": {"formats": ["srt"], "style": "default"}}`},
		"empty subtitles_config": {`{` + url + `, "subtitles": true}`, `{` + url + `, "subtitles": true, "subtitles_config": {}}`},
		// The service refuses no format at all (at least one); the
		// provider's validator does too. Read as none, it is the default.
		"no formats": {`{` + url + `, "subtitles": true}`, `{` + url + `, "subtitles": true, "subtitles_config": {"formats": []}}`},
		"formats reordered": {`{` + url + `, "subtitles": true, "subtitles_config": {"formats": ["srt", "vtt"]}}`,
			`{` + url + `, "subtitles": true, "subtitles_config": {"formats": ["vtt", "srt"]}}`},
		"empty diarization_config": {`{` + url + `, "diarization": true}`, `{` + url + `, "diarization": true, "diarization_config": {}}`},
		"empty pii_redaction_config": {`{` + url + `, "pii_redaction": true}`,
			`{` + url + `, "pii_redaction": true, "pii_redaction_config": {}}`},
		"no entity_types": {`{` + url + `, "pii_redaction": true}`,
			`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"entity_types": []}}`},
		"entity_types reordered": {`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"entity_types": ["NAME", "EMAIL_ADDRESS"]}}`,
			`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"entity_types": ["EMAIL_ADDRESS", "NAME"]}}`},
		"targets reordered": {`{` + url + `, "translation": true, "translation_config": {"target_languages": ["de", "fr"]}}`,
			`{` + url + `, "translation": true, "translation_config": {"target_languages": ["fr", "de"], "model": "batch", "lipsync": true}}`},
		// The same value twice in a list of alternatives asks for nothing
		// more (the provider refuses it at plan; a job made elsewhere may
		// have it).
		"language twice": {`{` + url + `, "language_config": {"languages": ["en", "fr"], "code_switching": true}}`,
			`{` + url + `, "language_config": {"languages": ["fr", "en", "fr"], "code_switching": true}}`},
		"one language twice": {`{` + url + `, "language_config": {"languages": ["en"]}}`,
			`{` + url + `, "language_config": {"languages": ["en", "en"], "code_switching": true}}`},
		"format twice": {`{` + url + `, "subtitles": true, "subtitles_config": {"formats": ["vtt"]}}`,
			`{` + url + `, "subtitles": true, "subtitles_config": {"formats": ["vtt", "vtt"]}}`},
		"entity type twice": {`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"entity_types": ["EMAIL_ADDRESS", "NAME"]}}`,
			`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"entity_types": ["NAME", "EMAIL_ADDRESS", "NAME"]}}`},
		"target twice": {`{` + url + `, "translation": true, "translation_config": {"target_languages": ["fr", "wo"]}}`,
			`{` + url + `, "translation": true, "translation_config": {"target_languages": ["wo", "fr", "wo"]}}`},
		// An empty context gives the translation nothing to use.
		"empty context": {`{` + url + `, "translation": true, "translation_config": {"target_languages": ["fr"]}}`,
			`{` + url + `, "translation": true, "translation_config": {"target_languages": ["fr"], "context": ""}}`},
		"no pronunciations": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "Kubernetes"}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "Kubernetes", "pronunciations": []}]}}`},
		"config of a switch that is off": {`{` + url + `}`,
			`{` + url + `, "diarization_config": {"number_of_speakers": 3}, "translation": false, "translation_config": {"target_languages": ["de"]}}`},
		// Each configuration is used only when its switch is true.
		"custom_vocabulary_config of a switch that is off": {`{` + url + `}`,
			`{` + url + `, "custom_vocabulary_config": {"vocabulary": [{"value": "K"}]}}`},
		"subtitles_config of a switch that is off":     {`{` + url + `}`, `{` + url + `, "subtitles_config": {"formats": ["vtt"]}}`},
		"summarization_config of a switch that is off": {`{` + url + `}`, `{` + url + `, "summarization_config": {"type": "concise"}}`},
		"custom_spelling_config of a switch that is off": {`{` + url + `}`,
			`{` + url + `, "custom_spelling_config": {"spelling_dictionary": {"G": ["g"]}}}`},
		"audio_to_llm_config of a switch that is off":  {`{` + url + `}`, `{` + url + `, "audio_to_llm_config": {"prompts": ["summarize"]}}`},
		"pii_redaction_config of a switch that is off": {`{` + url + `}`, `{` + url + `, "pii_redaction_config": {"entity_types": ["NAME"]}}`},

		// URLs that name the same resource (RFC 9110 §4.2.3) fetch the same
		// audio and reach the same callback.
		"audio_url's scheme and host case": {`{` + url + `}`, `{"audio_url": "HTTPS://Example.COM/a.wav"}`},
		"audio_url's default port":         {`{` + url + `}`, `{"audio_url": "https://example.com:443/a.wav"}`},
		"audio_url's fragment":             {`{` + url + `}`, `{"audio_url": "https://example.com/a.wav#t=30"}`},
		"audio_url's encoded letter":       {`{` + url + `}`, `{"audio_url": "https://example.com/%61.wav"}`},
		"callback URL's host case": {`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/a"}}`,
			`{` + url + `, "callback_url": "https://HOOKS.example.com:443/a"}`},

		// One callback is sent: to callback_config when callback is true,
		// else to callback_url with a POST.
		"callback_url moved to callback_config": {`{` + url + `, "callback_url": "https://hooks.example.com/a"}`,
			`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/a"}}`},
		"callback_url moved, kept beside": {`{` + url + `, "callback_url": "https://hooks.example.com/a"}`,
			`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/a", "method": "POST"}, "callback_url": "https://hooks.example.com/a"}`},
		"callback switched on for callback_url": {`{` + url + `, "callback_url": "https://hooks.example.com/a"}`,
			`{` + url + `, "callback": true, "callback_url": "https://hooks.example.com/a"}`},
		"callback_config of a callback that is off": {`{` + url + `}`,
			`{` + url + `, "callback": false, "callback_config": {"url": "https://hooks.example.com/x", "method": "PUT"}}`},
		"callback_url beside a callback_config in use": {`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/a"}}`,
			`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/a"}, "callback_url": "https://hooks.example.com/old"}`},

		// Every spelling under a key is replaced by the key; pronunciations
		// are alternatives.
		"spellings reordered": {`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Gettleman": ["gettleman", "getleman"]}}}`,
			`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Gettleman": ["getleman", "gettleman", "getleman"]}}}`},
		// A key with no spellings replaces nothing.
		"spelling key with no spellings": {`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Gettleman": ["getleman"]}}}`,
			`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Gettleman": ["getleman"], "Kubernetes": []}}}`},
		"dictionary of keys with no spellings": {`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {}}}`,
			`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"Kubernetes": [], "OpenTofu": []}}}`},
		"vocabulary entries reordered": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.5, "vocabulary": [{"value": "Kubernetes"}, {"value": "Helm", "intensity": 0.9}, {"value": "Argo", "pronunciations": ["argh", "ar go"]}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "Argo", "intensity": 0.5, "pronunciations": ["ar go", "argh"]}, {"value": "Helm", "intensity": 0.9}, {"value": "Kubernetes", "intensity": 0.5}]}}`},
		"pronunciations reordered": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "Kubernetes", "pronunciations": ["koo", "kube"]}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "Kubernetes", "pronunciations": ["kube", "koo", "kube"]}]}}`},

		// An entry's intensity defaults to default_intensity.
		"intensity of the default written out": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.5, "vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "intensity": 0.5}]}}`},
		"default_intensity no entry uses": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.7, "vocabulary": [{"value": "K", "intensity": 0.5}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.2, "vocabulary": [{"value": "K", "intensity": 0.5}]}}`},

		// An entry's language defaults to the transcription language, which
		// one language set is.
		"entry language of the one language written out": {`{` + url + `, "language_config": {"languages": ["en"]}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "language_config": {"languages": ["en"]}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "language": "en"}]}}`},
	} {
		t.Run(name, func(t *testing.T) {
			a, b := request(t, pair[0]), request(t, pair[1])
			if d := differingFields(a, b); len(d) != 0 {
				t.Errorf("differ in %v:\n%v\n%v", d, a.EffectiveFields(), b.EffectiveFields())
			}
		})
	}
}

var callbackFields = []string{"callback", "callback_config", "callback_url"}

func TestEffective_anotherJob(t *testing.T) {
	const url = `"audio_url": "https://example.com/a.wav"`
	for name, tc := range map[string]struct {
		a, b string
		want []string
	}{
		"audio":           {`{` + url + `}`, `{"audio_url": "https://example.com/b.wav"}`, []string{"audio_url"}},
		"audio path case": {`{` + url + `}`, `{"audio_url": "https://example.com/A.wav"}`, []string{"audio_url"}},
		"audio port":      {`{` + url + `}`, `{"audio_url": "https://example.com:8443/a.wav"}`, []string{"audio_url"}},
		"callback path case": {`{` + url + `, "callback_url": "https://hooks.example.com/a"}`,
			`{` + url + `, "callback_url": "https://hooks.example.com/A"}`, callbackFields},
		"model":          {`{` + url + `}`, `{` + url + `, "model": "model-fusion"}`, []string{"model"}},
		"language":       {`{` + url + `, "language_config": {"languages": ["en"]}}`, `{` + url + `, "language_config": {"languages": ["fr"]}}`, []string{"language_config"}},
		"code switching": {`{` + url + `}`, `{` + url + `, "language_config": {"code_switching": true}}`, []string{"language_config"}},
		"metadata":       {`{` + url + `}`, `{` + url + `, "custom_metadata": {"team": "a"}}`, []string{"custom_metadata"}},
		"summary type":   {`{` + url + `, "summarization": true}`, `{` + url + `, "summarization": true, "summarization_config": {"type": "concise"}}`, []string{"summarization_config"}},
		"switch on":      {`{` + url + `}`, `{` + url + `, "sentences": true}`, []string{"sentences"}},
		"speakers":       {`{` + url + `, "diarization": true}`, `{` + url + `, "diarization": true, "diarization_config": {"number_of_speakers": 2}}`, []string{"diarization_config"}},
		// The three callback fields make one target together: a new target
		// names them all (Terraform keeps those whose values changed).
		"callback_url": {`{` + url + `}`, `{` + url + `, "callback_url": "https://hooks.example.com/x"}`, callbackFields},
		"callback turned on": {`{` + url + `, "callback_config": {"url": "https://hooks.example.com/x"}}`,
			`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/x"}}`, callbackFields},
		"callback method": {`{` + url + `, "callback_url": "https://hooks.example.com/x"}`,
			`{` + url + `, "callback": true, "callback_config": {"url": "https://hooks.example.com/x", "method": "PUT"}}`, callbackFields},
		"callback_url in use": {`{` + url + `, "callback": true, "callback_url": "https://hooks.example.com/x"}`,
			`{` + url + `, "callback": true, "callback_url": "https://hooks.example.com/y"}`, callbackFields},
		"spelling": {`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"G": ["g"]}}}`,
			`{` + url + `, "custom_spelling": true, "custom_spelling_config": {"spelling_dictionary": {"G": ["g", "j"]}}}`, []string{"custom_spelling_config"}},
		"intensity": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.5, "vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.5, "vocabulary": [{"value": "K", "intensity": 0.6}]}}`, []string{"custom_vocabulary_config"}},
		"intensities swapped between entries": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "intensity": 0.2}, {"value": "H", "intensity": 0.9}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "H", "intensity": 0.2}, {"value": "K", "intensity": 0.9}]}}`, []string{"custom_vocabulary_config"}},
		"intensity left to the service": {`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "intensity": 0.5}]}}`, []string{"custom_vocabulary_config"}},
		"entry language while detecting": {`{` + url + `, "language_config": {"languages": ["en", "fr"]}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "language_config": {"languages": ["en", "fr"]}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "language": "en"}]}}`, []string{"custom_vocabulary_config"}},
		"entry language not the one language": {`{` + url + `, "language_config": {"languages": ["en"]}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "language_config": {"languages": ["en"]}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "language": "fr"}]}}`, []string{"custom_vocabulary_config"}},
		"entity types": {`{` + url + `, "pii_redaction": true}`,
			`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"entity_types": ["NAME"]}}`, []string{"pii_redaction_config"}},
		"processed text type": {`{` + url + `, "pii_redaction": true}`,
			`{` + url + `, "pii_redaction": true, "pii_redaction_config": {"processed_text_type": "MARKER"}}`, []string{"pii_redaction_config"}},
		// Code switching without languages sets no transcription language.
		"entry language while code switching": {`{` + url + `, "language_config": {"code_switching": true}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K"}]}}`,
			`{` + url + `, "language_config": {"code_switching": true}, "custom_vocabulary": true, "custom_vocabulary_config": {"vocabulary": [{"value": "K", "language": "en"}]}}`, []string{"custom_vocabulary_config"}},
		"another format":  {`{` + url + `, "subtitles": true}`, `{` + url + `, "subtitles": true, "subtitles_config": {"formats": ["vtt"]}}`, []string{"subtitles_config"}},
		"switch and more": {`{` + url + `}`, `{` + url + `, "diarization": true, "diarization_config": {"max_speakers": 4}}`, []string{"diarization", "diarization_config"}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := differingFields(request(t, tc.a), request(t, tc.b)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("differ in %v, want %v", got, tc.want)
			}
		})
	}
}

// Effective and WithDefaults leave the request they are called on as it was.
func TestEffective_doesNotChangeTheRequest(t *testing.T) {
	body := `{"audio_url": "https://example.com/a.wav", "custom_metadata": {"k": "v"},
	  "language_config": {"languages": ["fr", "en"]}, "subtitles": true, "subtitles_config": {"formats": ["vtt", "srt"]},
	  "custom_vocabulary": true, "custom_vocabulary_config": {"default_intensity": 0.5, "vocabulary": [{"value": "x", "pronunciations": []},
	    {"value": "y", "pronunciations": ["b", "a", "b"], "language": "en"}]}}`
	r := request(t, body)
	before, _ := json.Marshal(r)
	r.Effective()
	r.WithDefaults()
	if after, _ := json.Marshal(r); string(after) != string(before) {
		t.Errorf("request changed:\n%s\n%s", before, after)
	}
}

// WithDefaults is what request_params shows: defaults filled in, configs
// kept as sent, custom_metadata out.
func TestWithDefaults(t *testing.T) {
	got := request(t, `{"audio_url": "https://example.com/a.wav", "custom_metadata": {"k": "v"},
	  "subtitles": true, "subtitles_config": {}, "translation_config": {"target_languages": ["de"]}}`).WithDefaults()
	want := request(t, `{"audio_url": "https://example.com/a.wav", "model": "model-1",
	  "custom_vocabulary": false, "callback": false, "subtitles": true, "diarization": false, "translation": false,
	  "summarization": false, "named_entity_recognition": false, "custom_spelling": false, "sentiment_analysis": false,
	  "audio_to_llm": false, "pii_redaction": false, "sentences": false, "punctuation_enhanced": false,
	  "subtitles_config": {"formats": ["srt"], "style": "default"},
	  "translation_config": {"target_languages": ["de"], "model": "batch", "match_original_utterances": true, "lipsync": true, "context_adaptation": true, "informal": false}}`)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("got  %s\nwant %s", g, w)
	}
}

// A request's callback URLs come longest first, so that masking them in
// turn never leaves the token of one shown after the other, a part of it,
// was masked.
func TestCallbackURLs_longestFirst(t *testing.T) {
	const bare, signed = "https://h.example.com/cb", "https://h.example.com/cb?token=t0k3n"
	for name, tc := range map[string]struct {
		body string
		want []string
	}{
		"none":                          {`{"audio_url":"https://example.com/a.wav"}`, nil},
		"callback_config only":          {`{"audio_url":"https://example.com/a.wav","callback_config":{"url":"` + signed + `"}}`, []string{signed}},
		"callback_url only":             {`{"audio_url":"https://example.com/a.wav","callback_url":"` + signed + `"}`, []string{signed}},
		"callback_url is the longer":    {`{"audio_url":"https://example.com/a.wav","callback_config":{"url":"` + bare + `"},"callback_url":"` + signed + `"}`, []string{signed, bare}},
		"empty URLs":                    {`{"audio_url":"https://example.com/a.wav","callback_config":{"url":""},"callback_url":""}`, nil},
		"callback_config is the longer": {`{"audio_url":"https://example.com/a.wav","callback_config":{"url":"` + signed + `"},"callback_url":"` + bare + `"}`, []string{signed, bare}},
	} {
		if got := request(t, tc.body).CallbackURLs(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

// Effective runs the callback the request names as callback true with
// callback_config holding its target, and no callback as callback false.
func TestEffective_callbackTarget(t *testing.T) {
	const hook = "https://hooks.example.com/a"
	post, put := "POST", "PUT"
	for name, tc := range map[string]struct {
		body   string
		on     bool
		config *CallbackConfig
	}{
		"none":            {`{"audio_url":"https://example.com/a.wav"}`, false, nil},
		"callback_url":    {`{"audio_url":"https://example.com/a.wav","callback_url":"` + hook + `"}`, true, &CallbackConfig{URL: hook, Method: &post}},
		"callback_config": {`{"audio_url":"https://example.com/a.wav","callback":true,"callback_config":{"url":"` + hook + `","method":"PUT"}}`, true, &CallbackConfig{URL: hook, Method: &put}},
		"switched off":    {`{"audio_url":"https://example.com/a.wav","callback":false,"callback_config":{"url":"` + hook + `"}}`, false, nil},
	} {
		got := request(t, tc.body).Effective()
		if got.Callback == nil || *got.Callback != tc.on || !reflect.DeepEqual(got.CallbackConfig, tc.config) || got.CallbackURL != nil {
			g, _ := json.Marshal(got)
			t.Errorf("%s: %s, want callback %t and callback_config %+v", name, g, tc.on, tc.config)
		}
	}
}

// FuzzEffective: what the service does with a request is what it does with
// that again (Effective is its own fixed point), so that comparing two
// requests by their effective fields is an equivalence.
func FuzzEffective(f *testing.F) {
	for _, body := range []string{
		`{"audio_url":"HTTPS://Example.com:443/a.wav#t"}`,
		`{"audio_url":"https://example.com/a.wav","callback_url":"https://HOOKS.example.com/a?token=x"}`,
		`{"audio_url":"https://example.com/a.wav","callback":true,"callback_config":{"url":"https://h.example.com/%61","method":"PUT"}}`,
		`{"audio_url":"a","language_config":{"languages":["fr","en"],"code_switching":true},"subtitles":true,"subtitles_config":{"formats":["vtt","srt"]}}`,
		`{"audio_url":"a","custom_vocabulary":true,"custom_vocabulary_config":{"default_intensity":0.5,"vocabulary":["x",{"value":"y","pronunciations":["b","a","b"],"language":"en"}]},"language_config":{"languages":["en"]}}`,
		`{"audio_url":"a","custom_spelling":true,"custom_spelling_config":{"spelling_dictionary":{"G":["g","g"],"K":[]}}}`,
		`{"audio_url":"a","pii_redaction":true,"pii_redaction_config":{"entity_types":["NAME","EMAIL_ADDRESS"]},"summarization":true,"summarization_config":{"type":"general"}}`,
		`{"audio_url":"a","translation":true,"translation_config":{"target_languages":["fr","de"]},"diarization":true,"diarization_config":{}}`,
	} {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var r InitTranscriptionRequest
		if json.Unmarshal(body, &r) != nil {
			return
		}
		once, twice := r.EffectiveFields(), r.Effective().EffectiveFields()
		if !reflect.DeepEqual(once, twice) {
			t.Fatalf("Effective is not its own fixed point for %s:\n once  %v\n twice %v", body, once, twice)
		}
	})
}

// ConfigurationSwitches is what Effective does: every configuration object
// of the request is there, and its switch off makes it change nothing,
// on makes it count.
func TestConfigurationSwitches(t *testing.T) {
	samples := map[string]string{
		"custom_vocabulary_config": `{"vocabulary": ["K"]}`,
		"callback_config":          `{"url": "https://hooks.example.com/a"}`,
		"subtitles_config":         `{"formats": ["vtt"]}`,
		"diarization_config":       `{"number_of_speakers": 2}`,
		"translation_config":       `{"target_languages": ["fr"]}`,
		"summarization_config":     `{"type": "concise"}`,
		"custom_spelling_config":   `{"spelling_dictionary": {"G": ["g"]}}`,
		"audio_to_llm_config":      `{"prompts": ["summarize"]}`,
		"pii_redaction_config":     `{"entity_types": ["NAME"]}`,
	}
	typ := reflect.TypeFor[InitTranscriptionRequest]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if !strings.HasSuffix(name, "_config") || name == "language_config" { // language_config has no switch
			continue
		}
		t.Run(name, func(t *testing.T) {
			sw, ok := ConfigurationSwitches[name]
			if !ok {
				t.Fatalf("%s has no switch in ConfigurationSwitches", name)
			}
			const url = `"audio_url": "https://example.com/a.wav"`
			for _, on := range []bool{false, true} {
				without := request(t, fmt.Sprintf(`{%s, %q: %t}`, url, sw, on))
				with := request(t, fmt.Sprintf(`{%s, %q: %t, %q: %s}`, url, sw, on, name, samples[name]))
				if d := differingFields(without, with); on != slices.Contains(d, name) {
					t.Errorf("%s = %t: %s changes %v", sw, on, name, d)
				}
			}
		})
	}
	if len(ConfigurationSwitches) != len(samples) {
		t.Errorf("ConfigurationSwitches has %d configurations, the test %d", len(ConfigurationSwitches), len(samples))
	}
}
