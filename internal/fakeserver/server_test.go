package fakeserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

func TestEveryEndpointRequiresTheKey(t *testing.T) {
	h := newHarness(t, Options{LiveJobs: 3})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	wav, ct := multipartFile(t, "audio", "a.wav", testutil.SilentWAV(1, 1, 8000))
	up := h.do(http.MethodPost, "/v2/upload", ct, wav, nil)
	if up.status != http.StatusOK {
		t.Fatalf("upload: %d %s", up.status, up.body)
	}
	var upload client.UploadResponse
	decodeInto(t, up.body, &upload)
	filePath := strings.TrimPrefix(upload.AudioURL, h.url)

	endpoints := []struct {
		method, path, contentType, body string
	}{
		{http.MethodPost, "/v2/pre-recorded", "application/json", `{"audio_url":"https://example.com/a.wav"}`},
		{http.MethodGet, "/v2/pre-recorded/" + id, "", ""},
		{http.MethodDelete, "/v2/pre-recorded/" + id, "", ""},
		{http.MethodGet, "/v2/transcription/" + id, "", ""},
		{http.MethodGet, "/v2/pre-recorded", "", ""},
		{http.MethodGet, "/v2/pre-recorded/" + id + "/file", "", ""},
		{http.MethodGet, "/v2/live", "", ""},
		{http.MethodGet, "/v2/live/" + id, "", ""},
		{http.MethodDelete, "/v2/live/" + id, "", ""},
		{http.MethodGet, "/v2/live/" + id + "/file", "", ""},
		{http.MethodPost, "/v2/upload", ct, string(wav)},
		{http.MethodGet, filePath, "", ""},
	}
	keys := map[string]http.Header{
		"missing": {client.ServiceKeyHeader: nil},
		"wrong":   {http.CanonicalHeaderKey(client.ServiceKeyHeader): {"not-the-key"}},
		"prefix":  {http.CanonicalHeaderKey(client.ServiceKeyHeader): {testKey[:5]}},
		"empty":   {http.CanonicalHeaderKey(client.ServiceKeyHeader): {""}},
	}
	for _, e := range endpoints {
		for name, header := range keys {
			t.Run(e.method+" "+e.path+" "+name, func(t *testing.T) {
				if name == "missing" {
					header = http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): nil}
				}
				resp := h.do(e.method, e.path, e.contentType, []byte(e.body), header)
				requireError(t, resp, http.StatusUnauthorized, e.path)
			})
		}
	}
	if got := h.srv.JobCount(); got != 1 {
		t.Fatalf("unauthorized requests changed the store: %d jobs", got)
	}
}

func TestUnknownRoutesAnd405(t *testing.T) {
	h := newHarness(t, Options{})
	for _, path := range []string{"/", "/v2", "/v2/nope", "/v2/pre-recorded/", "/v2/pre-recorded/a/b", "/v2/pre-recorded//file", "/v2/pre-recorded/a/file/b", "/v2/live/", "/v2/live/a/b", "/v1/pre-recorded", "/file/"} {
		t.Run("404 "+path, func(t *testing.T) {
			// No endpoint, not an endpoint's job with an empty id.
			if body := requireError(t, h.get(path), http.StatusNotFound, path); body.Message != "no such endpoint: "+path {
				t.Fatalf("message %q, want no such endpoint", body.Message)
			}
		})
	}
	for _, c := range []struct{ method, path, allow, why string }{
		{http.MethodPut, "/v2/pre-recorded", "GET, HEAD, POST", ""},
		{http.MethodDelete, "/v2/pre-recorded", "GET, HEAD, POST", ""},
		{http.MethodPost, "/v2/pre-recorded/x", "DELETE, GET, HEAD", ""},
		{http.MethodDelete, "/v2/pre-recorded/x/file", "GET, HEAD", ""},
		{http.MethodPost, "/v2/live/x", "DELETE, GET, HEAD", ""},
		{http.MethodPut, "/v2/live/x/file", "GET, HEAD", ""},
		{http.MethodDelete, "/v2/transcription/x", "GET, HEAD", ""},
		// The service starts live sessions here; the error says this
		// server does not, and what it does instead.
		{http.MethodPost, "/v2/live", "GET, HEAD", "starting a live session is not emulated"},
		{http.MethodPut, "/v2/live", "GET, HEAD", ""},
		{http.MethodGet, "/v2/upload", "POST", ""},
		{http.MethodDelete, "/file/x", "GET, HEAD", ""},
	} {
		t.Run("405 "+c.method+" "+c.path, func(t *testing.T) {
			resp := h.do(c.method, c.path, "", nil, nil)
			body := requireError(t, resp, http.StatusMethodNotAllowed, c.path)
			if got := resp.header.Get("Allow"); got != c.allow {
				t.Fatalf("Allow %q, want %q", got, c.allow)
			}
			want := "method " + c.method + " is not allowed on " + c.path
			if c.why != "" {
				want += ": " + c.why
			}
			if !strings.HasPrefix(body.Message, want) || (c.why == "" && body.Message != want) {
				t.Fatalf("message %q, want %q", body.Message, want)
			}
		})
	}
}

