package fakeserver

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// parsedCaption is a caption read back from renderedTranscript SRT or VTT.
type parsedCaption struct {
	start, end int64 // milliseconds
	rows       []string
}

var subTimingLine = regexp.MustCompile(`^(\d{2}):(\d{2}):(\d{2})([,.])(\d{3}) --> (\d{2}):(\d{2}):(\d{2})([,.])(\d{3})$`)

func subParseTiming(t *testing.T, line string, sep string) (int64, int64) {
	t.Helper()
	m := subTimingLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("bad timing line %q", line)
	}
	if m[4] != sep || m[9] != sep {
		t.Fatalf("timing line %q: want %q before the milliseconds", line, sep)
	}
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	start := ((num(m[1])*60+num(m[2]))*60+num(m[3]))*1000 + num(m[5])
	end := ((num(m[6])*60+num(m[7]))*60+num(m[8]))*1000 + num(m[10])
	return start, end
}

// subParseCues reads blank-line separated cues; numbered cues (SRT) must count from 1.
func subParseCues(t *testing.T, body string, numbered bool, sep string) []parsedCaption {
	t.Helper()
	if body == "" {
		return nil
	}
	if !strings.HasSuffix(body, "\n\n") {
		t.Fatalf("subtitles must end with a blank line: %q", subTail(body))
	}
	var out []parsedCaption
	for i, block := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		lines := strings.Split(block, "\n")
		if numbered {
			if lines[0] != strconv.Itoa(i+1) {
				t.Fatalf("caption %d numbered %q", i+1, lines[0])
			}
			lines = lines[1:]
		}
		if len(lines) < 2 {
			t.Fatalf("caption %d has no text: %q", i+1, block)
		}
		start, end := subParseTiming(t, lines[0], sep)
		for _, r := range lines[1:] {
			if strings.TrimSpace(r) == "" {
				t.Fatalf("caption %d has an empty row: %q", i+1, block)
			}
		}
		out = append(out, parsedCaption{start: start, end: end, rows: lines[1:]})
	}
	return out
}

func parseSRT(t *testing.T, s string) []parsedCaption {
	t.Helper()
	return subParseCues(t, s, true, ",")
}

func parseVTT(t *testing.T, s string) []parsedCaption {
	t.Helper()
	if !strings.HasPrefix(s, "WEBVTT\n\n") {
		t.Fatalf("VTT must open with the WEBVTT header: %q", s[:min(len(s), 20)])
	}
	return subParseCues(t, strings.TrimPrefix(s, "WEBVTT\n\n"), false, ".")
}

func subTail(s string) string { return s[max(0, len(s)-40):] }

// captionLimits are the bounds a test expects, computed independently of subtitleSettings.
type captionLimits struct {
	maxChars   int // 0: unlimited
	maxRows    int
	maxDur     int64
	minDur     int64
	compliance bool
}

// checkCaptions asserts every bound on parsed captions and that they hold
// exactly the given words, in order.
func checkCaptions(t *testing.T, caps []parsedCaption, lim captionLimits, words []string, audioEnd int64) {
	t.Helper()
	var got []string
	for i, c := range caps {
		where := fmt.Sprintf("caption %d [%d,%d] %q", i+1, c.start, c.end, c.rows)
		if c.start >= c.end {
			t.Fatalf("%s: start must precede end", where)
		}
		if c.start < 0 || c.end > audioEnd {
			t.Fatalf("%s: outside the audio [0,%d]", where, audioEnd)
		}
		if i > 0 && c.start < caps[i-1].end {
			t.Fatalf("%s: overlaps the previous caption ending at %d", where, caps[i-1].end)
		}
		if c.end-c.start > lim.maxDur {
			t.Fatalf("%s: longer than %d ms", where, lim.maxDur)
		}
		atNext := i+1 < len(caps) && c.end == caps[i+1].start
		if c.end-c.start < min(lim.minDur, lim.maxDur) && !atNext && c.end != audioEnd {
			t.Fatalf("%s: shorter than %d ms without reaching the next caption or the audio end", where, lim.minDur)
		}
		if len(c.rows) < 1 || len(c.rows) > lim.maxRows {
			t.Fatalf("%s: %d rows, want 1..%d", where, len(c.rows), lim.maxRows)
		}
		var capWords []string
		for _, r := range c.rows {
			f := strings.Fields(r)
			if lim.maxChars > 0 && utf8.RuneCountInString(r) > lim.maxChars && len(f) > 1 {
				t.Fatalf("%s: row %q longer than %d characters", where, r, lim.maxChars)
			}
			capWords = append(capWords, f...)
		}
		if lim.compliance {
			for _, w := range capWords[:len(capWords)-1] {
				if endsSentence(w) {
					t.Fatalf("%s: compliance caption runs on past a sentence end", where)
				}
			}
		}
		got = append(got, capWords...)
	}
	if !reflect.DeepEqual(got, words) && (len(got) != 0 || len(words) != 0) {
		t.Fatalf("captions hold %d words, want the %d words of the transcript in order", len(got), len(words))
	}
}

