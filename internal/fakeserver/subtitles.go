package fakeserver

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// Subtitles are built from word timings by pure functions: subtitleSettings
// reads SubtitlesConfigDTO, buildCaptions groups words into captions that
// respect every bound, and renderSRT / renderVTT write them out.

// Defaults for the bounds the request leaves unset.
const (
	defaultCaptionRows  = 2
	defaultCaptionMaxMs = 5000 // maximum_duration
	defaultCaptionMinMs = 0    // minimum_duration
	// maximum_characters_per_row unset: rows are not limited in length.
)

// The "compliance" style follows the Library of Congress description of the
// SubRip format (sustainability of digital formats, fdd000569) together with
// the readability rules broadcasters publish for SRT captions:
//   - at most 42 characters per row and at most 2 rows per caption;
//   - a caption stays on screen at least 1 s and at most 7 s;
//   - a caption never runs on past the end of a sentence.
//
// Each limit tightens the request's own value and never loosens it.
const (
	complianceMaxChars = 42
	complianceMaxRows  = 2
	complianceMinMs    = 1000
	complianceMaxMs    = 7000
)

// captionConfig holds the effective bounds, in characters and milliseconds.
type captionConfig struct {
	maxChars      int // 0: unlimited
	maxRows       int // 1..5
	maxDurMs      int64
	minDurMs      int64
	sentenceBreak bool // start a new caption after a sentence end
}

// caption is one subtitle cue.
type caption struct {
	startMs, endMs int64
	rows           []string
}

// subtitleSettings returns the formats to render (default [srt], unknown
// formats and repeats dropped) and the effective caption bounds.
func subtitleSettings(sc *client.SubtitlesConfig) ([]string, captionConfig) {
	cc := captionConfig{maxRows: defaultCaptionRows, maxDurMs: defaultCaptionMaxMs, minDurMs: defaultCaptionMinMs}
	var formats []string
	style := client.DefaultSubtitleStyle
	if sc != nil {
		seen := map[string]bool{}
		for _, f := range sc.Formats {
			f = strings.ToLower(strings.TrimSpace(f))
			if client.Contains(client.SubtitleFormats, f) && !seen[f] {
				seen[f] = true
				formats = append(formats, f)
			}
		}
		if v := sc.MaximumCharactersPerRow; v != nil {
			cc.maxChars = int(max(*v, 1))
		}
		if v := sc.MaximumRowsPerCaption; v != nil {
			cc.maxRows = int(min(max(*v, 1), 5))
		}
		if v := sc.MaximumDuration; v != nil && !math.IsNaN(*v) {
			cc.maxDurMs = int64(math.Round(min(max(*v, 1), 30) * 1000))
		}
		if v := sc.MinimumDuration; v != nil && !math.IsNaN(*v) {
			cc.minDurMs = int64(math.Round(min(max(*v, 0), 86400) * 1000))
		}
		if sc.Style != nil {
			style = strings.ToLower(*sc.Style)
		}
	}
	if len(formats) == 0 {
		formats = []string{client.DefaultSubtitleFormat}
	}
	if style == "compliance" {
		if cc.maxChars == 0 || cc.maxChars > complianceMaxChars {
			cc.maxChars = complianceMaxChars
		}
		cc.maxRows = min(cc.maxRows, complianceMaxRows)
		cc.maxDurMs = min(cc.maxDurMs, complianceMaxMs)
		cc.minDurMs = max(cc.minDurMs, complianceMinMs)
		cc.sentenceBreak = true
	}
	return formats, cc
}

// renderSubtitles renders the captions of the given utterances' words once
// per format.
func renderSubtitles(segments [][]client.Word, formats []string, cc captionConfig, audioEndMs int64) []client.Subtitle {
	caps := buildCaptions(segments, cc, audioEndMs)
	out := make([]client.Subtitle, 0, len(formats))
	for _, f := range formats {
		s := client.Subtitle{Format: f}
		if f == "vtt" {
			s.Subtitles = renderVTT(caps)
		} else {
			s.Subtitles = renderSRT(caps)
		}
		out = append(out, s)
	}
	return out
}

func captionMs(s float64) int64 { return int64(math.Round(s * 1000)) }

func endsSentence(w string) bool {
	return strings.HasSuffix(w, ".") || strings.HasSuffix(w, "?") || strings.HasSuffix(w, "!")
}

