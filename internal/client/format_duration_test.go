package client_test

import (
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// Durations as descriptions, diagnostics and the fake server's messages
// show them: as a user writes them.
func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{60 * time.Minute, "1h"},
		{2 * time.Hour, "2h"},
		{20 * time.Minute, "20m"},
		{90 * time.Minute, "90m"},
		// A timeout a user set below a minute, or between minutes: as
		// written, not cut to "0m" or "1m".
		{2 * time.Second, "2s"},
		{90 * time.Second, "1m30s"},
		{-time.Second, "-1s"},
	} {
		if got := client.FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
