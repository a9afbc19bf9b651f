package bench

import (
	"net/http"
	"sync"
	"time"
)

// Exchange is one request seen by a Recorder.
type Exchange struct {
	Method, Path string
	Start, End   time.Time // arrival, and the handler's return
	Status       int
	Bytes        int64  // response body size
	Head         []byte // the first bytes of the response body
}

// headBytes is how much of each response body a Recorder keeps: enough for
// the id and status of a job record.
const headBytes = 256

// Recorder is an http.Handler in front of another that notes when each
// request arrived, when it was answered, and how large the answer was.
type Recorder struct {
	next http.Handler
	mu   sync.Mutex
	log  []Exchange
}

// NewRecorder records the exchanges of next.
func NewRecorder(next http.Handler) *Recorder { return &Recorder{next: next} }

func (rec *Recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cw := &countingWriter{ResponseWriter: w}
	start := time.Now()
	rec.next.ServeHTTP(cw, r)
	x := Exchange{Method: r.Method, Path: r.URL.Path, Start: start, End: time.Now(), Status: cw.status, Bytes: cw.n, Head: cw.head}
	rec.mu.Lock()
	rec.log = append(rec.log, x)
	rec.mu.Unlock()
}

// Exchanges returns what was recorded, in the order the answers ended.
func (rec *Recorder) Exchanges() []Exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]Exchange(nil), rec.log...)
}

// Reset forgets what was recorded.
func (rec *Recorder) Reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.log = nil
}

// Summary totals a set of exchanges.
type Summary struct {
	Requests    int
	Gets        int
	Bytes       int64         // response bytes
	HandlerTime time.Duration // time spent in the handler, summed
}

// Summarize totals xs.
func Summarize(xs []Exchange) Summary {
	var s Summary
	for _, x := range xs {
		s.Requests++
		if x.Method == http.MethodGet {
			s.Gets++
		}
		s.Bytes += x.Bytes
		s.HandlerTime += x.End.Sub(x.Start)
	}
	return s
}

type countingWriter struct {
	http.ResponseWriter
	status int
	n      int64
	head   []byte
}

func (w *countingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *countingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if room := headBytes - len(w.head); room > 0 {
		w.head = append(w.head, b[:min(room, len(b))]...)
	}
	n, err := w.ResponseWriter.Write(b)
	w.n += int64(n)
	return n, err
}
