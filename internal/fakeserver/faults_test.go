package fakeserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// statusesUnderFaults sends n GETs and returns the statuses in order.
func statusesUnderFaults(t *testing.T, h *harness, n int) []int {
	t.Helper()
	out := make([]int, n)
	for i := range out {
		resp := h.get("/v2/live?limit=1")
		out[i] = resp.status
		switch resp.status {
		case http.StatusOK:
		case http.StatusTooManyRequests:
			requireError(t, resp, http.StatusTooManyRequests, "/v2/live")
		default:
			requireError(t, resp, resp.status, "/v2/live")
		}
	}
	return out
}

func TestRateLimitFaults(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.SetFaults(Faults{RateLimitRatio: 0.3, RetryAfter: 7, Seed: 1})
	const n = 600
	limited := 0
	for i := range n {
		resp := h.get("/v2/live?limit=1")
		switch resp.status {
		case http.StatusTooManyRequests:
			limited++
			requireError(t, resp, http.StatusTooManyRequests, "/v2/live")
			if got := resp.header.Get("Retry-After"); got != "7" {
				t.Fatalf("request %d: Retry-After %q", i, got)
			}
		case http.StatusOK:
		default:
			t.Fatalf("request %d: status %d", i, resp.status)
		}
	}
	if limited < n*22/100 || limited > n*38/100 {
		t.Fatalf("%d of %d requests limited, want about 30%%", limited, n)
	}
	if st := h.srv.Stats(); st.RateLimited != limited || st.ServerErrors != 0 || st.Requests != n {
		t.Fatalf("stats %+v, limited %d", st, limited)
	}
}

func TestServerErrorFaults(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.SetFaults(Faults{ServerErrorRatio: 0.2, ServerErrorStatus: http.StatusBadGateway, RateLimitRatio: 0.1, Seed: 9})
	statuses := statusesUnderFaults(t, h, 600)
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	if c := counts[http.StatusBadGateway]; c < 80 || c > 160 {
		t.Fatalf("%d of 600 answered 502, want about 120: %v", c, counts)
	}
	if c := counts[http.StatusTooManyRequests]; c < 30 || c > 90 {
		t.Fatalf("%d of 600 answered 429, want about 60: %v", c, counts)
	}
	if len(counts) != 3 {
		t.Fatalf("statuses %v", counts)
	}
	if st := h.srv.Stats(); st.ServerErrors != counts[http.StatusBadGateway] || st.RateLimited != counts[http.StatusTooManyRequests] {
		t.Fatalf("stats %+v, counts %v", st, counts)
	}
}

// An injected server error says what its status means: only a 503 says
// the service cannot take the request now.
func TestServerErrorFaultMessages(t *testing.T) {
	for status, want := range map[int]string{
		http.StatusServiceUnavailable:  "the service is temporarily unable to handle the request",
		http.StatusInternalServerError: "fault injected by the emulator: internal server error",
		http.StatusBadGateway:          "fault injected by the emulator: bad gateway",
		599:                            "fault injected by the emulator: status 599",
	} {
		h := newHarness(t, Options{})
		h.srv.SetFaults(Faults{ServerErrorRatio: 1, ServerErrorStatus: status})
		resp := h.get("/v2/live")
		var body struct {
			Message string `json:"message"`
		}
		if err := json.Unmarshal(resp.body, &body); err != nil || resp.status != status || body.Message != want {
			t.Errorf("status %d, body %s (%v); want %d saying %q", resp.status, resp.body, err, status, want)
		}
	}
}

