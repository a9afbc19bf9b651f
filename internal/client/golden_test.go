package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// The golden fixtures in testdata/golden are written by hand from the
// service's interface description (DESIGN.md) and the official JavaScript
// client's type definitions (see the
// README there), never generated from this package's types. Two tests hold
// the client and the fake server to them.

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decodeTree(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", data[:min(len(data), 80)], err)
	}
	return v
}

// normalized drops null members (an omitted field and a null one are the
// same to the service) and turns a vocabulary entry given as a bare string
// into the object form the client sends.
func normalized(v any) any { return vocabularyAsObjects(v, "", true) }

// vocabularyAsObjects turns vocabulary entries given as bare strings into
// the object form, dropping null members when dropNulls is set.
func vocabularyAsObjects(v any, key string, dropNulls bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if x != nil || !dropNulls {
				out[k] = vocabularyAsObjects(x, k, dropNulls)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			if s, ok := x.(string); ok && key == "vocabulary" {
				x = map[string]any{"value": s}
			}
			out[i] = vocabularyAsObjects(x, key, dropNulls)
		}
		return out
	}
	return v
}

// TestGolden_clientDecodesStrictly decodes each fixture into its client type
// with unknown fields refused, then encodes it again: the result must be the
// fixture. A field whose JSON tag is wrong fails one way or the other: the
// fixture's name is unknown to the decoder, or the encoder writes another
// name (encoding/json matches names regardless of case when decoding, so
// only the second way catches a tag that differs in case).
func TestGolden_clientDecodesStrictly(t *testing.T) {
	cases := []struct {
		file string
		into func() any
	}{
		{"create_request.json", func() any { return new(client.InitTranscriptionRequest) }},
		{"init_response.json", func() any { return new(client.InitResponse) }},
		{"prerecorded_job_done.json", func() any { return new(client.PreRecordedJob) }},
		{"prerecorded_job_queued.json", func() any { return new(client.PreRecordedJob) }},
		{"prerecorded_job_error.json", func() any { return new(client.PreRecordedJob) }},
		{"prerecorded_page.json", func() any { return new(client.PreRecordedPage) }},
		{"live_page.json", func() any { return new(client.LivePage) }},
		{"upload_response.json", func() any { return new(client.UploadResponse) }},
		{"error_body.json", func() any { return new(client.ErrorBody) }},
		{"callback_success.json", func() any { return new(client.CallbackBody) }},
		{"callback_error.json", func() any { return new(client.CallbackBody) }},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			data := readGolden(t, tc.file)
			v := tc.into()
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(v); err != nil {
				t.Fatalf("strict decoding into %T: %v", v, err)
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, want := normalized(decodeTree(t, again)), normalized(decodeTree(t, data))
			if !reflect.DeepEqual(got, want) {
				for _, d := range treeDiff(got, want, "") {
					t.Error(d)
				}
			}
		})
	}
}

