package fakeserver

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// Faults make the server misbehave the way a loaded service does. The zero
// value injects nothing.
type Faults struct {
	// Latency is added to every request (cut short if the client gives up,
	// and by Close).
	Latency time.Duration
	// RateLimitRatio is the share of requests answered 429 with Retry-After.
	RateLimitRatio float64
	// RetryAfter is the Retry-After value in seconds (default 1).
	RetryAfter int
	// ServerErrorRatio is the share of requests answered ServerErrorStatus.
	ServerErrorRatio float64
	// ServerErrorStatus is the 5xx status to answer (default 503).
	ServerErrorStatus int
	// LostAnswerRatio is the share of requests handled as usual whose
	// answer is then lost: the connection closes before any of it is sent,
	// as when a network or a proxy fails after the service acted. A create
	// so answered makes a job (billed) whose id never reaches its client.
	LostAnswerRatio float64
	// Seed chooses which requests fault: the same seed and request order
	// give the same faults.
	Seed int64
}

// MaxLatency bounds the injected latency, as maxOutage bounds an outage: a
// slip of the unit ("100000h") would hold every request until its client
// gave up.
const MaxLatency = time.Hour

// FaultNames names the settings of Faults as their user gave them: a
// control request's JSON keys (ControlFaultNames), a command's flags.
type FaultNames struct {
	Latency, RateLimitRatio, RetryAfter, ServerErrorRatio, ServerErrorStatus, LostAnswerRatio string
}

// ControlFaultNames are the JSON keys of PUT /faults.
var ControlFaultNames = FaultNames{
	Latency:           "latency",
	RateLimitRatio:    "rate_limit_ratio",
	RetryAfter:        "retry_after",
	ServerErrorRatio:  "server_error_ratio",
	ServerErrorStatus: "server_error_status",
	LostAnswerRatio:   "lost_answer_ratio",
}

// Validate reports settings that cannot be honoured, named as in a control
// request: a ratio outside 0..1, ratios adding up past 1, a latency
// outside 0..MaxLatency, a negative Retry-After, or a ServerErrorStatus
// other than 0 (503) or 500..599.
func (f Faults) Validate() error { return f.ValidateNamed(ControlFaultNames) }