func TestFaultDefaultsAndReset(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.SetFaults(Faults{RateLimitRatio: 1})
	resp := h.get("/v2/live")
	if resp.status != http.StatusTooManyRequests || resp.header.Get("Retry-After") != "1" {
		t.Fatalf("status %d, Retry-After %q", resp.status, resp.header.Get("Retry-After"))
	}
	h.srv.SetFaults(Faults{ServerErrorRatio: 1, ServerErrorStatus: 404})
	requireError(t, h.get("/v2/live"), http.StatusServiceUnavailable, "/v2/live")
	// Faults come before authentication and routing.
	requireError(t, h.do(http.MethodGet, "/nowhere", "", nil, http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): nil}), http.StatusServiceUnavailable, "/nowhere")
	h.srv.SetFaults(Faults{})
	if resp := h.get("/v2/live"); resp.status != http.StatusOK {
		t.Fatalf("after reset: %d", resp.status)
	}
	// Faulted requests are recorded too.
	reqs := h.srv.Requests()
	if len(reqs) != 4 || reqs[0].Status != http.StatusTooManyRequests || reqs[2].Status != http.StatusServiceUnavailable {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestFaultsAreDeterministicBySeed(t *testing.T) {
	run := func(seed int64) []int {
		h := newHarness(t, Options{})
		h.srv.SetFaults(Faults{RateLimitRatio: 0.25, ServerErrorRatio: 0.25, Seed: seed})
		return statusesUnderFaults(t, h, 60)
	}
	a, b, c := run(42), run(42), run(43)
	if !equalInts(a, b) {
		t.Fatalf("the same seed gave\n%v\n%v", a, b)
	}
	if equalInts(a, c) {
		t.Fatal("different seeds gave the same faults")
	}
}

func TestLatency(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.SetFaults(Faults{Latency: 60 * time.Millisecond})
	start := time.Now()
	if resp := h.get("/v2/live"); resp.status != http.StatusOK {
		t.Fatalf("status %d", resp.status)
	}
	if elapsed := time.Since(start); elapsed < 60*time.Millisecond {
		t.Fatalf("answered after %v, want at least the 60ms latency", elapsed)
	}
}

func TestLatencyHonoursCancellation(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.SetFaults(Faults{Latency: time.Minute})

	// Over HTTP the client gives up at its deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.url+"/v2/live", nil)
	req.Header.Set(client.ServiceKeyHeader, testKey)
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}

	// And the handler returns as soon as the request's context is done,
	// without answering.
	ctx, cancel = context.WithCancel(context.Background())
	direct := httptest.NewRequest(http.MethodGet, "/v2/live", nil).WithContext(ctx)
	direct.Header.Set(client.ServiceKeyHeader, testKey)
	time.AfterFunc(30*time.Millisecond, cancel)
	rec := httptest.NewRecorder()
	start := time.Now()
	h.srv.ServeHTTP(rec, direct)
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Fatalf("the handler waited %v after cancellation", elapsed)
	}
	if rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" {
		t.Fatalf("a cancelled request was answered: %d %s", rec.Code, rec.Body)
	}
	if reqs := h.srv.Requests(); reqs[len(reqs)-1].Status != statusClientGone {
		t.Fatalf("recorded status %d, want %d (no answer: the client went away)", reqs[len(reqs)-1].Status, statusClientGone)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A lost answer (Faults.LostAnswerRatio): the request is handled as usual,
// and its connection closes before any of the answer is sent, so that a
// pipeline can rehearse a create whose job is made (and billed) while its
// client never learns its id. Injected latency could not: it drops a
// request whose client gave up before handling it.
func TestLostAnswer(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.SetFaults(Faults{LostAnswerRatio: 1})
	req, _ := http.NewRequest(http.MethodPost, h.url+"/v2/pre-recorded", strings.NewReader(`{"audio_url":"https://media.example.com/a.wav"}`))
	req.Header.Set(client.ServiceKeyHeader, testKey)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the create was answered %d, want its answer lost", resp.StatusCode)
	}
	h.srv.SetFaults(Faults{})
	if n := h.srv.JobCount(); n != 1 {
		t.Fatalf("%d jobs, want the one the create whose answer was lost made", n)
	}
	if st := h.srv.Stats(); st.AnswersLost != 1 || st.JobsCreated != 1 {
		t.Errorf("stats %+v, want 1 answer lost and 1 job created", st)
	}
	if reqs := h.srv.Requests(); len(reqs) != 1 || reqs[0].Status != http.StatusCreated {
		t.Errorf("requests %+v, want the create recorded with the 201 its client never saw", reqs)
	}
}

// Each problem of a fault configuration is said once, in the words of
// where it was given: a ratio out of range is not also a sum past 1, and
// the latency's bound is written as a user gives one.
func TestFaultsValidateNamed(t *testing.T) {
	flags := FaultNames{Latency: "-latency", RateLimitRatio: "-rate-limit-ratio", RetryAfter: "-retry-after",
		ServerErrorRatio: "-server-error-ratio", ServerErrorStatus: "-server-error-status", LostAnswerRatio: "-lost-answer-ratio"}
	for _, tc := range []struct {
		faults Faults
		names  FaultNames
		want   string
	}{
		{Faults{RateLimitRatio: 1.5}, flags, "-rate-limit-ratio must be from 0 to 1, not 1.5"},
		{Faults{RateLimitRatio: 0.5, LostAnswerRatio: 0.75}, flags, "-rate-limit-ratio, -server-error-ratio and -lost-answer-ratio add up to 1.25, more than 1"},
		{Faults{Latency: 2 * time.Hour}, flags, "-latency must be from 0 to 1h, not 2h"},
		{Faults{Latency: -time.Second, ServerErrorStatus: 404}, ControlFaultNames, "latency must be from 0 to 1h, not -1s; server_error_status must be from 500 to 599, not 404"},
		{Faults{ServerErrorStatus: 0, RetryAfter: 0}, ControlFaultNames, ""},
	} {
		err := tc.faults.ValidateNamed(tc.names)
		if got := fmt.Sprint(err); (tc.want == "" && err != nil) || (tc.want != "" && got != tc.want) {
			t.Errorf("%+v: %v, want %q", tc.faults, err, tc.want)
		}
	}
}
