package fakeserver

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// everyOption turns every option on with a configuration for each.
func everyOption() *client.InitTranscriptionRequest {
	return &client.InitTranscriptionRequest{
		AudioURL:               "https://example.com/a.wav",
		LanguageConfig:         &client.LanguageConfig{Languages: []string{"en"}},
		CustomVocabulary:       resPtr(true),
		CustomVocabularyConfig: &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "Kubernetes"}, {Value: "Terraform provider"}}},
		Subtitles:              resPtr(true),
		SubtitlesConfig:        &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}, MaximumCharactersPerRow: resPtr(int64(32))},
		Diarization:            resPtr(true),
		DiarizationConfig:      &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(3))},
		Translation:            resPtr(true),
		TranslationConfig:      &client.TranslationConfig{TargetLanguages: []string{"fr", "ja"}},
		Summarization:          resPtr(true),
		SummarizationConfig:    &client.SummarizationConfig{Type: resPtr("bullet_points")},
		NamedEntityRecognition: resPtr(true),
		CustomSpelling:         resPtr(true),
		CustomSpellingConfig:   &client.CustomSpellingConfig{SpellingDictionary: map[string][]string{"SQL": {"sequel"}, "crew": {"team"}}},
		SentimentAnalysis:      resPtr(true),
		AudioToLLM:             resPtr(true),
		AudioToLLMConfig:       &client.AudioToLLMConfig{Prompts: []string{"What is said?", "List the action items."}},
		PIIRedaction:           resPtr(true),
		PIIRedactionConfig:     &client.PIIRedactionConfig{ProcessedTextType: resPtr("MARKER")},
		Sentences:              resPtr(true),
		PunctuationEnhanced:    resPtr(true),
	}
}

// allTexts gathers every text of a result a reader could see.
func allTexts(r *client.Result) []string {
	var out []string
	addTranscript := func(full string, utts []client.Utterance, sentences []client.AddonResult[[]string], subs []client.Subtitle) {
		out = append(out, full)
		for _, u := range utts {
			out = append(out, u.Text)
			for _, w := range u.Words {
				out = append(out, w.Word)
			}
		}
		for _, s := range sentences {
			out = append(out, s.Results...)
		}
		for _, s := range subs {
			out = append(out, s.Subtitles)
		}
	}
	if tr := r.Transcription; tr != nil {
		addTranscript(tr.FullTranscript, tr.Utterances, tr.Sentences, tr.Subtitles)
	}
	if r.Translation != nil {
		for _, it := range r.Translation.Results {
			addTranscript(it.FullTranscript, it.Utterances, it.Sentences, it.Subtitles)
		}
	}
	if r.Summarization != nil {
		out = append(out, *r.Summarization.Results)
	}
	if r.NamedEntityRecognition != nil {
		for _, e := range r.NamedEntityRecognition.Results {
			out = append(out, e.Text)
		}
	}
	if r.AudioToLLM != nil {
		for _, it := range r.AudioToLLM.Results {
			out = append(out, *it.Results.Response)
		}
	}
	if r.Sentences != nil {
		out = append(out, r.Sentences.Results...)
	}
	return out
}

func anyContains(texts []string, sub string) bool {
	for _, s := range texts {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// bareWords splits a text into lower-case words without punctuation.
func bareWords(s string) []string {
	f := strings.Fields(strings.ToLower(s))
	for i, w := range f {
		f[i] = strings.TrimRight(w, ".,?!")
	}
	return f
}

func hasWord(s, word string) bool {
	for _, w := range bareWords(s) {
		if w == word {
			return true
		}
	}
	return false
}

// checkTranscript asserts the timing and text invariants of a transcript.
func checkTranscript(t *testing.T, utts []client.Utterance, full string, duration float64, channels int64) {
	t.Helper()
	texts := make([]string, len(utts))
	prevEnd := 0.0
	for i, u := range utts {
		where := fmt.Sprintf("utterance %d [%v,%v]", i, u.Start, u.End)
		if u.Start < prevEnd || u.Start > u.End || u.Start < 0 || u.End > duration {
			t.Fatalf("%s: not ordered inside [0,%v] after %v", where, duration, prevEnd)
		}
		prevEnd = u.End
		if u.Confidence <= 0 || u.Confidence > 1 {
			t.Fatalf("%s: confidence %v", where, u.Confidence)
		}
		if u.Channel < 0 || u.Channel >= channels {
			t.Fatalf("%s: channel %d of %d", where, u.Channel, channels)
		}
		if len(u.Words) == 0 {
			t.Fatalf("%s: no words", where)
		}
		if u.Words[0].Start != u.Start || u.Words[len(u.Words)-1].End != u.End {
			t.Fatalf("%s: words span [%v,%v]", where, u.Words[0].Start, u.Words[len(u.Words)-1].End)
		}
		wprev := u.Start
		ws := make([]string, len(u.Words))
		for j, w := range u.Words {
			if w.Start < wprev || w.Start > w.End || w.End > u.End {
				t.Fatalf("%s: word %d %q [%v,%v] out of order or outside", where, j, w.Word, w.Start, w.End)
			}
			if w.Confidence <= 0 || w.Confidence > 1 {
				t.Fatalf("%s: word confidence %v", where, w.Confidence)
			}
			if w.Word == "" || strings.ContainsAny(w.Word, " \n") {
				t.Fatalf("%s: bad word %q", where, w.Word)
			}
			wprev = w.End
			ws[j] = w.Word
		}
		if u.Text != strings.Join(ws, " ") {
			t.Fatalf("%s: text %q is not its words %q", where, u.Text, strings.Join(ws, " "))
		}
		texts[i] = u.Text
	}
	if full != strings.Join(texts, " ") {
		t.Fatalf("full transcript is not the utterance texts joined")
	}
}

// The provider replaces a job only when client.Effective differs, so what
// Effective keeps must make the job the request makes: the same result, the
// same callback. Each case writes something Effective rewrites.
func TestEffectiveRequestMakesTheSameJob(t *testing.T) {
	audio := Audio{Duration: 75, Channels: 2, Filename: "a.wav"}
	cases := map[string]func(r *client.InitTranscriptionRequest){
		"every option": func(r *client.InitTranscriptionRequest) {},
		"spellings reordered and repeated": func(r *client.InitTranscriptionRequest) {
			r.CustomSpellingConfig.SpellingDictionary = map[string][]string{"SQL": {"sequel", "seekwel", "sequel"}, "crew": {"team", "squad"}}
		},
		"pronunciations and intensities": func(r *client.InitTranscriptionRequest) {
			r.CustomVocabularyConfig.DefaultIntensity = resPtr(0.4)
			r.CustomVocabularyConfig.Vocabulary[0].Pronunciations = []string{"koo", "kube", "koo"}
			r.CustomVocabularyConfig.Vocabulary[1].Intensity = resPtr(0.9)
		},
		"languages reordered, code switching": func(r *client.InitTranscriptionRequest) {
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"fr", "en", "de"}, CodeSwitching: resPtr(true)}
		},
		"languages repeated": func(r *client.InitTranscriptionRequest) {
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"fr", "en", "fr"}, CodeSwitching: resPtr(true)}
		},
		"one language twice": func(r *client.InitTranscriptionRequest) {
			r.LanguageConfig = &client.LanguageConfig{Languages: []string{"de", "de"}, CodeSwitching: resPtr(true)}
		},
		"configurations of switches that are off": func(r *client.InitTranscriptionRequest) {
			r.Diarization, r.Translation, r.CustomSpelling, r.PIIRedaction = resPtr(false), nil, resPtr(false), nil
		},
		"lists of alternatives repeated, empty context": func(r *client.InitTranscriptionRequest) {
			tc := *r.TranslationConfig
			tc.TargetLanguages = append(slices.Clone(tc.TargetLanguages), tc.TargetLanguages...)
			tc.Context = resPtr("")
			r.TranslationConfig = &tc
			sc := *r.SubtitlesConfig
			sc.Formats = append(slices.Clone(sc.Formats), sc.Formats...)
			r.SubtitlesConfig = &sc
			r.PIIRedactionConfig = &client.PIIRedactionConfig{EntityTypes: []string{"NAME", "EMAIL_ADDRESS", "NAME"}}
		},
		"lists of alternatives reordered": func(r *client.InitTranscriptionRequest) {
			tc := *r.TranslationConfig
			tc.TargetLanguages = slices.Clone(tc.TargetLanguages)
			slices.Reverse(tc.TargetLanguages)
			r.TranslationConfig = &tc
			sc := *r.SubtitlesConfig
			sc.Formats = slices.Clone(sc.Formats)
			slices.Reverse(sc.Formats)
			r.SubtitlesConfig = &sc
		},
		"callback_url": func(r *client.InitTranscriptionRequest) { r.CallbackURL = resPtr("https://hooks.example.com/a") },
		"callback_config while callback is off": func(r *client.InitTranscriptionRequest) {
			r.CallbackConfig = &client.CallbackConfig{URL: "https://hooks.example.com/b", Method: resPtr("PUT")}
			r.CallbackURL = resPtr("https://hooks.example.com/a")
		},
		"callback_config in use beside callback_url": func(r *client.InitTranscriptionRequest) {
			r.Callback = resPtr(true)
			r.CallbackConfig = &client.CallbackConfig{URL: "https://hooks.example.com/b", Method: resPtr("PUT")}
			r.CallbackURL = resPtr("https://hooks.example.com/a")
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			req := everyOption()
			change(req)
			effective := req.Effective()
			if got, want := inCanonicalOrder(generateResult(effective, audio, req.AudioURL)), inCanonicalOrder(generateResult(req, audio, req.AudioURL)); !reflect.DeepEqual(got, want) {
				t.Error("the effective request makes another result")
			}
			if got, want := callbackFor(effective), callbackFor(req); !reflect.DeepEqual(got, want) {
				t.Errorf("the effective request calls back %+v, the request %+v", got, want)
			}
		})
	}
}

