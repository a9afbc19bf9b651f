package client_test

// Fuzz targets of the client: every response shape is decoded from hostile
// answers (any status, any Content-Type, any body) and must give a value or a
// typed, bounded, printable error; the request builders must only produce
// requests the service accepts as well formed. The f.Add seeds and the
// entries under testdata/fuzz run as ordinary tests in `go test`; run one
// target longer with
//
//	go test -run '^$' -fuzz '^FuzzGetPreRecordedResponse$' -fuzztime 60s ./internal/client/

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

const (
	// fuzzMaxResponseBytes is the client's body bound in the response
	// targets: small, so the fuzzer reaches it, yet above the valid seeds.
	fuzzMaxResponseBytes = 16 << 10
	// maxErrorText bounds the text of any error the client returns,
	// whatever the size of the body it was given.
	maxErrorText = 4 << 10
)

// scriptedServer answers every request with the status, Content-Type and
// body last given to it. A fuzz function runs its inputs one at a time, so
// one server serves a whole target.
type scriptedServer struct {
	mu          sync.Mutex
	status      int
	contentType string
	body        []byte
	srv         *httptest.Server
}

func newScriptedServer(f *testing.F) *scriptedServer {
	s := &scriptedServer{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		status, contentType, body := s.status, s.contentType, s.body
		s.mu.Unlock()
		// An empty Content-Type leaves the header out: net/http then sniffs one.
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	f.Cleanup(s.srv.Close)
	return s
}

func (s *scriptedServer) set(status int, contentType string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.contentType, s.body = status, contentType, body
}

// client is a client of the scripted server that never retries.
func (s *scriptedServer) client(tb testing.TB) *client.Client {
	hc := s.srv.Client()
	hc.Timeout = 10 * time.Second
	c, err := client.New(client.Config{BaseURL: s.srv.URL, APIKey: "k", HTTPClient: hc, MaxRetries: -1, MaxResponseBytes: fuzzMaxResponseBytes})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// fuzzStatus maps any int onto 100..599, keeping those already there.
func fuzzStatus(n int) int { return 100 + ((n-100)%500+500)%500 }

// effectiveStatus is the status the client sees: net/http sends 1xx
// answers other than 101 as informational and then a 200.
func effectiveStatus(status int) int {
	if status >= 100 && status < 200 && status != http.StatusSwitchingProtocols {
		return http.StatusOK
	}
	return status
}

// validHeaderValue reports whether net/http can carry v as a header value
// (newlines are turned into spaces by the server; other controls are not).
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < ' ' && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
			return false
		}
	}
	return true
}

// isJSONContentType mirrors what the client accepts as a JSON answer.
func isJSONContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// checkErrorText requires err's text to be bounded and printable.
func checkErrorText(t *testing.T, err error) {
	t.Helper()
	text := err.Error()
	if len(text) >= maxErrorText {
		t.Fatalf("error text is %d bytes long: %.300q…", len(text), text)
	}
	if !utf8.ValidString(text) {
		t.Fatalf("error text is not valid UTF-8: %q", text)
	}
	for _, r := range text {
		if !unicode.IsPrint(r) {
			t.Fatalf("error text holds the unprintable %U: %q", r, text)
		}
	}
}

// responseShape is one response type of the client: how to call it and what
// a decoded value must hold to be accepted.
type responseShape[T any] struct {
	call func(context.Context, *client.Client) (*T, error)
	// complete says what required field a decoded value lacks ("" if none).
	complete func(*T) string
	// prefixOnly is set for a call that stops reading once it has what it
	// needs: a body malformed or too long past that point may be accepted,
	// and a body whose members repeat may be read by their first values.
	prefixOnly bool
	// byBody is set for a call that takes a JSON object whatever the
	// answer's Content-Type (a create: its id must not be lost to a
	// relabeling proxy); its call clears the label it reports.
	byBody bool
	// defaults, unless nil, fills into a decoded body what the client fills
	// in when the answer leaves it out (a create's result_url).
	defaults func(c *client.Client, want *T)
}