func captionWords(segs [][]client.Word) []string {
	var out []string
	for _, s := range segs {
		for _, w := range s {
			out = append(out, strings.Fields(w.Word)...)
		}
	}
	return out
}

// syntheticSegments are words of awkward sizes: one-letter words, very long
// words, sentence ends, tight and loose gaps.
func syntheticSegments() ([][]client.Word, int64) {
	texts := []string{"I", "am", "extraordinarily", "pneumonoultramicroscopic.", "Yes.", "ok", "a", "b", "counterrevolutionaries", "end."}
	var segs [][]client.Word
	t := 0.1
	for s := 0; s < 12; s++ {
		var seg []client.Word
		for i := 0; i < 3+s%7; i++ {
			w := texts[(s*7+i)%len(texts)]
			d := 0.05 + 0.08*float64(len(w)%9)
			seg = append(seg, client.Word{Word: w, Start: roundTo3(t), End: roundTo3(t + d), Confidence: 0.9})
			t += d + 0.02*float64(i%3)
		}
		segs = append(segs, seg)
		t += 0.3 + 2.5*float64(s%3)
	}
	return segs, int64((t + 1) * 1000)
}

func TestSubtitleRenderSRTAndVTT(t *testing.T) {
	caps := []caption{
		{startMs: 1000, endMs: 3500, rows: []string{"Hello there,", "general."}},
		{startMs: 3661001, endMs: 3662999, rows: []string{"Bye."}},
	}
	wantSRT := "1\n00:00:01,000 --> 00:00:03,500\nHello there,\ngeneral.\n\n2\n01:01:01,001 --> 01:01:02,999\nBye.\n\n"
	wantVTT := "WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello there,\ngeneral.\n\n01:01:01.001 --> 01:01:02.999\nBye.\n\n"
	if got := renderSRT(caps); got != wantSRT {
		t.Errorf("renderSRT:\n%q\nwant\n%q", got, wantSRT)
	}
	if got := renderVTT(caps); got != wantVTT {
		t.Errorf("renderVTT:\n%q\nwant\n%q", got, wantVTT)
	}
	// Hours keep counting past a day, at least two digits wide.
	if got := string(appendTimestamp(nil, 123*3600000+4*60000+5678, ',')); got != "123:04:05,678" {
		t.Errorf("appendTimestamp(123 h 4 min 5.678 s) = %q", got)
	}
	if got := renderSRT(nil); got != "" {
		t.Errorf("renderSRT(nil) = %q", got)
	}
	if got := renderVTT(nil); got != "WEBVTT\n\n" {
		t.Errorf("renderVTT(nil) = %q", got)
	}
	back := parseSRT(t, wantSRT)
	if len(back) != 2 || back[1].start != 3661001 || back[1].end != 3662999 || back[0].rows[1] != "general." {
		t.Errorf("parseSRT round trip = %+v", back)
	}
}

