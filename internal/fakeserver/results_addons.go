package fakeserver

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// transcriptStats is what the text add-ons (summary, sentiment, audio to LLM)
// say about a transcript. They are written in English whatever the language
// of the transcript, and quote the transcript as it was renderedTranscript (so redacted
// PII stays redacted).
type transcriptStats struct {
	words     int
	positive  int
	negative  int
	topics    []string // the most frequent bank nouns, in English
	first     string   // first and last sentence of the transcript
	last      string
	sentences int
	speakers  int // distinct speakers when diarizing, else 0
	languages []string
	duration  float64
}

func summarise(utts []uttDraft, src renderedTranscript, o resultOptions) transcriptStats {
	st := transcriptStats{duration: o.duration, sentences: len(src.sentences), languages: src.languages}
	counts := make(map[int16]int)
	speakers := map[int64]bool{}
	for ui := range utts {
		speakers[utts[ui].speaker] = true
		for ti := range utts[ui].toks {
			tk := &utts[ui].toks[ti]
			st.words++
			if tk.bank < 0 {
				continue
			}
			switch wordBank[tk.bank].sent {
			case 1:
				st.positive++
			case -1:
				st.negative++
			}
			if wordBank[tk.bank].pos == posNoun {
				counts[tk.bank]++
			}
		}
	}
	if o.diarize {
		st.speakers = len(speakers)
	}
	nouns := make([]int16, 0, len(counts))
	for b := range counts {
		nouns = append(nouns, b)
	}
	sort.Slice(nouns, func(i, j int) bool {
		if counts[nouns[i]] != counts[nouns[j]] {
			return counts[nouns[i]] > counts[nouns[j]]
		}
		return nouns[i] < nouns[j]
	})
	for i := 0; i < len(nouns) && i < 3; i++ {
		st.topics = append(st.topics, wordBank[nouns[i]].w[0])
	}
	if n := len(src.sentences); n > 0 {
		st.first, st.last = src.sentences[0], src.sentences[n-1]
	}
	return st
}

// sentimentScore is the transcript's sentiment, positive, negative or
// neutral, and its score, from the balance of positive and negative bank
// words.
func (st transcriptStats) sentimentScore() (string, float64) {
	total := st.positive + st.negative
	if total == 0 {
		return "neutral", 0
	}
	score := float64(st.positive-st.negative) / float64(total)
	switch {
	case score > 0.15:
		return "positive", roundTo3(score)
	case score < -0.15:
		return "negative", roundTo3(score)
	}
	return "neutral", roundTo3(score)
}

// sentimentJSON is the sentiment_analysis result: the spec types it as a
// string, so it is a compact JSON object, for example
// {"sentiment":"positive","score":0.25,"positive_words":10,"negative_words":6}.
func (st transcriptStats) sentimentJSON() string {
	label, score := st.sentimentScore()
	b, _ := json.Marshal(struct {
		Sentiment     string  `json:"sentiment"`
		Score         float64 `json:"score"`
		PositiveWords int     `json:"positive_words"`
		NegativeWords int     `json:"negative_words"`
	}{label, score, st.positive, st.negative})
	return string(b)
}

func (st transcriptStats) topicList() string {
	parts := make([]string, len(st.topics))
	for i, t := range st.topics {
		parts[i] = "the " + t
	}
	switch len(parts) {
	case 0:
		return "nothing in particular"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func (st transcriptStats) languageList() string {
	names := make([]string, len(st.languages))
	for i, l := range st.languages {
		if n, ok := bankLangNames[l]; ok {
			names[i] = n
		} else {
			names[i] = "language " + l
		}
	}
	return strings.Join(names, ", ")
}

// spokenDuration writes seconds as "45 s", "2 min 5 s" or "1 h 0 min".
func spokenDuration(sec float64) string {
	s := int64(math.Round(min(sec, 1<<62))) // a larger float does not convert
	switch {
	case s >= 3600:
		return fmt.Sprintf("%d h %d min", s/3600, s%3600/60)
	case s >= 60:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d s", s)
}

// summary renders the summarization result in the requested shape:
// general is one paragraph, bullet_points is lines starting with "- ",
// concise is one short sentence. An empty transcript has an empty summary.
func (st transcriptStats) summary(kind string) string {
	if st.words == 0 {
		return ""
	}
	label, _ := st.sentimentScore()
	dur := spokenDuration(st.duration)
	switch kind {
	case "bullet_points":
		lines := []string{
			fmt.Sprintf("- Length: %s, %d sentence%s in %s", dur, st.sentences, pluralS(st.sentences), st.languageList()),
		}
		if st.speakers > 0 {
			lines = append(lines, fmt.Sprintf("- Speakers: %d", st.speakers))
		}
		lines = append(lines,
			"- Main topics: "+strings.Join(st.topics, ", "),
			"- Opening: "+st.first,
			"- Closing: "+st.last,
			"- Tone: "+label,
		)
		return strings.Join(lines, "\n")
	case "concise":
		return fmt.Sprintf("A %s conversation about %s.", dur, st.topicList())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "This %s recording in %s", dur, st.languageList())
	if st.speakers > 0 {
		fmt.Fprintf(&b, " features %d speaker%s and", st.speakers, pluralS(st.speakers))
	}
	fmt.Fprintf(&b, " mainly discusses %s. It opens with %q and closes with %q. The overall tone is %s.",
		st.topicList(), st.first, st.last, label)
	return b.String()
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// answer is the audio-to-LLM response to a prompt: it quotes the prompt and
// answers from the transcript's topics.
func (st transcriptStats) answer(prompt string) string {
	if st.words == 0 {
		return fmt.Sprintf("Answer to %q: the recording contains no speech.", prompt)
	}
	return fmt.Sprintf("Answer to %q: in this %s recording the speakers talk about %s; it opens with %q.",
		prompt, spokenDuration(st.duration), st.topicList(), st.first)
}