// fuzzResponse is the property every response shape shares.
func fuzzResponse[T any](f *testing.F, shape responseShape[T], validBodies ...[]byte) {
	addResponseSeeds(f, validBodies...)
	srv := newScriptedServer(f)
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		status = fuzzStatus(status)
		srv.set(status, contentType, body)
		c := srv.client(t)
		got, err := shape.call(context.Background(), c)
		if got == nil && err == nil {
			t.Fatal("neither a value nor an error")
		}
		if got != nil && err != nil {
			t.Fatalf("both a value and an error: %v", err)
		}
		if err != nil {
			checkErrorText(t, err)
		}
		var transportErr *client.TransportError
		if errors.As(err, &transportErr) {
			// Only a header net/http cannot carry may break the exchange.
			if validHeaderValue(contentType) {
				t.Fatalf("transport error: %v", err)
			}
			return
		}

		seen := effectiveStatus(status)
		if seen < 200 || seen > 299 {
			var apiErr *client.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != seen {
				t.Fatalf("status %d: got %v (%T), want an *APIError with that status", seen, err, err)
			}
			return
		}

		// A 2xx answer: a complete value, or a DecodeError.
		if err != nil {
			var decodeErr *client.DecodeError
			if !errors.As(err, &decodeErr) {
				t.Fatalf("status %d: got %v (%T), want a *DecodeError", seen, err, err)
			}
		} else if missing := shape.complete(got); missing != "" {
			t.Fatalf("accepted a response lacking %s: %q", missing, body)
		}

		// The oracle: a bounded JSON answer that decodes into a complete
		// value must be accepted, and anything else refused.
		var want T
		sendsBody := seen != http.StatusNoContent && seen != http.StatusNotModified
		labeledJSON := isJSONContentType(strings.ReplaceAll(strings.ReplaceAll(contentType, "\r", " "), "\n", " "))
		var object map[string]json.RawMessage
		takenByBody := shape.byBody && json.Unmarshal(body, &object) == nil && object != nil
		wellFormed := sendsBody && (labeledJSON || takenByBody) &&
			len(body) <= fuzzMaxResponseBytes && json.Unmarshal(body, &want) == nil && shape.complete(&want) == ""
		if wellFormed && err != nil {
			t.Fatalf("refused a well-formed %d answer (Content-Type %q): %v", seen, contentType, err)
		}
		if shape.prefixOnly {
			if !wellFormed || repeatsMembers(body) {
				return
			}
		} else if !wellFormed && err == nil {
			t.Fatalf("accepted a malformed %d answer (Content-Type %q): %q", seen, contentType, body)
		}
		if shape.defaults != nil {
			shape.defaults(c, &want)
		}
		if err == nil && !reflect.DeepEqual(*got, want) {
			t.Fatalf("decoded %+v, want %+v", *got, want)
		}
	})
}

