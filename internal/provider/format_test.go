package provider

import (
	"testing"
	"time"
)

// The helpers write what descriptions, docs and diagnostics show users
// (allowed values, defaults, the action's report): each exactly.
func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"markdown list", markdownList([]string{"queued", "done"}), "`queued`, `done`"},
		{"markdown list of one", markdownList([]string{"srt"}), "`srt`"},
		{"empty markdown list", markdownList(nil), ""},
		{"whole number", formatFloat(30), "30"},
		{"fraction", formatFloat(0.5), "0.5"},
		// Never an exponent: users write 0.00001, not 1e-05.
		{"small number", formatFloat(0.00001), "0.00001"},
		{"lines", joinLines([]string{"translation: failed", "summarization: failed"}), "translation: failed\nsummarization: failed"},
		{"hour", formatDuration(60 * time.Minute), "1h"},
		{"hours", formatDuration(2 * time.Hour), "2h"},
		{"minutes", formatDuration(20 * time.Minute), "20m"},
		{"minutes past an hour", formatDuration(90 * time.Minute), "90m"},
		// A timeout a user set below a minute, or between minutes: as
		// written, not cut to "0m" or "1m".
		{"seconds", formatDuration(2 * time.Second), "2s"},
		{"seconds past a minute", formatDuration(90 * time.Second), "1m30s"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
