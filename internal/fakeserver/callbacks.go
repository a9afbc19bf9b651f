package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
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
	data, err := json.Marshal(body)
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
			s.SettleJobs()
		}
	}
}

// SettleJobs makes final every job whose processing time has elapsed by the
// clock and delivers the callbacks that are due, returning when each has
// been delivered or given up on. Tests driving a ManualClock call it after
// Advance; a background loop calls it every ~20ms.
func (s *Server) SettleJobs() {
	s.settleMu.Lock()
	defer s.settleMu.Unlock()

	s.mu.Lock()
	s.settleAll()
	due := s.pending
	s.pending = nil
	s.mu.Unlock()

	if len(due) == 0 {
		return
	}
	// Deliver without holding s.mu: a receiver may well call this server.
	delivered := make([]bool, len(due))
	var wg sync.WaitGroup
	for i, d := range due {
		wg.Go(func() { delivered[i] = s.deliver(d) })
	}
	wg.Wait()

	s.mu.Lock()
	defer s.mu.Unlock()
	for i, d := range due {
		if delivered[i] {
			s.stats.CallbacksDelivered++
		} else {
			s.stats.CallbackFailures++
		}
		if s.opts.ZeroDataRetention {
			s.forget(d.jobID)
		}
	}
}

// deliver sends one callback, retrying failures with a doubling backoff.
func (s *Server) deliver(d *delivery) bool {
	wait := s.callbackBackoff
	for attempt := 1; ; attempt++ {
		if s.sendCallback(d) {
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

func (s *Server) sendCallback(d *delivery) bool {
	req, err := http.NewRequestWithContext(s.ctx, d.target.method, d.target.url, bytes.NewReader(d.body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "transcription-fakeserver")
	resp, err := s.callbackClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode >= 200 && resp.StatusCode < 300
}