func TestSubtitleSettings(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	f64 := func(v float64) *float64 { return &v }
	str := func(v string) *string { return &v }
	tests := []struct {
		name    string
		cfg     *client.SubtitlesConfig
		formats []string
		want    captionConfig
	}{
		{"nil config", nil, []string{"srt"}, captionConfig{maxRows: 2, maxDurMs: 5000}},
		{"empty config", &client.SubtitlesConfig{}, []string{"srt"}, captionConfig{maxRows: 2, maxDurMs: 5000}},
		{"formats kept in order, repeats and unknown dropped",
			&client.SubtitlesConfig{Formats: []string{"VTT", "srt", "vtt", "ass"}}, []string{"vtt", "srt"},
			captionConfig{maxRows: 2, maxDurMs: 5000}},
		{"every bound set",
			&client.SubtitlesConfig{MaximumCharactersPerRow: i64(30), MaximumRowsPerCaption: i64(4), MaximumDuration: f64(12.5), MinimumDuration: f64(0.75)},
			[]string{"srt"}, captionConfig{maxChars: 30, maxRows: 4, maxDurMs: 12500, minDurMs: 750}},
		{"out-of-range values are clamped",
			&client.SubtitlesConfig{MaximumCharactersPerRow: i64(0), MaximumRowsPerCaption: i64(9), MaximumDuration: f64(90), MinimumDuration: f64(-1)},
			[]string{"srt"}, captionConfig{maxChars: 1, maxRows: 5, maxDurMs: 30000}},
		{"compliance tightens defaults",
			&client.SubtitlesConfig{Style: str("compliance")}, []string{"srt"},
			captionConfig{maxChars: 42, maxRows: 2, maxDurMs: 5000, minDurMs: 1000, sentenceBreak: true}},
		{"compliance caps loose values",
			&client.SubtitlesConfig{Style: str("compliance"), MaximumCharactersPerRow: i64(80), MaximumRowsPerCaption: i64(5), MaximumDuration: f64(30), MinimumDuration: f64(0)},
			[]string{"srt"}, captionConfig{maxChars: 42, maxRows: 2, maxDurMs: 7000, minDurMs: 1000, sentenceBreak: true}},
		{"compliance keeps tighter values",
			&client.SubtitlesConfig{Style: str("compliance"), MaximumCharactersPerRow: i64(20), MaximumRowsPerCaption: i64(1), MaximumDuration: f64(3), MinimumDuration: f64(2)},
			[]string{"srt"}, captionConfig{maxChars: 20, maxRows: 1, maxDurMs: 3000, minDurMs: 2000, sentenceBreak: true}},
		{"default style", &client.SubtitlesConfig{Style: str("default")}, []string{"srt"}, captionConfig{maxRows: 2, maxDurMs: 5000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			formats, cc := subtitleSettings(tt.cfg)
			if !reflect.DeepEqual(formats, tt.formats) {
				t.Errorf("formats = %v, want %v", formats, tt.formats)
			}
			if cc != tt.want {
				t.Errorf("config = %+v, want %+v", cc, tt.want)
			}
		})
	}
}