// addResponseSeeds adds the hostile answers every shape is tried with, and
// each valid body under several statuses and content types.
func addResponseSeeds(f *testing.F, validBodies ...[]byte) {
	const jsonCT = "application/json"
	for _, b := range validBodies {
		for _, s := range []struct {
			status int
			ct     string
		}{
			{200, jsonCT}, {201, "application/json; charset=utf-8"}, {200, "application/vnd.api+json"},
			{200, "text/plain"}, {200, ""}, {202, "APPLICATION/JSON"}, {200, "application/json; charset"},
			{500, jsonCT}, {204, jsonCT},
		} {
			f.Add(s.status, s.ct, b)
		}
		// Truncated at several points, and with trailing data.
		for _, cut := range []int{1, len(b) / 3, len(b) / 2, len(b) - 1} {
			if cut > 0 && cut < len(b) {
				f.Add(200, jsonCT, b[:cut])
			}
		}
		f.Add(200, jsonCT, append(append([]byte(nil), b...), `{}`...))
		f.Add(200, jsonCT, append(append([]byte(nil), b...), " \n\t"...))
		// Past the client's bound.
		f.Add(200, jsonCT, append(append([]byte(nil), b...), bytes.Repeat([]byte(" "), fuzzMaxResponseBytes)...))
	}
	errorBody := `{"timestamp":"2026-01-01T00:00:00.000Z","path":"/v2/x","request_id":"req-1","statusCode":422,"message":"the given parameters are incorrect","validation_errors":["model must be one of: model-1, model-3, model-fusion (got \"x\")","language_config.languages must hold exactly one language when model is model-3 (got 0)"]}`
	html := `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>`
	manyProblems := `{"request_id":"r","message":"bad","validation_errors":[` + strings.TrimSuffix(strings.Repeat(`"`+strings.Repeat("p", 300)+`",`, 40), ",") + `]}`
	for _, s := range []struct {
		status int
		ct     string
		body   string
	}{
		{400, jsonCT, errorBody}, {401, jsonCT, `{"statusCode":401,"message":"missing or invalid API key","request_id":"r"}`},
		{404, jsonCT, `{"message":"no pre-recorded job with id x","request_id":"r","statusCode":404}`},
		{422, jsonCT, errorBody}, {429, jsonCT, `{"message":"too many requests; retry after 1s","request_id":"r"}`},
		{500, "text/html", html}, {502, "text/html; charset=utf-8", html}, {503, "", ""}, {504, "text/plain", "upstream request timeout"},
		{200, "text/html", html}, {200, jsonCT, html}, {302, "text/html", `<a href="/login">Found</a>`},
		{101, jsonCT, `{}`}, {100, jsonCT, `{"id":"x"}`}, {199, jsonCT, `null`},
		{422, jsonCT, `{"message":"` + strings.Repeat("é\u0000\x1b[31m\n", 2000) + `","request_id":"` + strings.Repeat("r", 5000) + `"}`},
		{422, jsonCT, manyProblems},
		{400, jsonCT, `{"message":"\ud800 lone surrogate \u202e reversed","validation_errors":["\u0007bell"]}`},
		{400, jsonCT, "{\"message\":\"invalid utf-8 \xff\xfe\",\"request_id\":\"\xc3\"}"},
		{500, "application/octet-stream", "\x00\x01\x02\xff\xfe binary garbage \x1b[2J"},
		{200, jsonCT, ``}, {200, jsonCT, `null`}, {200, jsonCT, `[]`}, {200, jsonCT, `"a string"`}, {200, jsonCT, `42`},
		{200, jsonCT, `{`}, {200, jsonCT, `{"id":`}, {200, jsonCT, `{"id":"x","status":"done"`},
		{200, jsonCT, `{"id":5,"status":true,"audio_url":[],"items":{}}`},
		{200, jsonCT, `{"id":"x","status":"done","version":1e400,"result":{"metadata":{"audio_duration":-1e999}}}`},
		{200, jsonCT, `{"id":"x","status":"done","version":99999999999999999999999}`},
		{200, jsonCT, `{"id":"x","status":"done","audio_url":"u","items":[],"unknown":{"nested":{"deeper":[1,{"x":null}]}}}`},
		{200, jsonCT, strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000)},
		{200, jsonCT, `{"id":"x","status":"done","audio_url":"u","items":[],"` + strings.Repeat("k", 3000) + `":1}`},
		{200, jsonCT, "\xef\xbb\xbf{\"id\":\"x\",\"status\":\"done\"}"},
		{200, "application/json\x00", `{"id":"x","status":"done","audio_url":"u","items":[]}`},
		{200, "application/json\r\nX-Injected: 1", `{"id":"x","status":"done","audio_url":"u","items":[]}`},
		{200, "application/json; " + strings.Repeat("a=b; ", 200), `{"id":"x","status":"done","audio_url":"u","items":[]}`},
	} {
		f.Add(s.status, s.ct, []byte(s.body))
	}
}

// fakeBodies holds one valid answer of each shape, produced by the fake
// server with every add-on on.
type fakeBodies struct {
	job, livePage, create, upload []byte
}

var (
	fakeBodiesOnce sync.Once
	fakeBodiesVal  fakeBodies
)

func validFakeBodies(tb testing.TB) fakeBodies {
	fakeBodiesOnce.Do(func() {
		fs := fakeserver.New(fakeserver.Options{APIKey: "k", LiveJobs: 2, Clock: fakeserver.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))})
		defer fs.Close()
		do := func(method, target, contentType string, body []byte) []byte {
			req := httptest.NewRequest(method, target, bytes.NewReader(body))
			req.Header.Set(client.ServiceKeyHeader, "k")
			if contentType != "" {
				req.Header.Set("Content-Type", contentType)
			}
			rec := httptest.NewRecorder()
			fs.ServeHTTP(rec, req)
			if rec.Code >= 300 {
				panic(fmt.Sprintf("%s %s: %d %s", method, target, rec.Code, rec.Body))
			}
			return rec.Body.Bytes()
		}
		fakeBodiesVal.create = do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(everyOptionBody))
		var created client.InitResponse
		if err := json.Unmarshal(fakeBodiesVal.create, &created); err != nil {
			panic(err)
		}
		// The job's record as the one the fuzz targets ask for (fuzzJobID).
		fakeBodiesVal.job = bytes.ReplaceAll(do(http.MethodGet, "/v2/pre-recorded/"+created.ID, "", nil), []byte(created.ID), []byte(fuzzJobID))
		fakeBodiesVal.livePage = do(http.MethodGet, "/v2/live?limit=1", "", nil)
		var mp bytes.Buffer
		mp.WriteString("--B\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\n\r\n")
		mp.Write(testutil.SilentWAV(0.01, 1, 8000))
		mp.WriteString("\r\n--B--\r\n")
		fakeBodiesVal.upload = do(http.MethodPost, "/v2/upload", "multipart/form-data; boundary=B", mp.Bytes())
	})
	for _, b := range [][]byte{fakeBodiesVal.job, fakeBodiesVal.livePage, fakeBodiesVal.create, fakeBodiesVal.upload} {
		if len(b) == 0 || len(b) > fuzzMaxResponseBytes {
			tb.Fatalf("a valid seed body is %d bytes, outside (0, %d]", len(b), fuzzMaxResponseBytes)
		}
	}
	return fakeBodiesVal
}

