package provider

import (
	"testing"
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
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
