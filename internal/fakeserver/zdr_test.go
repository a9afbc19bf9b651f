package fakeserver

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// Under zero data retention no transcript or metadata can be retrieved
// through the API (the spec), live sessions' included.
func TestZeroDataRetentionDisablesUploadAndRetrieval(t *testing.T) {
	h := newHarness(t, Options{ZeroDataRetention: true, ProcessingTime: time.Minute, LiveJobs: 3})
	id := h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"https://hooks.example.com/x"}`).ID
	liveID := h.srv.live.ordered()[0].id

	body, ct := multipartFile(t, "audio", "a.wav", testutil.SilentWAV(1, 1, 8000))
	for _, c := range []struct {
		resp testResponse
		path string
	}{
		{h.do(http.MethodPost, "/v2/upload", ct, body, nil), "/v2/upload"},
		{h.get("/v2/pre-recorded/" + id), "/v2/pre-recorded/" + id},
		{h.get("/v2/transcription/" + id), "/v2/transcription/" + id},
		{h.get("/v2/pre-recorded/unknown"), "/v2/pre-recorded/unknown"},
		{h.get("/v2/pre-recorded"), "/v2/pre-recorded"},
		{h.get("/v2/pre-recorded/" + id + "/file"), "/v2/pre-recorded/" + id + "/file"},
		{h.get("/v2/live/" + id + "/file"), "/v2/live/" + id + "/file"},
		{h.get("/v2/live"), "/v2/live"},
		{h.get("/v2/transcription?kind=live"), "/v2/transcription"},
		{h.get("/v2/live/" + liveID), "/v2/live/" + liveID},
	} {
		e := requireError(t, c.resp, http.StatusForbidden, c.path)
		if !strings.Contains(e.Message, "zero data retention") {
			t.Fatalf("%s: message %q", c.path, e.Message)
		}
	}
	// Without the key it is still a 401.
	requireError(t, h.do(http.MethodGet, "/v2/pre-recorded/"+id, "", nil, http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): nil}), http.StatusUnauthorized, "/v2/pre-recorded/"+id)
	// A job in progress is kept until it is final.
	if h.srv.JobCount() != 1 {
		t.Fatalf("JobCount %d", h.srv.JobCount())
	}
}

func TestZeroDataRetentionForgetsAJobOnceItsCallbackIsDelivered(t *testing.T) {
	h := newHarness(t, Options{ZeroDataRetention: true, ProcessingTime: 4 * time.Second})
	rcv := newCallbackReceiver(t)
	id := h.create(`{"audio_url":"https://example.com/a.wav","callback":true,"callback_config":{"url":"` + rcv.url + `"}}`).ID
	failed := h.create(`{"audio_url":"https://example.com/fail.wav","callback":true,"callback_config":{"url":"` + rcv.url + `"}}`).ID
	if h.srv.JobCount() != 2 {
		t.Fatalf("JobCount %d", h.srv.JobCount())
	}
	h.clock.Advance(4 * time.Second)
	h.srv.SettleJobs()

	events := map[string]string{}
	for range 2 {
		body, _ := decodeCallback(t, rcv.next(t))
		events[body.ID] = body.Event
	}
	if events[id] != client.EventTranscriptionSuccess || events[failed] != client.EventTranscriptionError {
		t.Fatalf("callbacks %v", events)
	}
	if n := h.srv.JobCount(); n != 0 {
		t.Fatalf("JobCount %d after delivery, want 0", n)
	}
	if _, ok := h.srv.Job(id); ok {
		t.Fatal("the job is still visible")
	}
	requireError(t, h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil), http.StatusNotFound, "/v2/pre-recorded/"+id)
}

func TestZeroDataRetentionForgetsAFailedDelivery(t *testing.T) {
	h := newHarness(t, Options{ZeroDataRetention: true, ProcessingTime: time.Second})
	id := h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"http://127.0.0.1:1/unreachable"}`).ID
	h.clock.Advance(500 * time.Millisecond)
	// Refused, without the status no other answer discloses.
	resp := h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil)
	if body := requireError(t, resp, http.StatusForbidden, "/v2/pre-recorded/"+id); strings.Contains(body.Message, "processing") {
		t.Fatalf("DELETE while processing answered %q", body.Message)
	}
	h.clock.Advance(500 * time.Millisecond)
	h.srv.SettleJobs()
	if n := h.srv.JobCount(); n != 0 {
		t.Fatalf("JobCount %d, want 0", n)
	}
	if st := h.srv.Stats(); st.CallbackFailures != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// Results are delivered only through callbacks under zero data retention,
// so a callback must be configured in each request (the spec): a request
// without one, or whose callback_config is unused (callback false), is
// refused before any job is made.
func TestZeroDataRetentionRequiresACallback(t *testing.T) {
	h := newHarness(t, Options{ZeroDataRetention: true})
	for _, body := range []string{
		`{"audio_url":"https://example.com/a.wav"}`,
		`{"audio_url":"https://example.com/a.wav","callback_config":{"url":"https://hooks.example.com/x"}}`,
	} {
		resp := h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(body), nil)
		e := requireError(t, resp, http.StatusUnprocessableEntity, "/v2/pre-recorded")
		if !strings.Contains(strings.Join(e.ValidationErrors, "\n"), "a callback is required under zero data retention") {
			t.Errorf("%s: %+v", body, e)
		}
	}
	if n := h.srv.JobCount(); n != 0 {
		t.Fatalf("JobCount %d, want 0", n)
	}
}

