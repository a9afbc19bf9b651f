package fakeserver

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

type initRequest = client.InitTranscriptionRequest

// validRequest is accepted as is; each case changes one thing.
func validRequest() *initRequest { return &initRequest{AudioURL: "https://example.com/a.wav"} }

func TestValidateRequest(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n := func(v int64) *int64 { return &v }
	s := func(v string) *string { return &v }
	b := func(v bool) *bool { return &v }

	cases := []struct {
		name   string
		change func(r *initRequest)
		want   []string // nil: accepted
	}{
		{"minimal request", func(r *initRequest) {}, nil},

		// audio_url and callback URLs.
		{"https audio_url", func(r *initRequest) { r.AudioURL = "https://cdn.example.com/x/y.mp3?sig=1" }, nil},
		{"http audio_url", func(r *initRequest) { r.AudioURL = "http://10.0.0.1:8080/a.wav" }, nil},
		{"empty audio_url", func(r *initRequest) { r.AudioURL = "" }, []string{`audio_url must be an absolute http or https URL (got "")`}},
		{"relative audio_url", func(r *initRequest) { r.AudioURL = "/a.wav" }, []string{`audio_url must be an absolute http or https URL (got "/a.wav")`}},
		{"ftp audio_url", func(r *initRequest) { r.AudioURL = "ftp://e.com/a.wav" }, []string{`audio_url must be an absolute http or https URL (got "ftp://e.com/a.wav")`}},
		{"hostless audio_url", func(r *initRequest) { r.AudioURL = "https:///a.wav" }, []string{`audio_url must be an absolute http or https URL (got "https:///a.wav")`}},
		{"audio_url with a port and no host name", func(r *initRequest) { r.AudioURL = "https://:8080/a.wav" }, []string{`audio_url must be an absolute http or https URL (got "https://:8080/a.wav")`}},
		{"callback_config.url with no host name", func(r *initRequest) { r.CallbackConfig = &client.CallbackConfig{URL: "http://:/hook"} }, []string{`callback_config.url must be an absolute http or https URL (got "http://:/hook")`}},
		{"audio_url with a space", func(r *initRequest) { r.AudioURL = "https://example.com/My Recording.wav" }, []string{`audio_url must be an absolute http or https URL without white space (got "https://example.com/My Recording.wav")`}},
		{"callback_url with a trailing space", func(r *initRequest) { r.CallbackURL = s("https://e.com/h ") }, []string{`callback_url must be an absolute http or https URL without white space (got "https://e.com/h ")`}},
		{"audio_url with a NUL in its fragment", func(r *initRequest) { r.AudioURL = "https://e.com/a.wav#t=\x00" }, []string{`audio_url must be an absolute http or https URL without control characters (got "https://e.com/a.wav#t=\x00")`}},
		{"audio_url with a port past 65535", func(r *initRequest) { r.AudioURL = "https://example.com:99999/a.wav" }, []string{`audio_url must be an absolute http or https URL with a port from 1 to 65535 (got "https://example.com:99999/a.wav")`}},
		{"callback_url with port 0", func(r *initRequest) { r.CallbackURL = s("http://e.com:0/h") }, []string{`callback_url must be an absolute http or https URL with a port from 1 to 65535 (got "http://e.com:0/h")`}},
		{"audio_url with the highest port, zero-padded", func(r *initRequest) { r.AudioURL = "https://example.com:065535/a.wav" }, nil},
		{"audio_url with an encoded space", func(r *initRequest) { r.AudioURL = "https://example.com/My%20Recording.wav" }, nil},
		{"IPv6 audio_url", func(r *initRequest) { r.AudioURL = "http://[::1]:8080/a.wav" }, nil},
		{"unparsable audio_url", func(r *initRequest) { r.AudioURL = "http://[::1" }, []string{`audio_url must be an absolute http or https URL (got "http://[::1")`}},
		{"callback_url relative", func(r *initRequest) { r.CallbackURL = s("hook") }, []string{`callback_url must be an absolute http or https URL (got "hook")`}},
		{"callback_config.url relative", func(r *initRequest) { r.CallbackConfig = &client.CallbackConfig{URL: "hook"} }, []string{`callback_config.url must be an absolute http or https URL (got "hook")`}},

		// Enumerations.
		{"model-1", func(r *initRequest) { r.Model = s("model-1") }, nil},
		{"model-fusion", func(r *initRequest) { r.Model = s("model-fusion") }, nil},
		{"unknown model", func(r *initRequest) { r.Model = s("model-2") }, []string{`model must be one of: model-1, model-3, model-fusion (got "model-2")`}},
		{"languages ok", func(r *initRequest) {
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"en", "haw", "zh"}}
		}, nil},
		{"unknown language", func(r *initRequest) { r.LanguageConfig = &client.LanguageConfig{Languages: []string{"en", "xx"}} },
			[]string{`language_config.languages[1] must be a transcription language code (got "xx")`}},
		{"wo is not a transcription language", func(r *initRequest) { r.LanguageConfig = &client.LanguageConfig{Languages: []string{"wo"}} },
			[]string{`language_config.languages[0] must be a transcription language code; "wo" is a translation target only`}},
		{"wo as vocabulary language", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "a", Language: s("wo")}}}
		}, []string{`custom_vocabulary_config.vocabulary[0].language must be a transcription language code; "wo" is a translation target only`}},
		{"vocabulary language ok", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "a", Language: s("de")}}}
		}, nil},
		{"unknown vocabulary language", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "a", Language: s("english")}}}
		}, []string{`custom_vocabulary_config.vocabulary[0].language must be a transcription language code (got "english")`}},
		{"wo as translation target", func(r *initRequest) { r.TranslationConfig = &client.TranslationConfig{TargetLanguages: []string{"wo"}} }, nil},
		{"unknown translation target", func(r *initRequest) {
			r.TranslationConfig = &client.TranslationConfig{TargetLanguages: []string{"fr", "klingon"}}
		},
			[]string{`translation_config.target_languages[1] must be a translation language code (got "klingon")`}},
		{"translation models", func(r *initRequest) {
			r.TranslationConfig = &client.TranslationConfig{TargetLanguages: []string{"fr"}, Model: s("enhanced")}
		}, nil},
		{"unknown translation model", func(r *initRequest) {
			r.TranslationConfig = &client.TranslationConfig{TargetLanguages: []string{"fr"}, Model: s("fast")}
		}, []string{`translation_config.model must be one of: base, batch, enhanced (got "fast")`}},
		{"subtitle formats", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}} }, nil},
		{"unknown subtitle format", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{Formats: []string{"ass"}} },
			[]string{`subtitles_config.formats[0] must be one of: srt, vtt (got "ass")`}},
		{"subtitle format case", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{Formats: []string{"SRT"}} },
			[]string{`subtitles_config.formats[0] must be one of: srt, vtt (got "SRT")`}},
		{"subtitle style compliance", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{Style: s("compliance")} }, nil},
		{"unknown subtitle style", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{Style: s("fancy")} },
			[]string{`subtitles_config.style must be one of: default, compliance (got "fancy")`}},
		{"callback method PUT", func(r *initRequest) {
			r.CallbackConfig = &client.CallbackConfig{URL: "https://e.com/h", Method: s("PUT")}
		}, nil},
		{"callback method GET", func(r *initRequest) {
			r.CallbackConfig = &client.CallbackConfig{URL: "https://e.com/h", Method: s("GET")}
		}, []string{`callback_config.method must be one of: POST, PUT (got "GET")`}},
		{"callback method lower case", func(r *initRequest) {
			r.CallbackConfig = &client.CallbackConfig{URL: "https://e.com/h", Method: s("post")}
		}, []string{`callback_config.method must be one of: POST, PUT (got "post")`}},
		{"summary type", func(r *initRequest) { r.SummarizationConfig = &client.SummarizationConfig{Type: s("concise")} }, nil},
		{"unknown summary type", func(r *initRequest) { r.SummarizationConfig = &client.SummarizationConfig{Type: s("long")} },
			[]string{`summarization_config.type must be one of: general, bullet_points, concise (got "long")`}},
		{"pii entity types", func(r *initRequest) {
			r.PIIRedactionConfig = &client.PIIRedactionConfig{EntityTypes: []string{"APPI", "YEAR", "CREDIT_CARD"}, ProcessedTextType: s("MARKER")}
		}, nil},
		{"unknown pii entity type", func(r *initRequest) {
			r.PIIRedactionConfig = &client.PIIRedactionConfig{EntityTypes: []string{"NAME", "SHOE_SIZE"}}
		},
			[]string{`pii_redaction_config.entity_types[1] must be a PII entity type of the service (got "SHOE_SIZE")`}},
		{"unknown processed_text_type", func(r *initRequest) { r.PIIRedactionConfig = &client.PIIRedactionConfig{ProcessedTextType: s("mask")} },
			[]string{`pii_redaction_config.processed_text_type must be one of: MARKER, MASK (got "mask")`}},

		// Limits table, at and past each edge.
		{"formats empty", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{Formats: []string{}} },
			[]string{"subtitles_config.formats must contain at least 1 item(s)"}},
		{"minimum_duration 0", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MinimumDuration: f(0)} }, nil},
		{"minimum_duration -0.01", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MinimumDuration: f(-0.01)} },
			[]string{"subtitles_config.minimum_duration must not be less than 0"}},
		{"maximum_duration 1", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumDuration: f(1)} }, nil},
		{"maximum_duration 30", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumDuration: f(30)} }, nil},
		{"maximum_duration 0.99", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumDuration: f(0.99)} },
			[]string{"subtitles_config.maximum_duration must not be less than 1"}},
		{"maximum_duration 30.01", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumDuration: f(30.01)} },
			[]string{"subtitles_config.maximum_duration must not be greater than 30"}},
		{"maximum_characters_per_row 1", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumCharactersPerRow: n(1)} }, nil},
		{"maximum_characters_per_row 0", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumCharactersPerRow: n(0)} },
			[]string{"subtitles_config.maximum_characters_per_row must not be less than 1"}},
		{"maximum_rows_per_caption 1", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumRowsPerCaption: n(1)} }, nil},
		{"maximum_rows_per_caption 5", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumRowsPerCaption: n(5)} }, nil},
		{"maximum_rows_per_caption 0", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumRowsPerCaption: n(0)} },
			[]string{"subtitles_config.maximum_rows_per_caption must not be less than 1"}},
		{"maximum_rows_per_caption 6", func(r *initRequest) { r.SubtitlesConfig = &client.SubtitlesConfig{MaximumRowsPerCaption: n(6)} },
			[]string{"subtitles_config.maximum_rows_per_caption must not be greater than 5"}},
		{"minimum equal to maximum duration", func(r *initRequest) {
			r.SubtitlesConfig = &client.SubtitlesConfig{MinimumDuration: f(5), MaximumDuration: f(5)}
		}, nil},
		{"minimum above maximum duration", func(r *initRequest) {
			r.SubtitlesConfig = &client.SubtitlesConfig{MinimumDuration: f(6), MaximumDuration: f(5)}
		}, []string{"subtitles_config.minimum_duration must not be greater than subtitles_config.maximum_duration"}},
		{"number_of_speakers 1", func(r *initRequest) { r.DiarizationConfig = &client.DiarizationConfig{NumberOfSpeakers: n(1)} }, nil},
		{"number_of_speakers 0", func(r *initRequest) { r.DiarizationConfig = &client.DiarizationConfig{NumberOfSpeakers: n(0)} },
			[]string{"diarization_config.number_of_speakers must not be less than 1"}},
		{"speakers 0 and 0", func(r *initRequest) {
			r.DiarizationConfig = &client.DiarizationConfig{MinSpeakers: n(0), MaxSpeakers: n(0)}
		}, nil},
		{"min_speakers -1", func(r *initRequest) { r.DiarizationConfig = &client.DiarizationConfig{MinSpeakers: n(-1)} },
			[]string{"diarization_config.min_speakers must not be less than 0"}},
		{"max_speakers -1", func(r *initRequest) { r.DiarizationConfig = &client.DiarizationConfig{MaxSpeakers: n(-1)} },
			[]string{"diarization_config.max_speakers must not be less than 0"}},
		{"min_speakers equal to max", func(r *initRequest) {
			r.DiarizationConfig = &client.DiarizationConfig{MinSpeakers: n(3), MaxSpeakers: n(3)}
		}, nil},
		{"min_speakers above max", func(r *initRequest) {
			r.DiarizationConfig = &client.DiarizationConfig{MinSpeakers: n(4), MaxSpeakers: n(3)}
		},
			[]string{"diarization_config.min_speakers must not be greater than diarization_config.max_speakers"}},
		{"intensities 0 and 1", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{DefaultIntensity: f(0), Vocabulary: []client.VocabularyEntry{{Value: "a", Intensity: f(1)}, {Value: "b", Intensity: f(0)}}}
		}, nil},
		{"default_intensity 1", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{DefaultIntensity: f(1)}
		}, nil},
		{"default_intensity -0.01", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{DefaultIntensity: f(-0.01)}
		},
			[]string{"custom_vocabulary_config.default_intensity must not be less than 0"}},
		{"default_intensity 1.01", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{DefaultIntensity: f(1.01)}
		},
			[]string{"custom_vocabulary_config.default_intensity must not be greater than 1"}},
		{"intensity -0.5", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "a", Intensity: f(-0.5)}}}
		}, []string{"custom_vocabulary_config.vocabulary[0].intensity must not be less than 0"}},
		{"intensity 1.5", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "ok"}, {Value: "a", Intensity: f(1.5)}}}
		}, []string{"custom_vocabulary_config.vocabulary[1].intensity must not be greater than 1"}},
		{"empty vocabulary value", func(r *initRequest) {
			r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: " "}}}
		}, []string{"custom_vocabulary_config.vocabulary[0].value must not be empty"}},
		{"target_languages empty", func(r *initRequest) { r.TranslationConfig = &client.TranslationConfig{TargetLanguages: []string{}} },
			[]string{"translation_config.target_languages must contain at least 1 item(s)"}},
		{"prompts one", func(r *initRequest) { r.AudioToLLMConfig = &client.AudioToLLMConfig{Prompts: []string{"Summarize"}} }, nil},
		{"prompts empty", func(r *initRequest) { r.AudioToLLMConfig = &client.AudioToLLMConfig{Prompts: []string{}} },
			[]string{"audio_to_llm_config.prompts must contain at least 1 item(s)"}},
		{"llm model of the spec's form", func(r *initRequest) {
			r.AudioToLLMConfig = &client.AudioToLLMConfig{Prompts: []string{"Summarize"}, Model: s("openai/gpt-4o-mini")}
		}, nil},
		{"llm model without its provider", func(r *initRequest) {
			r.AudioToLLMConfig = &client.AudioToLLMConfig{Prompts: []string{"Summarize"}, Model: s("gpt-4o")}
		}, []string{`audio_to_llm_config.model must have the form <provider>/<model_name> (got "gpt-4o")`}},

		// model-3.
		{"model-3 with one supported language", func(r *initRequest) {
			r.Model = s("model-3")
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"it"}, CodeSwitching: b(false)}
		}, nil},
		{"model-3 without language_config", func(r *initRequest) { r.Model = s("model-3") },
			[]string{"language_config.languages must hold exactly one language when model is model-3 (got 0)"}},
		{"model-3 with two languages", func(r *initRequest) {
			r.Model = s("model-3")
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"en", "fr"}}
		}, []string{"language_config.languages must hold exactly one language when model is model-3 (got 2)"}},
		{"model-3 with an unsupported language", func(r *initRequest) {
			r.Model = s("model-3")
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"ja"}}
		}, []string{`language_config.languages[0] must be one of: en, fr, de, es, it when model is model-3 (got "ja")`}},
		// A code that is no language at all is one problem, not also one of model-3.
		{"model-3 with an unknown code", func(r *initRequest) {
			r.Model = s("model-3")
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"xx"}}
		}, []string{`language_config.languages[0] must be a transcription language code (got "xx")`}},
		{"model-3 with code switching", func(r *initRequest) {
			r.Model = s("model-3")
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"en"}, CodeSwitching: b(true)}
		}, []string{"language_config.code_switching must not be true when model is model-3"}},
		{"model-1 with code switching and no language", func(r *initRequest) {
			r.LanguageConfig = &client.LanguageConfig{CodeSwitching: b(true)}
		}, nil},

		// Callbacks.
		{"callback true with callback_config", func(r *initRequest) {
			r.Callback = b(true)
			r.CallbackConfig = &client.CallbackConfig{URL: "https://e.com/h"}
		}, nil},
		{"callback true with callback_url", func(r *initRequest) {
			r.Callback = b(true)
			r.CallbackURL = s("https://e.com/h")
		}, nil},
		{"callback true without a URL", func(r *initRequest) { r.Callback = b(true) },
			[]string{"callback_config.url or callback_url is required when callback is true"}},
		{"callback false without a URL", func(r *initRequest) { r.Callback = b(false) }, nil},

		// Configs are checked even when their boolean is off.
		{"config checked with boolean off", func(r *initRequest) {
			r.Subtitles = b(false)
			r.SubtitlesConfig = &client.SubtitlesConfig{MaximumRowsPerCaption: n(9)}
		}, []string{"subtitles_config.maximum_rows_per_caption must not be greater than 5"}},

		// Several problems are all reported.
		{"several problems", func(r *initRequest) {
			r.AudioURL = "nope"
			r.Model = s("model-9")
			r.DiarizationConfig = &client.DiarizationConfig{NumberOfSpeakers: n(0)}
		}, []string{
			`audio_url must be an absolute http or https URL (got "nope")`,
			`model must be one of: model-1, model-3, model-fusion (got "model-9")`,
			"diarization_config.number_of_speakers must not be less than 1",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := validRequest()
			c.change(r)
			if got := validateRequest(r); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("problems\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// Every value of every enumeration is accepted.
func TestValidateAcceptsEveryEnumValue(t *testing.T) {
	for _, lang := range client.TranscriptionLanguages {
		r := validRequest()
		r.LanguageConfig = &client.LanguageConfig{Languages: []string{lang}}
		r.CustomVocabularyConfig = &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "a", Language: &lang}}}
		if p := validateRequest(r); p != nil {
			t.Fatalf("language %s: %q", lang, p)
		}
	}
	r := validRequest()
	r.TranslationConfig = &client.TranslationConfig{TargetLanguages: client.TranslationLanguages}
	r.PIIRedactionConfig = &client.PIIRedactionConfig{EntityTypes: client.PIIEntityTypes}
	if p := validateRequest(r); p != nil {
		t.Fatalf("all translation targets and PII types: %q", p)
	}
	for _, lang := range client.ModelThreeLanguages {
		model := client.ModelThree
		r := validRequest()
		r.Model = &model
		r.LanguageConfig = &client.LanguageConfig{Languages: []string{lang}}
		if p := validateRequest(r); p != nil {
			t.Fatalf("model-3 %s: %q", lang, p)
		}
	}
	for _, enum := range []struct {
		values []string
		set    func(r *initRequest, v string)
	}{
		{client.Models, func(r *initRequest, v string) {
			r.Model = &v
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"en"}}
		}},
		{client.CallbackMethods, func(r *initRequest, v string) {
			r.CallbackConfig = &client.CallbackConfig{URL: "https://e.com", Method: &v}
		}},
		{client.SubtitleStyles, func(r *initRequest, v string) { r.SubtitlesConfig = &client.SubtitlesConfig{Style: &v} }},
		{client.SubtitleFormats, func(r *initRequest, v string) { r.SubtitlesConfig = &client.SubtitlesConfig{Formats: []string{v}} }},
		{client.TranslationModels, func(r *initRequest, v string) {
			r.TranslationConfig = &client.TranslationConfig{TargetLanguages: []string{"en"}, Model: &v}
		}},
		{client.SummaryTypes, func(r *initRequest, v string) { r.SummarizationConfig = &client.SummarizationConfig{Type: &v} }},
		{client.ProcessedTextTypes, func(r *initRequest, v string) {
			r.PIIRedactionConfig = &client.PIIRedactionConfig{ProcessedTextType: &v}
		}},
	} {
		for _, v := range enum.values {
			r := validRequest()
			enum.set(r, v)
			if p := validateRequest(r); p != nil {
				t.Fatalf("%s: %q", v, p)
			}
		}
	}
}