// treeDiff names the differences between two decoded JSON trees.
func treeDiff(got, want any, path string) []string {
	gm, gok := got.(map[string]any)
	wm, wok := want.(map[string]any)
	if gok && wok {
		var out []string
		for _, k := range unionKeys(gm, wm) {
			g, inG := gm[k]
			w, inW := wm[k]
			switch {
			case !inG:
				out = append(out, fmt.Sprintf("%s.%s: in the fixture, not in the client's encoding", path, k))
			case !inW:
				out = append(out, fmt.Sprintf("%s.%s: written by the client, not in the fixture", path, k))
			default:
				out = append(out, treeDiff(g, w, path+"."+k)...)
			}
		}
		return out
	}
	ga, gok := got.([]any)
	wa, wok := want.([]any)
	if gok && wok && len(ga) == len(wa) {
		var out []string
		for i := range ga {
			out = append(out, treeDiff(ga[i], wa[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: client %v, fixture %v", path, got, want)}
	}
	return nil
}

func unionKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// freeMaps are objects whose members are the caller's, not the interface's.
var freeMaps = map[string]bool{"custom_metadata": true, "spelling_dictionary": true, "post_session_metadata": true}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return fmt.Sprintf("%T", v)
}

// conforms compares the shape of an answer of the fake server with a
// fixture's: the same JSON kinds (null included) and, in exact mode, the
// same members in every object; otherwise the answer's members must be
// among the fixture's (for answers whose optional parts vary). Each element
// of an array must conform to some element of the fixture's array. Values
// are not compared, nor the members of caller-owned maps.
func conforms(got, want any, path string, exact bool) []string {
	if kindOf(got) != kindOf(want) {
		return []string{fmt.Sprintf("%s: %s, the fixture has %s", path, kindOf(got), kindOf(want))}
	}
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		if freeMaps[path[strings.LastIndex(path, ".")+1:]] {
			return nil
		}
		var out []string
		for _, k := range unionKeys(g, w) {
			gv, inG := g[k]
			wv, inW := w[k]
			switch {
			case !inW:
				out = append(out, fmt.Sprintf("%s.%s: sent by the fake server, not in the fixture", path, k))
			case !inG && exact:
				out = append(out, fmt.Sprintf("%s.%s: in the fixture, not sent by the fake server", path, k))
			case inG:
				out = append(out, conforms(gv, wv, path+"."+k, exact)...)
			}
		}
		return out
	case []any:
		g := got.([]any)
		if len(w) == 0 {
			return nil
		}
		var out []string
		for i, item := range g {
			var best []string
			for j, candidate := range w {
				problems := conforms(item, candidate, fmt.Sprintf("%s[%d]", path, i), exact)
				if len(problems) == 0 {
					best = nil
					break
				}
				if j == 0 || len(problems) < len(best) {
					best = problems
				}
			}
			out = append(out, best...)
		}
		return out
	}
	return nil
}

// keyPaths lists the member paths of a tree, arrays as [], caller-owned maps
// not entered.
func keyPaths(v any, path string, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if freeMaps[path[strings.LastIndex(path, ".")+1:]] {
			return
		}
		for k, x := range v {
			into[path+"."+k] = true
			keyPaths(x, path+"."+k, into)
		}
	case []any:
		for _, x := range v {
			keyPaths(x, path+"[]", into)
		}
	}
}

// callbackSink records the callbacks the fake server delivers.
type callbackSink struct {
	mu     sync.Mutex
	bodies map[string][]byte // by path
}

func (c *callbackSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.bodies[r.Method+" "+r.URL.Path] = body
	c.mu.Unlock()
}

func (c *callbackSink) body(t *testing.T, key string) []byte {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.bodies[key]
	if !ok {
		t.Fatalf("no callback %s; got %d others", key, len(c.bodies))
	}
	return b
}

// TestGolden_fakeServerAnswersConform checks each kind of answer of the fake
// server against its fixture's shape, in the same situation: the fixtures'
// create request (every option on), a queued, a failed and a listed job, an
// upload, errors, the callbacks, and every seeded live job.
func TestGolden_fakeServerAnswersConform(t *testing.T) {
	sink := &callbackSink{bodies: map[string][]byte{}}
	hooks := httptest.NewServer(sink)
	t.Cleanup(hooks.Close)
	clock := fakeserver.NewManualClock(time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, Clock: clock, ProcessingTime: time.Minute, LiveJobs: 60})
	srv := httptest.NewServer(fs)
	t.Cleanup(func() { srv.Close(); fs.Close() })

	call := func(method, path, contentType string, body []byte) (int, any) {
		t.Helper()
		status, data := testutil.ServiceRequest(t, srv.URL, testKey, method, path, contentType, body)
		return status, decodeTree(t, data)
	}
	check := func(name string, got any, fixture string, exact bool) {
		t.Helper()
		// The fake server gives vocabulary entries back as objects whatever
		// their form in the request; the service's form there is not known.
		got, want := vocabularyAsObjects(got, "", false), vocabularyAsObjects(decodeTree(t, readGolden(t, fixture)), "", false)
		for _, p := range conforms(got, want, name, exact) {
			t.Errorf("%s against %s: %s", name, fixture, p)
		}
	}
	create := func(body string) string {
		t.Helper()
		status, resp := call(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(body))
		if status != http.StatusCreated {
			t.Fatalf("create %s: %d %v", body, status, resp)
		}
		return resp.(map[string]any)["id"].(string)
	}

	// The fixtures' create request, its callbacks sent here.
	request := strings.NewReplacer("https://hooks.example.com/", hooks.URL+"/").Replace(string(readGolden(t, "create_request.json")))
	status, initResp := call(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(request))
	if status != http.StatusCreated {
		t.Fatalf("the fixtures' create request: %d %v", status, initResp)
	}
	check("POST /v2/pre-recorded", initResp, "init_response.json", true)
	full := initResp.(map[string]any)["id"].(string)

	queued := create(`{"audio_url":"https://example.com/recordings/call.wav?duration=12","custom_metadata":{"team":"platform"}}`)
	_, rec := call(http.MethodGet, "/v2/pre-recorded/"+queued, "", nil)
	check("queued job", rec, "prerecorded_job_queued.json", true)

	failed := create(`{"audio_url":"https://example.com/recordings/fail-422.wav","custom_metadata":{"team":"platform"}}`)
	create(`{"audio_url":"https://example.com/recordings/fail-422.wav","custom_metadata":{"team":"platform"}}`)
	create(fmt.Sprintf(`{"audio_url":"https://example.com/recordings/fail-422.wav","custom_metadata":{"team":"callbacks"},"callback_url":%q}`, hooks.URL+"/failed"))

	clock.Advance(2 * time.Minute)
	fs.SettleJobs()
	_, rec = call(http.MethodGet, "/v2/pre-recorded/"+full, "", nil)
	check("done job", rec, "prerecorded_job_done.json", true)
	_, rec = call(http.MethodGet, "/v2/transcription/"+full, "", nil)
	check("GET /v2/transcription", rec, "prerecorded_job_done.json", true)
	_, rec = call(http.MethodGet, "/v2/pre-recorded/"+failed, "", nil)
	check("failed job", rec, "prerecorded_job_error.json", true)
	_, page := call(http.MethodGet, "/v2/pre-recorded?status=error&custom_metadata%5Bteam%5D=platform&limit=1", "", nil)
	check("GET /v2/pre-recorded", page, "prerecorded_page.json", true)
	check("success callback", decodeTree(t, sink.body(t, "PUT /transcription")), "callback_success.json", true)
	check("failure callback", decodeTree(t, sink.body(t, "POST /failed")), "callback_error.json", true)

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("audio", "standup.wav")
	_, _ = part.Write(testutil.SilentWAV(1, 1, 8000))
	_ = mw.Close()
	_, up := call(http.MethodPost, "/v2/upload", mw.FormDataContentType(), body.Bytes())
	check("POST /v2/upload", up, "upload_response.json", true)

	_, bad := call(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(`{"audio_url":"https://example.com/a.wav","subtitles":"yes"}`))
	check("400", bad, "error_body.json", true)
	for _, path := range []string{"/v2/pre-recorded/nope", "/v2/live/nope"} {
		_, notFound := call(http.MethodGet, path, "", nil)
		check("404", notFound, "error_body.json", false)
		if len(notFound.(map[string]any)) != 5 {
			t.Errorf("404 body %v: want the five members every error body has", notFound)
		}
	}

	// Live jobs: optional parts vary with each session's settings, so each
	// item's members must be among the fixture's, and all items together
	// must show every member of the fixture's.
	_, livePage := call(http.MethodGet, "/v2/live?status=done&status=error&limit=2", "", nil)
	liveFixture := decodeTree(t, readGolden(t, "live_page.json"))
	for _, p := range conforms(livePage, liveFixture, "GET /v2/live", false) {
		t.Errorf("GET /v2/live against live_page.json: %s", p)
	}
	_, all := call(http.MethodGet, "/v2/live?status=done&status=error&limit=100", "", nil)
	items := all.(map[string]any)["items"].([]any)
	seen, want := map[string]bool{}, map[string]bool{}
	for _, item := range items {
		keyPaths(item, "", seen)
		id := item.(map[string]any)["id"].(string)
		_, one := call(http.MethodGet, "/v2/live/"+id, "", nil)
		for _, p := range conforms([]any{one}, liveFixture.(map[string]any)["items"], "GET /v2/live/"+id, false) {
			t.Errorf("against live_page.json items: %s", p)
		}
	}
	for _, item := range liveFixture.(map[string]any)["items"].([]any) {
		keyPaths(item, "", want)
	}
	for p := range want {
		if !seen[p] {
			t.Errorf("no live job of the %d seeded sends %s", len(items), p)
		}
	}

	// The client reads every answer above.
	c := newClient(t, srv.URL, testKey)
	if _, err := c.GetPreRecorded(context.Background(), full); err != nil {
		t.Errorf("client reading the done job: %v", err)
	}
}