// TestCaptionBoundsGrid renders a grid of configurations, edges included,
// parses the SRT and VTT back and checks every caption against the bounds.
func TestCaptionBoundsGrid(t *testing.T) {
	gen := generateResult(&client.InitTranscriptionRequest{PunctuationEnhanced: resPtr(true)}, Audio{Duration: 300, Channels: 1}, "grid")
	genSegs := make([][]client.Word, len(gen.Transcription.Utterances))
	for i, u := range gen.Transcription.Utterances {
		genSegs[i] = u.Words
	}
	synth, synthEnd := syntheticSegments()
	sources := []struct {
		name string
		segs [][]client.Word
		end  int64
	}{
		{"generated", genSegs, 300000},
		{"synthetic", synth, synthEnd},
	}
	charsGrid := []int64{0, 1, 7, 16, 42, 200} // 0: unset
	rowsGrid := []int64{1, 2, 5}
	maxGrid := []float64{1, 2.5, 5, 30}
	minGrid := []float64{0, 1.5, 40}
	cases := 0
	for _, src := range sources {
		words := captionWords(src.segs)
		for _, style := range []string{"default", "compliance"} {
			for _, chars := range charsGrid {
				for _, rows := range rowsGrid {
					for _, maxD := range maxGrid {
						for _, minD := range minGrid {
							cfg := &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}, MaximumRowsPerCaption: resPtr(rows),
								MaximumDuration: resPtr(maxD), MinimumDuration: resPtr(minD), Style: resPtr(style)}
							lim := captionLimits{maxRows: int(rows), maxDur: int64(maxD * 1000), minDur: int64(minD * 1000)}
							if chars > 0 {
								cfg.MaximumCharactersPerRow = resPtr(chars)
								lim.maxChars = int(chars)
							}
							if style == "compliance" {
								lim.compliance = true
								if lim.maxChars == 0 || lim.maxChars > 42 {
									lim.maxChars = 42
								}
								lim.maxRows = min(lim.maxRows, 2)
								lim.maxDur = min(lim.maxDur, 7000)
								lim.minDur = max(lim.minDur, 1000)
							}
							name := fmt.Sprintf("%s/%s/chars=%d/rows=%d/max=%v/min=%v", src.name, style, chars, rows, maxD, minD)
							formats, cc := subtitleSettings(cfg)
							subs := renderSubtitles(src.segs, formats, cc, src.end)
							if len(subs) != 2 || subs[0].Format != "srt" || subs[1].Format != "vtt" {
								t.Fatalf("%s: formats %+v", name, subs)
							}
							t.Run(name, func(t *testing.T) {
								srt := parseSRT(t, subs[0].Subtitles)
								vtt := parseVTT(t, subs[1].Subtitles)
								if !reflect.DeepEqual(srt, vtt) {
									t.Fatal("SRT and VTT hold different captions")
								}
								if len(srt) == 0 {
									t.Fatal("no captions")
								}
								checkCaptions(t, srt, lim, words, src.end)
							})
							cases++
						}
					}
				}
			}
		}
	}
	if cases != 2*2*len(charsGrid)*len(rowsGrid)*len(maxGrid)*len(minGrid) {
		t.Fatalf("ran %d cases", cases)
	}
}

func timedWords(start float64, texts ...string) []client.Word {
	out := make([]client.Word, len(texts))
	for i, w := range texts {
		out[i] = client.Word{Word: w, Start: roundTo3(start + 0.5*float64(i)), End: roundTo3(start + 0.5*float64(i) + 0.4)}
	}
	return out
}

func TestCaptionLongWordStandsAlone(t *testing.T) {
	segs := [][]client.Word{timedWords(0, "a", "extraordinary", "b", "c", "d")}
	caps := buildCaptions(segs, captionConfig{maxChars: 3, maxRows: 5, maxDurMs: 30000}, 10000)
	want := []caption{{startMs: 0, endMs: 2400, rows: []string{"a", "extraordinary", "b c", "d"}}}
	if !reflect.DeepEqual(caps, want) {
		t.Fatalf("captions = %+v, want %+v", caps, want)
	}
	caps = buildCaptions(segs, captionConfig{maxChars: 1, maxRows: 1, maxDurMs: 30000}, 10000)
	if len(caps) != 5 {
		t.Fatalf("one character, one row: %d captions, want one per word: %+v", len(caps), caps)
	}
}

func TestCaptionSegmentsNeverShareACaption(t *testing.T) {
	segs := [][]client.Word{timedWords(0, "one", "two"), timedWords(1.2, "three")}
	caps := buildCaptions(segs, captionConfig{maxRows: 2, maxDurMs: 30000}, 5000)
	if len(caps) != 2 || caps[0].rows[0] != "one two" || caps[1].rows[0] != "three" {
		t.Fatalf("captions = %+v", caps)
	}
}

func TestCaptionMaxDurationSplits(t *testing.T) {
	var texts []string
	for i := 0; i < 20; i++ {
		texts = append(texts, "w"+strconv.Itoa(i))
	}
	caps := buildCaptions([][]client.Word{timedWords(0, texts...)}, captionConfig{maxRows: 5, maxDurMs: 1000}, 20000)
	if len(caps) != 10 {
		t.Fatalf("%d captions, want 10 of two words: %+v", len(caps), caps)
	}
	for _, c := range caps {
		if c.endMs-c.startMs > 1000 || c.rows[0] == "" || len(strings.Fields(c.rows[0])) != 2 {
			t.Fatalf("caption %+v", c)
		}
	}
	// A single word longer than the maximum duration is cut to it.
	drawn := [][]client.Word{{{Word: "Sooo", Start: 1, End: 4.5}, {Word: "long.", Start: 4.6, End: 4.9}}}
	caps = buildCaptions(drawn, captionConfig{maxRows: 2, maxDurMs: 1000}, 6000)
	want := []caption{{startMs: 1000, endMs: 2000, rows: []string{"Sooo"}}, {startMs: 4600, endMs: 4900, rows: []string{"long."}}}
	if !reflect.DeepEqual(caps, want) {
		t.Fatalf("captions = %+v, want %+v", caps, want)
	}
}

// TestCaptionsNeverOverlapNorPassTheAudioEnd pins buildCaptions' last
// promises for any words it is given: a caption starts no earlier than the
// previous one ends, and none runs past the audio end, even when the words
// do (the generator's words never do, so only this test sees it).
func TestCaptionsNeverOverlapNorPassTheAudioEnd(t *testing.T) {
	segs := [][]client.Word{
		{{Word: "one", Start: 0, End: 1.5}},
		{{Word: "two", Start: 1, End: 2}},
		{{Word: "three.", Start: 2.5, End: 3.5}},
	}
	caps := buildCaptions(segs, captionConfig{maxRows: 2, maxDurMs: 5000}, 3000)
	want := []caption{
		{startMs: 0, endMs: 1500, rows: []string{"one"}},
		{startMs: 1500, endMs: 2000, rows: []string{"two"}},
		{startMs: 2500, endMs: 3000, rows: []string{"three."}},
	}
	if !reflect.DeepEqual(caps, want) {
		t.Fatalf("captions = %+v, want %+v", caps, want)
	}
}