// buildCaptions groups words into captions. Each segment (an utterance)
// starts a new caption. Inside a segment words fill the current row while it
// stays within maxChars (a single longer word stands alone on its row), then
// further rows up to maxRows; a word that does not fit, or that would make the
// caption last longer than maxDurMs, opens the next caption. A caption runs
// from its first word's start to its last word's end; captions are then made
// non-overlapping, cut to maxDurMs and to the audio end (audioEndMs > 0), and
// a caption shorter than minDurMs is extended towards min(minDurMs, maxDurMs)
// but never past the next caption's start or the audio end.
func buildCaptions(segments [][]client.Word, cc captionConfig, audioEndMs int64) []caption {
	maxRows := max(cc.maxRows, 1)
	maxDur := max(cc.maxDurMs, 1)
	var caps []caption
	for _, seg := range segments {
		open := false // whether caps[len-1] belongs to this segment and may grow
		prevEnds := false
		for _, w := range seg {
			text := strings.Join(strings.Fields(w.Word), " ")
			if text == "" {
				continue
			}
			s, e := captionMs(w.Start), captionMs(w.End)
			e = max(e, s)
			if open {
				c := &caps[len(caps)-1]
				row := c.rows[len(c.rows)-1]
				fitsRow := cc.maxChars <= 0 || utf8.RuneCountInString(row)+1+utf8.RuneCountInString(text) <= cc.maxChars
				switch {
				case e-c.startMs > maxDur, cc.sentenceBreak && prevEnds:
				case fitsRow:
					c.rows[len(c.rows)-1] = row + " " + text
					c.endMs = max(c.endMs, e)
					prevEnds = endsSentence(text)
					continue
				case len(c.rows) < maxRows:
					c.rows = append(c.rows, text)
					c.endMs = max(c.endMs, e)
					prevEnds = endsSentence(text)
					continue
				}
			}
			caps = append(caps, caption{startMs: s, endMs: e, rows: []string{text}})
			open = true
			prevEnds = endsSentence(text)
		}
	}
	for i := range caps {
		c := &caps[i]
		if i > 0 {
			c.startMs = max(c.startMs, caps[i-1].endMs)
		}
		if audioEndMs > 0 {
			c.startMs = min(c.startMs, audioEndMs)
			c.endMs = min(c.endMs, audioEndMs)
		}
		c.endMs = min(max(c.endMs, c.startMs), c.startMs+maxDur)
	}
	want := min(cc.minDurMs, maxDur)
	for i := range caps {
		c := &caps[i]
		if c.endMs-c.startMs >= want {
			continue
		}
		limit := c.startMs + want
		if i+1 < len(caps) {
			limit = min(limit, caps[i+1].startMs)
		}
		if audioEndMs > 0 {
			limit = min(limit, audioEndMs)
		}
		c.endMs = max(c.endMs, limit)
	}
	return caps
}

// appendTimestamp writes hh:mm:ss followed by sep and milliseconds.
func appendTimestamp(b []byte, ms int64, sep byte) []byte {
	ms = max(ms, 0)
	pad := func(b []byte, v int64, width int) []byte {
		s := strconv.FormatInt(v, 10)
		for i := len(s); i < width; i++ {
			b = append(b, '0')
		}
		return append(b, s...)
	}
	b = pad(b, ms/3600000, 2)
	b = append(b, ':')
	b = pad(b, ms/60000%60, 2)
	b = append(b, ':')
	b = pad(b, ms/1000%60, 2)
	b = append(b, sep)
	return pad(b, ms%1000, 3)
}

func appendCue(b []byte, c caption, sep byte) []byte {
	b = appendTimestamp(b, c.startMs, sep)
	b = append(b, " --> "...)
	b = appendTimestamp(b, c.endMs, sep)
	b = append(b, '\n')
	for _, r := range c.rows {
		b = append(b, r...)
		b = append(b, '\n')
	}
	return append(b, '\n')
}

// renderSRT writes SubRip: a counter from 1, "hh:mm:ss,mmm --> hh:mm:ss,mmm",
// the rows, and a blank line after each caption.
func renderSRT(caps []caption) string {
	b := make([]byte, 0, 64*len(caps))
	for i, c := range caps {
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '\n')
		b = appendCue(b, c, ',')
	}
	return string(b)
}

// renderVTT writes WebVTT: the "WEBVTT" header and a blank line, then one
// "hh:mm:ss.mmm --> hh:mm:ss.mmm" cue per caption followed by a blank line.
func renderVTT(caps []caption) string {
	b := make([]byte, 0, 8+56*len(caps))
	b = append(b, "WEBVTT\n\n"...)
	for _, c := range caps {
		b = appendCue(b, c, '.')
	}
	return string(b)
}
