package fakeserver

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestCreateAnswers400ForMalformedBodies(t *testing.T) {
	h := newHarness(t, Options{})
	cases := []struct {
		name        string
		contentType string
		body        string
		message     string   // part of the message
		problems    []string // each must appear in validation_errors
	}{
		{name: "no content type", body: `{"audio_url":"https://e.com/a.wav"}`, message: "Content-Type"},
		{name: "text content type", contentType: "text/plain", body: `{"audio_url":"https://e.com/a.wav"}`, message: "Content-Type"},
		{name: "form content type", contentType: "application/x-www-form-urlencoded", body: `audio_url=x`, message: "Content-Type"},
		{name: "empty body", body: ``, message: "empty"},
		{name: "malformed JSON", body: `{"audio_url":`, message: "not valid JSON"},
		{name: "single quotes", body: `{'audio_url':'x'}`, message: "not valid JSON"},
		{name: "trailing object", body: `{"audio_url":"https://e.com/a.wav"}{}`, message: "after its JSON object"},
		{name: "trailing garbage", body: `{"audio_url":"https://e.com/a.wav"} x`, message: "after its JSON object"},
		{name: "array body", body: `[{"audio_url":"https://e.com/a.wav"}]`, message: "JSON object"},
		{name: "null body", body: `null`, message: "JSON object"},
		{name: "missing audio_url", body: `{"model":"model-1"}`, problems: []string{"audio_url is required"}},
		{name: "null audio_url", body: `{"audio_url":null}`, problems: []string{"audio_url is required"}},
		{name: "audio_url number", body: `{"audio_url":42}`, problems: []string{"audio_url must be a string"}},
		{name: "boolean as string", body: `{"audio_url":"https://e.com/a.wav","subtitles":"true"}`, problems: []string{"subtitles must be a boolean"}},
		{name: "model as array", body: `{"audio_url":"https://e.com/a.wav","model":["model-1"]}`, problems: []string{"model must be a string"}},
		{name: "number as string", body: `{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_duration":"5"}}`, problems: []string{"subtitles_config.maximum_duration must be a number"}},
		{name: "fractional integer", body: `{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_rows_per_caption":1.5}}`, problems: []string{"subtitles_config.maximum_rows_per_caption must be an integer"}},
		{name: "integer past int64", body: `{"audio_url":"https://e.com/a.wav","diarization_config":{"number_of_speakers":1e19}}`, problems: []string{"diarization_config.number_of_speakers must be an integer"}},
		{name: "formats not array", body: `{"audio_url":"https://e.com/a.wav","subtitles_config":{"formats":"srt"}}`, problems: []string{"subtitles_config.formats must be an array"}},
		{name: "format item not string", body: `{"audio_url":"https://e.com/a.wav","subtitles_config":{"formats":["srt",1]}}`, problems: []string{"subtitles_config.formats[1] must be a string"}},
		{name: "config not object", body: `{"audio_url":"https://e.com/a.wav","diarization_config":true}`, problems: []string{"diarization_config must be an object"}},
		{name: "custom_metadata not object", body: `{"audio_url":"https://e.com/a.wav","custom_metadata":"x"}`, problems: []string{"custom_metadata must be an object"}},
		{name: "languages not array", body: `{"audio_url":"https://e.com/a.wav","language_config":{"languages":"en"}}`, problems: []string{"language_config.languages must be an array"}},
		{name: "vocabulary entry number", body: `{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[3]}}`, problems: []string{"custom_vocabulary_config.vocabulary[0] must be a string or an object"}},
		{name: "vocabulary intensity string", body: `{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[{"value":"a","intensity":"high"}]}}`, problems: []string{"custom_vocabulary_config.vocabulary[0].intensity must be a number"}},
		{name: "spelling value not array", body: `{"audio_url":"https://e.com/a.wav","custom_spelling_config":{"spelling_dictionary":{"SQL":"sequel"}}}`, problems: []string{`custom_spelling_config.spelling_dictionary["SQL"] must be an array`}},
		{name: "prompt a number", body: `{"audio_url":"https://e.com/a.wav","audio_to_llm_config":{"prompts":["a",3]}}`, problems: []string{"audio_to_llm_config.prompts[1] must be a string or an array of strings"}},
		{name: "prompt part a number", body: `{"audio_url":"https://e.com/a.wav","audio_to_llm_config":{"prompts":[["a",{"b":1}]]}}`, problems: []string{"audio_to_llm_config.prompts[0][1] must be a string"}},
		{name: "prompts not array", body: `{"audio_url":"https://e.com/a.wav","audio_to_llm_config":{"prompts":"a"}}`, problems: []string{"audio_to_llm_config.prompts must be an array"}},
		{name: "unknown top-level field", body: `{"audio_url":"https://e.com/a.wav","speed":"fast"}`, problems: []string{"speed is not a known field"}},
		{name: "field name in another case", body: `{"audio_url":"https://e.com/a.wav","Model":"model-1"}`, problems: []string{"Model is not a known field"}},
		{name: "unknown nested field", body: `{"audio_url":"https://e.com/a.wav","subtitles_config":{"font":"big"}}`, problems: []string{"subtitles_config.font is not a known field"}},
		{name: "unknown field in vocabulary entry", body: `{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[{"value":"a","weight":1}]}}`, problems: []string{"custom_vocabulary_config.vocabulary[0].weight is not a known field"}},
		{name: "unknown field in pii_redaction_config", body: `{"audio_url":"https://e.com/a.wav","pii_redaction_config":{"entity_types":["NAME"],"entity_type":"GDPR"}}`, problems: []string{"pii_redaction_config.entity_type is not a known field"}},
		{name: "unknown field in audio_to_llm_config", body: `{"audio_url":"https://e.com/a.wav","audio_to_llm_config":{"prompts":["a"],"temperature":1}}`, problems: []string{"audio_to_llm_config.temperature is not a known field"}},
		{name: "unknown field in callback_config", body: `{"audio_url":"https://e.com/a.wav","callback_config":{"url":"https://e.com/h","headers":{}}}`, problems: []string{"callback_config.headers is not a known field"}},
		{name: "missing callback_config.url", body: `{"audio_url":"https://e.com/a.wav","callback":true,"callback_config":{"method":"PUT"}}`, problems: []string{"callback_config.url is required"}},
		{name: "missing vocabulary", body: `{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"default_intensity":0.5}}`, problems: []string{"custom_vocabulary_config.vocabulary is required"}},
		{name: "null vocabulary", body: `{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":null}}`, problems: []string{"custom_vocabulary_config.vocabulary is required"}},
		{name: "missing entry value", body: `{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":["ok",{"intensity":0.5}]}}`, problems: []string{"custom_vocabulary_config.vocabulary[1].value is required"}},
		{name: "missing target_languages", body: `{"audio_url":"https://e.com/a.wav","translation_config":{"model":"base"}}`, problems: []string{"translation_config.target_languages is required"}},
		{name: "missing prompts", body: `{"audio_url":"https://e.com/a.wav","audio_to_llm_config":{}}`, problems: []string{"audio_to_llm_config.prompts is required"}},
		{name: "missing spelling_dictionary", body: `{"audio_url":"https://e.com/a.wav","custom_spelling_config":{}}`, problems: []string{"custom_spelling_config.spelling_dictionary is required"}},
		{
			name: "every problem listed",
			body: `{"subtitles":1,"extra":true,"translation_config":{},"diarization_config":{"min_speakers":"2"}}`,
			problems: []string{
				"audio_url is required", "subtitles must be a boolean", "extra is not a known field",
				"translation_config.target_languages is required", "diarization_config.min_speakers must be an integer",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ct := c.contentType
			if ct == "" && c.message != "Content-Type" {
				ct = "application/json"
			}
			resp := h.do(http.MethodPost, "/v2/pre-recorded", ct, []byte(c.body), nil)
			body := requireError(t, resp, http.StatusBadRequest, "/v2/pre-recorded")
			if !strings.Contains(body.Message, c.message) {
				t.Fatalf("message %q does not contain %q", body.Message, c.message)
			}
			for _, p := range c.problems {
				requireProblem(t, body, p)
			}
			if len(body.ValidationErrors) != len(c.problems) {
				t.Fatalf("validation_errors %q, want exactly %q", body.ValidationErrors, c.problems)
			}
		})
	}
	if n := h.srv.JobCount(); n != 0 {
		t.Fatalf("malformed creates stored %d jobs", n)
	}
}