// inCanonicalOrder is r with its translations sorted by language and its
// subtitles by format: a result lists them in the order the request wrote
// its targets and formats, which Effective sorts (the same job, listed in
// another order).
func inCanonicalOrder(r *client.Result) *client.Result {
	bySubtitleFormat := func(a, b client.Subtitle) int { return strings.Compare(a.Format, b.Format) }
	if r.Transcription != nil {
		slices.SortFunc(r.Transcription.Subtitles, bySubtitleFormat)
	}
	if r.Translation != nil {
		for _, item := range r.Translation.Results {
			slices.SortFunc(item.Subtitles, bySubtitleFormat)
		}
		slices.SortFunc(r.Translation.Results, func(a, b client.TranslationItem) int {
			return slices.Compare(a.Languages, b.Languages)
		})
	}
	return r
}

func TestResultDeterministic(t *testing.T) {
	audio := Audio{Duration: 75, Channels: 2, Filename: "a.wav"}
	a := generateResult(everyOption(), audio, "https://example.com/a.wav")
	b := generateResult(everyOption(), audio, "https://example.com/a.wav")
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same inputs gave different results")
	}
	c := generateResult(everyOption(), audio, "https://example.com/b.wav")
	if a.Transcription.FullTranscript == c.Transcription.FullTranscript {
		t.Fatal("a different seed gave the same transcript")
	}
	if reflect.DeepEqual(a.Transcription.Utterances[0].Words, c.Transcription.Utterances[0].Words) {
		t.Fatal("a different seed gave the same word timings")
	}

	// The words spoken do not depend on the add-ons that only read them.
	plain := generateResult(&client.InitTranscriptionRequest{}, audio, "s")
	readers := &client.InitTranscriptionRequest{
		Subtitles: resPtr(true), Diarization: resPtr(true), Translation: resPtr(true),
		TranslationConfig: &client.TranslationConfig{TargetLanguages: []string{"de"}},
		Summarization:     resPtr(true), NamedEntityRecognition: resPtr(true), SentimentAnalysis: resPtr(true),
		AudioToLLM: resPtr(true), AudioToLLMConfig: &client.AudioToLLMConfig{Prompts: []string{"x"}}, Sentences: resPtr(true),
	}
	withReaders := generateResult(readers, audio, "s")
	if plain.Transcription.FullTranscript != withReaders.Transcription.FullTranscript {
		t.Fatal("enabling read-only add-ons changed the transcript")
	}
}

// The channel speech is on is the audio's: diarizing, with fewer speakers
// than channels or not, leaves every channel heard, as without it.
func TestResultChannelsDoNotDependOnDiarization(t *testing.T) {
	channelsOf := func(r *client.Result) []int64 {
		var out []int64
		for _, u := range r.Transcription.Utterances {
			out = append(out, u.Channel)
		}
		return out
	}
	for _, channels := range []int64{1, 2, 4} {
		audio := Audio{Duration: 120, Channels: channels, Filename: "call.wav"}
		plain := channelsOf(generateResult(&client.InitTranscriptionRequest{}, audio, "call"))
		for _, speakers := range []int64{1, 2, 5} {
			diarized := generateResult(&client.InitTranscriptionRequest{
				Diarization: resPtr(true), DiarizationConfig: &client.DiarizationConfig{NumberOfSpeakers: resPtr(speakers)},
			}, audio, "call")
			if got := channelsOf(diarized); !reflect.DeepEqual(got, plain) {
				t.Errorf("%d channels, %d speakers: utterance channels %v, without diarization %v", channels, speakers, got, plain)
			}
		}
	}
}

func TestResultTimingsWithinBounds(t *testing.T) {
	tests := []struct {
		duration float64
		channels int64
		wantChan int64
	}{
		{0, 1, 1},
		{0.0004, 1, 1},
		{0.05, 0, 1},
		{1, 1, 1},
		{7.3, 2, 2},
		{60, 2, 2},
		{61.2345, 4, 4},
		{3600, 1, 1},
	}
	for _, tt := range tests {
		for _, diar := range []bool{false, true} {
			t.Run(fmt.Sprintf("%vs/%dch/diarization=%v", tt.duration, tt.channels, diar), func(t *testing.T) {
				req := &client.InitTranscriptionRequest{Diarization: resPtr(diar)}
				r := generateResult(req, Audio{Duration: tt.duration, Channels: tt.channels}, "bounds")
				m := r.Metadata
				// billing_time is audio_duration × number_of_distinct_channels (the
				// official client's TranscriptionMetadata says so).
				if m.AudioDuration != tt.duration || m.BillingTime != tt.duration*float64(tt.wantChan) || m.NumberOfDistinctChannels != tt.wantChan {
					t.Fatalf("metadata %+v", m)
				}
				if m.TranscriptionTime <= 0 || m.TranscriptionTime > tt.duration/10+1 {
					t.Fatalf("transcription_time %v", m.TranscriptionTime)
				}
				tr := r.Transcription
				if tr == nil || tr.Utterances == nil || !reflect.DeepEqual(tr.Languages, []string{"en"}) {
					t.Fatalf("transcription %+v", tr)
				}
				checkTranscript(t, tr.Utterances, tr.FullTranscript, tt.duration, tt.wantChan)
				n := len(tr.Utterances)
				switch {
				case tt.duration < 0.001 && n != 0:
					t.Fatalf("%d utterances in less than a millisecond", n)
				case tt.duration >= 0.001 && n == 0:
					t.Fatal("no utterance")
				}
				chans := map[int64]bool{}
				for i, u := range tr.Utterances {
					chans[u.Channel] = true
					if u.Language != "en" {
						t.Fatalf("utterance language %q", u.Language)
					}
					if diar != (u.Speaker != nil) {
						t.Fatalf("speaker %v with diarization %v", u.Speaker, diar)
					}
					if u.End-u.Start > 15 {
						t.Fatalf("utterance %d lasts %v s", i, u.End-u.Start)
					}
				}
				// Without diarization the utterances take turns on every
				// channel the metadata counts, not all on channel 0.
				if !diar && n >= int(tt.wantChan) && len(chans) != int(tt.wantChan) {
					t.Fatalf("utterances on channels %v, want all %d", chans, tt.wantChan)
				}
				if tt.duration >= 60 {
					last := tr.Utterances[n-1].End
					if last < tt.duration-10 {
						t.Fatalf("utterances stop at %v of %v s", last, tt.duration)
					}
					if n < int(tt.duration/10) {
						t.Fatalf("only %d utterances for %v s", n, tt.duration)
					}
				}
			})
		}
	}
}

