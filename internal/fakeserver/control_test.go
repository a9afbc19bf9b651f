package fakeserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// control sends a request to the control interface with the test key.
func (h *harness) control(method, path, body string) testResponse {
	h.t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	return h.do(method, ControlPrefix+path, ct, []byte(body), nil)
}

func TestControl_authenticatedNotRecordedNotFaulted(t *testing.T) {
	h := newHarness(t, Options{})
	for _, key := range []string{"", "wrong"} {
		resp := h.do(http.MethodGet, ControlPrefix+"/stats", "", nil, http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): {key}})
		requireError(t, resp, http.StatusUnauthorized, ControlPrefix+"/stats")
	}
	// Every service request faulted: the control interface still answers,
	// and can clear the faults.
	h.srv.SetFaults(Faults{ServerErrorRatio: 1})
	if resp := h.control(http.MethodGet, "/faults", ""); resp.status != http.StatusOK {
		t.Fatalf("GET faults under 100%% faults: %d %s", resp.status, resp.body)
	}
	if resp := h.control(http.MethodDelete, "/faults", ""); resp.status != http.StatusOK {
		t.Fatalf("DELETE faults: %d %s", resp.status, resp.body)
	}
	if resp := h.get("/v2/live"); resp.status != http.StatusOK {
		t.Fatalf("GET /v2/live after the faults were cleared: %d", resp.status)
	}
	if reqs := h.srv.Requests(); len(reqs) != 1 || reqs[0].Path != "/v2/live" {
		t.Fatalf("recorded %+v: want only the service request", reqs)
	}
}

func TestControl_faults(t *testing.T) {
	h := newHarness(t, Options{})
	cases := []struct {
		name, body string
		status     int
		want       faultsWire // when status is 200
		problem    string     // in the message otherwise
	}{
		{"every field", `{"latency":"10ms","rate_limit_ratio":0.25,"retry_after":4,"server_error_ratio":0.5,"server_error_status":502,"seed":7}`,
			http.StatusOK, faultsWire{Latency: "10ms", RateLimitRatio: 0.25, RetryAfter: 4, ServerErrorRatio: 0.5, ServerErrorStatus: 502, Seed: 7}, ""},
		{"defaults filled in", `{"rate_limit_ratio":1}`,
			http.StatusOK, faultsWire{Latency: "0s", RateLimitRatio: 1, RetryAfter: 1, ServerErrorStatus: 503}, ""},
		{"ratio too large", `{"rate_limit_ratio":1.5}`, http.StatusBadRequest, faultsWire{}, "from 0 to 1"},
		{"answers lost", `{"lost_answer_ratio":0.25,"seed":3}`,
			http.StatusOK, faultsWire{Latency: "0s", RetryAfter: 1, ServerErrorStatus: 503, LostAnswerRatio: 0.25, Seed: 3}, ""},
		{"lost-answer ratio too large", `{"lost_answer_ratio":2}`, http.StatusBadRequest, faultsWire{}, "lost_answer_ratio must be from 0 to 1, not 2"},
		{"ratios add past 1", `{"rate_limit_ratio":0.7,"server_error_ratio":0.6}`, http.StatusBadRequest, faultsWire{}, "rate_limit_ratio, server_error_ratio and lost_answer_ratio add up to 1.3, more than 1"}, // not 1.2999999999999998
		{"three ratios adding up to 1", `{"rate_limit_ratio":0.34,"server_error_ratio":0.56,"lost_answer_ratio":0.1}`, // 1.0000000000000002 in floats
			http.StatusOK, faultsWire{Latency: "0s", RateLimitRatio: 0.34, RetryAfter: 1, ServerErrorRatio: 0.56, ServerErrorStatus: 503, LostAnswerRatio: 0.1}, ""},
		{"three ratios add past 1", `{"rate_limit_ratio":0.5,"server_error_ratio":0.25,"lost_answer_ratio":0.5}`, http.StatusBadRequest, faultsWire{}, "rate_limit_ratio, server_error_ratio and lost_answer_ratio add up to 1.25, more than 1"},
		{"bad latency", `{"latency":"soon"}`, http.StatusBadRequest, faultsWire{}, "latency"},
		{"bad status", `{"server_error_ratio":0.1,"server_error_status":404}`, http.StatusBadRequest, faultsWire{}, "500 to 599"},
		{"unknown field", `{"latency":"1s","ratio":1}`, http.StatusBadRequest, faultsWire{}, "unknown field"},
		{"not JSON", `latency=1s`, http.StatusBadRequest, faultsWire{}, "JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.srv.SetFaults(Faults{})
			resp := h.control(http.MethodPut, "/faults", c.body)
			if c.status != http.StatusOK {
				body := requireError(t, resp, c.status, ControlPrefix+"/faults")
				if !strings.Contains(body.Message, c.problem) {
					t.Fatalf("message %q does not say %q", body.Message, c.problem)
				}
				if got := h.srv.Faults(); got.RateLimitRatio != 0 || got.ServerErrorRatio != 0 || got.Latency != 0 {
					t.Fatalf("a refused PUT changed the faults: %+v", got)
				}
				return
			}
			var got faultsWire
			decodeInto(t, resp.body, &got)
			if resp.status != http.StatusOK || got != c.want {
				t.Fatalf("PUT: %d %+v, want %+v", resp.status, got, c.want)
			}
			var again faultsWire
			decodeInto(t, h.control(http.MethodGet, "/faults", "").body, &again)
			if again != c.want {
				t.Fatalf("GET after PUT: %+v", again)
			}
		})
	}
	// The faults take effect on the service's paths.
	h.control(http.MethodPut, "/faults", `{"rate_limit_ratio":1,"retry_after":3}`)
	resp := h.get("/v2/live")
	requireError(t, resp, http.StatusTooManyRequests, "/v2/live")
	if resp.header.Get("Retry-After") != "3" {
		t.Fatalf("Retry-After %q", resp.header.Get("Retry-After"))
	}
}

