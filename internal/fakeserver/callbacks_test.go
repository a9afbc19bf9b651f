package fakeserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

func decodeCallback(t *testing.T, c receivedCallback) (client.CallbackBody, map[string]json.RawMessage) {
	t.Helper()
	if ct := c.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("callback Content-Type %q", ct)
	}
	if c.header.Get(client.ServiceKeyHeader) != "" {
		t.Fatal("the API key was sent to the callback URL")
	}
	var body client.CallbackBody
	var raw map[string]json.RawMessage
	decodeInto(t, c.body, &body)
	decodeInto(t, c.body, &raw)
	return body, raw
}

func TestSuccessCallback(t *testing.T) {
	for _, method := range []string{"", "POST", "PUT"} {
		t.Run("method "+method, func(t *testing.T) {
			h := newHarness(t, Options{ProcessingTime: 10 * time.Second})
			rcv := newCallbackReceiver(t)
			methodField := ""
			if method != "" {
				methodField = `,"method":"` + method + `"`
			}
			id := h.create(`{"audio_url":"https://example.com/a.wav","callback":true,
				"callback_config":{"url":"` + rcv.url + `"` + methodField + `},"custom_metadata":{"team":"a","n":2,"html":"<R&D>"}}`).ID

			h.clock.Advance(9 * time.Second)
			h.srv.SettleJobs()
			if rcv.count() != 0 {
				t.Fatal("a callback was sent before the job was final")
			}
			h.clock.Advance(time.Second)
			h.srv.SettleJobs()

			c := rcv.next(t)
			wantMethod := method
			if wantMethod == "" {
				wantMethod = http.MethodPost
			}
			if c.method != wantMethod {
				t.Fatalf("method %s, want %s", c.method, wantMethod)
			}
			body, raw := decodeCallback(t, c)
			if body.ID != id || body.Event != client.EventTranscriptionSuccess || body.Payload == nil || body.Error != nil {
				t.Fatalf("callback body %s", c.body)
			}
			if !reflect.DeepEqual(body.CustomMetadata, client.Metadata{"team": "a", "n": json.Number("2"), "html": "<R&D>"}) {
				t.Fatalf("custom_metadata %v", body.CustomMetadata)
			}
			// As the service writes JSON: "<" and "&" as they are.
			if !bytes.Contains(c.body, []byte(`"<R&D>"`)) {
				t.Fatalf("the callback body escapes HTML's characters: %s", c.body)
			}
			job := h.job(id)
			if !reflect.DeepEqual(*body.Payload, *job.Result) {
				t.Fatal("the payload is not the job's result")
			}
			if _, ok := raw["error"]; ok {
				t.Fatal("a success callback carries an error field")
			}
			h.srv.SettleJobs()
			if rcv.count() != 0 {
				t.Fatal("the callback was sent twice")
			}
			if st := h.srv.Stats(); st.CallbacksDelivered != 1 || st.CallbackFailures != 0 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

func TestFailureCallback(t *testing.T) {
	h := newHarness(t, Options{})
	rcv := newCallbackReceiver(t)
	id := h.create(`{"audio_url":"https://example.com/fail-422.wav","callback_url":"` + rcv.url + `"}`).ID
	h.srv.SettleJobs()
	c := rcv.next(t)
	if c.method != http.MethodPost {
		t.Fatalf("method %s", c.method)
	}
	body, raw := decodeCallback(t, c)
	if body.ID != id || body.Event != client.EventTranscriptionError || body.Error == nil || body.Error.Code != 422 || body.Error.Message == "" {
		t.Fatalf("callback body %s", c.body)
	}
	if _, ok := raw["payload"]; ok {
		t.Fatal("a failure callback carries a payload")
	}
	if string(raw["custom_metadata"]) != "null" {
		t.Fatalf("custom_metadata %s, want null", raw["custom_metadata"])
	}
}

func TestCallbackTargets(t *testing.T) {
	cases := []struct {
		name, fields string
		want         string // method expected, "" for no callback
		wantLegacy   bool   // whether the legacy URL is the one called
	}{
		{name: "callback false ignores callback_config", fields: `"callback":false,"callback_config":{"url":"NEW"}`},
		{name: "callback_config without callback", fields: `"callback_config":{"url":"NEW","method":"PUT"}`},
		{name: "callback_url alone", fields: `"callback_url":"OLD"`, want: "POST", wantLegacy: true},
		{name: "callback true with callback_url", fields: `"callback":true,"callback_url":"OLD"`, want: "POST", wantLegacy: true},
		{name: "callback_config wins over callback_url", fields: `"callback":true,"callback_config":{"url":"NEW","method":"PUT"},"callback_url":"OLD"`, want: "PUT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			newer, older := newCallbackReceiver(t), newCallbackReceiver(t)
			fields := strings.NewReplacer("NEW", newer.url, "OLD", older.url).Replace(c.fields)
			h.create(`{"audio_url":"https://example.com/a.wav",` + fields + `}`)
			h.srv.SettleJobs()
			switch {
			case c.want == "":
				if newer.count()+older.count() != 0 {
					t.Fatal("a callback was sent though none was asked for")
				}
			case c.wantLegacy:
				if got := older.next(t).method; got != c.want || newer.count() != 0 {
					t.Fatalf("legacy URL got %s; other got %d", got, newer.count())
				}
			default:
				if got := newer.next(t).method; got != c.want || older.count() != 0 {
					t.Fatalf("callback_config URL got %s; legacy got %d", got, older.count())
				}
			}
		})
	}
}

func TestCallbackDeliveryRetries(t *testing.T) {
	h := newHarness(t, Options{})
	flaky := newCallbackReceiver(t, http.StatusInternalServerError, http.StatusBadGateway)
	h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + flaky.url + `"}`)
	h.srv.SettleJobs()
	if flaky.count() != 3 {
		t.Fatalf("%d attempts, want 3 (two failures then success)", flaky.count())
	}
	if st := h.srv.Stats(); st.CallbacksDelivered != 1 || st.CallbackFailures != 0 {
		t.Fatalf("stats %+v", st)
	}

	down := newCallbackReceiver(t, 500, 500, 500, 500)
	h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + down.url + `"}`)
	h.srv.SettleJobs()
	if down.count() != 3 {
		t.Fatalf("%d attempts, want 3", down.count())
	}
	if st := h.srv.Stats(); st.CallbacksDelivered != 1 || st.CallbackFailures != 1 {
		t.Fatalf("stats %+v", st)
	}

	// An unreachable receiver counts as a failure too.
	h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"http://127.0.0.1:1/hook"}`)
	h.srv.SettleJobs()
	if st := h.srv.Stats(); st.CallbackFailures != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// With the real clock nobody calls SettleJobs: the background loop finalizes
// the job and delivers its callback.
func TestBackgroundLoopDeliversCallbacks(t *testing.T) {
	h := newHarness(t, Options{Clock: realClock{}, ProcessingTime: 40 * time.Millisecond})
	rcv := newCallbackReceiver(t)
	id := h.create(`{"audio_url":"https://example.com/a.wav","callback":true,"callback_config":{"url":"` + rcv.url + `"}}`).ID
	select {
	case c := <-rcv.received:
		body, _ := decodeCallback(t, c)
		if body.ID != id || body.Event != client.EventTranscriptionSuccess {
			t.Fatalf("callback %s", c.body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the background loop delivered no callback")
	}
}

func TestCloseStopsTheLoop(t *testing.T) {
	s := New(Options{})
	s.Close()
	s.Close() // idempotent
	select {
	case <-s.loopDone:
	default:
		t.Fatal("the loop is still running")
	}
}

// TestCallbackRedirectStatusIsAFailure: only a 2xx answer delivers a
// callback, and a redirect is not followed: a 3xx is a failed attempt,
// retried and finally counted as a failure. The spec has the result sent to
// the callback URL with POST or PUT; a client following a 302 sends a GET
// without it elsewhere, which must not count as delivered.
func TestCallbackRedirectStatusIsAFailure(t *testing.T) {
	for _, status := range []int{http.StatusMultipleChoices, http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusNotModified, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			h := newHarness(t, Options{})
			rcv := newCallbackReceiver(t, status, status, status)
			h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + rcv.url + `"}`)
			h.srv.SettleJobs()
			if rcv.count() != 3 {
				t.Fatalf("%d attempts, want 3", rcv.count())
			}
			if st := h.srv.Stats(); st.CallbacksDelivered != 0 || st.CallbackFailures != 1 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// Close abandons a delivery waiting to retry (Server.Close's contract):
// neither Close nor the SettleJobs delivering it waits out the backoff, and
// the delivery counts as failed.
func TestCloseAbandonsACallbackWaitingToRetry(t *testing.T) {
	down := newCallbackReceiver(t, 500, 500, 500)
	h := newHarness(t, Options{})
	// Retries 20 s and 40 s later: far past the 10 s allowed below, and
	// waited out they still end the test within a minute.
	h.srv.callbackBackoff = 20 * time.Second
	h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + down.url + `"}`)
	settled := make(chan struct{})
	go func() {
		h.srv.SettleJobs() // or the background loop's, whichever takes the delivery first
		close(settled)
	}()
	// Bounds on the waits, so that a delivery that never starts, or one
	// that waits out its backoff, fails the test instead of hanging it.
	select {
	case <-down.received: // the first attempt failed; the retry waits 20 s
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery attempt")
	}
	closed := make(chan struct{})
	go func() {
		h.srv.Close()
		close(closed)
	}()
	for _, done := range []chan struct{}{closed, settled} {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Close, or the SettleJobs delivering the callback, waits out its backoff")
		}
	}
	if st := h.srv.Stats(); st.CallbackFailures != 1 || st.CallbacksDelivered != 0 || down.count() != 0 {
		t.Fatalf("stats %+v, %d more attempts: want one failure and no retry", st, down.count())
	}
}