func TestResultLanguages(t *testing.T) {
	frenchWords := map[string]bool{}
	for _, w := range wordBank {
		frenchWords[strings.ToLower(w.w[1])] = true
	}
	tests := []struct {
		name      string
		lc        *client.LanguageConfig
		check     func(t *testing.T, tr *client.Transcription)
		wantLangs []string // nil: checked by check
	}{
		{"none", nil, nil, []string{"en"}},
		{"empty list", &client.LanguageConfig{Languages: []string{}}, nil, []string{"en"}},
		{"one language", &client.LanguageConfig{Languages: []string{"fr"}}, func(t *testing.T, tr *client.Transcription) {
			in, all := 0, 0
			for _, w := range bareWords(tr.FullTranscript) {
				all++
				if frenchWords[w] {
					in++
				}
			}
			if in*10 < all*7 {
				t.Fatalf("only %d of %d words are French: %q", in, all, tr.FullTranscript[:80])
			}
		}, []string{"fr"}},
		{"one language with code switching", &client.LanguageConfig{Languages: []string{"de"}, CodeSwitching: resPtr(true)}, nil, []string{"de"}},
		{"language without a word bank", &client.LanguageConfig{Languages: []string{"ja"}}, nil, []string{"ja"}},
		{"several, detected once", &client.LanguageConfig{Languages: []string{"en", "fr", "de"}}, func(t *testing.T, tr *client.Transcription) {
			if len(tr.Languages) != 1 || !client.Contains([]string{"en", "fr", "de"}, tr.Languages[0]) {
				t.Fatalf("languages %v", tr.Languages)
			}
		}, nil},
		{"several with code switching", &client.LanguageConfig{Languages: []string{"en", "fr", "de"}, CodeSwitching: resPtr(true)}, func(t *testing.T, tr *client.Transcription) {
			if len(tr.Languages) < 2 {
				t.Fatalf("code switching used only %v", tr.Languages)
			}
			for _, l := range tr.Languages {
				if !client.Contains([]string{"en", "fr", "de"}, l) {
					t.Fatalf("language %q not configured", l)
				}
			}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := generateResult(&client.InitTranscriptionRequest{LanguageConfig: tt.lc}, Audio{Duration: 120, Channels: 1}, "langs")
			tr := r.Transcription
			checkTranscript(t, tr.Utterances, tr.FullTranscript, 120, 1)
			if tt.wantLangs != nil && !reflect.DeepEqual(tr.Languages, tt.wantLangs) {
				t.Fatalf("languages %v, want %v", tr.Languages, tt.wantLangs)
			}
			var used []string
			for _, u := range tr.Utterances {
				if !client.Contains(used, u.Language) {
					used = append(used, u.Language)
				}
			}
			if !reflect.DeepEqual(used, tr.Languages) {
				t.Fatalf("languages %v, utterances use %v", tr.Languages, used)
			}
			if tt.check != nil {
				tt.check(t, tr)
			}
		})
	}
}

// TestResultLanguagesOfSilence: a transcript without a word (audio shorter
// than a millisecond, an empty WAV) still names its language, and that
// language is one of the candidates the request configured, never a
// language the caller left out.
func TestResultLanguagesOfSilence(t *testing.T) {
	for _, tt := range []struct {
		name string
		lc   *client.LanguageConfig
		want []string
	}{
		{"none configured", nil, []string{"en"}},
		{"one", &client.LanguageConfig{Languages: []string{"fr"}}, []string{"fr"}},
		{"several, detected once", &client.LanguageConfig{Languages: []string{"fr", "de"}}, []string{"de"}},
		{"several with code switching", &client.LanguageConfig{Languages: []string{"it", "es"}, CodeSwitching: resPtr(true)}, []string{"es"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range []float64{0, 0.0004} {
				r := generateResult(&client.InitTranscriptionRequest{LanguageConfig: tt.lc, Translation: resPtr(true),
					TranslationConfig: &client.TranslationConfig{TargetLanguages: []string{"nl"}}}, Audio{Duration: d, Channels: 1}, "silence")
				tr := r.Transcription
				if len(tr.Utterances) != 0 || !reflect.DeepEqual(tr.Languages, tt.want) {
					t.Fatalf("%v s: %d utterances, languages %v, want none and %v", d, len(tr.Utterances), tr.Languages, tt.want)
				}
				// A translation of silence names its target language all the same.
				if got := r.Translation.Results[0].Languages; !reflect.DeepEqual(got, []string{"nl"}) {
					t.Fatalf("%v s: translation languages %v, want [nl]", d, got)
				}
			}
		})
	}
}

func TestResultDiarizationSpeakers(t *testing.T) {
	tests := []struct {
		name string
		dc   *client.DiarizationConfig
		want int // distinct speakers; -1: min(50, utterances)
	}{
		{"default", nil, 2},
		{"empty config", &client.DiarizationConfig{}, 2},
		{"number 1", &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(1))}, 1},
		{"number 3", &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(3))}, 3},
		{"number wins over bounds", &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(4)), MinSpeakers: resPtr(int64(1)), MaxSpeakers: resPtr(int64(2))}, 4},
		{"min above default", &client.DiarizationConfig{MinSpeakers: resPtr(int64(4))}, 4},
		{"max below default", &client.DiarizationConfig{MaxSpeakers: resPtr(int64(1))}, 1},
		{"range holding the default", &client.DiarizationConfig{MinSpeakers: resPtr(int64(0)), MaxSpeakers: resPtr(int64(5))}, 2},
		// The spec allows max_speakers 0 (minimum 0): a bound below 1 bounds nothing.
		{"max 0 is no bound", &client.DiarizationConfig{MaxSpeakers: resPtr(int64(0))}, 2},
		{"range above the default", &client.DiarizationConfig{MinSpeakers: resPtr(int64(3)), MaxSpeakers: resPtr(int64(6))}, 3},
		{"min above max", &client.DiarizationConfig{MinSpeakers: resPtr(int64(5)), MaxSpeakers: resPtr(int64(3))}, 5},
		{"more speakers than utterances", &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(50))}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &client.InitTranscriptionRequest{Diarization: resPtr(true), DiarizationConfig: tt.dc}
			r := generateResult(req, Audio{Duration: 90, Channels: 2}, "speakers")
			seen := map[int64]bool{}
			for i, u := range r.Transcription.Utterances {
				if u.Speaker == nil {
					t.Fatal("utterance without a speaker")
				}
				seen[*u.Speaker] = true
				if u.Channel != int64(i)%2 {
					t.Fatalf("utterance %d on channel %d: speech is on each channel in turn", i, u.Channel)
				}
			}
			want := tt.want
			if want < 0 {
				want = min(50, len(r.Transcription.Utterances))
			}
			if len(seen) != want {
				t.Fatalf("%d distinct speakers, want %d", len(seen), want)
			}
			for s := range seen {
				if s < 0 || s >= int64(max(want, 1)) {
					t.Fatalf("speaker %d outside [0,%d)", s, want)
				}
			}
		})
	}
	off := generateResult(&client.InitTranscriptionRequest{DiarizationConfig: &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(3))}}, Audio{Duration: 30, Channels: 1}, "speakers")
	for _, u := range off.Transcription.Utterances {
		if u.Speaker != nil {
			t.Fatal("speaker set with diarization off")
		}
	}
}