func TestErrorTimestampComesFromTheClock(t *testing.T) {
	h := newHarness(t, Options{})
	body := requireError(t, h.get("/nope"), http.StatusNotFound, "/nope")
	if body.Timestamp != "2025-03-14T09:26:53.000Z" {
		t.Fatalf("timestamp %q", body.Timestamp)
	}
	other := requireError(t, h.get("/nope"), http.StatusNotFound, "/nope")
	if other.RequestID == body.RequestID {
		t.Fatal("two errors share a request_id")
	}
}

func TestRequestsAreRecordedWithTheKeyMasked(t *testing.T) {
	h := newHarness(t, Options{})
	body := `{"audio_url":"https://example.com/a.wav"}`
	h.create(body)
	h.get("/v2/live?limit=2&status=done")
	h.do(http.MethodGet, "/v2/live", "", nil, http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): {"wrong"}})

	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests recorded, want 3", len(reqs))
	}
	first := reqs[0]
	if first.Method != http.MethodPost || first.Path != "/v2/pre-recorded" || string(first.Body) != body || first.Status != http.StatusCreated {
		t.Fatalf("first request recorded as %+v", first)
	}
	if reqs[1].RawQuery != "limit=2&status=done" || reqs[1].Status != http.StatusOK {
		t.Fatalf("second request recorded as %+v", reqs[1])
	}
	if reqs[2].Status != http.StatusUnauthorized {
		t.Fatalf("third request status %d", reqs[2].Status)
	}
	for _, r := range reqs {
		if got := r.Header.Get(client.ServiceKeyHeader); got != "<masked>" {
			t.Fatalf("recorded key %q, want <masked>", got)
		}
	}
	// The records are copies, headers included.
	reqs[0].Body[0] = 'X'
	if h.srv.Requests()[0].Body[0] != '{' {
		t.Fatal("Requests returned the server's own buffer")
	}
	reqs[0].Header.Set(client.ServiceKeyHeader, "tampered")
	if got := h.srv.Requests()[0].Header.Get(client.ServiceKeyHeader); got != "<masked>" {
		t.Fatalf("Requests returned the server's own header map: key now %q", got)
	}
	if st := h.srv.Stats(); st.Requests != 3 || st.JobsCreated != 1 {
		t.Fatalf("stats %+v", st)
	}
	// The control interface writes JSON as the service does: "&" as it is.
	if listed := h.do(http.MethodGet, ControlPrefix+"/requests", "", nil, nil); !bytes.Contains(listed.body, []byte(`"limit=2&status=done"`)) {
		t.Fatalf("GET %s/requests escapes HTML's characters: %.400s", ControlPrefix, listed.body)
	}
	h.srv.ResetRequests()
	if n := len(h.srv.Requests()); n != 0 {
		t.Fatalf("%d requests after reset", n)
	}
}

func TestRecordsTheBodyOfARefusedCreate(t *testing.T) {
	h := newHarness(t, Options{})
	h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(`{"audio_url":"x"}`), http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): nil})
	if got := string(h.srv.Requests()[0].Body); got != `{"audio_url":"x"}` {
		t.Fatalf("recorded body %q", got)
	}
	if len(h.srv.CreateBodies()) != 0 {
		t.Fatal("a refused create was counted as accepted")
	}
}

