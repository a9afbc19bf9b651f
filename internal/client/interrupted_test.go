package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// A call whose context's deadline passed timed out: its error said it was
// interrupted, as if by the user, and a diagnostic then read "The
// operation's time limit ran out ...: interrupted ...".
func TestInterruptedError_namesHowTheContextEnded(t *testing.T) {
	last := &client.APIError{Op: "DELETE /v2/pre-recorded/j1", StatusCode: 503}
	for name, c := range map[string]struct {
		err        *client.InterruptedError
		want, lack string
	}{
		"deadline, before sending":  {&client.InterruptedError{Op: "GET /v2/live", Err: context.DeadlineExceeded}, "GET /v2/live: timed out before the request was sent", "interrupted"},
		"deadline, between tries":   {&client.InterruptedError{Op: "GET /v2/live", Last: last, Err: context.DeadlineExceeded}, "GET /v2/live: timed out while waiting to send the request again", "interrupted"},
		"cancelled, before sending": {&client.InterruptedError{Op: "GET /v2/live", Err: context.Canceled}, "GET /v2/live: interrupted before the request was sent", "timed out"},
		"cancelled, between tries":  {&client.InterruptedError{Op: "GET /v2/live", Last: last, Err: context.Canceled}, "GET /v2/live: interrupted while waiting to send the request again", "timed out"},
	} {
		t.Run(name, func(t *testing.T) {
			text := c.err.Error()
			if !strings.Contains(text, c.want) || strings.Contains(text, c.lack) {
				t.Errorf("got %q, want it to hold %q and not %q", text, c.want, c.lack)
			}
		})
	}
}