func TestResultCustomVocabulary(t *testing.T) {
	vocab := []client.VocabularyEntry{{Value: "Kubernetes"}, {Value: "Terraform provider", Intensity: resPtr(0.5)}, {Value: "Kafka"}, {Value: "  "}}
	cfg := &client.CustomVocabularyConfig{Vocabulary: vocab}
	for _, d := range []float64{60, 600} {
		on := generateResult(&client.InitTranscriptionRequest{CustomVocabulary: resPtr(true), CustomVocabularyConfig: cfg, Subtitles: resPtr(true)}, Audio{Duration: d, Channels: 1}, "vocab")
		off := generateResult(&client.InitTranscriptionRequest{CustomVocabulary: resPtr(false), CustomVocabularyConfig: cfg}, Audio{Duration: d, Channels: 1}, "vocab")
		checkTranscript(t, on.Transcription.Utterances, on.Transcription.FullTranscript, d, 1)
		for _, v := range []string{"Kubernetes", "Terraform provider", "Kafka"} {
			if !strings.Contains(on.Transcription.FullTranscript, v) {
				t.Errorf("%vs: vocabulary value %q missing from %q", d, v, on.Transcription.FullTranscript)
			}
			if !strings.Contains(on.Transcription.Subtitles[0].Subtitles, strings.Fields(v)[0]) {
				t.Errorf("%vs: vocabulary value %q missing from the subtitles", d, v)
			}
			if strings.Contains(off.Transcription.FullTranscript, v) {
				t.Errorf("%vs: vocabulary value %q present with custom_vocabulary off", d, v)
			}
		}
		if d == 600 && strings.Count(on.Transcription.FullTranscript, "Kafka") < 2 {
			t.Errorf("a long recording should use the vocabulary more than once")
		}
	}
	// A recording too short to hold every value must still work.
	short := generateResult(&client.InitTranscriptionRequest{CustomVocabulary: resPtr(true), CustomVocabularyConfig: cfg}, Audio{Duration: 1, Channels: 1}, "vocab")
	checkTranscript(t, short.Transcription.Utterances, short.Transcription.FullTranscript, 1, 1)
}

func TestResultCustomSpelling(t *testing.T) {
	dict := map[string][]string{
		"SQL":        {"sequel", "es queue el"},
		"Kubernetes": {"koobernetes"},
		"crew":       {"team", "TEAM"},
		"GitHub":     {"Git Hub"}, // a spelling in capitals matches whatever the case
		"":           {"ignored"},
		"Nothing":    {""},
	}
	audio := Audio{Duration: 180, Channels: 1}
	base := generateResult(&client.InitTranscriptionRequest{}, audio, "spell")
	if !hasWord(base.Transcription.FullTranscript, "team") {
		t.Fatal("test premise: the base transcript should say \"team\"")
	}
	req := &client.InitTranscriptionRequest{
		CustomSpelling: resPtr(true), CustomSpellingConfig: &client.CustomSpellingConfig{SpellingDictionary: dict},
		// the vocabulary itself says "sequel": the dictionary must still correct it
		CustomVocabulary: resPtr(true), CustomVocabularyConfig: &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{{Value: "sequel"}}},
		Subtitles: resPtr(true), SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}},
		Translation: resPtr(true), TranslationConfig: &client.TranslationConfig{TargetLanguages: []string{"fr"}},
		Sentences: resPtr(true),
	}
	r := generateResult(req, audio, "spell")
	checkTranscript(t, r.Transcription.Utterances, r.Transcription.FullTranscript, 180, 1)
	texts := allTexts(r)
	for _, text := range texts {
		for _, bad := range []string{"sequel", "koobernetes", "team", "hub"} {
			if hasWord(text, bad) {
				t.Fatalf("%q survived the spelling dictionary in %q", bad, text)
			}
		}
		if strings.Contains(strings.ToLower(text), "es queue el") {
			t.Fatalf("\"es queue el\" survived in %q", text)
		}
	}
	full := r.Transcription.FullTranscript
	for _, key := range []string{"SQL", "Kubernetes", "crew", "GitHub"} {
		if !hasWord(full, strings.ToLower(key)) || !strings.Contains(full, key) {
			t.Errorf("key %q missing from the transcript", key)
		}
	}
	if hasWord(full, "ignored") {
		t.Error("a spelling with an empty key was inserted")
	}
	// A spelling is matched within a sentence only: the same words across a
	// sentence end ("... the report. Every team ...") are left as they are.
	plain := generateResult(&client.InitTranscriptionRequest{Sentences: resPtr(true)}, audio, "spell")
	pair := ""
	for _, u := range plain.Transcription.Utterances {
		for k := 0; k+1 < len(u.Words) && pair == ""; k++ {
			if w := u.Words[k].Word; strings.HasSuffix(w, ".") {
				pair = strings.ToLower(strings.TrimSuffix(w, ".") + " " + u.Words[k+1].Word)
			}
		}
	}
	crossing := generateResult(&client.InitTranscriptionRequest{Sentences: resPtr(true), CustomSpelling: resPtr(true),
		CustomSpellingConfig: &client.CustomSpellingConfig{SpellingDictionary: map[string][]string{"Merged": {pair}}}}, audio, "spell")
	if got, want := len(crossing.Sentences.Results), len(plain.Sentences.Results); pair == "" || got != want {
		t.Errorf("spelling %q across a sentence end: %d sentences, want %d", pair, got, want)
	}
	fr := r.Translation.Results[0].FullTranscript
	if !strings.Contains(fr, "SQL") || !strings.Contains(fr, "crew") {
		t.Errorf("custom spellings should carry into the translation: %q", fr[:100])
	}
	for _, s := range r.Transcription.Subtitles {
		if !strings.Contains(s.Subtitles, "SQL") {
			t.Errorf("%s subtitles lack the corrected spelling", s.Format)
		}
	}
	off := generateResult(&client.InitTranscriptionRequest{CustomSpellingConfig: &client.CustomSpellingConfig{SpellingDictionary: dict}}, audio, "spell")
	if off.Transcription.FullTranscript != base.Transcription.FullTranscript {
		t.Error("custom_spelling off still changed the transcript")
	}
}

// piiValues lists the raw values of the entity types that count as PII.
func piiValues(types ...string) []string {
	var out []string
	for _, se := range specialEntities {
		if client.Contains(types, se.entityType) {
			out = append(out, se.values...)
		}
	}
	return out
}

func TestResultPIIRedaction(t *testing.T) {
	allTypes := []string{"NAME", "EMAIL_ADDRESS", "PHONE_NUMBER", "LOCATION_CITY", "ORGANIZATION"}
	everything := func(pii *client.PIIRedactionConfig, on bool) *client.InitTranscriptionRequest {
		r := everyOption()
		r.CustomSpelling, r.CustomVocabulary = nil, nil
		r.PIIRedaction, r.PIIRedactionConfig = resPtr(on), pii
		r.AudioToLLMConfig.Prompts = []string{"Who calls whom?"}
		r.SummarizationConfig.Type = resPtr("general")
		return r
	}
	audio := Audio{Duration: 150, Channels: 1}
	raw := generateResult(everything(nil, false), audio, "pii")
	rawTexts := allTexts(raw)
	for _, typ := range allTypes {
		if !containsAnyValue(rawTexts, piiValues(typ)) {
			t.Fatalf("test premise: unredacted transcript should mention a %s", typ)
		}
	}
	star := regexp.MustCompile(`^\*+( \*+)*$`)
	tests := []struct {
		name     string
		cfg      *client.PIIRedactionConfig
		redacted []string // entity types that must be gone
		kept     []string // entity types that must stay readable
		mask     bool
	}{
		{"default config redacts all with markers", nil, allTypes, nil, false},
		{"MARKER", &client.PIIRedactionConfig{ProcessedTextType: resPtr("MARKER")}, allTypes, nil, false},
		{"MASK", &client.PIIRedactionConfig{ProcessedTextType: resPtr("MASK")}, allTypes, nil, true},
		{"email only", &client.PIIRedactionConfig{EntityTypes: []string{"EMAIL_ADDRESS"}}, []string{"EMAIL_ADDRESS"}, []string{"NAME", "PHONE_NUMBER", "LOCATION_CITY", "ORGANIZATION"}, false},
		{"given names select names, numerical PII phones", &client.PIIRedactionConfig{EntityTypes: []string{"NAME_GIVEN", "NUMERICAL_PII"}, ProcessedTextType: resPtr("MASK")}, []string{"NAME", "PHONE_NUMBER"}, []string{"EMAIL_ADDRESS", "LOCATION_CITY"}, true},
		{"a privacy regime selects everything", &client.PIIRedactionConfig{EntityTypes: []string{"GDPR"}}, allTypes, nil, false},
		{"types that match nothing", &client.PIIRedactionConfig{EntityTypes: []string{"CREDIT_CARD"}}, nil, allTypes, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := generateResult(everything(tt.cfg, true), audio, "pii")
			texts := allTexts(r)
			checkTranscript(t, r.Transcription.Utterances, r.Transcription.FullTranscript, 150, 1)
			for _, typ := range tt.redacted {
				for _, v := range piiValues(typ) {
					for _, part := range strings.Fields(v) {
						if part == "New" { // "new" is also an ordinary word of the bank
							continue
						}
						for _, s := range texts {
							if hasWord(s, strings.ToLower(part)) {
								t.Fatalf("%s value %q readable in %q", typ, part, s)
							}
						}
					}
				}
				marker := "[" + typ + "]"
				if tt.mask == anyContains(texts, marker) {
					t.Fatalf("marker %s present=%v with mask=%v", marker, !tt.mask, tt.mask)
				}
			}
			for _, typ := range tt.kept {
				if !containsAnyValue(texts, piiValues(typ)) || anyContains(texts, "["+typ+"]") {
					t.Fatalf("%s should not be redacted", typ)
				}
			}
			// Entities found by NER carry the redacted text with the right shape.
			for _, e := range r.NamedEntityRecognition.Results {
				red := client.Contains(tt.redacted, e.EntityType)
				switch {
				case red && tt.mask:
					if !star.MatchString(e.Text) || !sameShapeAsValue(e.Text, piiValues(e.EntityType)) {
						t.Fatalf("masked %s entity %q", e.EntityType, e.Text)
					}
				case red:
					if e.Text != "["+e.EntityType+"]" {
						t.Fatalf("marked %s entity %q", e.EntityType, e.Text)
					}
				default:
					if !client.Contains(piiValues(e.EntityType), e.Text) {
						t.Fatalf("kept %s entity %q", e.EntityType, e.Text)
					}
				}
			}
			if tt.mask && !strings.Contains(r.Transcription.FullTranscript, "***") {
				t.Fatal("no mask in the transcript")
			}
			// Redaction keeps a mention's trailing punctuation in both modes
			// (a mention often ends its sentence): the sentences stay those
			// of the unredacted transcript.
			if got, want := len(r.Sentences.Results), len(raw.Sentences.Results); got != want {
				t.Fatalf("%d sentences after redaction, %d before", got, want)
			}
		})
	}
}