// everyOptionBody is a create body with every add-on on and every config set.
const everyOptionBody = `{"audio_url":"https://example.com/talk.wav?duration=2&channels=2","model":"model-1",
"language_config":{"languages":["en","fr"],"code_switching":true},
"custom_vocabulary":true,"custom_vocabulary_config":{"vocabulary":["Kubernetes",{"value":"Terraform","intensity":0.5,"pronunciations":["terra form"],"language":"en"}],"default_intensity":0.4},
"callback":false,"callback_config":{"url":"https://hooks.example.com/cb","method":"PUT"},
"subtitles":true,"subtitles_config":{"formats":["srt","vtt"],"minimum_duration":1,"maximum_duration":6,"maximum_characters_per_row":40,"maximum_rows_per_caption":2,"style":"default"},
"diarization":true,"diarization_config":{"number_of_speakers":2,"min_speakers":1,"max_speakers":3},
"translation":true,"translation_config":{"target_languages":["de","wo"],"model":"enhanced","match_original_utterances":true,"lipsync":false,"context_adaptation":true,"context":"a meeting","informal":true},
"summarization":true,"summarization_config":{"type":"bullet_points"},
"named_entity_recognition":true,"custom_spelling":true,"custom_spelling_config":{"spelling_dictionary":{"Gettext":["get text"]}},
"sentiment_analysis":true,"audio_to_llm":true,"audio_to_llm_config":{"prompts":["Summarise"],"model":"openai/gpt-4o-mini"},
"pii_redaction":true,"pii_redaction_config":{"entity_types":["GDPR","EMAIL_ADDRESS"],"processed_text_type":"MASK"},
"custom_metadata":{"team":"media","n":1,"nested":{"a":[1,2,null]}},"sentences":true,"punctuation_enhanced":true}`

func FuzzGetPreRecordedResponse(f *testing.F) {
	b := validFakeBodies(f)
	fuzzResponse(f, responseShape[client.PreRecordedJob]{
		call: func(ctx context.Context, c *client.Client) (*client.PreRecordedJob, error) {
			return c.GetPreRecorded(ctx, fuzzJobID)
		},
		complete: func(j *client.PreRecordedJob) string {
			switch {
			case j.ID == "" || j.Status == "":
				return "id or status"
			case !strings.EqualFold(j.ID, fuzzJobID):
				return "the id asked for"
			case !slices.Contains(client.JobStatuses, j.Status):
				return "a job status"
			}
			return ""
		},
	}, b.job, []byte(`{"id":"x","status":"queued","result":null,"file":null,"request_params":null}`))
}

// FuzzGetPreRecordedStatusResponse: the read that stops at a record's
// status answers as the whole record says whenever the record is sound.
func FuzzGetPreRecordedStatusResponse(f *testing.F) {
	b := validFakeBodies(f)
	fuzzResponse(f, responseShape[jobStatus]{
		call: func(ctx context.Context, c *client.Client) (*jobStatus, error) {
			status, err := c.GetPreRecordedStatus(ctx, fuzzJobID)
			if err != nil {
				return nil, err
			}
			return &jobStatus{ID: fuzzJobID, Status: status}, nil
		},
		complete: func(j *jobStatus) string {
			switch {
			case j.ID == "" || j.Status == "":
				return "id or status"
			case j.ID != fuzzJobID:
				return "the id asked for"
			case !slices.Contains(client.JobStatuses, j.Status):
				return "a job status"
			}
			return ""
		},
		prefixOnly: true,
	}, b.job, []byte(`{"id":"x","status":"done","result":{"transcription":{"utterances":[{"text":"a"}]}}}`),
		[]byte(`{"id":"x","result":null,"status":"error"}`), []byte(`{"status":"done","id":""}`), []byte(`{"id":"0","stAtus":"0","0000000":{}}`))
}