func TestManualClock(t *testing.T) {
	c := NewManualClock(testEpoch)
	c.Advance(90 * 1e9)
	if got := c.Now(); !got.Equal(testEpoch.Add(90 * 1e9)) {
		t.Fatalf("after Advance: %v", got)
	}
	c.Set(testEpoch)
	if !c.Now().Equal(testEpoch) {
		t.Fatal("Set did not move the clock")
	}
}

func TestDefaultAPIKey(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	if s.opts.APIKey != "test-key" || s.opts.MaxUploadBytes != 100<<20 {
		t.Fatalf("defaults: %+v", s.opts)
	}
}

// writeJSON answers what json.Marshal writes, buffers reused or not, but
// for "<", ">" and "&", written as they are, as JSON.stringify writes them
// (a page link's "&" stays greppable in curl's output).
func TestWriteJSON_asMarshal(t *testing.T) {
	for _, v := range []any{
		map[string]any{"html": "<a href='x'>&</a>", "n": 1.5, "list": []string{"\u2028"}},
		client.ErrorBody{Message: "big " + strings.Repeat("x", 1<<16)},
		"", nil,
	} {
		marshaled, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(marshaled))
		for range 2 {
			rec := httptest.NewRecorder()
			writeJSON(rec, http.StatusTeapot, v)
			if rec.Code != http.StatusTeapot || rec.Header().Get("Content-Type") != "application/json" || rec.Body.String() != want {
				t.Fatalf("%d %q %q, want %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String(), want)
			}
		}
	}
	rec := httptest.NewRecorder()
	writeJSON(rec, http.StatusOK, math.NaN())
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("a value that does not encode: %d", rec.Code)
	}
}

// TestCORS: a web page can use the server, as the official client does from
// a browser: the preflight (which carries no key) is answered, and every
// answer, errors included, lets the page read it and its Retry-After.
func TestCORS(t *testing.T) {
	h := newHarness(t, Options{LiveJobs: 3})
	const origin = "http://localhost:5173"
	preflight := h.do(http.MethodOptions, "/v2/pre-recorded", "", nil, http.Header{
		"Origin":                                         {origin},
		"Access-Control-Request-Method":                  {http.MethodPost},
		"Access-Control-Request-Headers":                 {"content-type,x-gladia-version,x-service-key"},
		http.CanonicalHeaderKey(client.ServiceKeyHeader): nil, // a browser sends none with a preflight
	})
	if preflight.status != http.StatusNoContent ||
		preflight.header.Get("Access-Control-Allow-Origin") != "*" ||
		preflight.header.Get("Access-Control-Allow-Methods") != "GET, POST, PUT, DELETE" || // DELETE for jobs, PUT for the control interface's faults
		preflight.header.Get("Access-Control-Allow-Headers") != "content-type,x-gladia-version,x-service-key" {
		t.Fatalf("preflight answered %d %v %s", preflight.status, preflight.header, preflight.body)
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("the preflight was recorded as a request of the service (%d)", n)
	}

	for _, c := range []struct {
		name   string
		header http.Header
		status int
	}{
		{"answer", http.Header{"Origin": {origin}}, http.StatusOK},
		{"error", http.Header{"Origin": {origin}, http.CanonicalHeaderKey(client.ServiceKeyHeader): {"wrong"}}, http.StatusUnauthorized},
	} {
		resp := h.do(http.MethodGet, "/v2/live?limit=1", "", nil, c.header)
		if resp.status != c.status || resp.header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(resp.header.Get("Access-Control-Expose-Headers"), "Retry-After") {
			t.Errorf("%s: %d %v", c.name, resp.status, resp.header)
		}
	}
	// An OPTIONS without Access-Control-Request-Method is no preflight: it
	// is routed as any request, and no endpoint has OPTIONS.
	notPreflight := h.do(http.MethodOptions, "/v2/live", "", nil, http.Header{"Origin": {origin}})
	requireError(t, notPreflight, http.StatusMethodNotAllowed, "/v2/live")
	// Without Origin (not a browser), nothing changes.
	if resp := h.get("/v2/live?limit=1"); resp.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS headers without an Origin: %v", resp.header)
	}
}