func containsAnyValue(texts []string, values []string) bool {
	for _, v := range values {
		if anyContains(texts, v) {
			return true
		}
	}
	return false
}

// sameShapeAsValue reports whether a mask has the word lengths of one of the values.
func sameShapeAsValue(mask string, values []string) bool {
	for _, v := range values {
		vf, mf := strings.Fields(v), strings.Fields(mask)
		if len(vf) != len(mf) {
			continue
		}
		ok := true
		for i := range vf {
			ok = ok && utf8.RuneCountInString(vf[i]) == len(mf[i])
		}
		if ok {
			return true
		}
	}
	return false
}

func TestResultPunctuation(t *testing.T) {
	audio := Audio{Duration: 120, Channels: 1}
	for _, lang := range []string{"en", "de", "ja"} {
		t.Run(lang, func(t *testing.T) {
			mk := func(enhanced bool) *client.Result {
				return generateResult(&client.InitTranscriptionRequest{
					PunctuationEnhanced: resPtr(enhanced), Sentences: resPtr(true),
					LanguageConfig: &client.LanguageConfig{Languages: []string{lang}},
				}, audio, "punct")
			}
			plain, enhanced := mk(false), mk(true)
			for _, r := range []*client.Result{plain, enhanced} {
				if len(r.Sentences.Results) < 10 {
					t.Fatalf("%d sentences", len(r.Sentences.Results))
				}
				for _, s := range r.Sentences.Results {
					first, _ := utf8.DecodeRuneInString(s)
					if !unicode.IsUpper(first) {
						t.Fatalf("sentence %q does not start with a capital", s)
					}
					if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") {
						t.Fatalf("sentence %q does not end with punctuation", s)
					}
				}
			}
			if strings.Contains(plain.Transcription.FullTranscript, ",") {
				t.Fatal("commas without punctuation_enhanced")
			}
			if strings.Count(enhanced.Transcription.FullTranscript, ",") < 3 {
				t.Fatal("punctuation_enhanced adds no commas")
			}
			if strings.ReplaceAll(enhanced.Transcription.FullTranscript, ",", "") != plain.Transcription.FullTranscript {
				t.Fatal("punctuation_enhanced should only add commas")
			}
		})
	}
}

func TestResultSentences(t *testing.T) {
	r := generateResult(&client.InitTranscriptionRequest{Sentences: resPtr(true), PunctuationEnhanced: resPtr(true)}, Audio{Duration: 90, Channels: 1}, "sent")
	s := r.Sentences
	if s == nil || !s.Success || s.IsEmpty || s.Error != nil || s.ExecTime <= 0 {
		t.Fatalf("sentences add-on %+v", s)
	}
	if strings.Join(s.Results, " ") != r.Transcription.FullTranscript {
		t.Fatal("sentences do not rebuild the transcript")
	}
	if len(s.Results) <= len(r.Transcription.Utterances) && len(r.Transcription.Utterances) > 5 {
		// several utterances hold more than one sentence
		t.Fatalf("%d sentences for %d utterances", len(s.Results), len(r.Transcription.Utterances))
	}
	for _, x := range s.Results {
		if strings.Contains(x, ". ") || strings.Contains(x, "? ") {
			t.Fatalf("sentence %q holds a sentence end", x)
		}
	}
	if len(r.Transcription.Sentences) != 1 || !reflect.DeepEqual(r.Transcription.Sentences[0], *s) {
		t.Fatal("transcription.sentences should hold the sentences add-on object")
	}
	empty := generateResult(&client.InitTranscriptionRequest{Sentences: resPtr(true)}, Audio{Duration: 0, Channels: 1}, "sent")
	if !empty.Sentences.IsEmpty || empty.Sentences.Results == nil || len(empty.Sentences.Results) != 0 {
		t.Fatalf("empty sentences %+v", empty.Sentences)
	}
}

// addonPresence reports which add-on results are present.
func addonPresence(r *client.Result) map[string]bool {
	return map[string]bool{
		"translation":              r.Translation != nil,
		"summarization":            r.Summarization != nil,
		"named_entity_recognition": r.NamedEntityRecognition != nil,
		"sentiment_analysis":       r.SentimentAnalysis != nil,
		"audio_to_llm":             r.AudioToLLM != nil,
		"sentences":                r.Sentences != nil || r.Transcription.Sentences != nil,
		"subtitles":                r.Transcription.Subtitles != nil,
	}
}

func TestResultAddonsOnlyWhenEnabled(t *testing.T) {
	audio := Audio{Duration: 30, Channels: 1}
	// Configurations alone enable nothing.
	configsOnly := everyOption()
	for _, b := range []**bool{&configsOnly.CustomVocabulary, &configsOnly.Subtitles, &configsOnly.Diarization, &configsOnly.Translation,
		&configsOnly.Summarization, &configsOnly.NamedEntityRecognition, &configsOnly.CustomSpelling, &configsOnly.SentimentAnalysis,
		&configsOnly.AudioToLLM, &configsOnly.PIIRedaction, &configsOnly.Sentences, &configsOnly.PunctuationEnhanced} {
		*b = resPtr(false)
	}
	off := generateResult(configsOnly, audio, "addons")
	for name, present := range addonPresence(off) {
		if present {
			t.Errorf("%s present while disabled", name)
		}
	}
	if !reflect.DeepEqual(off.Transcription, generateResult(nil, audio, "addons").Transcription) {
		t.Error("disabled options changed the transcription")
	}

	enable := map[string]func(*client.InitTranscriptionRequest){
		"translation":              func(r *client.InitTranscriptionRequest) { r.Translation = resPtr(true) },
		"summarization":            func(r *client.InitTranscriptionRequest) { r.Summarization = resPtr(true) },
		"named_entity_recognition": func(r *client.InitTranscriptionRequest) { r.NamedEntityRecognition = resPtr(true) },
		"sentiment_analysis":       func(r *client.InitTranscriptionRequest) { r.SentimentAnalysis = resPtr(true) },
		"audio_to_llm":             func(r *client.InitTranscriptionRequest) { r.AudioToLLM = resPtr(true) },
		"sentences":                func(r *client.InitTranscriptionRequest) { r.Sentences = resPtr(true) },
		"subtitles":                func(r *client.InitTranscriptionRequest) { r.Subtitles = resPtr(true) },
	}
	for name, on := range enable {
		t.Run(name, func(t *testing.T) {
			req := &client.InitTranscriptionRequest{
				TranslationConfig: &client.TranslationConfig{TargetLanguages: []string{"es"}},
				AudioToLLMConfig:  &client.AudioToLLMConfig{Prompts: []string{"Why?"}},
			}
			on(req)
			r := generateResult(req, audio, "addons")
			for other, present := range addonPresence(r) {
				if present != (other == name) {
					t.Errorf("%s present=%v with only %s on", other, present, name)
				}
			}
			var success, empty bool
			var execTime float64
			var err *client.AddonError
			switch name {
			case "translation":
				success, empty, execTime, err = r.Translation.Success, r.Translation.IsEmpty, r.Translation.ExecTime, r.Translation.Error
			case "summarization":
				success, empty, execTime, err = r.Summarization.Success, r.Summarization.IsEmpty, r.Summarization.ExecTime, r.Summarization.Error
			case "named_entity_recognition":
				success, empty, execTime, err = r.NamedEntityRecognition.Success, r.NamedEntityRecognition.IsEmpty, r.NamedEntityRecognition.ExecTime, r.NamedEntityRecognition.Error
			case "sentiment_analysis":
				success, empty, execTime, err = r.SentimentAnalysis.Success, r.SentimentAnalysis.IsEmpty, r.SentimentAnalysis.ExecTime, r.SentimentAnalysis.Error
			case "audio_to_llm":
				success, empty, execTime, err = r.AudioToLLM.Success, r.AudioToLLM.IsEmpty, r.AudioToLLM.ExecTime, r.AudioToLLM.Error
			case "sentences":
				success, empty, execTime, err = r.Sentences.Success, r.Sentences.IsEmpty, r.Sentences.ExecTime, r.Sentences.Error
			case "subtitles":
				return
			}
			if !success || empty || execTime <= 0 || err != nil {
				t.Fatalf("add-on object success=%v is_empty=%v exec_time=%v error=%v", success, empty, execTime, err)
			}
		})
	}
}

