package client

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"
)

// Each wait between attempts is at least MinBackoff and at most
// MaxBackoff, the first one exactly MinBackoff, for any attempt number
// (a shift past 63 bits included).
func TestBackoff_bounds(t *testing.T) {
	const minWait, maxWait = time.Millisecond, 50 * time.Millisecond
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: "k3y-0123", MinBackoff: minWait, MaxBackoff: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.backoff(0); got != minWait {
		t.Errorf("backoff(0) = %s, want %s", got, minWait)
	}
	for attempt := range 80 {
		longer := false
		draws := map[time.Duration]bool{}
		for range 50 {
			got := c.backoff(attempt)
			if got < minWait || got > maxWait {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", attempt, got, minWait, maxWait)
			}
			longer = longer || got > minWait
			draws[got] = true
		}
		// From the second attempt on, the wait is drawn from [min,
		// min·2^attempt] (capped): 50 draws all at min would mean it grows
		// no more, 50 draws all alike that it is not drawn (clients failed
		// together would all come back together); the odds of either by
		// chance are below 1 in 10^100.
		if attempt >= 1 && !longer {
			t.Errorf("backoff(%d) was %s in 50 draws: it does not grow", attempt, minWait)
		}
		if attempt >= 1 && len(draws) == 1 {
			t.Errorf("backoff(%d) was %s in 50 draws: it has no jitter", attempt, c.backoff(attempt))
		}
	}
}

// A Retry-After is the least wait, not the whole of it: the backoff still
// grows beneath it, so that a batch the service turns away again and again
// with a short Retry-After is tried for longer than max_retries × the
// Retry-After (8 retries of 1 s failed 38 of 100 jobs past an account's
// limit).
func TestWaitAfter_retryAfterIsTheLeastWait(t *testing.T) {
	const minWait, maxWait = 250 * time.Millisecond, 15 * time.Second
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: "k3y-0123", MinBackoff: minWait, MaxBackoff: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		attempt    int
		retryAfter time.Duration
		least      time.Duration
	}{
		{0, time.Second, time.Second},
		{6, time.Second, time.Second},
		{6, 0, minWait},
		{2, 24 * time.Hour, maxRetryAfter},
	} {
		longer := false
		for range 200 {
			got := c.waitAfter(tc.attempt, tc.retryAfter)
			if got < tc.least || got > max(tc.least+minWait, maxWait) {
				t.Fatalf("waitAfter(%d, %s) = %s, want within [%s, %s]", tc.attempt, tc.retryAfter, got, tc.least, max(tc.least+minWait, maxWait))
			}
			longer = longer || got > tc.least+minWait
		}
		// From [250 ms, 15 s]: 200 draws all below 1.25 s would mean the
		// backoff no longer grows beneath a Retry-After (odds 1 in 10^200).
		if tc.attempt == 6 && !longer {
			t.Errorf("waitAfter(6, %s) stayed within %s of it in 200 draws: the backoff does not grow beneath it", tc.retryAfter, minWait)
		}
	}
}

// A MinBackoff long enough that doubling it 20 times passes what a
// Duration holds still gives waits drawn up to MaxBackoff, not always
// MinBackoff.
func TestBackoff_longMinimumDoesNotOverflow(t *testing.T) {
	const minWait, maxWait = 3 * time.Hour, 6 * time.Hour
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: "k3y-0123", MinBackoff: minWait, MaxBackoff: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	draws := map[time.Duration]bool{}
	for range 50 {
		got := c.backoff(20)
		if got < minWait || got > maxWait {
			t.Fatalf("backoff(20) = %s, want within [%s, %s]", got, minWait, maxWait)
		}
		draws[got] = true
	}
	if len(draws) == 1 {
		t.Errorf("backoff(20) was %s in 50 draws, want waits drawn up to %s", c.backoff(20), maxWait)
	}
}

// IsTransient is true for what a read is retried on: 429 and 5xx other than
// 501 (see shouldRetry), and a failed connection, however wrapped.
func TestIsTransient(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&APIError{StatusCode: 429}, true},
		{&APIError{StatusCode: 500}, true},
		{&APIError{StatusCode: 502}, true},
		{&APIError{StatusCode: 503}, true},
		{fmt.Errorf("reading: %w", &APIError{StatusCode: 504}), true},
		{&APIError{StatusCode: 507}, true},
		{&APIError{StatusCode: 520}, true},
		{&APIError{StatusCode: 529}, true},
		{&APIError{StatusCode: 400}, false},
		{&APIError{StatusCode: 404}, false},
		{&APIError{StatusCode: 501}, false},
		{fmt.Errorf("reading: %w", &TransportError{Op: "GET /v2/live", Err: errors.New("connection reset")}), true},
		{&DecodeError{Op: "GET /v2/live", Reason: "invalid JSON"}, false},
		{errors.New("something else"), false},
		{nil, false},
	} {
		if got := IsTransient(tc.err); got != tc.want {
			t.Errorf("IsTransient(%v) = %t, want %t", tc.err, got, tc.want)
		}
	}
}

// parseRetryAfter: seconds (a past date, a negative or unreadable value
// mean no wait), a future date's distance, the longest Duration for seconds
// a Duration cannot hold.
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0},
		{" 30 ", 30 * time.Second},
		{"0", 0},
		{"-1", 0},
		{"tomorrow", 0},
		{"1.5", 0},
		{"Fri, 02 Jan 2026 03:04:35 GMT", 30 * time.Second},
		{"Fri, 02 Jan 2026 03:03:05 GMT", 0},
		{"9223372036", 9223372036 * time.Second},
		{"9223372037", math.MaxInt64},
		{"99999999999999999999", math.MaxInt64},
		{"-99999999999999999999", 0},
	} {
		if got := parseRetryAfter(tc.v, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestRetryAfterOf(t *testing.T) {
	for name, tc := range map[string]struct {
		err  error
		want time.Duration
	}{
		"none":                  {nil, 0},
		"not the service's":     {errors.New("connection reset"), 0},
		"an answer without it":  {&APIError{StatusCode: 503}, 0},
		"asked":                 {&APIError{StatusCode: 429, RetryAfter: 2 * time.Second}, 2 * time.Second},
		"wrapped":               {fmt.Errorf("look: %w", &APIError{StatusCode: 429, RetryAfter: time.Second}), time.Second},
		"past the client's cap": {&APIError{StatusCode: 429, RetryAfter: 24 * time.Hour}, maxRetryAfter},
	} {
		if got := RetryAfterOf(tc.err); got != tc.want {
			t.Errorf("%s: %s, want %s", name, got, tc.want)
		}
	}
}
