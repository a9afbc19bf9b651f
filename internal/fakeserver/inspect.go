package fakeserver

import (
	"net/http"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// RecordedRequest is one request the server received. The value of a
// header that may carry a credential (x-service-key, x-gladia-key,
// Authorization, ...: see the package's documentation) is "<masked>". Body holds at most the first MiB
// the client sent, and of an upload its first 4 KiB; the oldest bodies are
// dropped (Body nil) once the log's pass 64 MiB. Status is 0 while the
// request is in flight, and 499 when the client went away before an answer.
type RecordedRequest struct {
	Seq      int // its arrival number: 1 for the server's first request
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
	// BodyBytes is the size of the whole body the server read, which Body
	// may hold only the start of.
	BodyBytes int
	Status    int
	// AnswerLost says that the answer (Status, a create's job) never
	// reached the client: lost by fault injection (Faults.LostAnswerRatio).
	AnswerLost bool

	bodyDropped bool // by the log's budget for bodies, or with the record
}

// Stats counts what the server did.
type Stats struct {
	Requests           int // every request received
	RateLimited        int // answered 429 by fault injection
	ServerErrors       int // answered 5xx by fault injection
	AnswersLost        int // handled, their answer lost by fault injection (Faults.LostAnswerRatio)
	JobsCreated        int // accepted creates (201)
	ConcurrencyLimited int // creates answered 429 by Options.MaxConcurrentJobs
	CallbacksDelivered int // callbacks the receiver accepted (2xx)
	CallbackFailures   int // callbacks given up on after every attempt failed
	JobsExpired        int // final jobs forgotten when Options.Retention ended, seeded and live ones included
	UploadsExpired     int // uploads forgotten when Options.Retention ended
	// What the server holds now: jobs (pre-recorded and live), uploads
	// and their bytes. The service has no way to delete an upload, so
	// without Options.Retention every upload is kept for the server's life.
	JobsStored        int
	UploadsStored     int
	UploadBytesStored int64
}

// Requests returns a copy of every request received (the newest
// Options.RequestLogLimit when it is set), in arrival order.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := lastN(s.requests, s.opts.RequestLogLimit)
	out := make([]RecordedRequest, len(kept))
	for i, r := range kept {
		out[i] = *r
		out[i].Header = r.Header.Clone()
		out[i].Body = append([]byte(nil), r.Body...)
	}
	return out
}

// ResetRequests forgets the recorded requests.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlog(s.requests)
	s.requests = nil
	s.recountRequestBodies()
}

// JobCount is the number of pre-recorded jobs currently stored: by the
// clock, so a job whose processing and retention have both ended is not
// counted even if nothing has read it since it was created.
func (s *Server) JobCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settleAll()
	return len(s.jobs)
}

// UploadCount is the number of uploaded files currently stored.
func (s *Server) UploadCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tick()
	return len(s.uploads)
}

// Job returns a pre-recorded job's record as GET would return it now.
func (s *Server) Job(id string) (client.PreRecordedJob, bool) {
	s.mu.Lock()
	j, now, ok := s.jobAt(id)
	var rec client.PreRecordedJob
	if ok {
		rec = j.record(now)
	}
	s.mu.Unlock()
	if !ok {
		return client.PreRecordedJob{}, false
	}
	return cloneViaJSON(rec), true
}

// CreateBodies returns the raw bodies of the accepted creates (the newest
// Options.RequestLogLimit when it is set, and within 64 MiB), in order.
func (s *Server) CreateBodies() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := lastN(s.createBodies, s.opts.RequestLogLimit)
	out := make([][]byte, len(kept))
	for i, b := range kept {
		out[i] = append([]byte(nil), b...)
	}
	return out
}

// ExpireJob deletes a job as the service does when its retention ends: later
// GET and DELETE answer 404. It reports whether the job existed. It deletes
// a job still queued or processing too, which the service never does (it
// deletes a job only once it has ended), for drills of a job gone unseen.
func (s *Server) ExpireJob(id string) bool {
	id = idKey(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tick() // one already past its retention is gone
	_, ok := s.jobs[id]
	s.forget(id)
	return ok
}

// AddLiveJob adds a live job to the listing (a copy of j).
func (s *Server) AddLiveJob(j client.LiveJob) {
	e := newAddedLiveEntry(cloneViaJSON(j))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live.put(e)
}

// BuildLiveJobs builds now the full record of every seeded live job, which
// is otherwise built on its first read (see Options.LiveJobs). A service has
// its jobs stored; a benchmark that times a listing calls this first, so that
// it measures the listing's client rather than the generator of these
// records. The records are the same either way (those of sessions still
// running are built again as they move on).
func (s *Server) BuildLiveJobs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.liveClock.Now()
	for _, e := range s.live.entries {
		e.bodyAt(now)
	}
}

// Stats returns the counters. JobsExpired and UploadsExpired are by the
// clock, as JobCount is.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settleAll()
	s.liveNow()
	st := s.stats
	st.JobsStored, st.UploadsStored = len(s.jobs)+len(s.live.entries), len(s.uploads)
	for _, up := range s.uploads {
		st.UploadBytesStored += int64(len(up.data))
	}
	return st
}