// TestResultAddonErrors: an audio_url containing "addon-error" makes every
// add-on asked for fail, with the status code it names (500 when it names
// none from 400 to 599), while the transcript is made as usual.
func TestResultAddonErrors(t *testing.T) {
	audio := Audio{Duration: 30, Channels: 1}
	for url, wantCode := range map[string]int64{
		"https://example.com/addon-error-429.wav": 429,
		"https://example.com/addon-error.wav":     500,
		"https://example.com/addon-error-999.wav": 500,
	} {
		t.Run(url, func(t *testing.T) {
			req := everyOption()
			req.AudioURL = url
			r := generateResult(req, audio, "addons")
			if r.Transcription == nil || r.Transcription.FullTranscript == "" {
				t.Fatal("no transcript")
			}
			failed := map[string]struct {
				success, empty bool
				err            *client.AddonError
				results        any
			}{
				"translation":              {r.Translation.Success, r.Translation.IsEmpty, r.Translation.Error, r.Translation.Results},
				"summarization":            {r.Summarization.Success, r.Summarization.IsEmpty, r.Summarization.Error, r.Summarization.Results},
				"named_entity_recognition": {r.NamedEntityRecognition.Success, r.NamedEntityRecognition.IsEmpty, r.NamedEntityRecognition.Error, r.NamedEntityRecognition.Results},
				"sentiment_analysis":       {r.SentimentAnalysis.Success, r.SentimentAnalysis.IsEmpty, r.SentimentAnalysis.Error, r.SentimentAnalysis.Results},
				"audio_to_llm":             {r.AudioToLLM.Success, r.AudioToLLM.IsEmpty, r.AudioToLLM.Error, r.AudioToLLM.Results},
				"sentences":                {r.Sentences.Success, r.Sentences.IsEmpty, r.Sentences.Error, r.Sentences.Results},
				"transcription.sentences":  {r.Transcription.Sentences[0].Success, r.Transcription.Sentences[0].IsEmpty, r.Transcription.Sentences[0].Error, r.Transcription.Sentences[0].Results},
			}
			for name, a := range failed {
				if a.success || !a.empty || a.err == nil || a.err.StatusCode != wantCode || a.err.Message == "" || !reflect.ValueOf(a.results).IsZero() {
					t.Errorf("%s: success=%v is_empty=%v error=%+v results=%v, want failed with status_code %d and no results", name, a.success, a.empty, a.err, a.results, wantCode)
				}
			}
		})
	}
	if r := generateResult(everyOption(), audio, "addons"); r.Summarization.Error != nil || !r.Summarization.Success {
		t.Error("an audio_url without addon-error failed an add-on")
	}
}

func TestResultTranslation(t *testing.T) {
	targets := []string{"fr", "de", "ja", "en", "wo"}
	req := &client.InitTranscriptionRequest{
		Diarization: resPtr(true), Sentences: resPtr(true), PunctuationEnhanced: resPtr(true),
		Subtitles: resPtr(true), SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}, MaximumCharactersPerRow: resPtr(int64(20))},
		Translation: resPtr(true), TranslationConfig: &client.TranslationConfig{TargetLanguages: targets},
	}
	audio := Audio{Duration: 60, Channels: 2}
	r := generateResult(req, audio, "translate")
	src := r.Transcription
	if r.Translation == nil || len(r.Translation.Results) != len(targets) {
		t.Fatalf("translation %+v", r.Translation)
	}
	for i, it := range r.Translation.Results {
		lang := targets[i]
		t.Run(lang, func(t *testing.T) {
			if it.Error != nil || !reflect.DeepEqual(it.Languages, []string{lang}) {
				t.Fatalf("error %v languages %v", it.Error, it.Languages)
			}
			checkTranscript(t, it.Utterances, it.FullTranscript, audio.Duration, 2)
			if len(it.Utterances) != len(src.Utterances) {
				t.Fatalf("%d utterances, source has %d", len(it.Utterances), len(src.Utterances))
			}
			marker := bankColumn(lang) < 0
			for j, u := range it.Utterances {
				s := src.Utterances[j]
				if u.Start != s.Start || u.End != s.End || u.Channel != s.Channel || *u.Speaker != *s.Speaker || u.Language != lang {
					t.Fatalf("utterance %d does not match its source", j)
				}
				words := u.Words
				if marker {
					if words[0].Word != "["+lang+"]" || !strings.HasPrefix(u.Text, "["+lang+"] ") {
						t.Fatalf("utterance %d lacks the [%s] marker: %q", j, lang, u.Text)
					}
					words = words[1:]
					if u.Text[len(lang)+3:] != s.Text {
						t.Fatalf("marked translation should keep the source words: %q vs %q", u.Text, s.Text)
					}
				}
				if len(words) != len(s.Words) {
					t.Fatalf("utterance %d: %d words for %d", j, len(words), len(s.Words))
				}
				for k := range words {
					if words[k].End != s.Words[k].End || (k > 0 || !marker) && words[k].Start != s.Words[k].Start {
						t.Fatalf("utterance %d word %d timing differs from the source", j, k)
					}
				}
			}
			switch lang {
			case "en":
				if it.FullTranscript != src.FullTranscript {
					t.Fatal("English to English should be the source")
				}
			case "fr", "de":
				if it.FullTranscript == src.FullTranscript {
					t.Fatal("not translated")
				}
				// Every bank word is translated word by word, punctuation kept.
				col := bankColumn(lang)
				checked := 0
				for j, u := range it.Utterances {
					sws := src.Utterances[j].Words
					for k, w := range u.Words {
						sw := sws[k].Word
						first, _ := utf8.DecodeRuneInString(sw)
						if k > 0 && !endsSentence(sws[k-1].Word) && unicode.IsUpper(first) {
							continue // a capital inside a sentence: a name, kept as it is
						}
						want := bankWordIn(sw, col)
						if want == "" {
							continue
						}
						checked++
						trimmed := strings.TrimRight(w.Word, ".,?")
						if !strings.EqualFold(trimmed, want) || w.Word[len(trimmed):] != sw[len(strings.TrimRight(sw, ".,?")):] {
							t.Fatalf("%q translated as %q, want %q", sw, w.Word, want)
						}
					}
				}
				if checked < 50 {
					t.Fatalf("only %d bank words checked", checked)
				}
			}
			if len(it.Sentences) != 1 || strings.Join(it.Sentences[0].Results, " ") != it.FullTranscript {
				t.Fatal("translated sentences should rebuild the translated transcript")
			}
			if len(it.Subtitles) != 2 || it.Subtitles[0].Format != "srt" || it.Subtitles[1].Format != "vtt" {
				t.Fatalf("translated subtitles %+v", it.Subtitles)
			}
			segs := make([][]client.Word, len(it.Utterances))
			for j, u := range it.Utterances {
				segs[j] = u.Words
			}
			lim := captionLimits{maxChars: 20, maxRows: 2, maxDur: 5000}
			checkCaptions(t, parseSRT(t, it.Subtitles[0].Subtitles), lim, captionWords(segs), 60000)
			checkCaptions(t, parseVTT(t, it.Subtitles[1].Subtitles), lim, captionWords(segs), 60000)
		})
	}
	noTargets := generateResult(&client.InitTranscriptionRequest{Translation: resPtr(true)}, audio, "translate")
	if noTargets.Translation == nil || !noTargets.Translation.IsEmpty || noTargets.Translation.Results == nil || len(noTargets.Translation.Results) != 0 {
		t.Fatalf("translation without targets %+v", noTargets.Translation)
	}
}