// fuzzJobID is the id the fuzz targets ask for, and the id of the records
// they are seeded with.
const fuzzJobID = "x"

// jobStatus is what GetPreRecordedStatus reads of a record: it requires
// the id asked for but returns the status alone, so the id is compared
// only as that one (up to case, as the client compares ids) or not.
type jobStatus struct {
	ID     askedID `json:"id"`
	Status string  `json:"status"`
}

// askedID is a JSON string read as fuzzJobID when it names that job.
type askedID string

func (p *askedID) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*p = askedID(s)
	if strings.EqualFold(s, fuzzJobID) {
		*p = fuzzJobID
	}
	return nil
}

// repeatsMembers reports whether the JSON object body names a member twice
// at its top level, as encoding/json tells names apart: up to case folding.
func repeatsMembers(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		return false
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		name, _ := tok.(string)
		for _, seen := range names {
			if strings.EqualFold(seen, name) {
				return true
			}
		}
		names = append(names, name)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

func FuzzListLiveResponse(f *testing.F) {
	b := validFakeBodies(f)
	fuzzResponse(f, responseShape[client.LivePage]{
		call: func(ctx context.Context, c *client.Client) (*client.LivePage, error) {
			return c.ListLive(ctx, client.ListLiveOptions{Limit: 1})
		},
		complete: func(p *client.LivePage) string {
			if p.Items == nil {
				return "items"
			}
			for i, it := range p.Items {
				if it.ID == "" || it.Status == "" {
					return fmt.Sprintf("the id or status of item %d", i)
				}
			}
			return ""
		},
	}, b.livePage, []byte(`{"first":"http://x/v2/live?offset=0&limit=1","current":"http://x/v2/live?offset=0&limit=1","next":null,"items":[]}`),
		[]byte(`{"items":[{"id":"a","status":"done"},{"id":"","status":"done"}]}`), []byte(`{"items":[{}]}`), []byte(`{"items":null}`))
}

func FuzzCreatePreRecordedResponse(f *testing.F) {
	b := validFakeBodies(f)
	fuzzResponse(f, responseShape[client.InitResponse]{
		call: func(ctx context.Context, c *client.Client) (*client.InitResponse, error) {
			created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
			if created != nil {
				created.Mislabeled = "" // not the service's: TestCreatePreRecorded_answerOfSuccess checks it
			}
			return created, err
		},
		complete: func(r *client.InitResponse) string {
			if !client.JobIDPattern.MatchString(r.ID) {
				return "an id that is a UUID"
			}
			return ""
		},
		byBody: true,
		defaults: func(c *client.Client, want *client.InitResponse) {
			if want.ResultURL == "" {
				want.ResultURL = c.ResultURL(want.ID)
			}
		},
	}, b.create, []byte(`{"id":"","result_url":"x"}`), []byte(`{"id":"..","result_url":"x"}`), []byte(`{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6"}`))
}

func FuzzUploadResponse(f *testing.F) {
	b := validFakeBodies(f)
	wav := testutil.SilentWAV(0.01, 1, 8000)
	fuzzResponse(f, responseShape[client.UploadResponse]{
		call: func(ctx context.Context, c *client.Client) (*client.UploadResponse, error) {
			return c.Upload(ctx, "a.wav", int64(len(wav)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil })
		},
		complete: func(r *client.UploadResponse) string {
			switch {
			case r.AudioURL == "":
				return "audio_url"
			case r.AudioMetadata == nil || r.AudioMetadata.ID == "":
				return "audio_metadata.id"
			}
			return ""
		},
	}, b.upload, []byte(`{"audio_url":"https://x/file/1","audio_metadata":{"id":"f1","size":-1,"audio_duration":1e308}}`))
}

// FuzzVocabularyEntryUnmarshal decodes the string-or-object union: a string
// gives an entry holding only that value, an object only known fields, and an
// accepted entry survives a round trip through its JSON encoding.
func FuzzVocabularyEntryUnmarshal(f *testing.F) {
	for _, s := range []string{
		`"Kubernetes"`, ` "padded" `, `""`, `"\u00e9t\u00e9 \ud83d\ude00"`, `"\ud800"`, "\"\xff\"",
		`{"value":"Terraform"}`, `{"value":"x","intensity":0.5,"pronunciations":["a","b"],"language":"en"}`,
		`{"value":"x","intensity":1e400}`, `{"value":"x","extra":1}`, `{"Value":"case folded"}`, `{}`, `{"value":null}`,
		`{"value":5}`, `{"value":"x","pronunciations":"not a list"}`, `null`, `5`, `true`, `["x"]`, ``, ` `, `{`, `"unterminated`,
		`{"value":"a","value":"b"}`, `{"value":"x"} trailing`, `{"value":"x","language":null,"intensity":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var e client.VocabularyEntry
		err := e.UnmarshalJSON(data)
		if err != nil {
			// Inside a list the decoder reports it; the text must be usable.
			var list []client.VocabularyEntry
			if json.Valid(data) {
				if lerr := json.Unmarshal([]byte("["+string(data)+"]"), &list); lerr == nil {
					t.Fatalf("the entry %q is refused alone (%v) but accepted in a list", data, err)
				}
			}
			return
		}
		if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '"' {
			var s string
			if json.Unmarshal(trimmed, &s) != nil || !reflect.DeepEqual(e, client.VocabularyEntry{Value: s}) {
				t.Fatalf("the string %q decoded to %+v", data, e)
			}
		}
		out, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("encoding %+v: %v", e, err)
		}
		var again client.VocabularyEntry
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("decoding its own encoding %s: %v", out, err)
		}
		if !reflect.DeepEqual(normalizeEntry(e), normalizeEntry(again)) {
			t.Fatalf("round trip changed %+v into %+v", e, again)
		}
	})
}

// normalizeEntry treats an empty pronunciations list as absent, as
// omitempty does.
func normalizeEntry(e client.VocabularyEntry) client.VocabularyEntry {
	if len(e.Pronunciations) == 0 {
		e.Pronunciations = nil
	}
	return e
}

// FuzzCreateRequestBuilder checks the request builder against the service:
// any create request the client can represent (decoded from fuzzed JSON) is
// encoded into a body the fake server finds well formed — created (201) or
// refused for its values (422), never malformed (400) — and the encoding
// round-trips.
func FuzzCreateRequestBuilder(f *testing.F) {
	for _, s := range []string{
		everyOptionBody,
		`{"audio_url":"https://example.com/a.wav"}`,
		`{"audio_url":""}`,
		`{"audio_url":"https://e.com/a.wav","model":"model-3","language_config":{"languages":["fr"]}}`,
		`{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[]}}`,
		`{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[""," ",{"value":""}]}}`,
		`{"audio_url":"https://e.com/a.wav","custom_spelling_config":{"spelling_dictionary":{}}}`,
		`{"audio_url":"https://e.com/a.wav","custom_spelling_config":{"spelling_dictionary":{"a":null,"":[""]}}}`,
		`{"audio_url":"https://e.com/a.wav","translation_config":{"target_languages":null}}`,
		`{"audio_url":"https://e.com/a.wav","audio_to_llm_config":{"prompts":[]}}`,
		`{"audio_url":"https://e.com/a.wav","subtitles_config":{"formats":[],"maximum_duration":0,"minimum_duration":-0}}`,
		`{"audio_url":"https://e.com/a.wav","diarization_config":{"number_of_speakers":-9223372036854775808}}`,
		`{"audio_url":"https://e.com/a.wav","custom_metadata":{"a":{"b":[1.5e300,-0,"\u0000",null,true]}}}`,
		`{"audio_url":"https://e.com/a.wav","custom_metadata":{}}`,
		`{"AUDIO_URL":"https://e.com/case.wav","Model":"model-1"}`,
		`{"audio_url":"https://e.com/a.wav","callback":true,"callback_config":{"url":""}}`,
		`{"audio_url":"https://e.com/a.wav","callback_url":"https://e.com/cb","pii_redaction_config":{}}`,
		`{"audio_url":"https://e.com/\u2028\ud800.wav","language_config":{"languages":[""]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req client.InitTranscriptionRequest
		if json.Unmarshal(data, &req) != nil {
			return
		}
		body, err := json.Marshal(&req)
		if err != nil {
			t.Fatalf("encoding %+v: %v", req, err)
		}
		var again client.InitTranscriptionRequest
		if err := json.Unmarshal(body, &again); err != nil {
			t.Fatalf("decoding the builder's own body %s: %v", body, err)
		}
		if again2, _ := json.Marshal(&again); !bytes.Equal(body, again2) {
			t.Fatalf("the encoding is not stable:\n%s\n%s", body, again2)
		}

		fs := fakeserver.New(fakeserver.Options{APIKey: "k", ProcessingTime: time.Hour, Clock: fakeserver.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)), CallbackClient: refusingClient})
		defer fs.Close()
		r := httptest.NewRequest(http.MethodPost, "/v2/pre-recorded", bytes.NewReader(body))
		r.Header.Set(client.ServiceKeyHeader, "k")
		r.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		fs.ServeHTTP(rec, r)
		if rec.Code == http.StatusBadRequest && lacksRequired(&req) {
			return // a required list or map left nil is sent as null
		}
		if rec.Code != http.StatusCreated && rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("the server answered %d to the body the client built: %s\nbody: %s", rec.Code, rec.Body, body)
		}
	})
}