func TestCreateAcceptsEveryWellFormedShape(t *testing.T) {
	h := newHarness(t, Options{})
	h.create(`{
		"audio_url": "https://example.com/meeting.mp3",
		"model": "model-1",
		"language_config": {"languages": ["en", "fr"], "code_switching": true},
		"custom_vocabulary": true,
		"custom_vocabulary_config": {"vocabulary": ["Kubernetes", {"value": "Terraform", "intensity": 0.4, "pronunciations": ["terra form"], "language": "en"}], "default_intensity": 0.5},
		"callback": true,
		"callback_config": {"url": "https://hooks.example.com/t", "method": "PUT"},
		"subtitles": true,
		"subtitles_config": {"formats": ["srt", "vtt"], "minimum_duration": 0.5, "maximum_duration": 10, "maximum_characters_per_row": 42, "maximum_rows_per_caption": 2, "style": "compliance"},
		"diarization": true,
		"diarization_config": {"number_of_speakers": 2, "min_speakers": 1, "max_speakers": 3},
		"translation": true,
		"translation_config": {"target_languages": ["wo", "de"], "model": "enhanced", "match_original_utterances": false, "lipsync": false, "context_adaptation": false, "context": "a meeting", "informal": true},
		"summarization": true,
		"summarization_config": {"type": "bullet_points"},
		"named_entity_recognition": true,
		"custom_spelling": true,
		"custom_spelling_config": {"spelling_dictionary": {"SQL": ["sequel"]}},
		"sentiment_analysis": true,
		"audio_to_llm": true,
		"audio_to_llm_config": {"prompts": ["Summarize"], "model": "openai/gpt-4o-mini"},
		"pii_redaction": true,
		"pii_redaction_config": {"entity_types": ["GDPR", "EMAIL_ADDRESS"], "processed_text_type": "MASK"},
		"custom_metadata": {"team": "a", "n": 1, "nested": {"x": [1, null]}},
		"sentences": true,
		"punctuation_enhanced": true,
		"callback_url": "https://hooks.example.com/legacy"
	}`)
	// null counts as an omitted optional field.
	h.create(`{"audio_url":"https://example.com/a.wav","model":null,"subtitles_config":null}`)
}

func TestCreateAnswers413ForHugeBodies(t *testing.T) {
	h := newHarness(t, Options{})
	big := `{"audio_url":"https://e.com/a.wav","custom_metadata":{"pad":"` + strings.Repeat("x", maxCreateBodyBytes) + `"}}`
	resp := h.postCreate(big)
	requireError(t, resp, http.StatusRequestEntityTooLarge, "/v2/pre-recorded")
	// Just under the bound is accepted.
	pad := maxCreateBodyBytes - len(`{"audio_url":"https://e.com/a.wav","custom_metadata":{"pad":""}}`)
	h.create(`{"audio_url":"https://e.com/a.wav","custom_metadata":{"pad":"` + strings.Repeat("x", pad) + `"}}`)
}

// TestDecodeCreateRequestReadsIntegersWrittenAsNumbers: an integer field
// takes any number whose value is whole, however written ("2.0", "1e2"),
// as JSON Schema's integer type and a JavaScript service (JSON.parse makes
// them the same number) do; a client that writes every number as a float
// (Python's 2.0) is not refused by the emulator alone.
func TestDecodeCreateRequestReadsIntegersWrittenAsNumbers(t *testing.T) {
	req, bad := decodeCreateRequest([]byte(`{"audio_url":"https://e.com/a.wav","diarization":true,` +
		`"diarization_config":{"number_of_speakers":2.0,"min_speakers":1e0,"max_speakers":0.3e1},` +
		`"subtitles_config":{"maximum_rows_per_caption":-0.0}}`))
	if bad != nil {
		t.Fatalf("refused: %+v", bad)
	}
	d := req.DiarizationConfig
	if *d.NumberOfSpeakers != 2 || *d.MinSpeakers != 1 || *d.MaxSpeakers != 3 || *req.SubtitlesConfig.MaximumRowsPerCaption != 0 {
		t.Fatalf("decoded %+v, %+v", *d, *req.SubtitlesConfig)
	}
}