// controlPage is the answer of GET /_emulator/requests.
type controlPage struct {
	Requests  []requestWire `json:"requests"`
	LastSeq   int           `json:"last_seq"`
	NextAfter int           `json:"next_after"`
	Pending   []int         `json:"pending"`
}

// A create whose keys are in another case is refused (400), and the
// listing shows its body: the URLs in it are redacted all the same.
func TestControl_requestsWithoutSecretsInKeysOfAnotherCase(t *testing.T) {
	h := newHarness(t, Options{})
	resp := h.postCreate(`{"AUDIO_URL":"https://e.com/a.wav?sig=upp3rs1g","Callback_Config":{"URL":"https://hooks.example.com/cb?token=upp3rt0k"},"Callback_URL":"https://h.example.com/x?t=upp3rcb"}`)
	if resp.status != http.StatusBadRequest {
		t.Fatalf("create with keys in upper case: %d", resp.status)
	}
	// Nor when the values are not of the types the create wants.
	h.postCreate(`{"audio_url":["https://e.com/a.wav?X-Amz-Signature=l1sts1g"],"callback_config":[{"url":"https://hooks.example.com/cb?token=l1stt0k"}],"callback_url":{"u":"https://h.example.com/x?t=0bjcb"}}`)
	raw := string(h.control(http.MethodGet, "/requests", "").body)
	for _, secret := range []string{"upp3rs1g", "upp3rt0k", "upp3rcb", "l1sts1g", "l1stt0k", "0bjcb"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the listing holds %q: %s", secret, raw)
		}
	}
}

// A URL under any other name (a misspelled callbackUrl, which the create
// refuses; custom_metadata; within text) is listed without its secrets too.
func TestControl_requestsWithoutSecretsUnderOtherNames(t *testing.T) {
	h := newHarness(t, Options{})
	create := `{"audio_url":"https://media.example.com/a.wav","callbackUrl":"https://hooks.example.com/x?access_token=LegacyTok777",` +
		`"custom_metadata":{"links":["https://u:Pw0rd@cdn.example.com/a"],"note":"sent to https://h.example.com/?k=Secr3tK"},` +
		`"callback_config":{"url":"https://hooks.example.com/y","method":"POST","extra":"https://hooks.example.com/z?t=Tok3nZ"}}`
	h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(create), nil)
	resp := h.control(http.MethodGet, "/requests", "")
	for _, secret := range []string{"LegacyTok777", "Pw0rd", "Secr3tK", "Tok3nZ"} {
		if strings.Contains(string(resp.body), secret) {
			t.Errorf("the listing holds %q: %s", secret, resp.body)
		}
	}
	var page controlPage
	decodeInto(t, resp.body, &page)
	var sent map[string]any
	decodeInto(t, page.Requests[0].Body, &sent)
	if got := sent["callbackUrl"]; got != "https://hooks.example.com/x?access_token=REDACTED" {
		t.Errorf("callbackUrl listed as %q", got)
	}
}

