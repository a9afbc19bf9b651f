package fakeserver

import "time"

// What expires, with Options.Retention.
type expiringKind uint8

const (
	expiringJob expiringKind = iota
	expiringUpload
	expiringLive // in liveStore's own queue
)

// expiry is when one job or upload is to be forgotten.
type expiry struct {
	at   time.Time
	kind expiringKind
	id   string
}

// expiryQueue holds the expiries as a binary min-heap by time, so that
// finding what is due costs nothing while nothing is.
type expiryQueue []expiry

func (q *expiryQueue) add(at time.Time, kind expiringKind, id string) {
	*q = append(*q, expiry{at: at, kind: kind, id: id})
	h := *q
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h[i].at.Before(h[parent].at) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

// popDue removes and returns the earliest expiry when it is due by now.
func (q *expiryQueue) popDue(now time.Time) (expiry, bool) {
	h := *q
	if len(h) == 0 || h[0].at.After(now) {
		return expiry{}, false
	}
	top, last := h[0], len(h)-1
	h[0] = h[last]
	h[last] = expiry{} // let the id go
	h = h[:last]
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].at.Before(h[least].at) {
			least = l
		}
		if r < len(h) && h[r].at.Before(h[least].at) {
			least = r
		}
		if least == i {
			break
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
	*q = h
	return top, true
}

// tick reads the clock and forgets the jobs and uploads whose retention has
// ended by then, so that what a request sees never depends on when the
// background loop last ran. Callers hold s.mu.
func (s *Server) tick() time.Time {
	now := s.clock.Now()
	s.expireDue(now)
	return now
}

// settleAll makes final every job due by now and then forgets what has
// expired, jobs made final just now included. Callers hold s.mu.
func (s *Server) settleAll() time.Time {
	now := s.clock.Now()
	for _, j := range s.unsettled {
		s.advance(j, now)
	}
	s.expireDue(now)
	return now
}

// jobAt returns the job with that id as it stands now (made final when due),
// unless there is none or its retention has ended. Callers hold s.mu.
func (s *Server) jobAt(id string) (*job, time.Time, bool) {
	now := s.tick()
	j, ok := s.jobs[id]
	if !ok {
		return nil, now, false
	}
	if !j.final {
		s.advance(j, now) // may schedule an expiry that is already due
		s.expireDue(now)
		if s.jobs[id] != j {
			return nil, now, false
		}
	}
	return j, now, true
}

// expireDue forgets the jobs and uploads whose retention has ended by now.
// Callers hold s.mu.
func (s *Server) expireDue(now time.Time) {
	for {
		e, due := s.expiries.popDue(now)
		if !due {
			return
		}
		switch e.kind {
		case expiringJob:
			if _, ok := s.jobs[e.id]; ok {
				s.forget(e.id)
				s.stats.JobsExpired++
			}
		case expiringUpload:
			if _, ok := s.uploads[e.id]; ok {
				delete(s.uploads, e.id)
				s.stats.UploadsExpired++
			}
		}
	}
}

// atConcurrencyLimit reports whether Options.MaxConcurrentJobs jobs are
// queued or processing at now, and if so in how many seconds (at least 1)
// the first of them will be final. Callers hold s.mu.
func (s *Server) atConcurrencyLimit(now time.Time) (retryAfter int, full bool) {
	limit := s.opts.MaxConcurrentJobs
	if limit <= 0 || len(s.unsettled) < limit {
		return 0, false
	}
	var first time.Time
	for _, j := range s.unsettled {
		s.advance(j, now) // drops it from unsettled when it is final by now
		if !j.final && (first.IsZero() || j.completedAt().Before(first)) {
			first = j.completedAt()
		}
	}
	if len(s.unsettled) < limit {
		return 0, false
	}
	wait := first.Sub(now)
	return max(1, int((wait+time.Second-1)/time.Second)), true
}

// appendBounded appends v to log, keeping at most the limit newest entries
// (all of them when limit is 0). The log is trimmed once it holds twice the
// limit, so appending stays cheap.
func appendBounded[T any](log []T, v T, limit int) []T {
	log = append(log, v)
	if limit > 0 && len(log) >= 2*limit {
		log = append([]T(nil), log[len(log)-limit:]...)
	}
	return log
}

// lastN is the limit newest entries of log (all of them when limit is 0).
func lastN[T any](log []T, limit int) []T {
	if limit > 0 && len(log) > limit {
		return log[len(log)-limit:]
	}
	return log
}