// Over HTTP, a broken rule is a 422 naming the field, and nothing is stored.
func TestCreateAnswers422ForBrokenRules(t *testing.T) {
	h := newHarness(t, Options{})
	cases := []struct{ body, problem string }{
		{`{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_duration":30.01}}`, "subtitles_config.maximum_duration must not be greater than 30"},
		{`{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_duration":0.99}}`, "subtitles_config.maximum_duration must not be less than 1"},
		{`{"audio_url":"https://e.com/a.wav","model":"model-3","language_config":{"languages":["en","de"]}}`, "exactly one language"},
		{`{"audio_url":"https://e.com/a.wav","language_config":{"languages":["wo"]}}`, "translation target only"},
		{`{"audio_url":"a.wav"}`, "audio_url must be an absolute http or https URL"},
		{`{"audio_url":"https://e.com/a.wav","callback":true}`, "callback_config.url or callback_url is required"},
		{`{"audio_url":"https://e.com/a.wav","translation_config":{"target_languages":[]}}`, "translation_config.target_languages must contain at least 1 item"},
	}
	for _, c := range cases {
		t.Run(c.problem, func(t *testing.T) {
			body := requireError(t, h.postCreate(c.body), http.StatusUnprocessableEntity, "/v2/pre-recorded")
			requireProblem(t, body, c.problem)
		})
	}
	// The edges themselves pass over HTTP too.
	h.create(`{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_duration":30,"minimum_duration":0,"maximum_rows_per_caption":5}}`)
	h.create(`{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_duration":1,"maximum_rows_per_caption":1,"maximum_characters_per_row":1}}`)
	if n := h.srv.JobCount(); n != 2 {
		t.Fatalf("%d jobs stored, want the 2 valid ones", n)
	}
}