// ValidateNamed is Validate with each setting called by its name in names.
func (f Faults) ValidateNamed(names FaultNames) error {
	var problems []string
	for _, r := range []struct {
		name  string
		ratio float64
	}{{names.RateLimitRatio, f.RateLimitRatio}, {names.ServerErrorRatio, f.ServerErrorRatio}, {names.LostAnswerRatio, f.LostAnswerRatio}} {
		if !(r.ratio >= 0 && r.ratio <= 1) { // NaN fails both
			problems = append(problems, fmt.Sprintf("%s must be from 0 to 1, not %v", r.name, r.ratio))
		}
	}
	// Their sum, once each is right: a ratio of 1.5 is one mistake.
	if sum := f.RatioSum(); len(problems) == 0 && sum > MaxRatioSum {
		problems = append(problems, fmt.Sprintf("%s, %s and %s add up to %.12g, more than 1", // 0.7+0.6 is 1.2999999999999998 in floats
			names.RateLimitRatio, names.ServerErrorRatio, names.LostAnswerRatio, sum))
	}
	if f.Latency < 0 || f.Latency > MaxLatency {
		problems = append(problems, fmt.Sprintf("%s must be from 0 to %s, not %s", names.Latency, client.FormatDuration(MaxLatency), client.FormatDuration(f.Latency)))
	}
	if f.RetryAfter < 0 {
		problems = append(problems, names.RetryAfter+" must not be negative")
	}
	if f.ServerErrorStatus != 0 && (f.ServerErrorStatus < 500 || f.ServerErrorStatus > 599) {
		problems = append(problems, fmt.Sprintf("%s must be from 500 to 599, not %d", names.ServerErrorStatus, f.ServerErrorStatus))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// MaxRatioSum is the most the fault ratios may add up to: 1, and what
// floats make of ratios that add up to it in decimals (0.34 + 0.56 + 0.1
// is 1.0000000000000002).
const MaxRatioSum = 1 + 1e-9

// RatioSum is the share of requests that fault one way or another.
func (f Faults) RatioSum() float64 {
	return f.RateLimitRatio + f.ServerErrorRatio + f.LostAnswerRatio
}

type faultState struct {
	cfg Faults
	rng *rand.Rand
}

// SetFaults replaces the fault configuration for the requests that follow.
func (s *Server) SetFaults(f Faults) {
	if f.RetryAfter <= 0 {
		f.RetryAfter = 1
	}
	if f.ServerErrorStatus < 500 || f.ServerErrorStatus > 599 {
		f.ServerErrorStatus = http.StatusServiceUnavailable
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = faultState{cfg: f, rng: rand.New(rand.NewPCG(uint64(f.Seed), 0x5eed))}
}

// injectFault applies the configured faults to one request and reports
// whether it has been dealt with (answered, or abandoned by its client), or
// else whether its answer is to be lost (Faults.LostAnswerRatio).
func (s *Server) injectFault(w http.ResponseWriter, r *http.Request) (dealt, loseAnswer bool) {
	s.mu.Lock()
	cfg := s.faults.cfg
	roll := 1.0 // no fault unless a ratio is set
	if cfg.RatioSum() > 0 {
		roll = s.faults.rng.Float64()
	}
	s.mu.Unlock()

	if cfg.Latency > 0 {
		t := time.NewTimer(cfg.Latency)
		select {
		case <-r.Context().Done():
			t.Stop()
			return true, false
		case <-s.ctx.Done(): // closed: answer now, so a shutdown need not wait out the latency
			t.Stop()
		case <-t.C:
		}
	}
	switch {
	case roll < cfg.RateLimitRatio:
		s.countFault(func(st *Stats) { st.RateLimited++ })
		noteFault(r, ControlFaultNames.RateLimitRatio)
		w.Header().Set("Retry-After", strconv.Itoa(cfg.RetryAfter))
		s.writeError(w, r, http.StatusTooManyRequests, "too many requests; retry after "+strconv.Itoa(cfg.RetryAfter)+"s")
		return true, false
	case roll < cfg.RateLimitRatio+cfg.ServerErrorRatio:
		s.countFault(func(st *Stats) { st.ServerErrors++ })
		noteFault(r, ControlFaultNames.ServerErrorRatio)
		s.writeError(w, r, cfg.ServerErrorStatus, faultMessage(cfg.ServerErrorStatus))
		return true, false
	case roll < cfg.RatioSum():
		noteFault(r, ControlFaultNames.LostAnswerRatio)
		return false, true
	}
	return false, false
}

// unsentWriter takes an answer that is then lost (Faults.LostAnswerRatio):
// nothing of it reaches the connection. It keeps the start of the body for
// the log (AnswerNote.LostAnswer).
type unsentWriter struct {
	header http.Header
	body   cappedBuffer
}

func newUnsentWriter() *unsentWriter {
	return &unsentWriter{header: http.Header{}, body: cappedBuffer{limit: maxLostAnswerNoted}}
}

// maxLostAnswerNoted bounds the start of a lost answer kept for the log:
// enough for a create's or an upload's whole answer.
const maxLostAnswerNoted = 16 << 10

func (w *unsentWriter) Header() http.Header         { return w.header }
func (w *unsentWriter) WriteHeader(int)             {}
func (w *unsentWriter) Write(b []byte) (int, error) { return w.body.Write(b) }

// loseAnswer ends a request whose answer is lost: the server closes its
// connection without sending anything (http.ErrAbortHandler, which it does
// not log). The request listing keeps the status the handler answered,
// which its client never saw, marked lost; r's logger is told the answer.
func (s *Server) loseAnswer(r *http.Request, status int, unsent *unsentWriter) {
	s.countFault(func(st *Stats) { st.AnswersLost++ })
	if note := noteOf(r); note != nil {
		note.LostStatus, note.LostAnswer = status, unsent.body.Bytes()
	}
	panic(http.ErrAbortHandler)
}

// faultMessage is the message of an injected server error: 503's says the
// service cannot take the request now; the others name their status.
func faultMessage(status int) string {
	if status == http.StatusServiceUnavailable {
		return "the service is temporarily unable to handle the request"
	}
	if text := http.StatusText(status); text != "" {
		return "fault injected by the emulator: " + strings.ToLower(text)
	}
	return fmt.Sprintf("fault injected by the emulator: status %d", status)
}

func (s *Server) countFault(count func(*Stats)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	count(&s.stats)
}