// bankWordIn returns the word of column col of the bank entry whose English
// word is w (punctuation ignored), or "".
func bankWordIn(w string, col int) string {
	w = strings.ToLower(strings.TrimRight(w, ".,?"))
	for _, bw := range wordBank {
		if bw.w[0] == w {
			return bw.w[col]
		}
	}
	return ""
}

func TestResultSummarization(t *testing.T) {
	audio := Audio{Duration: 90, Channels: 1}
	mk := func(cfg *client.SummarizationConfig, d float64) string {
		r := generateResult(&client.InitTranscriptionRequest{Summarization: resPtr(true), SummarizationConfig: cfg, Diarization: resPtr(true)}, Audio{Duration: d, Channels: 1}, "summary")
		return *r.Summarization.Results
	}
	general := mk(&client.SummarizationConfig{Type: resPtr("general")}, audio.Duration)
	if strings.Contains(general, "\n") || strings.HasPrefix(general, "- ") || strings.Count(general, ". ") < 2 {
		t.Errorf("general should be one paragraph of sentences: %q", general)
	}
	if !strings.Contains(general, "2 speakers") || !strings.Contains(general, "1 min 30 s") {
		t.Errorf("general should describe the recording: %q", general)
	}
	// Speakers are counted only when diarization is on: without it the
	// summary says nothing of them (not "features 0 speakers").
	undiarized := generateResult(&client.InitTranscriptionRequest{Summarization: resPtr(true)}, audio, "summary")
	if s := *undiarized.Summarization.Results; strings.Contains(s, "speaker") || !strings.Contains(s, "1 min 30 s") {
		t.Errorf("general summary without diarization: %q", s)
	}
	one := generateResult(&client.InitTranscriptionRequest{Summarization: resPtr(true), Diarization: resPtr(true),
		DiarizationConfig: &client.DiarizationConfig{NumberOfSpeakers: resPtr(int64(1))}}, audio, "summary")
	if s := *one.Summarization.Results; !strings.Contains(s, "features 1 speaker and") {
		t.Errorf("general summary of one speaker: %q", s)
	}
	if def := mk(nil, audio.Duration); def != general {
		t.Errorf("the default type should be general: %q", def)
	}
	if def := mk(&client.SummarizationConfig{}, audio.Duration); def != general {
		t.Errorf("an unset type should be general: %q", def)
	}
	bullets := mk(&client.SummarizationConfig{Type: resPtr("bullet_points")}, audio.Duration)
	lines := strings.Split(bullets, "\n")
	if len(lines) < 4 {
		t.Errorf("bullet_points has %d lines: %q", len(lines), bullets)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "- ") || len(l) < 4 {
			t.Errorf("bullet line %q", l)
		}
		// The three most frequent nouns of a minute and a half of speech.
		if topics, ok := strings.CutPrefix(l, "- Main topics: "); ok && len(strings.Split(topics, ", ")) != 3 {
			t.Errorf("main topics %q, want three", topics)
		}
	}
	if !strings.Contains(bullets, "- Main topics: ") {
		t.Errorf("bullet_points without main topics: %q", bullets)
	}
	// The number of sentences agrees with its noun, short recordings
	// having one ("1 sentence", not "1 sentences").
	sentences := regexp.MustCompile(`- Length: .*, (\d+) sentence(s?) in `)
	sawOne := false
	for seconds := 2.0; seconds <= 12; seconds++ {
		b := mk(&client.SummarizationConfig{Type: resPtr("bullet_points")}, seconds)
		m := sentences.FindStringSubmatch(b)
		if m == nil {
			t.Fatalf("%v s: no length line: %q", seconds, b)
		}
		sawOne = sawOne || m[1] == "1"
		if (m[1] == "1") != (m[2] == "") {
			t.Errorf("%v s: %q", seconds, m[0])
		}
	}
	if !sawOne {
		t.Error("no short recording has one sentence: the singular is not checked")
	}
	concise := mk(&client.SummarizationConfig{Type: resPtr("concise")}, audio.Duration)
	if strings.Contains(concise, "\n") || !strings.HasSuffix(concise, ".") || strings.Count(concise, ".") != 1 || len(concise) > 120 || len(concise) >= len(general) {
		t.Errorf("concise should be one short sentence: %q", concise)
	}
	silence := generateResult(&client.InitTranscriptionRequest{Summarization: resPtr(true)}, Audio{Duration: 0, Channels: 1}, "summary").Summarization
	if !silence.IsEmpty || silence.Results == nil || *silence.Results != "" {
		t.Errorf("summary of silence %+v", silence)
	}
}

func TestSpokenDuration(t *testing.T) {
	for sec, want := range map[float64]string{
		0: "0 s", 45: "45 s", 59.4: "59 s", 59.6: "1 min 0 s", 60: "1 min 0 s",
		125: "2 min 5 s", 3599: "59 min 59 s", 3600: "1 h 0 min", 7325: "2 h 2 min",
	} {
		if got := spokenDuration(sec); got != want {
			t.Errorf("spokenDuration(%v) = %q, want %q", sec, got, want)
		}
	}
}

func TestResultNamedEntities(t *testing.T) {
	r := generateResult(&client.InitTranscriptionRequest{NamedEntityRecognition: resPtr(true)}, Audio{Duration: 120, Channels: 1}, "ner")
	ents := r.NamedEntityRecognition.Results
	types := map[string]bool{}
	prev := 0.0
	for _, e := range ents {
		types[e.EntityType] = true
		if e.Start < prev || e.Start >= e.End {
			t.Fatalf("entity %+v out of order", e)
		}
		prev = e.End
		if !client.Contains(piiValues(e.EntityType), e.Text) {
			t.Fatalf("entity %+v is not a known %s", e, e.EntityType)
		}
		if !strings.Contains(r.Transcription.FullTranscript, e.Text) {
			t.Fatalf("entity %q not in the transcript", e.Text)
		}
		found := false
		for _, u := range r.Transcription.Utterances {
			var first, last = -1, -1
			for k, w := range u.Words {
				if w.Start == e.Start {
					first = k
				}
				if w.End == e.End {
					last = k
				}
			}
			if first >= 0 && last >= first {
				var parts []string
				for _, w := range u.Words[first : last+1] {
					parts = append(parts, strings.TrimRight(w.Word, ".,?"))
				}
				found = strings.Join(parts, " ") == e.Text
			}
			if found {
				break
			}
		}
		if !found {
			t.Fatalf("entity %+v does not take the times of its words", e)
		}
	}
	for _, se := range specialEntities {
		if !types[se.entityType] {
			t.Errorf("no %s entity in two minutes", se.entityType)
		}
	}
}

