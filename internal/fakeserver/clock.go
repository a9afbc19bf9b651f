package fakeserver

import (
	"sync"
	"time"
)

// Clock tells the server what time it is. Job states, timestamps and the
// seeding of live jobs all read it, so a ManualClock makes them repeatable.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that moves only when told to. It is safe for
// concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t} }

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// timestampLayout is how the service writes instants: ISO 8601 in UTC with
// milliseconds, e.g. 2024-05-01T12:00:00.000Z.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

func formatTimestamp(t time.Time) string { return t.UTC().Format(timestampLayout) }

// asShown is t as a record shows it: in UTC, to the millisecond. Jobs keep
// their creation time this way, so that filters and the listing order read
// the instant the record shows, not a finer one behind it.
func asShown(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }
