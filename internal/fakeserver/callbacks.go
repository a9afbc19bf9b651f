package fakeserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// callbackTarget is where and how a final job is sent.
type callbackTarget struct {
	url    string
	method string
}

// callbackFor reads the callback a request asks for, as the client's
// CallbackTarget describes the service's choice.
func callbackFor(req *client.InitTranscriptionRequest) *callbackTarget {
	url, method, ok := req.CallbackTarget()
	if !ok {
		return nil
	}
	return &callbackTarget{url: url, method: method}
}

// delivery is one callback to send, its body built when the job became final.
type delivery struct {
	jobID  string
	target callbackTarget
	body   []byte
}

func newDelivery(j *job) *delivery {
	body := client.CallbackBody{ID: j.id, CustomMetadata: j.customMetadata}
	if j.failure != nil {
		body.Event = client.EventTranscriptionError
		body.Error = &client.CallbackError{Code: j.failure.code, Message: j.failure.message}
	} else {
		body.Event = client.EventTranscriptionSuccess
		body.Payload = j.result
	}
	data, err := marshalJSON(body)
	if err != nil {
		panic("fakeserver: encoding a callback body: " + err.Error())
	}
	return &delivery{jobID: j.id, target: *j.callback, body: data}
}

func (s *Server) settleLoop() {
	defer close(s.loopDone)
	t := time.NewTicker(settleInterval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.startDueDeliveries()
		}
	}
}

// SettleJobs makes final every job whose processing time has elapsed by the
// clock and returns when every callback due by then has been delivered or
// given up on, whoever started it. Tests driving a ManualClock call it after
// Advance; a background loop makes jobs final and starts their callbacks
// every ~20ms.
func (s *Server) SettleJobs() {
	s.startDueDeliveries()
	s.waitForDeliveries()
}

// startDueDeliveries makes final the jobs due by the clock and starts
// sending their callbacks, each on its own, so that a receiver slow to
// answer delays no other job's callback.
func (s *Server) startDueDeliveries() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settleAll()
	for _, d := range s.pending {
		done := make(chan struct{})
		s.delivering[done] = struct{}{}
		// Sent without holding s.mu: a receiver may well call this server.
		go func() {
			defer close(done)
			delivered := s.deliver(d)
			s.mu.Lock()
			defer s.mu.Unlock()
			delete(s.delivering, done)
			if delivered {
				s.stats.CallbacksDelivered++
			} else {
				s.stats.CallbackFailures++
			}
			if s.opts.ZeroDataRetention {
				s.forget(d.jobID)
			}
		}()
	}
	s.pending = nil
}

// waitForDeliveries returns when every callback being sent at its call has
// been delivered or given up on.
func (s *Server) waitForDeliveries() {
	s.mu.Lock()
	inFlight := slices.Collect(maps.Keys(s.delivering))
	s.mu.Unlock()
	for _, done := range inFlight {
		<-done
	}
}

// deliver sends one callback, retrying failures with a doubling backoff.
func (s *Server) deliver(d *delivery) bool {
	wait := s.callbackBackoff
	for attempt := 1; ; attempt++ {
		failure := s.sendCallback(d)
		s.logCallback(d, attempt, failure)
		if failure == "" {
			return true
		}
		if attempt >= s.callbackAttempts {
			return false
		}
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait *= 2
	}
}

// sendCallback makes one attempt to send a callback, returning why it
// failed ("" when it was delivered).
func (s *Server) sendCallback(d *delivery) string {
	req, err := http.NewRequestWithContext(s.ctx, d.target.method, d.target.url, bytes.NewReader(d.body))
	if err != nil {
		return "the URL cannot be requested"
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "transcription-fakeserver")
	resp, err := s.callbackClient.Do(req)
	if err != nil {
		var urlErr *url.Error
		if errors.As(err, &urlErr) { // its text repeats the URL, tokens and all
			err = urlErr.Err
		}
		return err.Error()
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "answered " + resp.Status
	}
	return ""
}

// logCallback gives Options.CallbackLog the outcome of an attempt.
func (s *Server) logCallback(d *delivery, attempt int, failure string) {
	if s.opts.CallbackLog == nil {
		return
	}
	outcome := "delivered"
	switch {
	case failure != "" && s.ctx.Err() != nil:
		outcome = "failed: " + failure + "; not tried again: the server is closing"
	case failure != "" && attempt >= s.callbackAttempts:
		outcome = "failed: " + failure + "; given up"
	case failure != "":
		outcome = "failed: " + failure + "; tried again later"
	}
	s.opts.CallbackLog(fmt.Sprintf("callback of job %s, attempt %d of %d: %s %s %s",
		d.jobID, attempt, s.callbackAttempts, d.target.method, redactURL(d.target.url, nil, true), outcome))
}
