package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
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

// deadlineOnCue is a context whose deadline passes when passed is closed:
// a timeout at a chosen point of a call, without timing the test.
type deadlineOnCue struct {
	context.Context
	passed chan struct{}
}

func (c deadlineOnCue) Done() <-chan struct{} { return c.passed }

func (c deadlineOnCue) Err() error {
	select {
	case <-c.passed:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// A call whose deadline passes while the answer's body is being read timed
// out: its error said it was interrupted.
func TestRead_deadlineWhileReadingTheAnswerIsATimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","result":{`)
		w.(http.Flusher).Flush()
		<-release
	}))
	defer srv.Close()
	defer close(release)
	ctx := deadlineOnCue{Context: context.Background(), passed: make(chan struct{})}
	answered := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			close(ctx.passed) // the headers are in: the body is read next
		}
		return resp, err
	})
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Transport: answered}, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(ctx, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the deadline's error", err)
	}
	if text := err.Error(); !strings.Contains(text, "timed out while the service's answer was being read") || strings.Contains(text, "interrupted") {
		t.Errorf("got %q, want it named a timeout", text)
	}
}