func TestCaptionMinimumDuration(t *testing.T) {
	segs := [][]client.Word{
		{{Word: "one.", Start: 0, End: 0.2}},
		{{Word: "two.", Start: 3, End: 3.2}},
		{{Word: "three.", Start: 3.5, End: 3.7}},
	}
	tests := []struct {
		name string
		cc   captionConfig
		want [][2]int64
	}{
		{"no minimum", captionConfig{maxRows: 2, maxDurMs: 5000}, [][2]int64{{0, 200}, {3000, 3200}, {3500, 3700}}},
		{"extended, stopped by the next caption and the audio end",
			captionConfig{maxRows: 2, maxDurMs: 5000, minDurMs: 1000}, [][2]int64{{0, 1000}, {3000, 3500}, {3500, 4000}}},
		{"a minimum above the maximum duration yields to it",
			captionConfig{maxRows: 2, maxDurMs: 1500, minDurMs: 40000}, [][2]int64{{0, 1500}, {3000, 3500}, {3500, 4000}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps := buildCaptions(segs, tt.cc, 4000)
			var got [][2]int64
			for _, c := range caps {
				got = append(got, [2]int64{c.startMs, c.endMs})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("caption times = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSubtitleComplianceStyle shows the visible effect of style compliance on
// the same words and loose bounds: rows of at most 42 characters, at most 2
// rows, no caption under 1 s, none over 7 s, and a new caption after every
// sentence end.
func TestSubtitleComplianceStyle(t *testing.T) {
	long := strings.Fields("the quarterly planning meeting reviews every important budget item with the whole team and then the customer success group explains the new schedule.")
	seg := timedWords(0, long...)
	seg = append(seg, timedWords(12, "Yes.", "No.")...)
	segs := [][]client.Word{seg, timedWords(20, "Fine.")}
	loose := &client.SubtitlesConfig{MaximumCharactersPerRow: resPtr(int64(120)), MaximumRowsPerCaption: resPtr(int64(5)), MaximumDuration: resPtr(30.0)}
	strict := *loose
	strict.Style = resPtr("compliance")

	_, dcc := subtitleSettings(loose)
	def := buildCaptions(segs, dcc, 30000)
	_, ccc := subtitleSettings(&strict)
	comp := buildCaptions(segs, ccc, 30000)

	// fine is how long the lone last caption "Fine." (0.4 s of speech) stays.
	longest := func(caps []caption) (chars, rows int, fine, longestDur int64) {
		for _, c := range caps {
			rows = max(rows, len(c.rows))
			for _, r := range c.rows {
				chars = max(chars, utf8.RuneCountInString(r))
			}
			if c.rows[0] == "Fine." {
				fine = c.endMs - c.startMs
			}
			longestDur = max(longestDur, c.endMs-c.startMs)
		}
		return
	}
	dChars, _, dFine, dLong := longest(def)
	cChars, cRows, cFine, cLong := longest(comp)
	if dChars <= 42 || dFine != 400 || dLong <= 7000 {
		t.Fatalf("default style should allow long rows, short and long captions: chars %d, \"Fine.\" %d ms, longest %d ms", dChars, dFine, dLong)
	}
	if cChars > 42 || cRows > 2 || cFine != 1000 || cLong > 7000 {
		t.Fatalf("compliance: chars %d, rows %d, \"Fine.\" %d ms, longest %d ms", cChars, cRows, cFine, cLong)
	}
	var defYesNo, compYes bool
	for _, c := range def {
		if strings.Contains(strings.Join(c.rows, " "), "Yes. No.") {
			defYesNo = true
		}
	}
	for _, c := range comp {
		if strings.Join(c.rows, " ") == "Yes." {
			compYes = true
		}
	}
	if !defYesNo || !compYes {
		t.Fatalf("default should keep \"Yes. No.\" together (%v), compliance should split after \"Yes.\" (%v)", defYesNo, compYes)
	}
	checkCaptions(t, parseSRT(t, renderSRT(comp)), captionLimits{maxChars: 42, maxRows: 2, maxDur: 7000, minDur: 1000, compliance: true}, captionWords(segs), 30000)
}

func resPtr[T any](v T) *T { return &v }

// A single word longer than maximum_characters_per_row, such as the e-mail
// addresses of the generated transcripts, is never broken: it stands whole
// on a row of its own, past the bound, and every other row keeps the bound.
// Breaking it would put a fragment of an address on screen, and a reader
// (or a program) joining rows with spaces would get a wrong address.
func TestSubtitlesKeepLongWordsWhole(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/call.wav?duration=90","subtitles":true,
		"subtitles_config":{"formats":["srt","vtt"],"maximum_characters_per_row":12,"maximum_rows_per_caption":2}}`).ID
	tr := h.job(id).Result.Transcription
	addresses := regexp.MustCompile(`[a-z.]+@example\.(com|org|net)`).FindAllString(tr.FullTranscript, -1)
	if len(addresses) == 0 {
		t.Fatal("the transcript mentions no e-mail address")
	}
	for _, sub := range tr.Subtitles {
		parse := parseSRT
		if sub.Format == "vtt" {
			parse = parseVTT
		}
		caps := parse(t, sub.Subtitles)
		rows := map[string]bool{}
		for _, c := range caps {
			for _, r := range c.rows {
				if utf8.RuneCountInString(r) > 12 && len(strings.Fields(r)) > 1 {
					t.Errorf("%s: row %q exceeds 12 characters with more than one word", sub.Format, r)
				}
				rows[strings.TrimRight(r, ".,?!")] = true
			}
		}
		for _, a := range addresses {
			if !rows[a] {
				t.Errorf("%s: %q is not whole on a row of its own", sub.Format, a)
			}
		}
	}
}
