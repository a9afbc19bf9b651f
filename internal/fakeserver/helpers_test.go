package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

const testKey = "secret-test-key"

// testEpoch is the ManualClock's start in every test.
var testEpoch = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// harness is a fake server behind a real HTTP listener, on a ManualClock
// unless the options bring their own clock.
type harness struct {
	t     *testing.T
	srv   *Server
	url   string
	clock *ManualClock
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	h := &harness{t: t}
	if opts.Clock == nil {
		h.clock = NewManualClock(testEpoch)
		opts.Clock = h.clock
	}
	h.srv = New(opts)
	h.srv.callbackBackoff = time.Millisecond
	ts := httptest.NewServer(h.srv)
	h.url = ts.URL
	t.Cleanup(h.srv.Close)
	t.Cleanup(ts.Close)
	return h
}

type testResponse struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with the test key (unless header overrides it).
func (h *harness) do(method, path, contentType string, body []byte, header http.Header) testResponse {
	h.t.Helper()
	req, err := http.NewRequest(method, h.url+path, bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set(client.ServiceKeyHeader, testKey)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return testResponse{status: resp.StatusCode, header: resp.Header, body: data}
}

func (h *harness) get(path string) testResponse { return h.do(http.MethodGet, path, "", nil, nil) }

// postCreate posts body to the create endpoint, whatever its status.
func (h *harness) postCreate(body string) testResponse {
	return h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(body), nil)
}

// create posts a create body and requires a 201.
func (h *harness) create(body string) client.InitResponse {
	h.t.Helper()
	resp := h.postCreate(body)
	if resp.status != http.StatusCreated {
		h.t.Fatalf("create %s: status %d: %s", body, resp.status, resp.body)
	}
	var out client.InitResponse
	decodeInto(h.t, resp.body, &out)
	return out
}

// job GETs a pre-recorded job and requires a 200.
func (h *harness) job(id string) client.PreRecordedJob {
	h.t.Helper()
	resp := h.get("/v2/pre-recorded/" + id)
	if resp.status != http.StatusOK {
		h.t.Fatalf("GET job %s: status %d: %s", id, resp.status, resp.body)
	}
	var out client.PreRecordedJob
	decodeInto(h.t, resp.body, &out)
	return out
}

func decodeInto(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
}

// requireError checks that resp is the service's error body with status.
func requireError(t *testing.T, resp testResponse, status int, path string) client.ErrorBody {
	t.Helper()
	if resp.status != status {
		t.Fatalf("status %d, want %d: %s", resp.status, status, resp.body)
	}
	if ct := resp.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	var body client.ErrorBody
	dec := json.NewDecoder(bytes.NewReader(resp.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("error body %s: %v", resp.body, err)
	}
	if body.StatusCode != status || body.Path != path || body.Message == "" || body.RequestID == "" {
		t.Fatalf("error body %+v: want statusCode %d, path %q, a message and a request_id", body, status, path)
	}
	if _, err := time.Parse(time.RFC3339, body.Timestamp); err != nil || !strings.HasSuffix(body.Timestamp, "Z") {
		t.Fatalf("timestamp %q is not an RFC 3339 UTC time", body.Timestamp)
	}
	return body
}

// requireProblem checks that one of the validation errors contains want.
func requireProblem(t *testing.T, body client.ErrorBody, want string) {
	t.Helper()
	for _, p := range body.ValidationErrors {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Fatalf("no validation error contains %q: %q", want, body.ValidationErrors)
}

// multipartFile builds a multipart body holding data in field.
func multipartFile(t *testing.T, field, filename string, data []byte) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if err := mw.WriteField("note", "ignored"); err != nil {
		t.Fatal(err)
	}
	part, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), mw.FormDataContentType()
}

// callbackReceiver records the callbacks it gets, answering with the
// statuses in script (200 once they run out).
type callbackReceiver struct {
	url      string
	received chan receivedCallback
}

type receivedCallback struct {
	method string
	header http.Header
	body   []byte
}

func newCallbackReceiver(t *testing.T, script ...int) *callbackReceiver {
	t.Helper()
	statuses := make(chan int, len(script))
	for _, s := range script {
		statuses <- s
	}
	cr := &callbackReceiver{received: make(chan receivedCallback, 100)}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cr.received <- receivedCallback{method: r.Method, header: r.Header.Clone(), body: body}
		select {
		case s := <-statuses:
			if s >= 300 && s < 400 {
				// Where an HTTP client following redirects would go next.
				w.Header().Set("Location", "/landing")
			}
			w.WriteHeader(s)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	t.Cleanup(ts.Close)
	cr.url = ts.URL + "/hook"
	return cr
}

// next returns the next callback received, failing if none is waiting.
func (cr *callbackReceiver) next(t *testing.T) receivedCallback {
	t.Helper()
	select {
	case c := <-cr.received:
		return c
	default:
		t.Fatal("no callback was received")
		return receivedCallback{}
	}
}

func (cr *callbackReceiver) count() int { return len(cr.received) }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// upload sends data as an uploaded file named filename, failing the test
// unless the service takes it, and returns its answer.
func (h *harness) upload(filename string, data []byte) client.UploadResponse {
	h.t.Helper()
	body, ct := multipartFile(h.t, "audio", filename, data)
	resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil)
	if resp.status != http.StatusOK {
		h.t.Fatalf("upload of %s: %d %s", filename, resp.status, resp.body)
	}
	var up client.UploadResponse
	decodeInto(h.t, resp.body, &up)
	return up
}
