package client_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

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
		"deadline, between tries":   {&client.InterruptedError{Op: "GET /v2/live", Last: last, Err: context.DeadlineExceeded}, "GET /v2/live: timed out before the request was sent again", "interrupted"},
		"cancelled, before sending": {&client.InterruptedError{Op: "GET /v2/live", Err: context.Canceled}, "GET /v2/live: interrupted before the request was sent", "timed out"},
		"cancelled, between tries":  {&client.InterruptedError{Op: "GET /v2/live", Last: last, Err: context.Canceled}, "GET /v2/live: interrupted before the request was sent again", "timed out"},
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
// out: its error said it was interrupted, then said "timed out" where the
// provider's diagnostic said it again.
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
	// Bare, for whoever reports it to say what ended it (the provider: "the
	// operation's time limit ran out before the service's answer was
	// received"), once.
	if text := err.Error(); text != "GET /v2/pre-recorded/3fa85f64-5717-4562-b3fc-2c963f66afa6: context deadline exceeded" {
		t.Errorf("got %q, want the request and the deadline's error", text)
	}
}

// A call whose context has ended sends nothing, and says so with an
// InterruptedError: a create interrupted then cannot have made a job.
func TestInterrupted_beforeSendingSendsNothing(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	var interrupted *client.InterruptedError
	if !errors.As(err, &interrupted) || interrupted.Last != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("got %#v, want an InterruptedError before the request was sent", err)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the service received %d requests, want none", n)
	}
}

// cancelOnRetry is a Logger that ends the call's context when the client
// logs that it waits to send a request again: an interrupt between two
// tries, without timing the test. wait is the wait it logged.
type cancelOnRetry struct {
	recordingLogger
	cancel context.CancelFunc
	wait   string
}

func (l *cancelOnRetry) Debug(ctx context.Context, msg string, fields map[string]any) {
	l.recordingLogger.Debug(ctx, msg, fields)
	if strings.Contains(msg, "retrying") {
		l.wait, _ = fields["wait"].(string)
		l.cancel()
	}
}

// A call interrupted while it waits to send the request again names the
// failure it waited after. The wait a Retry-After asks for is capped at
// 5 minutes (with a little jitter), however long the service asked.
func TestInterrupted_betweenTriesNamesTheLastFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "86400")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	refused := &http.Client{Transport: roundTripperFunc(func(*http.Request) (*http.Response, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	})}
	for _, tc := range []struct {
		name    string
		http    *http.Client
		last    func(error) bool
		maxWait time.Duration
	}{
		{"503 asking for a day", nil, func(err error) bool { return client.IsStatus(err, http.StatusServiceUnavailable) }, 5*time.Minute + time.Second},
		{"connection refused", refused, func(err error) bool { var te *client.TransportError; return errors.As(err, &te) }, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &cancelOnRetry{}
			// The backoff's defaults: the jitter added to a Retry-After is drawn
			// below the default MinBackoff (250 ms).
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", HTTPClient: tc.http, Logger: logs})
			if err != nil {
				t.Fatal(err)
			}
			var ctx context.Context
			ctx, logs.cancel = context.WithCancel(context.Background())
			defer logs.cancel()
			_, err = c.GetPreRecorded(ctx, "x")
			var interrupted *client.InterruptedError
			if !errors.As(err, &interrupted) || !errors.Is(err, context.Canceled) || !tc.last(interrupted.Last) {
				t.Fatalf("got %v, want an InterruptedError naming the last try's failure", err)
			}
			if !strings.Contains(err.Error(), "before the request was sent again after") {
				t.Errorf("the error does not say it was waiting to send again: %v", err)
			}
			if wait, err := time.ParseDuration(logs.wait); err != nil || wait > tc.maxWait {
				t.Errorf("waited %q to send again, want at most %s", logs.wait, tc.maxWait)
			}
		})
	}
}