func TestControl_requestsWithoutSecrets(t *testing.T) {
	h := newHarness(t, Options{})
	create := `{"audio_url":"https://user:pw@media.example.com/a.wav?duration=12&channels=2&X-Amz-Signature=s3cr3t#frag",` +
		`"callback":true,"callback_config":{"url":"https://hooks.example.com/services/T0123/B0456/Pathtok9secret?token=t0k3n&x=1"},` +
		`"callback_url":"https://old.example.com/hook?sig=s1gn"}`
	// The official client sends its own key header (x-gladia-key, from
	// GLADIA_API_KEY) beside the one a user points it here with.
	h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(create), http.Header{"X-Gladia-Key": {"gl4d1a"}, "X-Api-Token": {"t0k3nh34der"}})
	h.do(http.MethodGet, "/v2/live?limit=2&status=done", "", nil, http.Header{"Authorization": {"Bearer b34rer"}, "Cookie": {"c00kie"}})
	body, ct := multipartFile(t, "audio", "a.wav", testutil.SilentWAV(1, 1, 8000))
	h.do(http.MethodPost, "/v2/upload", ct, body, nil)
	h.postCreate(`{not json`)

	resp := h.control(http.MethodGet, "/requests", "")
	raw := string(resp.body)
	for _, secret := range []string{testKey, "pw@", "s3cr3t", "frag", "t0k3n", "Pathtok9secret", "s1gn", "gl4d1a", "b34rer", "c00kie", "<masked>"} {
		if strings.Contains(raw, secret) {
			t.Errorf("the listing holds %q: %s", secret, raw)
		}
	}
	var page controlPage
	decodeInto(t, resp.body, &page)
	if len(page.Requests) != 4 || page.LastSeq != 4 {
		t.Fatalf("%d requests, last_seq %d: %s", len(page.Requests), page.LastSeq, raw)
	}
	first := page.Requests[0]
	var sent map[string]any
	decodeInto(t, first.Body, &sent)
	if got := sent["audio_url"]; got != "https://REDACTED@media.example.com/a.wav?duration=12&channels=2&X-Amz-Signature=REDACTED#REDACTED" {
		t.Errorf("audio_url listed as %q", got)
	}
	if got := sent["callback_config"].(map[string]any)["url"]; got != "https://hooks.example.com/services/T0123/B0456/REDACTED?token=REDACTED&x=REDACTED" {
		t.Errorf("callback_config.url listed as %q", got)
	}
	if got := sent["callback_url"]; got != "https://old.example.com/hook?sig=REDACTED" {
		t.Errorf("callback_url listed as %q", got)
	}
	if first.Seq != 1 || first.Method != http.MethodPost || first.Path != "/v2/pre-recorded" || first.Status != http.StatusCreated || first.BodyBytes != len(create) {
		t.Errorf("first request listed as %+v", first)
	}
	if first.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers without secrets should stay: %v", first.Header)
	}
	if live := page.Requests[1]; live.Query != "limit=2&status=done" || live.Status != http.StatusOK || live.Body != nil {
		t.Errorf("listing request listed as %+v", live)
	}
	if up := page.Requests[2]; up.Body != nil || up.BodyBytes != len(body) {
		t.Errorf("upload listed with body %q, %d bytes (sent %d)", up.Body, up.BodyBytes, len(body))
	}
	if bad := page.Requests[3]; bad.Body != nil || bad.Status != http.StatusBadRequest {
		t.Errorf("malformed create listed as %+v", bad)
	}
	// The secrets are still in the Go API's log, where tests may want them,
	// but the headers that carry a key.
	if !strings.Contains(string(h.srv.Requests()[0].Body), "t0k3n") {
		t.Error("Requests lost the body as sent")
	}
	if header := h.srv.Requests()[0].Header; header.Get("X-Gladia-Key") != "<masked>" || header.Get("X-Api-Token") != "<masked>" || header.Get(client.ServiceKeyHeader) != "<masked>" {
		t.Errorf("Requests shows the key headers as %v", header)
	}

	// last_seq is the cursor to send as after= next time: the last request
	// listed, or after itself when nothing newer came (a poller that got 0
	// back would read the whole log again).
	for _, c := range []struct {
		query string
		seqs  []int
		last  int
	}{
		{"?after=2", []int{3, 4}, 4},
		{"?limit=1", []int{1}, 1},
		{"?after=1&limit=2", []int{2, 3}, 3},
		{"?after=4", nil, 4},
		{"?after=9", nil, 9},
	} {
		var p controlPage
		decodeInto(t, h.control(http.MethodGet, "/requests"+c.query, "").body, &p)
		var seqs []int
		for _, r := range p.Requests {
			seqs = append(seqs, r.Seq)
		}
		if len(seqs) != len(c.seqs) || (len(seqs) > 0 && (seqs[0] != c.seqs[0] || seqs[len(seqs)-1] != c.seqs[len(c.seqs)-1])) {
			t.Errorf("%s: seqs %v, want %v", c.query, seqs, c.seqs)
		}
		if p.LastSeq != c.last {
			t.Errorf("%s: last_seq %d, want %d", c.query, p.LastSeq, c.last)
		}
	}
	for _, q := range []string{"?after=-1", "?limit=0", "?limit=x", "?limit=10001"} {
		requireError(t, h.control(http.MethodGet, "/requests"+q, ""), http.StatusBadRequest, ControlPrefix+"/requests")
	}

	if resp := h.control(http.MethodDelete, "/requests", ""); resp.status != http.StatusNoContent {
		t.Fatalf("DELETE requests: %d", resp.status)
	}
	var empty controlPage
	decodeInto(t, h.control(http.MethodGet, "/requests", "").body, &empty)
	if len(empty.Requests) != 0 {
		t.Fatalf("after DELETE: %d requests", len(empty.Requests))
	}
}

