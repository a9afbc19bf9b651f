package fakeserver

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// resultRand returns a generator seeded from the job seed and a purpose, so each
// concern (text, speakers, ...) draws from its own stream and turning one
// option on or off does not reshuffle the others.
func resultRand(seed, purpose string) *rand.Rand {
	sum := sha256.Sum256([]byte(purpose + "\x00" + seed))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[0:8]), binary.LittleEndian.Uint64(sum[8:16])))
}

// draftToken is one word of the transcript being drafted. Times are integer
// milliseconds so that every bound holds exactly once converted to seconds.
type draftToken struct {
	text      string // the word without trailing punctuation; never empty, no spaces
	startMs   int64
	endMs     int64
	conf      float64
	bank      int16  // index into wordBank, or -1 for a word that is not from the bank
	entity    string // entity type of a special entity, "" otherwise
	span      int32  // groups the words of one entity mention; 0 for none
	comma     bool   // followed by a comma when punctuation is enhanced
	end       byte   // sentence-ending punctuation, 0 inside a sentence
	sentStart bool   // first word of a sentence
	sub       []string
}

// uttDraft is one utterance being drafted.
type uttDraft struct {
	startMs, endMs int64
	lang           string
	toks           []draftToken
	speaker        int64
	channel        int64
}

// langPlan says which language each utterance is in.
type langPlan struct {
	fixed     string   // used for every utterance when choices is empty
	choices   []string // code switching: a language is picked per utterance
	detectOne []string // several languages without code switching: picked once
}

// plannedWord is a word of a sentence before it is timed.
type plannedWord struct {
	text   string
	bank   int16
	entity string
	span   int32
	comma  bool
}

type drafter struct {
	r        *rand.Rand
	sentence int   // sentences drafted so far
	entities int   // entity mentions drafted so far
	spans    int32 // last span id
}

// plan drafts the words of the next sentence in the language of column col.
func (d *drafter) plan(col int) []plannedWord {
	var tpl string
	if d.sentence%3 == 1 || d.sentence == 2 || d.sentence == 3 {
		tpl = entityTemplates[d.r.IntN(len(entityTemplates))]
	} else {
		tpl = sentenceTemplates[d.r.IntN(len(sentenceTemplates))]
	}
	d.sentence++
	out := make([]plannedWord, 0, len(tpl)+2)
	for i := 0; i < len(tpl); i++ {
		pos := tpl[i]
		if (pos == posConj || (pos == posPrep && i >= 4)) && len(out) > 0 {
			out[len(out)-1].comma = true
		}
		if pos == posEnt {
			se := specialEntities[d.entities%len(specialEntities)]
			d.entities++
			d.spans++
			for _, w := range strings.Fields(se.values[d.r.IntN(len(se.values))]) {
				out = append(out, plannedWord{text: w, bank: -1, entity: se.entityType, span: d.spans})
			}
			continue
		}
		idx := bankByPOS[pos]
		b := idx[d.r.IntN(len(idx))]
		out = append(out, plannedWord{text: wordBank[b].w[col], bank: b, comma: i == 0 && pos == posAdv})
	}
	return out
}

// wordDurMs is the spoken length of a word: longer words take longer.
func wordDurMs(r *rand.Rand, text string) int64 {
	d := int64(160 + 40*utf8.RuneCountInString(text))
	d = d * int64(85+r.IntN(30)) / 100
	return min(d, 900)
}