func TestDecodeCreateRequestKeepsVocabularyForms(t *testing.T) {
	req, bad := decodeCreateRequest([]byte(`{"audio_url":"u","custom_vocabulary_config":{"vocabulary":["plain",{"value":"obj","intensity":0.3}]}}`))
	if bad != nil {
		t.Fatalf("rejected: %+v", bad)
	}
	v := req.CustomVocabularyConfig.Vocabulary
	if len(v) != 2 || v[0].Value != "plain" || v[1].Value != "obj" || v[1].Intensity == nil || *v[1].Intensity != 0.3 {
		t.Fatalf("vocabulary decoded as %+v", v)
	}
}

// A prompt may be a string (the spec's samples) or an array of strings (the
// spec's schema, the official client's Array<Array<any>>): both are
// accepted, and request_params gives every prompt back as a string.
func TestPromptsInEitherForm(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct {
		prompts string
		want    []string
	}{
		{`["Summarize the call."]`, []string{"Summarize the call."}},
		{`[["Summarize the call."]]`, []string{"Summarize the call."}},
		{`[["List the action items", "with their owners."], "Who spoke most?", []]`, []string{"List the action items\nwith their owners.", "Who spoke most?", ""}},
	} {
		t.Run(c.prompts, func(t *testing.T) {
			id := h.create(`{"audio_url":"https://e.com/a.wav","audio_to_llm":true,"audio_to_llm_config":{"prompts":` + c.prompts + `}}`).ID
			got := h.job(id).RequestParams.AudioToLLMConfig.Prompts
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("request_params prompts %q, want %q", got, c.want)
			}
			raw := h.get("/v2/pre-recorded/" + id).body
			if want := `"prompts":` + string(mustJSON(t, c.want)); !strings.Contains(string(raw), want) {
				t.Fatalf("record %s lacks %s", raw, want)
			}
		})
	}
}

// entity_types may be one value ("value(s)" in the spec, one
// PiiRedactionEntityType in the official client's types) or an array (the
// spec's samples); request_params gives them back as an array, and a value
// of another type is still malformed.
func TestEntityTypesInEitherForm(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct {
		entityTypes string
		want        []string
	}{
		{`"GDPR"`, []string{"GDPR"}},
		{`["NAME", "EMAIL_ADDRESS"]`, []string{"NAME", "EMAIL_ADDRESS"}},
	} {
		t.Run(c.entityTypes, func(t *testing.T) {
			id := h.create(`{"audio_url":"https://e.com/a.wav","pii_redaction":true,"pii_redaction_config":{"entity_types":` + c.entityTypes + `}}`).ID
			if got := h.job(id).RequestParams.PIIRedactionConfig.EntityTypes; !reflect.DeepEqual(got, c.want) {
				t.Fatalf("request_params entity_types %q, want %q", got, c.want)
			}
		})
	}
	resp := h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(`{"audio_url":"https://e.com/a.wav","pii_redaction_config":{"entity_types":3}}`), nil)
	requireError(t, resp, http.StatusBadRequest, "/v2/pre-recorded")
}