// lacksRequired reports whether a required list or map of req is nil, which
// encodes as null: the service then says the field is missing (a 400).
func lacksRequired(req *client.InitTranscriptionRequest) bool {
	if c := req.CustomVocabularyConfig; c != nil && c.Vocabulary == nil {
		return true
	}
	if c := req.TranslationConfig; c != nil && c.TargetLanguages == nil {
		return true
	}
	if c := req.AudioToLLMConfig; c != nil && c.Prompts == nil {
		return true
	}
	if c := req.CustomSpellingConfig; c != nil {
		if c.SpellingDictionary == nil {
			return true
		}
		for _, v := range c.SpellingDictionary {
			if v == nil {
				return true
			}
		}
	}
	return false
}

// refusingClient fails every callback delivery without touching the network.
var refusingClient = &http.Client{Transport: roundTripperFunc(func(*http.Request) (*http.Response, error) {
	return nil, errors.New("callbacks are not delivered in fuzz tests")
})}

// FuzzListLiveOptions checks the listing's query builder against the fake
// server's parser: options within the documented bounds are accepted and
// every item returned honours them; the query holds each option once.
func FuzzListLiveOptions(f *testing.F) {
	f.Add(0, 0, "", "", "", "", "", "")
	f.Add(3, 5, "2026-01-01", "2025-12-25T00:00:00Z", "2026-01-02T00:00:00Z", "done,error", "team", "alpha")
	f.Add(-1, -5, "2026-13-01", "yesterday", "2026-01-02T00:00:00+02:00", "done,,bogus", "env", "prod")
	f.Add(1<<62, 1<<62, "", "", "", "queued", "a]b", "x&y=z")
	f.Add(9223372036854775807, 9223372036854775807, "", "", "", "", "k[", "")
	f.Add(0, 1, "", "", "", "processing", "priority", "1")
	f.Add(2, 2, "", "", "", "", "émoji 😀", "v a l u e;%00")

	fs := fakeserver.New(fakeserver.Options{APIKey: "k", LiveJobs: 30, Clock: fakeserver.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))})
	f.Cleanup(fs.Close)
	srv := httptest.NewServer(fs)
	f.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", HTTPClient: srv.Client(), MaxRetries: -1})
	if err != nil {
		f.Fatal(err)
	}

	f.Fuzz(func(t *testing.T, offset, limit int, date, after, before, statuses, metaKey, metaValue string) {
		opts := client.ListLiveOptions{Offset: offset, Limit: limit, Date: date, AfterDate: after, BeforeDate: before}
		if statuses != "" {
			opts.Status = strings.Split(statuses, ",")
		}
		if metaKey != "" {
			opts.CustomMetadata = map[string]string{metaKey: metaValue}
		}
		q := opts.Query()
		parsed, err := url.ParseQuery(q.Encode())
		if err != nil {
			t.Fatalf("the builder's query %q does not parse: %v", q.Encode(), err)
		}
		for key, vals := range parsed {
			if key != "status" && len(vals) != 1 {
				t.Fatalf("%s appears %d times in %q", key, len(vals), q.Encode())
			}
		}
		if (offset > 0) != parsed.Has("offset") || (limit > 0) != parsed.Has("limit") {
			t.Fatalf("offset %d / limit %d gave %q", offset, limit, q.Encode())
		}

		fs.ResetRequests()
		page, err := c.ListLive(context.Background(), opts)
		if err != nil {
			checkErrorText(t, err)
			if !client.IsStatus(err, http.StatusBadRequest) {
				t.Fatalf("%+v: %v", opts, err)
			}
			if liveOptionsValid(opts) {
				t.Fatalf("valid options %+v refused: %v", opts, err)
			}
			return
		}
		wantLimit := limit
		if wantLimit <= 0 {
			wantLimit = client.DefaultLiveListLimit
		}
		if len(page.Items) > wantLimit {
			t.Fatalf("%d items for limit %d", len(page.Items), wantLimit)
		}
		for _, it := range page.Items {
			if len(opts.Status) > 0 && !client.Contains(opts.Status, it.Status) {
				t.Fatalf("status filter %q let through %q", opts.Status, it.Status)
			}
			if metaKey != "" && fmt.Sprint(it.CustomMetadata[metaKey]) != metaValue {
				t.Fatalf("metadata filter %q=%q let through %v", metaKey, metaValue, it.CustomMetadata)
			}
			if date != "" && !strings.HasPrefix(it.CreatedAt, date) {
				t.Fatalf("date filter %q let through %q", date, it.CreatedAt)
			}
		}
		if page.Next != nil {
			u, err := url.Parse(*page.Next)
			if err != nil {
				t.Fatalf("next link %q: %v", *page.Next, err)
			}
			n, err := strconv.Atoi(u.Query().Get("offset"))
			if err != nil || n <= max(offset, 0) {
				t.Fatalf("next link %q does not advance past offset %d", *page.Next, offset)
			}
		}
	})
}