func TestControl_removeJob(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: time.Hour, LiveJobs: 3})
	pre := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID // still queued: DELETE /v2 would refuse
	var live client.LivePage
	decodeInto(t, h.get("/v2/live").body, &live)
	cases := []struct {
		name, id, gone string
		status         int
	}{
		{"queued pre-recorded job", pre, "/v2/pre-recorded/" + pre, http.StatusNoContent},
		{"live job", live.Items[0].ID, "/v2/live/" + live.Items[0].ID, http.StatusNoContent},
		{"removed already", pre, "", http.StatusNotFound},
		{"unknown", "nope", "", http.StatusNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := h.control(http.MethodDelete, "/jobs/"+c.id, "")
			if c.status == http.StatusNotFound {
				requireError(t, resp, http.StatusNotFound, ControlPrefix+"/jobs/"+c.id)
				return
			}
			if resp.status != c.status {
				t.Fatalf("status %d: %s", resp.status, resp.body)
			}
			requireError(t, h.get(c.gone), http.StatusNotFound, c.gone)
		})
	}
}

func TestControl_statsIndexAndUnknown(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 2 * time.Second, ProcessingTimeMax: 4 * time.Second, MaxConcurrentJobs: 1, MaxProcessingJobs: 3, Retention: time.Minute})
	h.create(`{"audio_url":"https://example.com/a.wav"}`)
	h.postCreate(`{"audio_url":"https://example.com/b.wav"}`)
	var st statsWire
	decodeInto(t, h.control(http.MethodGet, "/stats", "").body, &st)
	if st.Requests != 2 || st.JobsCreated != 1 || st.ConcurrencyLimited != 1 {
		t.Fatalf("stats %+v", st)
	}
	var index struct {
		Endpoints []string        `json:"endpoints"`
		Settings  controlSettings `json:"settings"`
	}
	decodeInto(t, h.control(http.MethodGet, "", "").body, &index)
	want := controlSettings{ProcessingTime: "2s", ProcessingTimeMax: "4s", MaxConcurrentJobs: 1, MaxProcessingJobs: 3, Retention: "1m0s", MaxUploadBytes: defaultMaxUploadBytes}
	if index.Settings != want || len(index.Endpoints) != len(controlEndpoints) {
		t.Fatalf("index %+v, want settings %+v", index, want)
	}
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/nope"},
		{http.MethodDelete, "/jobs/"},
	} {
		body := requireError(t, h.control(c.method, c.path, ""), http.StatusNotFound, ControlPrefix+c.path)
		if !strings.Contains(body.Message, "no such control endpoint") {
			t.Errorf("%s %s: %q", c.method, c.path, body.Message)
		}
	}
	// Without a range the processing time's maximum is the time itself.
	fixed := newHarness(t, Options{ProcessingTime: 3 * time.Second})
	decodeInto(t, fixed.control(http.MethodGet, "", "").body, &index)
	if s := index.Settings; s.ProcessingTime != "3s" || s.ProcessingTimeMax != "3s" {
		t.Fatalf("settings %+v: want processing_time and processing_time_max 3s", s)
	}
	// Off the prefix, a look-alike path is the service's 404.
	requireError(t, h.get("/_emulatorx"), http.StatusNotFound, "/_emulatorx")
}

func TestControl_downTakesTheServiceOffAndBack(t *testing.T) {
	fake, l := serveForTest(t)
	c := noRetryClient(t, l)
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}
	const outage = 1500 * time.Millisecond
	req, _ := http.NewRequest(http.MethodPost, l.URL()+ControlPrefix+"/down", strings.NewReader(`{"duration":"1.5s"}`))
	req.Header.Set(client.ServiceKeyHeader, testKey)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var answer map[string]string
	err = json.NewDecoder(resp.Body).Decode(&answer)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusAccepted || answer["down_for"] != "1.5s" || answer["back_at"] == "" {
		t.Fatalf("POST down: %d %v %v", resp.StatusCode, answer, err)
	}
	// Down within moments of the answer: connections refused.
	deadline := time.Now().Add(time.Second)
	for l.IsUp() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	_, err = c.GetPreRecorded(ctx, created.ID)
	requireRefused(t, err)
	// Back on the same address after the outage, the job kept.
	for !l.IsUp() && time.Since(start) < outage+5*time.Second {
		time.Sleep(20 * time.Millisecond)
	}
	if since := time.Since(start); since < outage {
		t.Fatalf("back after %s, before the %s asked for", since, outage)
	}
	if _, err := c.GetPreRecorded(ctx, created.ID); err != nil {
		t.Fatalf("after the outage: %v", err)
	}
	if fake.JobCount() != 1 {
		t.Fatalf("%d jobs after the outage", fake.JobCount())
	}
}