// A receiver that does not answer delays no other job's callback: the
// background loop sends each on its own, as the service's deliveries do not
// queue behind one another.
func TestSlowCallbackReceiverDelaysNoOther(t *testing.T) {
	h := newHarness(t, Options{})
	reached, release := make(chan struct{}, 10), make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() { close(release) }) // before hanging.Close, which waits for its handlers
	h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + hanging.URL + `/hook"}`)
	select {
	case <-reached:
	case <-time.After(10 * time.Second):
		t.Fatal("the background loop sent no callback")
	}

	fast := newCallbackReceiver(t)
	id := h.create(`{"audio_url":"https://example.com/b.wav","callback_url":"` + fast.url + `"}`).ID
	select {
	case c := <-fast.received:
		if body, _ := decodeCallback(t, c); body.ID != id {
			t.Fatalf("callback %s", c.body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a callback waits for another receiver that does not answer")
	}
}

// Options.CallbackLog gets a line for each attempt, saying what became of
// it, with the URL's token redacted.
func TestCallbackLog(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	h := newHarness(t, Options{CallbackLog: func(line string) { mu.Lock(); lines = append(lines, line); mu.Unlock() }})
	flaky := newCallbackReceiver(t, http.StatusBadGateway)
	const token = "sk_live_0123456789abcdef0123"
	id := h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + flaky.url + `/hooks/` + token + `"}`).ID
	h.srv.SettleJobs()
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 2 {
		t.Fatalf("lines %q, want one per attempt (a failure, then the delivery)", lines)
	}
	for i, want := range []string{"attempt 1 of 3: POST " + flaky.url + "/hooks/REDACTED failed: answered 502 Bad Gateway; tried again later", "attempt 2 of 3: POST " + flaky.url + "/hooks/REDACTED delivered"} {
		if !strings.Contains(lines[i], id) || !strings.Contains(lines[i], want) {
			t.Errorf("line %d %q, want job %s and %q", i, lines[i], id, want)
		}
		if strings.Contains(lines[i], token) {
			t.Errorf("line %d %q shows the token", i, lines[i])
		}
	}
}