func liveOptionsValid(o client.ListLiveOptions) bool {
	if o.Date != "" {
		if d, err := time.Parse(client.DateFilterLayout, o.Date); err != nil || d.Format(client.DateFilterLayout) != o.Date {
			return false
		}
	}
	for _, v := range []string{o.AfterDate, o.BeforeDate} {
		if _, err := client.ParseDateTimeFilter(v); v != "" && err != nil {
			return false
		}
	}
	for _, s := range o.Status {
		if !client.Contains(client.JobStatuses, s) {
			return false
		}
	}
	for k := range o.CustomMetadata {
		if strings.ContainsAny(k, "[]") {
			return false
		}
	}
	return true
}

// FuzzRawResponse answers with any bytes at all in place of an HTTP response
// (a broken proxy, a non-HTTP service on the port): the client returns a
// complete job or a bounded, printable error.
func FuzzRawResponse(f *testing.F) {
	b := validFakeBodies(f)
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(b.job)) + "\r\n\r\n" + string(b.job),
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + `{"id":"x","status":"done"}`,
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n{\"id\":\"x\",\"status\":\"done\"}\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
		"HTTP/1.1 422 Unprocessable Entity\r\nContent-Type: application/json\r\n\r\n" + `{"message":"bad","request_id":"r","validation_errors":["x"]}`,
		"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 99999999999999999999\r\n\r\n",
		"HTTP/1.1 503 Service Unavailable\r\nRetry-After: Fri, 31 Dec 9999 23:59:59 GMT\r\nContent-Type: text/html\r\n\r\n<html><body>down</body></html>",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"id\":\"x\",\"status\":\"done\"}",
		strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", 10),
		"HTTP/1.1 200 OK\r\nX\x01bad: y\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon \x1b[31m" + strings.Repeat("z", 5000) + "\r\n\r\n",
		"HTTP/1.1 2000 " + strings.Repeat("\u202e", 1000) + "\r\n\r\n",
		"HTTZ/1.1 200 OK\r\n\r\n",
		"HTTP/1.0 200\r\n\r\n",
		"SSH-2.0-OpenSSH_9.6\r\n",
		"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
		"",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n\x1f\x8b\x08\x00garbage",
	} {
		f.Add([]byte(s))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var answer []byte
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
				// Read the request head, then answer and hang up.
				r := bufio.NewReader(conn)
				for {
					line, err := r.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				mu.Lock()
				out := answer
				mu.Unlock()
				_, _ = conn.Write(out)
			}()
		}
	}()
	// A fresh transport per try: nothing of one answer lingers in a pooled
	// connection for the next.
	newClient := func(t *testing.T) *client.Client {
		tr := &http.Transport{DisableKeepAlives: true, MaxResponseHeaderBytes: 64 << 10}
		t.Cleanup(tr.CloseIdleConnections)
		c, err := client.New(client.Config{BaseURL: "http://" + ln.Addr().String(), APIKey: "k", MaxRetries: -1, MaxResponseBytes: fuzzMaxResponseBytes,
			HTTPClient: &http.Client{Transport: tr, Timeout: 10 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		mu.Lock()
		answer = raw
		mu.Unlock()
		job, err := newClient(t).GetPreRecorded(context.Background(), fuzzJobID)
		switch {
		case job == nil && err == nil:
			t.Fatal("neither a job nor an error")
		case err != nil:
			checkErrorText(t, err)
		case job.ID == "" || job.Status == "":
			t.Fatalf("accepted a job lacking id or status: %q", raw)
		}
	})
}