func TestResultSentimentAnalysis(t *testing.T) {
	for _, seed := range []string{"a", "b", "c", "d"} {
		r := generateResult(&client.InitTranscriptionRequest{SentimentAnalysis: resPtr(true)}, Audio{Duration: 45, Channels: 1}, seed)
		var got struct {
			Sentiment     string  `json:"sentiment"`
			Score         float64 `json:"score"`
			PositiveWords int     `json:"positive_words"`
			NegativeWords int     `json:"negative_words"`
		}
		if err := json.Unmarshal([]byte(r.SentimentAnalysis.Results), &got); err != nil {
			t.Fatalf("sentiment %q: %v", r.SentimentAnalysis.Results, err)
		}
		total := got.PositiveWords + got.NegativeWords
		want := "neutral"
		if total > 0 {
			score := float64(got.PositiveWords-got.NegativeWords) / float64(total)
			if math.Abs(score-got.Score) > 0.001 {
				t.Fatalf("score %v, want %v", got.Score, score)
			}
			if score > 0.15 {
				want = "positive"
			} else if score < -0.15 {
				want = "negative"
			}
		}
		if got.Sentiment != want {
			t.Fatalf("sentiment %+v, want %s", got, want)
		}
	}
}

func TestResultAudioToLLM(t *testing.T) {
	prompts := []string{"Summarise the call.", "List the action items", "Summarise the call.", ""}
	r := generateResult(&client.InitTranscriptionRequest{AudioToLLM: resPtr(true), AudioToLLMConfig: &client.AudioToLLMConfig{Prompts: prompts}}, Audio{Duration: 40, Channels: 1}, "llm")
	items := r.AudioToLLM.Results
	if len(items) != len(prompts) {
		t.Fatalf("%d responses for %d prompts", len(items), len(prompts))
	}
	for i, it := range items {
		a := it.Results
		// Every prompt is answered: no item is empty, the list is not.
		if !it.Success || it.IsEmpty || it.Error != nil || a == nil || a.Prompt == nil || a.Response == nil {
			t.Fatalf("item %d is not a successful, non-empty add-on result with a prompt and a response: %+v", i, it)
		}
		if *a.Prompt != prompts[i] || !strings.Contains(*a.Response, `"`+prompts[i]+`"`) || len(*a.Response) < 40 {
			t.Fatalf("item %d: prompt %q, response %q", i, *a.Prompt, *a.Response)
		}
	}
	if r.AudioToLLM.IsEmpty {
		t.Fatal("audio_to_llm with answers says it is empty")
	}
	if *items[0].Results.Response != *items[2].Results.Response {
		t.Fatal("the same prompt should get the same response")
	}
	none := generateResult(&client.InitTranscriptionRequest{AudioToLLM: resPtr(true)}, Audio{Duration: 40, Channels: 1}, "llm")
	if !none.AudioToLLM.IsEmpty || none.AudioToLLM.Results == nil || len(none.AudioToLLM.Results) != 0 {
		t.Fatalf("audio_to_llm without prompts %+v", none.AudioToLLM)
	}
}

func TestResultSubtitles(t *testing.T) {
	tests := []struct {
		name    string
		cfg     *client.SubtitlesConfig
		formats []string
		lim     captionLimits
	}{
		{"defaults", nil, []string{"srt"}, captionLimits{maxRows: 2, maxDur: 5000}},
		{"vtt then srt, tight", &client.SubtitlesConfig{Formats: []string{"vtt", "srt"}, MaximumCharactersPerRow: resPtr(int64(12)),
			MaximumRowsPerCaption: resPtr(int64(1)), MaximumDuration: resPtr(2.0), MinimumDuration: resPtr(1.2)},
			[]string{"vtt", "srt"}, captionLimits{maxChars: 12, maxRows: 1, maxDur: 2000, minDur: 1200}},
		{"compliance", &client.SubtitlesConfig{Formats: []string{"srt"}, MaximumCharactersPerRow: resPtr(int64(100)), Style: resPtr("compliance")},
			[]string{"srt"}, captionLimits{maxChars: 42, maxRows: 2, maxDur: 5000, minDur: 1000, compliance: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &client.InitTranscriptionRequest{Subtitles: resPtr(true), SubtitlesConfig: tt.cfg, PIIRedaction: resPtr(true), PunctuationEnhanced: resPtr(true)}
			r := generateResult(req, Audio{Duration: 200, Channels: 1}, "subs")
			subs := r.Transcription.Subtitles
			if len(subs) != len(tt.formats) {
				t.Fatalf("%d subtitle files, want %v", len(subs), tt.formats)
			}
			segs := make([][]client.Word, len(r.Transcription.Utterances))
			for j, u := range r.Transcription.Utterances {
				segs[j] = u.Words
			}
			for i, s := range subs {
				if s.Format != tt.formats[i] {
					t.Fatalf("format %q, want %q", s.Format, tt.formats[i])
				}
				var caps []parsedCaption
				if s.Format == "vtt" {
					caps = parseVTT(t, s.Subtitles)
				} else {
					caps = parseSRT(t, s.Subtitles)
				}
				checkCaptions(t, caps, tt.lim, captionWords(segs), 200000)
				if strings.Contains(s.Subtitles, "@example.") || !strings.Contains(s.Subtitles, "[EMAIL_ADDRESS]") {
					t.Fatal("subtitles should be redacted")
				}
			}
		})
	}
}

func TestResultDefensive(t *testing.T) {
	all := &client.InitTranscriptionRequest{}
	for _, b := range []**bool{&all.CustomVocabulary, &all.Subtitles, &all.Diarization, &all.Translation, &all.Summarization,
		&all.NamedEntityRecognition, &all.CustomSpelling, &all.SentimentAnalysis, &all.AudioToLLM, &all.PIIRedaction,
		&all.Sentences, &all.PunctuationEnhanced} {
		*b = resPtr(true)
	}
	for _, req := range []*client.InitTranscriptionRequest{nil, {}, all} {
		for _, d := range []float64{-5, math.NaN(), math.Inf(1), 0, 0.002, 12} {
			r := generateResult(req, Audio{Duration: d, Channels: -3}, "")
			if r == nil || r.Transcription == nil || r.Metadata.NumberOfDistinctChannels != 1 {
				t.Fatalf("result %+v", r)
			}
			wantDur := d
			if !(d > 0) || math.IsInf(d, 0) {
				wantDur = 0
			}
			checkTranscript(t, r.Transcription.Utterances, r.Transcription.FullTranscript, wantDur, 1)
			if _, err := json.Marshal(withoutNaN(r)); err != nil {
				t.Fatalf("duration %v: %v", d, err)
			}
		}
	}
	r := generateResult(all, Audio{Duration: 30, Channels: 1}, "x")
	if r.Translation == nil || !r.Translation.IsEmpty || r.AudioToLLM == nil || !r.AudioToLLM.IsEmpty {
		t.Fatal("add-ons without configuration should be present and empty")
	}
	if len(r.Transcription.Subtitles) != 1 || r.Transcription.Subtitles[0].Format != "srt" {
		t.Fatalf("subtitles without configuration %+v", r.Transcription.Subtitles)
	}
}

// withoutNaN clears the metadata that echoes a non-finite input duration.
func withoutNaN(r *client.Result) *client.Result {
	c := *r
	if math.IsNaN(c.Metadata.AudioDuration) || math.IsInf(c.Metadata.AudioDuration, 0) {
		c.Metadata.AudioDuration = 0
	}
	return &c
}

func hourRequest() *client.InitTranscriptionRequest {
	return &client.InitTranscriptionRequest{
		Subtitles: resPtr(true), SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}},
		Diarization: resPtr(true),
	}
}

// TestResultHourIsFast checks that an hour of audio is generated well under
// 100 ms (a looser bound under the race detector, which slows code down).
func TestResultHourIsFast(t *testing.T) {
	limit := 100 * time.Millisecond
	if raceDetector {
		limit = time.Second
	}
	best := time.Hour
	var r *client.Result
	for i := 0; i < 3; i++ {
		start := time.Now()
		r = generateResult(hourRequest(), Audio{Duration: 3600, Channels: 2}, "hour")
		best = min(best, time.Since(start))
	}
	if best > limit {
		t.Fatalf("an hour of audio took %v", best)
	}
	if n := len(r.Transcription.Utterances); n < 500 {
		t.Fatalf("only %d utterances in an hour", n)
	}
}

func BenchmarkGenerateResultHour(b *testing.B) {
	req := hourRequest()
	for b.Loop() {
		generateResult(req, Audio{Duration: 3600, Channels: 2}, "hour")
	}
}

func BenchmarkGenerateResultHourEveryOption(b *testing.B) {
	req := everyOption()
	for b.Loop() {
		generateResult(req, Audio{Duration: 3600, Channels: 2}, "hour")
	}
}
