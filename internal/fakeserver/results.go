package fakeserver

import (
	"math"
	"slices"
	"strings"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// Audio is what the service knows of the audio a job transcribes.
type Audio struct {
	Duration float64 // seconds
	Channels int64
	Filename string
}

// generateResult builds the deterministic result of a finished job from the
// request as the service applied it (defaults filled in), the audio, and a seed
// (the job's audio URL), so the same request always yields the same result.
//
// How the fake transcript is made (see results_bank.go for the words):
//   - Utterances of a few seconds, each one or more whole sentences built from
//     part-of-speech templates over a seven-language word wordBank, cover the audio
//     one after the other; times are whole milliseconds inside [0, duration].
//   - Sentences 2 to 4, then every third sentence, mention a named entity: a
//     name, an e-mail address, a phone number, a city, an organisation, in
//     turn. They feed named entity recognition and PII redaction.
//   - The words depend only on the seed, the duration and the language
//     configuration; the options below transform that text, in this order:
//     custom vocabulary values and the spellings of the custom spelling
//     dictionary are substituted for some nouns, the dictionary then replaces
//     every listed spelling by its key, PII is redacted, and everything else
//     (utterances, sentences, subtitles, translations, add-ons) is derived
//     from the result.
func generateResult(req *client.InitTranscriptionRequest, audio Audio, seed string) *client.Result {
	o := resultOptionsFrom(req, audio)

	utts := draftUtterances(resultRand(seed, "text"), o.durMs, o.langs)
	var inserts [][]string
	if o.vocabulary {
		inserts = append(inserts, o.vocabItems...)
	}
	if o.spelling {
		inserts = append(inserts, spellingItems(o.spellingDict)...)
	}
	applyInsertions(utts, inserts)
	if o.spelling {
		applySpelling(utts, o.spellingDict)
	}
	if o.pii {
		applyRedaction(utts, o.piiTypes, o.piiMask)
	}
	assignSpeakers(utts, resultRand(seed, "speakers"), o.diarize, o.speakers, o.channels)

	// Every channel is billed: billing_time is audio_duration ×
	// number_of_distinct_channels, as the official client's
	// TranscriptionMetadata describes it.
	res := &client.Result{Metadata: client.ResultMetadata{
		AudioDuration:            audio.Duration,
		NumberOfDistinctChannels: o.channels,
		BillingTime:              o.duration * float64(o.channels),
		TranscriptionTime:        roundTo3(0.5 + o.duration/60),
	}}

	src := renderTranscript(utts, nil, o)
	tr := &client.Transcription{
		FullTranscript: src.full,
		Languages:      src.languages,
		Utterances:     src.utts,
	}
	if len(tr.Languages) == 0 {
		tr.Languages = []string{o.defaultLanguage()}
	}
	if o.subtitles {
		tr.Subtitles = renderSubtitles(src.segments(), o.subFormats, o.captions, o.durMs)
	}
	if o.sentences {
		s := addonResult(&o, 0.2, len(src.sentences) == 0, src.sentences)
		res.Sentences = &s
		copied := s
		copied.Results = append([]string(nil), s.Results...)
		tr.Sentences = []client.AddonResult[[]string]{copied}
	}
	res.Transcription = tr

	st := summarise(utts, src, o)
	if o.translation {
		res.Translation = translateResult(utts, o)
	}
	if o.summarization {
		text := st.summary(o.summaryType)
		a := addonResult(&o, 1.0, text == "", &text)
		res.Summarization = &a
	}
	if o.ner {
		ents := namedEntities(utts)
		a := addonResult(&o, 0.5, len(ents) == 0, ents)
		res.NamedEntityRecognition = &a
	}
	if o.sentiment {
		a := addonResult(&o, 0.6, st.words == 0, st.sentimentJSON())
		res.SentimentAnalysis = &a
	}
	if o.audioToLLM {
		items := make([]client.AudioToLLMResult, 0, len(o.prompts))
		for _, p := range o.prompts {
			answer := st.answer(p)
			items = append(items, addonResult(&o, 1.5, answer == "", &client.AudioToLLMAnswer{Prompt: &p, Response: &answer}))
		}
		a := addonResult(&o, 1.5, len(items) == 0, items)
		res.AudioToLLM = &a
	}
	if req != nil {
		if e := addonFailureFor(req.AudioURL); e != nil {
			failAddons(res, e)
		}
	}
	return res
}

// failAddons makes every add-on of a result fail with e, as the service
// reports an add-on that failed in a job that is done: success false, the
// error, no results.
func failAddons(res *client.Result, e *client.AddonError) {
	failAddon(res.Sentences, e)
	if tr := res.Transcription; tr != nil {
		for i := range tr.Sentences {
			failAddon(&tr.Sentences[i], e)
		}
	}
	failAddon(res.Translation, e)
	failAddon(res.Summarization, e)
	failAddon(res.NamedEntityRecognition, e)
	failAddon(res.SentimentAnalysis, e)
	failAddon(res.AudioToLLM, e)
}

func failAddon[T any](a *client.AddonResult[T], e *client.AddonError) {
	if a == nil {
		return
	}
	var none T
	a.Success, a.IsEmpty, a.Error, a.Results = false, true, e, none
}

// resultOptions is the request reduced to what the generator needs, every
// default applied and every nil pointer tolerated.
type resultOptions struct {
	duration float64 // seconds, ≥ 0
	durMs    int64   // whole milliseconds transcribed, floor(min(duration, maxTranscriptSeconds)*1000)
	channels int64   // ≥ 1
	langs    langPlan

	vocabulary   bool
	vocabItems   [][]string
	spelling     bool
	spellingDict map[string][]string
	enhanced     bool

	pii      bool
	piiTypes []string
	piiMask  bool

	diarize  bool
	speakers int64

	subtitles  bool
	subFormats []string
	captions   captionConfig

	sentences     bool
	translation   bool
	targets       []string
	summarization bool
	summaryType   string
	ner           bool
	sentiment     bool
	audioToLLM    bool
	prompts       []string
}

func optOn(b *bool) bool { return b != nil && *b }

// maxTranscriptSeconds bounds the audio a transcript is generated for: a
// longer recording (a URL asking for duration=1e12, a WAV at 1 Hz) gets the
// transcript of its first four hours only, so that one job's result is
// bounded: at most about 350 MB of JSON, built in about a second, for four
// hours translated into every target language with subtitles and sentences.
// Metadata still tells the whole duration.
const maxTranscriptSeconds = 4 * 60 * 60

func resultOptionsFrom(req *client.InitTranscriptionRequest, audio Audio) resultOptions {
	if req == nil {
		req = &client.InitTranscriptionRequest{}
	}
	o := resultOptions{duration: audio.Duration, channels: max(audio.Channels, 1)}
	if math.IsNaN(o.duration) || o.duration < 0 || math.IsInf(o.duration, 0) {
		o.duration = 0
	}
	o.durMs = int64(math.Floor(min(o.duration, maxTranscriptSeconds) * 1000))

	var langs []string
	switching := false
	if lc := req.LanguageConfig; lc != nil {
		seen := map[string]bool{}
		for _, l := range lc.Languages {
			l = strings.ToLower(strings.TrimSpace(l))
			if l != "" && !seen[l] {
				seen[l] = true
				langs = append(langs, l)
			}
		}
		switching = optOn(lc.CodeSwitching)
	}
	slices.Sort(langs) // candidates, not a preference: their order changes nothing
	switch {
	case len(langs) == 0:
		o.langs.fixed = "en"
	case len(langs) == 1:
		o.langs.fixed = langs[0]
	case switching:
		o.langs.choices = langs
	default:
		o.langs.detectOne = langs
	}

	if o.vocabulary = optOn(req.CustomVocabulary); o.vocabulary && req.CustomVocabularyConfig != nil {
		for _, e := range req.CustomVocabularyConfig.Vocabulary {
			if f := strings.Fields(e.Value); len(f) > 0 {
				o.vocabItems = append(o.vocabItems, f)
			}
		}
	}
	if o.spelling = optOn(req.CustomSpelling); o.spelling && req.CustomSpellingConfig != nil {
		// The spellings of a key are alternatives: neither their order nor a
		// repeat changes which words are inserted and then replaced.
		o.spellingDict = make(map[string][]string, len(req.CustomSpellingConfig.SpellingDictionary))
		for key, spellings := range req.CustomSpellingConfig.SpellingDictionary {
			o.spellingDict[key] = slices.Compact(slices.Sorted(slices.Values(spellings)))
		}
	}
	o.enhanced = optOn(req.PunctuationEnhanced)

	if o.pii = optOn(req.PIIRedaction); o.pii && req.PIIRedactionConfig != nil {
		o.piiTypes = req.PIIRedactionConfig.EntityTypes
		if t := req.PIIRedactionConfig.ProcessedTextType; t != nil {
			o.piiMask = strings.EqualFold(strings.TrimSpace(*t), "MASK")
		}
	}

	o.diarize = optOn(req.Diarization)
	o.speakers = speakerCount(req.DiarizationConfig)

	o.subtitles = optOn(req.Subtitles)
	o.subFormats, o.captions = subtitleSettings(req.SubtitlesConfig)

	o.sentences = optOn(req.Sentences)
	if o.translation = optOn(req.Translation); o.translation && req.TranslationConfig != nil {
		for _, l := range req.TranslationConfig.TargetLanguages {
			// A target given twice is translated once, as a format given
			// twice is rendered once.
			if l = strings.ToLower(strings.TrimSpace(l)); l != "" && !slices.Contains(o.targets, l) {
				o.targets = append(o.targets, l)
			}
		}
	}
	o.summarization = optOn(req.Summarization)
	o.summaryType = client.DefaultSummaryType
	if sc := req.SummarizationConfig; sc != nil && sc.Type != nil && *sc.Type != "" {
		o.summaryType = strings.ToLower(*sc.Type)
	}
	o.ner = optOn(req.NamedEntityRecognition)
	o.sentiment = optOn(req.SentimentAnalysis)
	if o.audioToLLM = optOn(req.AudioToLLM); o.audioToLLM && req.AudioToLLMConfig != nil {
		o.prompts = req.AudioToLLMConfig.Prompts
	}
	return o
}

// speakerCount is the number of distinct speakers diarization finds: exactly
// number_of_speakers when set, else 2 brought inside [min_speakers,
// max_speakers] (a bound below 1 is ignored).
func speakerCount(dc *client.DiarizationConfig) int64 {
	const def = 2
	if dc == nil {
		return def
	}
	if n := dc.NumberOfSpeakers; n != nil && *n >= 1 {
		return *n
	}
	lo, hi := int64(1), int64(math.MaxInt64)
	if dc.MinSpeakers != nil && *dc.MinSpeakers > lo {
		lo = *dc.MinSpeakers
	}
	if dc.MaxSpeakers != nil && *dc.MaxSpeakers >= 1 {
		hi = *dc.MaxSpeakers
	}
	hi = max(hi, lo)
	return min(max(def, lo), hi)
}

// defaultLanguage is the language a transcript without utterances names:
// the configured one, else the first of the configured candidates (code
// switching or not), never a language the request left out.
func (o *resultOptions) defaultLanguage() string {
	if o.langs.fixed != "" {
		return o.langs.fixed
	}
	if len(o.langs.choices) > 0 {
		return o.langs.choices[0]
	}
	if len(o.langs.detectOne) > 0 {
		return o.langs.detectOne[0]
	}
	return "en"
}

// addonResult wraps an add-on's results; exec_time grows with the audio duration.
func addonResult[T any](o *resultOptions, weight float64, empty bool, results T) client.AddonResult[T] {
	return client.AddonResult[T]{
		Success:  true,
		IsEmpty:  empty,
		ExecTime: roundTo3(weight * (0.1 + o.duration/300)),
		Results:  results,
	}
}

// roundTo3 rounds to milliseconds; a value too large for that (absurd audio
// durations reach here) is returned as it is rather than as +Inf, which JSON
// cannot carry.
func roundTo3(x float64) float64 {
	if r := math.Round(x*1000) / 1000; !math.IsInf(r, 0) {
		return r
	}
	return x
}

func draftSec(ms int64) float64 { return float64(ms) / 1000 }

// renderedTranscript is a transcript (source or translation) in the client's shape.
type renderedTranscript struct {
	utts      []client.Utterance
	sentences []string
	full      string
	languages []string
}

// segments returns the words of each utterance, for subtitles.
func (r *renderedTranscript) segments() [][]client.Word {
	segs := make([][]client.Word, len(r.utts))
	for i := range r.utts {
		segs[i] = r.utts[i].Words
	}
	return segs
}

// translationTarget renders bank words in another language. col is the target's
// bank column; a target without one keeps the source words and opens every
// utterance with a "[xx]" marker word.
type translationTarget struct {
	lang string
	col  int
}

// wordText is the text of a word as written in the transcript (tr nil) or
// in a translation.
func wordText(tk *draftToken, tr *translationTarget, enhanced bool) string {
	s := tk.text
	if tr != nil && tr.col >= 0 && tk.bank >= 0 {
		s = wordBank[tk.bank].w[tr.col]
	}
	if tk.sentStart && tk.bank >= 0 {
		s = capitaliseWord(s)
	}
	if tk.end != 0 {
		s += string(tk.end)
	} else if enhanced && tk.comma {
		s += ","
	}
	return s
}

// renderTranscript turns the drafted utterances into client utterances,
// sentences and the full transcript. Each utterance's text is its words
// joined by spaces, and the full transcript the utterance texts joined by
// spaces.
func renderTranscript(utts []uttDraft, tr *translationTarget, o resultOptions) renderedTranscript {
	out := renderedTranscript{utts: make([]client.Utterance, 0, len(utts)), languages: []string{}}
	seenLang := map[string]bool{}
	var full, text, sentence strings.Builder
	for ui := range utts {
		u := &utts[ui]
		lang := u.lang
		if tr != nil {
			lang = tr.lang
		}
		if !seenLang[lang] {
			seenLang[lang] = true
			out.languages = append(out.languages, lang)
		}
		words := make([]client.Word, 0, len(u.toks)+1)
		text.Reset()
		confSum := 0.0
		for ti := range u.toks {
			tk := &u.toks[ti]
			start, end := tk.startMs, tk.endMs
			if tr != nil && tr.col < 0 && ti == 0 {
				// The marker takes the opening third (at most 150 ms) of the first word.
				cut := start + min((end-start)/3, 150)
				words = append(words, client.Word{Word: "[" + tr.lang + "]", Start: draftSec(start), End: draftSec(cut), Confidence: tk.conf})
				text.WriteString("[" + tr.lang + "]")
				sentence.WriteString("[" + tr.lang + "]")
				start = cut
			}
			w := wordText(tk, tr, o.enhanced)
			words = append(words, client.Word{Word: w, Start: draftSec(start), End: draftSec(end), Confidence: tk.conf})
			confSum += tk.conf
			if text.Len() > 0 {
				text.WriteByte(' ')
			}
			text.WriteString(w)
			if sentence.Len() > 0 {
				sentence.WriteByte(' ')
			}
			sentence.WriteString(w)
			if tk.end != 0 {
				out.sentences = append(out.sentences, sentence.String())
				sentence.Reset()
			}
		}
		if sentence.Len() > 0 { // never happens: utterances end with a sentence
			out.sentences = append(out.sentences, sentence.String())
			sentence.Reset()
		}
		cu := client.Utterance{
			Start:      draftSec(u.startMs),
			End:        draftSec(u.endMs),
			Confidence: roundTo3(confSum / float64(max(len(u.toks), 1))),
			Channel:    u.channel,
			Words:      words,
			Text:       text.String(),
			Language:   lang,
		}
		if o.diarize {
			sp := u.speaker
			cu.Speaker = &sp
		}
		if full.Len() > 0 {
			full.WriteByte(' ')
		}
		full.WriteString(cu.Text)
		out.utts = append(out.utts, cu)
	}
	if out.sentences == nil {
		out.sentences = []string{}
	}
	out.full = full.String()
	return out
}

// translate renders one translation per target language, utterance by
// utterance with the source timings. Targets with a bank column get a
// word-by-word translation of the bank words (names, redacted text and
// custom words are kept as they are); other targets keep the source words
// behind a "[xx]" marker.
func translateResult(utts []uttDraft, o resultOptions) *client.AddonResult[[]client.TranslationItem] {
	items := make([]client.TranslationItem, 0, len(o.targets))
	for _, lang := range o.targets {
		tr := &translationTarget{lang: lang, col: bankColumn(lang)}
		r := renderTranscript(utts, tr, o)
		item := client.TranslationItem{
			FullTranscript: r.full,
			Languages:      []string{lang},
			Utterances:     r.utts,
		}
		if o.sentences {
			item.Sentences = []client.AddonResult[[]string]{addonResult(&o, 0.2, len(r.sentences) == 0, r.sentences)}
		}
		if o.subtitles {
			item.Subtitles = renderSubtitles(r.segments(), o.subFormats, o.captions, o.durMs)
		}
		items = append(items, item)
	}
	a := addonResult(&o, 2.0, len(items) == 0, items)
	return &a
}

// namedEntities lists the entity mentions of the transcript with the times
// of their words. Their text is as it appears in the transcript, so redacted
// mentions stay redacted.
func namedEntities(utts []uttDraft) []client.NamedEntity {
	ents := []client.NamedEntity{}
	for ui := range utts {
		toks := utts[ui].toks
		for i := 0; i < len(toks); {
			if toks[i].entity == "" {
				i++
				continue
			}
			j := i
			parts := []string{toks[i].text}
			for j+1 < len(toks) && toks[j+1].span == toks[i].span && toks[j+1].entity != "" && toks[j].end == 0 {
				j++
				parts = append(parts, toks[j].text)
			}
			ents = append(ents, client.NamedEntity{
				EntityType: toks[i].entity,
				Text:       strings.Join(parts, " "),
				Start:      draftSec(toks[i].startMs),
				End:        draftSec(toks[j].endMs),
			})
			i = j + 1
		}
	}
	return ents
}