func TestControl_downRefused(t *testing.T) {
	h := newHarness(t, Options{}) // httptest: no Listener known
	requireError(t, h.control(http.MethodPost, "/down", `{"duration":"1s"}`), http.StatusConflict, ControlPrefix+"/down")
	_, l := serveForTest(t)
	for _, body := range []string{`{}`, `{"duration":"0s"}`, `{"duration":"-1s"}`, `{"duration":"2h"}`, `{"duration":"soon"}`, `{"for":"1s"}`} {
		req, _ := http.NewRequest(http.MethodPost, l.URL()+ControlPrefix+"/down", strings.NewReader(body))
		req.Header.Set(client.ServiceKeyHeader, testKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !l.IsUp() {
			t.Fatalf("%s: %d, up %v", body, resp.StatusCode, l.IsUp())
		}
	}
}

// TestControl_requestsUploadSize: the listing gives an upload's size as
// received, however large the file.
func TestControl_requestsUploadSize(t *testing.T) {
	h := newHarness(t, Options{})
	body, ct := multipartFile(t, "audio", "long.wav", testutil.SilentWAV(100, 1, 8000)) // 1.6 MB
	if resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil); resp.status != http.StatusOK {
		t.Fatalf("upload: %d %s", resp.status, resp.body)
	}
	var page controlPage
	decodeInto(t, h.control(http.MethodGet, "/requests", "").body, &page)
	if len(page.Requests) != 1 || page.Requests[0].BodyBytes != len(body) {
		t.Fatalf("upload listed as %+v, want body_bytes %d", page.Requests, len(body))
	}
}

// TestControl_methodNotAllowed: a control path called with a method it does
// not take is answered 405 with Allow and the error body, as the service's
// paths are; a path it does not have stays 404.
func TestControl_methodNotAllowed(t *testing.T) {
	h := newHarness(t, Options{})
	allowed := map[string][]string{}
	for _, line := range ControlEndpoints() {
		f := strings.Fields(line)
		path := strings.Replace(strings.TrimPrefix(f[1], ControlPrefix), "{id}", "some-id", 1)
		allowed[path] = append(allowed[path], f[0])
		if f[0] == http.MethodGet {
			allowed[path] = append(allowed[path], http.MethodHead)
		}
	}
	for path, methods := range allowed {
		slices.Sort(methods)
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPost, http.MethodDelete, http.MethodPatch} {
			if slices.Contains(methods, m) {
				continue
			}
			resp := h.control(m, path, "")
			if m == http.MethodHead { // no body to read the error from
				if resp.status != http.StatusMethodNotAllowed {
					t.Errorf("HEAD %s: %d, want 405", path, resp.status)
				}
			} else {
				requireError(t, resp, http.StatusMethodNotAllowed, ControlPrefix+path)
			}
			if got, want := resp.header.Get("Allow"), strings.Join(methods, ", "); got != want {
				t.Errorf("%s %s: Allow %q, want %q", m, path, got, want)
			}
		}
	}
	requireError(t, h.control(http.MethodGet, "/nope", ""), http.StatusNotFound, ControlPrefix+"/nope")
	requireError(t, h.control(http.MethodDelete, "/jobs/", ""), http.StatusNotFound, ControlPrefix+"/jobs/")
}