// Behind TLS, result_url has the scheme the caller used: https.
func TestResultURLKeepsTheScheme(t *testing.T) {
	srv := New(Options{APIKey: testKey, Clock: NewManualClock(testEpoch)})
	t.Cleanup(srv.Close)
	ts := httptest.NewTLSServer(srv)
	t.Cleanup(ts.Close)
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/v2/pre-recorded", strings.NewReader(`{"audio_url":"https://example.com/a.wav"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(client.ServiceKeyHeader, testKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var created client.InitResponse
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil {
		t.Fatal(err)
	}
	if want := ts.URL + "/v2/transcription/" + created.ID; resp.StatusCode != http.StatusCreated || created.ResultURL != want {
		t.Fatalf("%d, result_url %q, want %q", resp.StatusCode, created.ResultURL, want)
	}
}

// HEAD is answered wherever GET is, as GET without its body (RFC 9110
// §9.3.2: a general-purpose server supports both): a client may ask a
// file's size and type before downloading it.
func TestHeadIsGetWithoutBody(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/a.wav?duration=2"}`).ID
	for _, path := range []string{"/v2/pre-recorded/" + id + "/file", "/v2/pre-recorded/" + id, "/v2/live"} {
		get := h.get(path)
		head := h.do(http.MethodHead, path, "", nil, nil)
		if head.status != http.StatusOK || len(head.body) != 0 || head.header.Get("Content-Type") != get.header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d, %d bytes, Content-Type %q; want 200, no body, GET's %q", path, head.status, len(head.body), head.header.Get("Content-Type"), get.header.Get("Content-Type"))
		}
	}
	file := "/v2/pre-recorded/" + id + "/file"
	if got, want := h.do(http.MethodHead, file, "", nil, nil).header.Get("Content-Length"), strconv.Itoa(len(h.get(file).body)); got != want {
		t.Errorf("HEAD %s: Content-Length %q, want GET's %s", file, got, want)
	}
	// Errors are GET's, and an endpoint without GET still refuses HEAD.
	if resp := h.do(http.MethodHead, "/v2/pre-recorded/nope", "", nil, nil); resp.status != http.StatusNotFound {
		t.Errorf("HEAD of an unknown job: %d, want 404", resp.status)
	}
	if resp := h.do(http.MethodHead, "/v2/upload", "", nil, nil); resp.status != http.StatusMethodNotAllowed || resp.header.Get("Allow") != "POST" {
		t.Errorf("HEAD /v2/upload: %d, Allow %q; want 405, POST", resp.status, resp.header.Get("Allow"))
	}
}

// A request built by hand without a body (http.NewRequest's nil Body), as a
// Go program calling ServeHTTP directly makes, is served, not a panic.
func TestServeHTTPTakesARequestWithoutBody(t *testing.T) {
	srv := New(Options{APIKey: testKey, LiveJobs: 1})
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, "http://example.com/v2/live", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(client.ServiceKeyHeader, testKey)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

// The key is given once: repeated, even as the right key twice, it is
// refused, as a server that joins repeated headers ("k, k") refuses it.
func TestAuthorized_oneKeyOnly(t *testing.T) {
	h := newHarness(t, Options{})
	for name, keys := range map[string][]string{
		"right twice":       {testKey, testKey},
		"right, then wrong": {testKey, "wrong"},
		"wrong, then right": {"wrong", testKey},
	} {
		resp := h.do(http.MethodGet, "/v2/live", "", nil, http.Header{http.CanonicalHeaderKey(client.ServiceKeyHeader): keys})
		body := requireError(t, resp, http.StatusUnauthorized, "/v2/live")
		if !strings.Contains(body.Message, "header is given more than once") {
			t.Errorf("%s: message %q", name, body.Message)
		}
	}
	if resp := h.do(http.MethodGet, "/v2/live", "", nil, nil); resp.status != http.StatusOK {
		t.Errorf("the key once: %d, want 200", resp.status)
	}
}

// A request without a Host header (HTTP/1.0) gets links to the address it
// reached, not "http:///...".
func TestLinksWithoutAHostHeader(t *testing.T) {
	h := newHarness(t, Options{LiveJobs: 3})
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /v2/live?limit=1 HTTP/1.0\r\n%s: %s\r\n\r\n", client.ServiceKeyHeader, testKey)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page client.LivePage
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		t.Fatal(err)
	}
	if want := h.url + "/v2/"; !strings.HasPrefix(page.First, want) || page.Next == nil || !strings.HasPrefix(*page.Next, want) {
		t.Errorf("links first %q next %v, want them at %s", page.First, page.Next, want)
	}
}
