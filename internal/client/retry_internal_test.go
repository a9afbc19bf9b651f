package client

import (
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
		for range 50 {
			got := c.backoff(attempt)
			if got < minWait || got > maxWait {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", attempt, got, minWait, maxWait)
			}
			longer = longer || got > minWait
		}
		// From the second attempt on, the wait is drawn from [min,
		// min·2^attempt] (capped): 50 draws all at min would mean it grows
		// no more (odds of chance below 1 in 10^100).
		if attempt >= 1 && !longer {
			t.Errorf("backoff(%d) was %s in 50 draws: it does not grow", attempt, minWait)
		}
	}
}