// Uploads are disabled under zero data retention, so audio_url must be an
// external URL (the spec): one on this server's host (an upload's, or any
// other path) is refused before any job is made, as
// the provider refuses it at plan; an external one is accepted.
func TestZeroDataRetentionRequiresAnExternalAudioURL(t *testing.T) {
	h := newHarness(t, Options{ZeroDataRetention: true})
	const callback = `"callback":true,"callback_config":{"url":"https://hooks.example.com/x"}`
	for _, audioURL := range []string{
		h.url + "/file/0badc0de-0000-4000-8000-000000000000",
		h.url + "/media/a.wav",
	} {
		body := fmt.Sprintf(`{"audio_url":%q,%s}`, audioURL, callback)
		resp := h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(body), nil)
		e := requireError(t, resp, http.StatusUnprocessableEntity, "/v2/pre-recorded")
		if !strings.Contains(strings.Join(e.ValidationErrors, "\n"), "audio_url must be an external URL under zero data retention") {
			t.Errorf("%s: %+v", body, e)
		}
	}
	if n := h.srv.JobCount(); n != 0 {
		t.Fatalf("JobCount %d, want 0", n)
	}
	h.create(`{"audio_url":"https://example.com/file/a.wav",` + callback + `}`)

	// The host as HTTP compares it: without case, the scheme's default
	// port the same as none, on either side.
	for host, cases := range map[string]map[string]bool{
		"api.example.com": {
			"https://API.example.com:443/file/x": true, "http://api.example.com:80/media/a.wav": true,
			"https://api.example.com:8443/a.wav": false, "https://cdn.example.com/a.wav": false,
		},
		"api.example.com:443": {"https://api.example.com/file/x": true, "http://api.example.com/a.wav": false},
	} {
		for audioURL, refused := range cases {
			resp := serveAt(h.srv, host, http.MethodPost, "/v2/pre-recorded", "application/json", fmt.Appendf(nil, `{"audio_url":%q,%s}`, audioURL, callback))
			if got := resp.status == http.StatusUnprocessableEntity; got != refused {
				t.Errorf("sent to %s, audio_url %s: status %d, want refused %t: %s", host, audioURL, resp.status, refused, resp.body)
			}
		}
	}
}

// A job whose retention has ended answers 404 from the first look on, under
// zero data retention as without it: the first request after the end (here
// a DELETE, which zero data retention leaves enabled) made the job final and
// expired it, yet answered as if the job were still kept (202), and only the
// next one answered 404. Its callback is delivered all the same.
func TestRetentionEndsAJobAlikeUnderZeroDataRetention(t *testing.T) {
	for _, zdr := range []bool{false, true} {
		t.Run(fmt.Sprintf("zero_data_retention=%v", zdr), func(t *testing.T) {
			h := newHarness(t, Options{ZeroDataRetention: zdr, Retention: time.Second, ProcessingTime: time.Second})
			rcv := newCallbackReceiver(t)
			id := h.create(`{"audio_url":"https://example.com/a.wav","callback_url":"` + rcv.url + `"}`).ID
			h.clock.Advance(5 * time.Second) // final at 1s, retained until 2s
			requireError(t, h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil), http.StatusNotFound, "/v2/pre-recorded/"+id)
			if _, ok := h.srv.Job(id); ok {
				t.Fatal("the expired job is still visible")
			}
			h.srv.SettleJobs()
			if rcv.count() != 1 {
				t.Fatalf("%d callbacks, want 1", rcv.count())
			}
		})
	}
}

// Under zero data retention an audio_url on the service's own host is
// refused whatever the case of its host name (host names are
// case-insensitive), as the provider refuses it at plan.
func TestZeroDataRetentionOwnHostIgnoresCase(t *testing.T) {
	h := newHarness(t, Options{ZeroDataRetention: true})
	const callback = `"callback":true,"callback_config":{"url":"https://hooks.example.com/x"}`
	for _, c := range []struct {
		host, audioURL string
		want           int
	}{
		{"service.example", "http://service.example/file/0badc0de", http.StatusUnprocessableEntity},
		{"service.example", "http://SERVICE.example/media/a.wav", http.StatusUnprocessableEntity},
		{"service.example", "http://other.example/media/a.wav", http.StatusCreated},
	} {
		t.Run(c.host+" "+c.audioURL, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, h.url+"/v2/pre-recorded",
				strings.NewReader(fmt.Sprintf(`{"audio_url":%q,%s}`, c.audioURL, callback)))
			if err != nil {
				t.Fatal(err)
			}
			req.Host = c.host
			req.Header.Set(client.ServiceKeyHeader, testKey)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.want, body)
			}
			if c.want != http.StatusCreated && !strings.Contains(string(body), "audio_url must be an external URL under zero data retention") {
				t.Fatalf("body %s", body)
			}
		})
	}
}