// The control interface answers HEAD wherever it answers GET, as GET
// without its body, as the service's paths do: the same server, one rule.
func TestControl_headIsGetWithoutBody(t *testing.T) {
	h := newHarness(t, Options{})
	for _, path := range []string{"", "/faults", "/requests", "/stats"} {
		get := h.control(http.MethodGet, path, "")
		head := h.control(http.MethodHead, path, "")
		if head.status != http.StatusOK || len(head.body) != 0 ||
			head.header.Get("Content-Type") != get.header.Get("Content-Type") ||
			head.header.Get("Content-Length") != get.header.Get("Content-Length") {
			t.Errorf("HEAD %s%s: %d, %d bytes, Content-Type %q, Content-Length %q; want 200, no body, GET's %q and %q",
				ControlPrefix, path, head.status, len(head.body), head.header.Get("Content-Type"), head.header.Get("Content-Length"),
				get.header.Get("Content-Type"), get.header.Get("Content-Length"))
		}
	}
	// Errors are GET's: an unknown path is 404, a key is still needed.
	if resp := h.control(http.MethodHead, "/nope", ""); resp.status != http.StatusNotFound {
		t.Errorf("HEAD %s/nope: %d, want 404", ControlPrefix, resp.status)
	}
	if resp := h.do(http.MethodHead, ControlPrefix+"/stats", "", nil, http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): {"wrong"}}); resp.status != http.StatusUnauthorized {
		t.Errorf("HEAD %s/stats with a wrong key: %d, want 401", ControlPrefix, resp.status)
	}
}

// redactURL keeps what locates a URL and what the emulator reads (its
// scheme, host, path, the names of its query parameters and the values
// asked for) and nothing that may be a credential: user information,
// query values, fragment, a query parameter that is all value (a bare
// token), the opaque part of a URL without "//"; of a callback URL, also
// the path's segments that may be tokens.
func TestRedactURL(t *testing.T) {
	keep := map[string]bool{"duration": true}
	for _, c := range []struct {
		raw, want  string
		pathTokens bool
	}{
		{"https://h.example.com/cb", "https://h.example.com/cb", false},
		{"https://h.example.com/cb?token=t0k3n&x=1", "https://h.example.com/cb?token=REDACTED&x=REDACTED", false},
		{"https://h.example.com/a.wav?duration=12&sig=t0k3n", "https://h.example.com/a.wav?duration=12&sig=REDACTED", false},
		{"https://user:t0k3n@h.example.com/cb", "https://REDACTED@h.example.com/cb", false},
		{"https://h.example.com/cb#t0k3n", "https://h.example.com/cb#REDACTED", false},
		{"https://h.example.com/cb?t0k3n", "https://h.example.com/cb?REDACTED", false},
		{"https://h.example.com/cb?t0k3n&duration=3", "https://h.example.com/cb?REDACTED&duration=3", false},
		{"https://h.example.com/cb?=t0k3n", "https://h.example.com/cb?=REDACTED", false},
		{"https:user:t0k3n@h.example.com/cb", "https:REDACTED", false},
		{"%zz://t0k3n", "REDACTED", false},
		// An audio file's path locates it: kept whatever it looks like.
		{"https://h.example.com/rec2026-11-27.wav", "https://h.example.com/rec2026-11-27.wav", false},
		{"https://h.example.com/services/T0123/B0456/Tok9abcdef?x=1", "https://h.example.com/services/T0123/B0456/REDACTED?x=REDACTED", true},
		{"https://h.example.com/hooks/incoming/a%2Fb%20c9xyzw", "https://h.example.com/hooks/incoming/REDACTED", true},
		{"https://h.example.com/hooks/incoming/callback", "https://h.example.com/hooks/incoming/callback", true},
		// A token of letters only.
		{"https://h.example.com/services/TXQPLMZB/BKWRTNVS/pRqWmZtXvBnYkLsHdFgJcAeU", "https://h.example.com/services/REDACTED/REDACTED/REDACTED", true},
	} {
		if got := redactURL(c.raw, keep, c.pathTokens); got != c.want {
			t.Errorf("redactURL(%q, pathTokens %v) = %q, want %q", c.raw, c.pathTokens, got, c.want)
		}
	}
}