// draftUtterances lays consecutive utterances of a few seconds each over
// [0, durMs], each made of whole sentences. Only a recording too short for
// one whole sentence gets a cut one (still ending with punctuation).
func draftUtterances(r *rand.Rand, durMs int64, lp langPlan) []uttDraft {
	if durMs <= 0 {
		return []uttDraft{}
	}
	if len(lp.detectOne) > 0 {
		lp.fixed = lp.detectOne[r.IntN(len(lp.detectOne))]
	}
	d := &drafter{r: r}
	utts := make([]uttDraft, 0, durMs/3000+1)
	t := min(int64(100+r.IntN(400)), durMs/10)
	words := 0
	stop := false
	for !stop && t < durMs {
		lang := lp.fixed
		if len(lp.choices) > 0 {
			lang = lp.choices[r.IntN(len(lp.choices))]
		}
		col := max(bankColumn(lang), 0)
		u := uttDraft{startMs: t, lang: lang, toks: make([]draftToken, 0, 16)}
		target := int64(2000 + r.IntN(4000))
		for {
			sent := d.plan(col)
			first := len(u.toks)
			for i, p := range sent {
				wd := wordDurMs(r, p.text)
				if t+wd > durMs {
					if words > 0 || durMs-t < 1 {
						stop = true
						break
					}
					wd = durMs - t // the only word of a very short recording
				}
				u.toks = append(u.toks, draftToken{
					text: p.text, startMs: t, endMs: t + wd,
					conf: float64(720+r.IntN(271)) / 1000,
					bank: p.bank, entity: p.entity, span: p.span,
					comma: p.comma, sentStart: i == 0,
				})
				words++
				t += wd + int64(30+r.IntN(90))
			}
			if stop && words > len(u.toks)-first {
				// A sentence cut short by the end of the audio is dropped
				// unless it is all the recording holds.
				words -= len(u.toks) - first
				u.toks = u.toks[:first]
			}
			if len(u.toks) > first {
				last := &u.toks[len(u.toks)-1]
				last.comma = false
				last.end = '.'
				if r.IntN(100) < 15 {
					last.end = '?'
				}
			}
			if stop || len(u.toks) == 0 || t-u.startMs >= target || t >= durMs {
				break
			}
			t += int64(150 + r.IntN(200))
		}
		if len(u.toks) == 0 {
			break
		}
		u.endMs = u.toks[len(u.toks)-1].endMs
		utts = append(utts, u)
		t += int64(300 + r.IntN(700))
	}
	return utts
}

// applyInsertions substitutes the given word groups (custom vocabulary values
// and spellings to be corrected) for bank nouns spread evenly over the
// transcript: every group at least once when there is room, and about one
// noun in twenty overall. The substitute words share the replaced noun's time.
func applyInsertions(utts []uttDraft, items [][]string) {
	if len(items) == 0 {
		return
	}
	type slot struct{ u, i int32 }
	var slots []slot
	for ui := range utts {
		for ti := range utts[ui].toks {
			tk := &utts[ui].toks[ti]
			if tk.bank >= 0 && wordBank[tk.bank].pos == posNoun && !tk.sentStart {
				slots = append(slots, slot{int32(ui), int32(ti)})
			}
		}
	}
	n := min(len(slots), max(len(items), len(slots)/20))
	if n == 0 {
		return
	}
	touched := make(map[int32]bool)
	for j := 0; j < n; j++ {
		s := slots[(2*j+1)*len(slots)/(2*n)]
		utts[s.u].toks[s.i].sub = items[j%len(items)]
		touched[s.u] = true
	}
	for ui := range touched {
		u := &utts[ui]
		out := make([]draftToken, 0, len(u.toks)+4)
		for _, tk := range u.toks {
			if tk.sub == nil {
				out = append(out, tk)
				continue
			}
			out = appendSpread(out, tk.sub, tk, tk)
		}
		u.toks = out
	}
}

// appendSpread appends words that take the place of the tokens first..last:
// they share [first.startMs, last.endMs] evenly, the first inherits the
// sentence start and the last the trailing punctuation.
func appendSpread(out []draftToken, words []string, first, last draftToken) []draftToken {
	k := int64(len(words))
	span := last.endMs - first.startMs
	for i, w := range words {
		nt := draftToken{
			text:    w,
			startMs: first.startMs + span*int64(i)/k,
			endMs:   first.startMs + span*int64(i+1)/k,
			conf:    first.conf,
			bank:    -1,
		}
		if i == 0 {
			nt.sentStart = first.sentStart
		}
		if i == len(words)-1 {
			nt.end, nt.comma = last.end, last.comma
		}
		out = append(out, nt)
	}
	return out
}

// spellRule replaces one spelling (lower-cased words) by its target spelling.
type spellRule struct {
	from []string
	to   []string
}

// spellingItems lists the spellings to be replaced, in a stable order (keys
// sorted), as word groups to insert into the transcript.
func spellingItems(dict map[string][]string) [][]string {
	var items [][]string
	for _, key := range sortedSpellingKeys(dict) {
		if len(strings.Fields(key)) == 0 {
			continue
		}
		for _, v := range dict[key] {
			if f := strings.Fields(v); len(f) > 0 {
				items = append(items, f)
			}
		}
	}
	return items
}

func sortedSpellingKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// applySpelling replaces every occurrence of a spelling listed in the
// dictionary (matched word by word, case-insensitively, within a sentence) by
// its key. When spellings overlap the longest wins, then the first key.
func applySpelling(utts []uttDraft, dict map[string][]string) {
	index := make(map[string][]spellRule)
	for _, key := range sortedSpellingKeys(dict) {
		to := strings.Fields(key)
		if len(to) == 0 {
			continue
		}
		for _, v := range dict[key] {
			from := strings.Fields(strings.ToLower(v))
			if len(from) == 0 {
				continue
			}
			index[from[0]] = append(index[from[0]], spellRule{from: from, to: to})
		}
	}
	if len(index) == 0 {
		return
	}
	for _, rules := range index {
		sort.SliceStable(rules, func(a, b int) bool { return len(rules[a].from) > len(rules[b].from) })
	}
	for ui := range utts {
		u := &utts[ui]
		lower := make([]string, len(u.toks))
		hit := false
		for i := range u.toks {
			lower[i] = strings.ToLower(u.toks[i].text)
			if _, ok := index[lower[i]]; ok {
				hit = true
			}
		}
		if !hit {
			continue
		}
		out := make([]draftToken, 0, len(u.toks))
		for i := 0; i < len(u.toks); {
			n := matchSpelling(u.toks, lower, i, index[lower[i]])
			if n.from == nil {
				out = append(out, u.toks[i])
				i++
				continue
			}
			out = appendSpread(out, n.to, u.toks[i], u.toks[i+len(n.from)-1])
			i += len(n.from)
		}
		u.toks = out
	}
}

func matchSpelling(toks []draftToken, lower []string, i int, rules []spellRule) spellRule {
next:
	for _, r := range rules {
		if i+len(r.from) > len(toks) {
			continue
		}
		for k, w := range r.from {
			if lower[i+k] != w || (k < len(r.from)-1 && toks[i+k].end != 0) {
				continue next
			}
		}
		return r
	}
	return spellRule{}
}

// piiSelected reports whether an entity type is redacted under the configured
// entity types (none configured: every type).
func piiSelected(entityType string, configured []string) bool {
	if len(configured) == 0 {
		return true
	}
	for _, c := range configured {
		c = strings.ToUpper(strings.TrimSpace(c))
		if piiGroupTypes[c] {
			return true
		}
		for _, s := range piiSelectors[entityType] {
			if s == c {
				return true
			}
		}
	}
	return false
}

// applyRedaction redacts the selected entity mentions. MARKER replaces a
// whole mention by "[ENTITY_TYPE]" (one word spanning the mention's time);
// MASK replaces every character of each of its words by "*". Trailing
// punctuation is kept in both modes.
func applyRedaction(utts []uttDraft, configured []string, mask bool) {
	sel := make(map[string]bool)
	for _, se := range specialEntities {
		sel[se.entityType] = piiSelected(se.entityType, configured)
	}
	for ui := range utts {
		u := &utts[ui]
		hit := false
		for i := range u.toks {
			if u.toks[i].entity != "" && sel[u.toks[i].entity] {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		out := make([]draftToken, 0, len(u.toks))
		for i := 0; i < len(u.toks); {
			tk := u.toks[i]
			if tk.entity == "" || !sel[tk.entity] {
				out = append(out, tk)
				i++
				continue
			}
			if mask {
				tk.text = strings.Repeat("*", utf8.RuneCountInString(tk.text))
				out = append(out, tk)
				i++
				continue
			}
			j := i
			for j+1 < len(u.toks) && u.toks[j+1].span == tk.span && u.toks[j].end == 0 {
				j++
			}
			last := u.toks[j]
			tk.text = "[" + tk.entity + "]"
			tk.endMs = last.endMs
			tk.end, tk.comma = last.end, last.comma
			out = append(out, tk)
			i = j + 1
		}
		u.toks = out
	}
}

// assignSpeakers gives every utterance a speaker (when diarizing) and a
// channel. The first k utterances introduce speakers 0..k-1, so all k
// speakers are heard whenever there are at least k utterances; after that the
// turn passes to another speaker at random. The channel is the audio's, the
// same whether or not the job diarizes: speech is on every channel in turn.
func assignSpeakers(utts []uttDraft, r *rand.Rand, diarize bool, k, channels int64) {
	prev := int64(-1)
	for i := range utts {
		sp := int64(0)
		switch {
		case int64(i) < k:
			sp = int64(i)
		case k > 1:
			sp = r.Int64N(k - 1)
			if sp >= prev {
				sp++
			}
		}
		prev = sp
		utts[i].speaker = -1
		if diarize {
			utts[i].speaker = sp
		}
		utts[i].channel = int64(i) % channels
	}
}

// capitaliseWord upper-cases the first letter of s.
func capitaliseWord(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