// RedactedQuery keeps the listings' parameters, which locate what was
// asked, and redacts any other's value (a session's ?token=, a signature).
func TestRedactedQuery(t *testing.T) {
	for raw, want := range map[string]string{
		"": "",
		"offset=20&limit=10&status=done&status=error":                   "offset=20&limit=10&status=done&status=error",
		"date=2024-05-01&after_date=2024-05-01T00%3A00%3A00Z&kind=live": "date=2024-05-01&after_date=2024-05-01T00%3A00%3A00Z&kind=live",
		"custom_metadata%5Bteam%5D=support":                             "custom_metadata%5Bteam%5D=support",
		"token=eyJhbGciOi.c2Vzc2lvbg.Zm9v":                              "token=REDACTED",
		"limit=5&sig=t0k3n&eyJhbGciOi":                                  "limit=5&sig=REDACTED&REDACTED",
		"limit=5;token=t0k3n":                                           "limit=REDACTED",
		"after=12&limit=100":                                            "after=12&limit=100",
	} {
		if got := RedactedQuery(raw); got != want {
			t.Errorf("RedactedQuery(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestRecordedBodiesStayWithinTheBudget: the request log and CreateBodies
// keep the newest bodies within the server's budget, dropping the oldest (a
// request's record stays, with its size), so that a long-running server's
// memory is bounded whatever its clients send.
func TestRecordedBodiesStayWithinTheBudget(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.bodyBudget = 10 << 10
	pad := strings.Repeat("x", 3<<10)
	for i := range 6 {
		h.create(fmt.Sprintf(`{"audio_url":"https://e.com/%d.wav","custom_metadata":{"pad":%q}}`, i, pad))
	}
	var creates []RecordedRequest
	for _, rec := range h.srv.Requests() {
		if rec.Method == http.MethodPost {
			creates = append(creates, rec)
		}
	}
	if len(creates) != 6 {
		t.Fatalf("%d creates recorded, want 6", len(creates))
	}
	kept := 0
	for i, rec := range creates {
		kept += len(rec.Body)
		wantBody := i >= 3 // the newest three fit in 10 KiB
		if (rec.Body != nil) != wantBody || rec.BodyBytes < 3<<10 {
			t.Errorf("create %d: %d bytes of its body kept, %d read; want it kept: %v", i, len(rec.Body), rec.BodyBytes, wantBody)
		}
	}
	if kept > 10<<10 {
		t.Errorf("the request log keeps %d bytes of bodies, past the budget", kept)
	}
	bodies := h.srv.CreateBodies()
	if len(bodies) != 3 || !strings.Contains(string(bodies[0]), "/3.wav") || !strings.Contains(string(bodies[2]), "/5.wav") {
		t.Fatalf("CreateBodies kept %d bodies, want the newest three", len(bodies))
	}
	// The listing shows a dropped body's size, without it.
	var page struct {
		Requests []requestWire `json:"requests"`
	}
	decodeInto(t, h.control(http.MethodGet, "/requests", "").body, &page)
	first := page.Requests[0]
	if first.Method != http.MethodPost || first.Body != nil || first.BodyBytes != creates[0].BodyBytes {
		t.Fatalf("listing of the first create: %+v", first)
	}
}

// TestRecordedBodiesBudget_requestInFlightAcrossAReset: a request answered
// after ResetRequests forgot its record does not count towards the budget
// of the bodies the log keeps: it counted, and the next bodies were
// dropped early, with the log under its budget.
func TestRecordedBodiesBudget_requestInFlightAcrossAReset(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.bodyBudget = 10 << 10
	pad := strings.Repeat("x", 3<<10)
	body := func(i int) string {
		return fmt.Sprintf(`{"audio_url":"https://e.com/%d.wav","custom_metadata":{"pad":%q}}`, i, pad)
	}
	h.srv.SetFaults(Faults{Latency: time.Hour})
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.postCreate(body(0))
	}()
	for len(h.srv.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	h.srv.ResetRequests()
	h.srv.SetFaults(Faults{})
	h.srv.Close() // cuts the latency short: the create is answered
	<-done
	for i := 1; i <= 3; i++ {
		h.create(body(i))
	}
	for _, rec := range h.srv.Requests() {
		if rec.Method == http.MethodPost && rec.Body == nil {
			t.Errorf("create %d's body dropped, though the log's three bodies fit in its budget", rec.Seq)
		}
	}
}

// TestControl_requestsLastSeqBeforeOneInFlight: last_seq stops before a
// request still being answered, so that a poll with after=last_seq lists
// it again once answered; last_seq passed it, and its answer never reached
// a script tailing the log.
func TestControl_requestsLastSeqBeforeOneInFlight(t *testing.T) {
	h := newHarness(t, Options{})
	h.get("/v2/live?limit=1")
	h.control(http.MethodPut, "/faults", `{"latency":"1s"}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.postCreate(`{"audio_url":"https://e.com/slow.wav"}`)
	}()
	for deadline := time.Now().Add(10 * time.Second); len(h.srv.Requests()) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the create never reached the server")
		}
	}
	var page controlPage
	decodeInto(t, h.control(http.MethodGet, "/requests", "").body, &page)
	if len(page.Requests) != 2 || page.Requests[1].Status != 0 || page.LastSeq != 1 {
		t.Fatalf("while the create is answered: %+v, want it listed with status 0, and last_seq 1, before it", page)
	}
	// Requests after it can be followed meanwhile: a full page of them
	// would otherwise be listed again and again, after=last_seq, until the
	// slow one ends. next_after goes past it; pending names it.
	if page.NextAfter != 2 || !slices.Equal(page.Pending, []int{2}) {
		t.Fatalf("while the create is answered: next_after %d, pending %v, want 2 and [2]", page.NextAfter, page.Pending)
	}
	h.get("/v2/live?limit=1")
	var later controlPage
	decodeInto(t, h.control(http.MethodGet, fmt.Sprintf("/requests?after=%d&limit=1", page.NextAfter), "").body, &later)
	if len(later.Requests) != 1 || later.Requests[0].Seq != 3 || later.Requests[0].Status != http.StatusOK || len(later.Pending) != 0 {
		t.Fatalf("after=next_after while the create is answered: %+v, want the request after it", later)
	}
	<-done
	var answered controlPage
	decodeInto(t, h.control(http.MethodGet, fmt.Sprintf("/requests?after=%d", page.LastSeq), "").body, &answered)
	if len(answered.Requests) != 2 || answered.Requests[0].Status != http.StatusCreated || answered.LastSeq != 3 {
		t.Fatalf("once answered: %+v, want the create with 201, and the request after it", answered)
	}
	// A latency past the bound is refused, naming it.
	resp := h.control(http.MethodPut, "/faults", `{"latency":"100000h"}`)
	if resp.status != http.StatusBadRequest || !strings.Contains(string(resp.body), "latency must be from 0 to 1h, not") {
		t.Errorf("latency 100000h: %d %s", resp.status, resp.body)
	}
}

// TestControl_requestsClientGone: a request whose client went away during
// the injected latency is recorded with 499, not 0, so that last_seq moves
// past it: it stayed 0 for good, and last_seq never moved again.
func TestControl_requestsClientGone(t *testing.T) {
	h := newHarness(t, Options{})
	h.control(http.MethodPut, "/faults", `{"latency":"500ms"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.url+"/v2/live", nil)
	req.Header.Set(client.ServiceKeyHeader, testKey)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("the request was answered within its client's 50 ms")
	}
	h.control(http.MethodDelete, "/faults", "")
	h.get("/v2/live?limit=1")
	var page controlPage
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		decodeInto(t, h.control(http.MethodGet, "/requests", "").body, &page)
		if page.LastSeq == 2 || time.Now().After(deadline) {
			break
		}
	}
	if len(page.Requests) != 2 || page.Requests[0].Status != statusClientGone || page.LastSeq != 2 {
		t.Fatalf("%+v, want the abandoned request with 499 and last_seq past both", page)
	}
}

// TestControl_statsCountWhatIsStored: stats say what the server holds, so
// that a user of a long-running server sees why its memory grows: an
// upload stays after the job made from it is deleted (the service has no
// way to delete one), until its retention ends.
func TestControl_statsCountWhatIsStored(t *testing.T) {
	h := newHarness(t, Options{})
	wav := testutil.SilentWAV(1, 1, 8000)
	up := h.upload("kept.wav", wav)
	id := h.create(`{"audio_url":"` + up.AudioURL + `"}`).ID
	stats := func() statsWire {
		var st statsWire
		decodeInto(t, h.control(http.MethodGet, "/stats", "").body, &st)
		return st
	}
	if st := stats(); st.JobsStored != 1 || st.UploadsStored != 1 || st.UploadBytesStored != int64(len(wav)) {
		t.Fatalf("after an upload and a job: %+v, want 1 job, 1 upload of %d bytes", st, len(wav))
	}
	if resp := h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil); resp.status != http.StatusAccepted {
		t.Fatalf("DELETE: %d %s", resp.status, resp.body)
	}
	if st := stats(); st.JobsStored != 0 || st.UploadsStored != 1 {
		t.Fatalf("after the job's deletion: %+v, want no job and the upload", st)
	}
}

// TestControl_downIsLogged: an outage is told to Options.OutageLog when it
// begins, when its address cannot be listened on again at its end (another
// process took it meanwhile), once however long that lasts, and when the
// service is back: an outage that outlasts its duration is not silent.
func TestControl_downIsLogged(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	fake := New(Options{APIKey: testKey, OutageLog: func(line string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, line)
	}})
	t.Cleanup(fake.Close)
	l, err := Serve("127.0.0.1:0", fake)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	fake.UseListener(l)
	req, _ := http.NewRequest(http.MethodPost, l.URL()+ControlPrefix+"/down", strings.NewReader(`{"duration":"100ms"}`))
	req.Header.Set(client.ServiceKeyHeader, testKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for l.IsUp() {
		time.Sleep(time.Millisecond)
	}
	taken, err := net.Listen("tcp", l.Addr())
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // past the outage's end: several tries fail
	_ = taken.Close()
	for deadline := time.Now().Add(5 * time.Second); !l.IsUp() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"down for 100ms", "cannot listen on " + l.Addr() + " again", "back: listening on " + l.Addr()}
	if len(lines) != len(want) {
		t.Fatalf("logged %q, want one line each for %q", lines, want)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %q, want it to say %q", i, lines[i], w)
		}
	}
}
