package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

const testKey = "secret-test-key-0123456789"

func ptr[T any](v T) *T { return &v }

// fixture is a fake server, its URL and clock, and a client for it.
type fixture struct {
	fs    *fakeserver.Server
	c     *client.Client
	clock *fakeserver.ManualClock
	url   string
}

// newFake starts the fake server and a client for it with fast retries.
func newFake(t *testing.T, opts fakeserver.Options) (*fakeserver.Server, *client.Client, *fakeserver.ManualClock) {
	f := newFixture(t, opts)
	return f.fs, f.c, f.clock
}

func newFixture(t *testing.T, opts fakeserver.Options) fixture {
	t.Helper()
	clock := fakeserver.NewManualClock(time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	if opts.Clock == nil {
		opts.Clock = clock
	}
	if opts.APIKey == "" {
		opts.APIKey = testKey
	}
	fs := fakeserver.New(opts)
	srv := httptest.NewServer(fs)
	t.Cleanup(func() { srv.Close(); fs.Close() })
	return fixture{fs: fs, c: newClient(t, srv.URL, opts.APIKey), clock: clock, url: srv.URL}
}

func newClient(t *testing.T, baseURL, key string) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: key, UserAgent: "terraform-provider-transcription/test", MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetries: 6})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNew_rejectsBadConfig(t *testing.T) {
	for _, base := range []string{"", "api.example.com", "ftp://x", "http://", "http://x?y=1"} {
		if _, err := client.New(client.Config{BaseURL: base, APIKey: "k"}); err == nil {
			t.Errorf("base URL %q accepted", base)
		}
	}
	if _, err := client.New(client.Config{BaseURL: "http://x"}); err == nil {
		t.Error("missing key accepted")
	}
	// A key no header can carry would fail every request, each retried as
	// if the network had failed.
	if _, err := client.New(client.Config{BaseURL: "http://x", APIKey: "sk_live_0123\n"}); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Errorf("a key ending with a newline: %v", err)
	}
}

// A file that cannot be opened fails the upload at once, with what the
// system said: no request is sent and nothing is retried, as no network
// failed.
func TestUpload_fileThatCannotBeOpened(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	opens := 0
	_, err := c.Upload(context.Background(), "a.wav", 10, func() (io.ReadCloser, error) {
		opens++
		return nil, fs.ErrNotExist
	})
	if !errors.Is(err, fs.ErrNotExist) || client.IsTransient(err) || strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("error %v: want the file's, not transient", err)
	}
	if opens != 1 || requests.Load() != 0 {
		t.Errorf("opened %d times, %d requests: want 1 and none", opens, requests.Load())
	}
}

// A key that an HTTP header cannot carry as it is, white space around it
// or a control character in it (DEL included), or that no service key
// matches, one not in ASCII (a byte-order mark, a blank or invisible
// character), is refused without being quoted; any other is accepted.
func TestCheckAPIKey(t *testing.T) {
	for key, want := range map[string]string{
		"\ufeffsk_live_0123":   "begins with a byte-order mark (U+FEFF)",
		"sk_live\u00a00123":    "invisible or blank character (U+00A0)",
		"sk_live\u00850123":    "invisible or blank character (U+0085)",
		"sk_live\u034f0123":    "invisible or blank character (U+034F)",
		"sk_live\u28000123":    "invisible or blank character (U+2800)",
		"sk_live_0123":         "",
		"sk live 0123":         "",
		"sk_live_0123\n":       "white space",
		" sk_live_0123":        "white space",
		"sk_live\t0123":        "control character",
		"sk_live\x7f0123":      "control character",
		"sk_live\x000123":      "control character",
		"sk_live_0123_éèà_ünï": "not ASCII (not shown)",
	} {
		err := client.CheckAPIKey(key)
		switch {
		case want == "" && err != nil:
			t.Errorf("CheckAPIKey(%q) = %v, want it accepted", key, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("CheckAPIKey(%q) = %v, want an error saying %q", key, err, want)
		case err != nil && strings.Contains(err.Error(), "0123"):
			t.Errorf("CheckAPIKey(%q) quotes the key: %v", key, err)
		}
	}
}

// Config fields left zero take their defaults: a User-Agent naming the
// provider, and DefaultMaxRetries retries. MaxRetries bounds the tries
// after the first, a negative one meaning none.
func TestNew_defaults(t *testing.T) {
	var tries atomic.Int32
	var agent atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		agent.Store(r.Header.Get("User-Agent"))
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		maxRetries int
		wantTries  int32
	}{{0, 1 + client.DefaultMaxRetries}, {-1, 1}, {2, 3}} {
		tries.Store(0)
		c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: tc.maxRetries, MinBackoff: time.Microsecond, MaxBackoff: time.Microsecond})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetPreRecorded(context.Background(), "x"); !client.IsStatus(err, http.StatusServiceUnavailable) {
			t.Fatalf("MaxRetries %d: got %v, want the 503", tc.maxRetries, err)
		}
		if got := tries.Load(); got != tc.wantTries {
			t.Errorf("MaxRetries %d: %d tries, want %d", tc.maxRetries, got, tc.wantTries)
		}
	}
	if got, want := agent.Load(), "terraform-provider-transcription/dev"; got != want {
		t.Errorf("User-Agent %q, want %q", got, want)
	}
}

func TestCreate_sendsOnlySetFieldsAndHeaders(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{})
	req := &client.InitTranscriptionRequest{
		AudioURL:       "https://example.com/a.wav",
		Model:          ptr("model-3"),
		LanguageConfig: &client.LanguageConfig{Languages: []string{"fr"}},
		Subtitles:      ptr(false),
		CustomMetadata: map[string]any{"team": "media"},
	}
	resp, err := c.CreatePreRecorded(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ID == "" || !strings.HasSuffix(resp.ResultURL, "/v2/transcription/"+resp.ID) {
		t.Fatalf("unexpected response %+v", resp)
	}
	if got := c.ResultURL(resp.ID); got != resp.ResultURL {
		t.Errorf("ResultURL(%s) = %q, the service said %q", resp.ID, got, resp.ResultURL)
	}
	bodies := fs.CreateBodies()
	if len(bodies) != 1 {
		t.Fatalf("server saw %d creates, want 1", len(bodies))
	}
	var sent map[string]any
	if err := json.Unmarshal(bodies[0], &sent); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"audio_url": "https://example.com/a.wav", "model": "model-3", "language_config": map[string]any{"languages": []any{"fr"}}, "subtitles": false, "custom_metadata": map[string]any{"team": "media"}}
	if got, _ := json.Marshal(sent); !bytes.Equal(got, mustJSON(t, want)) {
		t.Errorf("sent %s, want %s", got, mustJSON(t, want))
	}
	r := fs.Requests()[0]
	if r.Header.Get("x-service-key") == "" || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("User-Agent") != "terraform-provider-transcription/test" {
		t.Errorf("headers %v", r.Header)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGet_lifecycleAndRecord(t *testing.T) {
	_, c, clock := newFake(t, fakeserver.Options{ProcessingTime: 40 * time.Second})
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/talk.wav?duration=12", Subtitles: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.GetPreRecorded(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != client.StatusQueued || job.Result != nil || job.CompletedAt != nil || job.Kind != client.KindPreRecorded || job.Version != 2 {
		t.Fatalf("new job: %+v", job.JobCommon)
	}
	clock.Advance(20 * time.Second)
	if job, err = c.GetPreRecorded(ctx, created.ID); err != nil || job.Status != client.StatusProcessing {
		t.Fatalf("after 20s: %v %v", job.Status, err)
	}
	clock.Advance(21 * time.Second)
	if job, err = c.GetPreRecorded(ctx, created.ID); err != nil || job.Status != client.StatusDone {
		t.Fatalf("after 41s: %+v %v", job, err)
	}
	if job.Result == nil || job.CompletedAt == nil || job.File == nil || job.File.AudioDuration == nil || *job.File.AudioDuration != 12 {
		t.Fatalf("done job lacks result or file: %+v", job)
	}
	if job.RequestParams == nil || job.RequestParams.Model == nil || *job.RequestParams.Model != client.DefaultModel {
		t.Errorf("request_params without the default model: %+v", job.RequestParams)
	}
	if status, err := c.GetPreRecordedStatus(ctx, created.ID); err != nil || status != client.StatusDone {
		t.Errorf("GetPreRecordedStatus: %q %v, want done", status, err)
	}
}

// A read with less detail leaves out exactly what it names: WithoutWords
// the words of each utterance, WithoutUtterances the utterances; the rest of
// the transcript is read as with FullDetail.
func TestGetPreRecorded_detail(t *testing.T) {
	_, c, clock := newFake(t, fakeserver.Options{ProcessingTime: time.Second})
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/talk.wav?duration=30"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Second)
	full, err := c.GetPreRecorded(ctx, created.ID, client.FullDetail)
	if err != nil || full.Result == nil || full.Result.Transcription == nil || len(full.Result.Transcription.Utterances) == 0 || len(full.Result.Transcription.Utterances[0].Words) == 0 {
		t.Fatalf("done job without utterances and words: %+v %v", full, err)
	}
	for _, tc := range []struct {
		name       string
		detail     client.Detail
		utterances bool
		words      bool
	}{
		{"full", client.FullDetail, true, true},
		{"without words", client.WithoutWords, true, false},
		{"without utterances", client.WithoutUtterances, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job, err := c.GetPreRecorded(ctx, created.ID, tc.detail)
			if err != nil {
				t.Fatal(err)
			}
			got := job.Result.Transcription
			if got.FullTranscript != full.Result.Transcription.FullTranscript {
				t.Errorf("full transcript %q, want %q", got.FullTranscript, full.Result.Transcription.FullTranscript)
			}
			if (got.Utterances != nil) != tc.utterances {
				t.Fatalf("%d utterances, want them read: %v", len(got.Utterances), tc.utterances)
			}
			for i, u := range got.Utterances {
				want := full.Result.Transcription.Utterances[i]
				if !tc.words {
					want.Words = nil
				}
				if !reflect.DeepEqual(u, want) {
					t.Errorf("utterance %d: %+v, want %+v", i, u, want)
				}
			}
		})
	}
}

// WithRawResult keeps the result as the service sent it, fields the
// client's types do not know and nulls included; other details keep none.
func TestGetPreRecorded_withRawResult(t *testing.T) {
	const result = `{"metadata":{"audio_duration":3},"diarization":{"success":false,"is_empty":false,"exec_time":0.1,"error":{"status_code":500,"exception":"E","message":"m"},"results":null},"transcription":{"full_transcript":"hi","languages":["en"],"utterances":[{"text":"hi","speaker":null,"words":[]}]}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"j1","status":"done","result":%s,"request_params":{"audio_url":"https://example.com/a.wav"}}`, result)
	}))
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL, "k")
	job, err := c.GetPreRecorded(context.Background(), "j1", client.WithRawResult)
	if err != nil || job.Result == nil {
		t.Fatalf("%+v %v", job, err)
	}
	if string(job.Result.JSON) != result {
		t.Errorf("Result.JSON %s, want the service's %s", job.Result.JSON, result)
	}
	if job.Result.Transcription == nil || job.Result.Transcription.FullTranscript != "hi" {
		t.Errorf("the result is not decoded as well: %+v", job.Result.Transcription)
	}
	for _, d := range []client.Detail{client.FullDetail, client.WithoutWords, client.WithoutUtterances} {
		if job, err := c.GetPreRecorded(context.Background(), "j1", d); err != nil || job.Result.JSON != nil {
			t.Errorf("detail %d: Result.JSON %s %v, want none kept", d, job.Result.JSON, err)
		}
	}
}

// GetPreRecordedStatus answers as GetPreRecorded does for a job that is
// not there, and refuses a record that does not say what the job is.
func TestGetPreRecordedStatus_errors(t *testing.T) {
	f := newFixture(t, fakeserver.Options{})
	if _, err := f.c.GetPreRecordedStatus(context.Background(), "00000000-0000-0000-0000-000000000000"); !client.IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","result":{"transcription":{"utterances":[]}}}`)
	}))
	defer srv.Close()
	var decodeErr *client.DecodeError
	if _, err := newClient(t, srv.URL, "k").GetPreRecordedStatus(context.Background(), "x"); !errors.As(err, &decodeErr) {
		t.Errorf("a record without status: %v, want a DecodeError", err)
	}
}

// GetPreRecordedStatus names members as the whole record's read does
// (encoding/json: the same name, else the same up to case), so the two
// never disagree on a job's status.
func TestGetPreRecordedStatus_namesMembersAsTheWholeRead(t *testing.T) {
	for _, record := range []string{
		`{"id":"x","status":"done"}`,
		`{"ID":"x","Status":"done"}`,
		`{"id":"x","STATUS":"error","result":null}`,
		`{"iD":"x","stAtus":"queued","statuses":"done"}`,
		// A null member sets nothing: a later one names the status.
		`{"id":"x","status":null,"Status":"done"}`,
	} {
		t.Run(record, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, record)
			}))
			defer srv.Close()
			c := newClient(t, srv.URL, "k")
			whole, err := c.GetPreRecorded(context.Background(), "x")
			if err != nil {
				t.Fatalf("GetPreRecorded: %v", err)
			}
			status, err := c.GetPreRecordedStatus(context.Background(), "x")
			if err != nil || status != whole.Status {
				t.Errorf("GetPreRecordedStatus: %q %v, want %q as the whole read", status, err, whole.Status)
			}
		})
	}
}

// GetPreRecordedStatus stops reading a record at its status: a long
// recording's transcript, sent after it, is not received, while a short
// rest is read to the end so that the connection serves the next call.
func TestGetPreRecordedStatus_readsOnlyTheHead(t *testing.T) {
	const head = `{"id":"x","request_id":"r","version":2,"status":"done","created_at":"2026-11-20T12:00:00Z",`
	utterance := `{"text":"` + strings.Repeat("word ", 200) + `","start":0,"end":1},`
	for _, tc := range []struct {
		name        string
		record      string
		status      string
		maxRead     int // bytes of the body the client may read
		connections int64
	}{
		{"hour: the transcript is not received", head + `"result":{"transcription":{"utterances":[` + strings.Repeat(utterance, 4000) + `{}]}}}`, client.StatusDone, 256 << 10, 3},
		{"short: read whole, connection kept", head + `"result":{"transcription":{"utterances":[` + strings.Repeat(utterance, 10) + `{}]}}}`, client.StatusDone, 16 << 10, 1},
		{"status after the result: read whole", `{"id":"x","result":{"transcription":{"utterances":[` + strings.Repeat(utterance, 200) + `{}]}},"status":"error"}`, client.StatusError, 300 << 10, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var connections atomic.Int64
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, tc.record)
			}))
			srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
				if state == http.StateNew {
					connections.Add(1)
				}
			}
			srv.Start()
			defer srv.Close()
			read := &countingTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Transport: read}})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if status, err := c.GetPreRecordedStatus(context.Background(), "x"); err != nil || status != tc.status {
					t.Fatalf("GetPreRecordedStatus: %q %v, want %q", status, err, tc.status)
				}
			}
			if got, limit := read.n.Load()/3, int64(tc.maxRead); got > limit {
				t.Errorf("read %d bytes of a %d-byte record per call, want at most %d", got, len(tc.record), limit)
			}
			if got := connections.Load(); got != tc.connections {
				t.Errorf("%d connections for 3 calls, want %d", got, tc.connections)
			}
		})
	}
}

// countingTransport counts the bytes of response bodies read through it.
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(req)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &c.n}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

func TestErrors_areTyped(t *testing.T) {
	f := newFixture(t, fakeserver.Options{})
	c := f.c
	ctx := context.Background()

	_, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav", Model: ptr("model-3")})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnprocessableEntity || apiErr.RequestID == "" || apiErr.Message == "" || len(apiErr.ValidationErrors) == 0 {
		t.Fatalf("model-3 without a language: %#v", err)
	}
	if !strings.Contains(err.Error(), "422") || !strings.Contains(err.Error(), apiErr.RequestID) {
		t.Errorf("error text lacks status or request id: %v", err)
	}

	if _, err := c.GetPreRecorded(ctx, "00000000-0000-0000-0000-000000000000"); !client.IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}

	bad := newClient(t, f.url, "wrong-key")
	if _, err := bad.GetPreRecorded(ctx, "x"); !client.IsStatus(err, http.StatusUnauthorized) {
		t.Errorf("wrong key: %v", err)
	}
}

func TestDelete_runningThenDone(t *testing.T) {
	fs, c, clock := newFake(t, fakeserver.Options{ProcessingTime: 10 * time.Second})
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DeletePreRecorded(ctx, created.ID); !client.IsStatus(err, http.StatusForbidden) {
		t.Fatalf("deleting a queued job: %v", err)
	}
	clock.Advance(11 * time.Second)
	if err := c.DeletePreRecorded(ctx, created.ID); err != nil {
		t.Fatalf("deleting a done job: %v", err)
	}
	if fs.JobCount() != 0 {
		t.Errorf("job still stored after delete")
	}
	if err := c.DeletePreRecorded(ctx, created.ID); !client.IsNotFound(err) {
		t.Errorf("second delete: %v", err)
	}
}

func TestListLive_filtersAndPagination(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{LiveJobs: 45})
	ctx := context.Background()

	all, pages, err := c.ListAllLive(ctx, client.ListLiveOptions{}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 45 || pages != 5 {
		t.Fatalf("got %d items in %d pages, want 45 in 5", len(all), pages)
	}
	seen := map[string]bool{}
	for _, j := range all {
		if seen[j.ID] {
			t.Fatalf("item %s listed twice", j.ID)
		}
		seen[j.ID] = true
		if j.Kind != client.KindLive {
			t.Errorf("item kind %q", j.Kind)
		}
	}

	limited, pages, err := c.ListAllLive(ctx, client.ListLiveOptions{Offset: 3}, 12, 5)
	if err != nil || len(limited) != 12 || pages != 3 || limited[0].ID != all[3].ID {
		t.Fatalf("offset 3 limit 12: %d items, %d pages, %v", len(limited), pages, err)
	}

	fs.ResetRequests()
	done, _, err := c.ListAllLive(ctx, client.ListLiveOptions{Status: []string{"done", "error"}, CustomMetadata: map[string]string{"env": "prod"}}, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range done {
		if (j.Status != "done" && j.Status != "error") || j.CustomMetadata["env"] != "prod" {
			t.Errorf("filter let through %s %v", j.Status, j.CustomMetadata)
		}
	}
	q := fs.Requests()[0].RawQuery
	for _, part := range []string{"status=done", "status=error", "custom_metadata%5Benv%5D=prod", "limit=50"} {
		if !strings.Contains(q, part) {
			t.Errorf("query %q lacks %q", q, part)
		}
	}

	if _, err := c.ListLive(ctx, client.ListLiveOptions{Date: "2026-13-01"}); !client.IsStatus(err, http.StatusBadRequest) {
		t.Errorf("bad date: %v", err)
	}
}

func TestUpload_streamsMultipart(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{})
	wav := testutil.SilentWAV(2.5, 2, 8000)
	resp, err := c.Upload(context.Background(), "meeting.wav", int64(len(wav)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil })
	if err != nil {
		t.Fatal(err)
	}
	m := resp.AudioMetadata
	if resp.AudioURL == "" || m.Filename != "meeting.wav" || m.Size != int64(len(wav)) || m.AudioDuration != 2.5 || m.NumberOfChannels != 2 {
		t.Fatalf("upload response %+v", resp)
	}
}

// The audio part is named by the file's base name, its quotes and
// backslashes escaped and a line break written %0D or %0A (as Go's
// mime/multipart does: raw, it would end the header), every other control
// character percent-encoded too, and typed
// application/octet-stream; a source that gives its last bytes with its end
// is uploaded whole.
func TestUpload_partHeaders(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{})
	wav := testutil.SilentWAV(1, 1, 8000)
	for _, tc := range []struct{ path, want string }{
		{`say "hi".wav`, `say "hi".wav`},
		{`back\"slash.wav`, `back\"slash.wav`},
		{"/home/me/calls/meeting.wav", "meeting.wav"},
		{"two\nlines.wav", "two%0Alines.wav"},
		{"carriage\r\nreturn.wav", "carriage%0D%0Areturn.wav"},
		// Every control character: a header parser refuses one raw.
		{"esc\x1bx.wav", "esc%1Bx.wav"},
		{"del\x7fx.wav", "del%7Fx.wav"},
		{"tab\tx.wav", "tab%09x.wav"},
	} {
		fs.ResetRequests()
		resp, err := c.Upload(context.Background(), tc.path, int64(len(wav)), func() (io.ReadCloser, error) {
			return io.NopCloser(iotest.DataErrReader(bytes.NewReader(wav))), nil
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if resp.AudioMetadata.Filename != tc.want {
			t.Errorf("%s: uploaded as %q, want %q", tc.path, resp.AudioMetadata.Filename, tc.want)
		}
		body := string(fs.Requests()[0].Body)
		if !strings.Contains(body, "\r\nContent-Type: application/octet-stream\r\n") || strings.Contains(body, "/home/me") {
			t.Errorf("%s: the part's headers are\n%s", tc.path, body[:strings.Index(body, "\r\n\r\n")])
		}
	}
}

func TestRetries_idempotentCallsRideOutFaults(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{})
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}
	// Each 429 costs its Retry-After (1 s): mostly 5xx keeps the test short.
	// A read is retried on every 5xx but 501 (Not Implemented), those of a
	// gateway or CDN before the service (520, 529) too.
	for _, status := range []int{503, 500, 502, 504, 507, 520, 529} {
		before := fs.Stats()
		faults := fakeserver.Faults{ServerErrorRatio: 0.3, ServerErrorStatus: status, Seed: 7}
		if status == 503 {
			faults.RateLimitRatio = 0.1
		}
		fs.SetFaults(faults)
		for i := 0; i < 12; i++ {
			if _, err := c.GetPreRecorded(ctx, created.ID); err != nil {
				t.Fatalf("GET %d failed despite retries under %d: %v", i, status, err)
			}
		}
		if s := fs.Stats(); s.ServerErrors == before.ServerErrors || (status == 503 && s.RateLimited == 0) {
			t.Errorf("no faults were injected under %d: %+v", status, s)
		}
	}
}

func TestRetries_createNeverDuplicates(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{})
	ctx := context.Background()

	// 500, 502, 504 and the others but 501 and 503 may come after the
	// service accepted the job: not retried.
	for _, status := range []int{500, 502, 504, 507, 520, 524} {
		fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: status})
		fs.ResetRequests()
		if _, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"}); !client.IsStatus(err, status) {
			t.Fatalf("create under %d: %v", status, err)
		}
		if n := len(fs.Requests()); n != 1 {
			t.Errorf("create was sent %d times under %d, want 1", n, status)
		}
	}
	if n := fs.JobCount(); n != 0 {
		t.Fatalf("%d jobs exist after refused creates", n)
	}

	// 503 turns the request away unhandled: retried until it goes through, once.
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 0.5, ServerErrorStatus: 503, Seed: 11})
	fs.ResetRequests()
	if _, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"}); err != nil {
		t.Fatalf("create under 503: %v", err)
	}
	if n := fs.JobCount(); n != 1 {
		t.Fatalf("%d jobs after one create under 503, want 1", n)
	}

	// 429 means not accepted: retried until it goes through, once.
	fs.SetFaults(fakeserver.Faults{RateLimitRatio: 0.3, Seed: 3})
	before := fs.JobCount()
	for i := 0; i < 5; i++ {
		if _, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/b.wav"}); err != nil {
			t.Fatalf("create under 429: %v", err)
		}
	}
	if fs.JobCount() != before+5 || fs.Stats().RateLimited == 0 {
		t.Errorf("jobs %d (want %d), rate limited %d", fs.JobCount(), before+5, fs.Stats().RateLimited)
	}
}

// A 503 that is not in the service's error body is a gateway's, which
// answers so also after the service took the request (Envoy's "upstream
// connect error or disconnect/reset before headers"): a create or an upload
// answered so is not sent again, as it may have been carried out, and the
// error says so. A read answered so is sent again.
func TestRetries_gateway503MayHaveBeenHandled(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey})
	var tries callCounter
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, first := tries.add(r); first {
			fs.ServeHTTP(httptest.NewRecorder(), r) // the service takes it, its answer is lost
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, "upstream connect error or disconnect/reset before headers. reset reason: connection termination")
			return
		}
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { gateway.Close(); fs.Close() })
	c := newClient(t, gateway.URL, testKey)
	ctx := context.Background()

	_, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable || !apiErr.MayHaveBeenHandled() {
		t.Errorf("create answered a gateway's 503: %v, want the 503, which may have been handled", err)
	}
	wav := testutil.SilentWAV(0.1, 1, 8000)
	_, err = c.Upload(ctx, "a.wav", int64(len(wav)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil })
	if !client.IsStatus(err, http.StatusServiceUnavailable) {
		t.Errorf("upload answered a gateway's 503: %v, want the 503", err)
	}
	if _, err := c.ListPreRecorded(ctx, client.ListOptions{}); err != nil {
		t.Errorf("listing after a gateway's 503: %v, want it sent again", err)
	}
	for call, want := range map[string]int{"POST /v2/pre-recorded": 1, "POST /v2/upload": 1, "GET /v2/pre-recorded": 2} {
		if n := tries.count(call); n != want {
			t.Errorf("%s was sent %d times, want %d", call, n, want)
		}
	}
	if n := fs.JobCount(); n != 1 {
		t.Errorf("%d jobs after one create, want 1", n)
	}
}

// An error answer says where the request went, without its query (where
// filters, and in other URLs credentials, go) and without credentials.
func TestAPIError_URL(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c := newClient(t, srv.URL+"/speeech", "k")
	_, err := c.ListPreRecorded(context.Background(), client.ListOptions{Limit: 5})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound {
		t.Fatalf("error %v, want a 404", err)
	}
	if want := srv.URL + "/speeech/v2/pre-recorded?…"; apiErr.URL != want {
		t.Errorf("URL %q, want %q", apiErr.URL, want)
	}
}

// Reads and deletes may be sent again after any failure: each is retried
// on a 502, which may come after the service handled it. Each asks for
// what it reads: JSON, or for a job's audio any type.
func TestRetries_readsAndDeletesAreSentAgain(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	var tries callCounter
	var mu sync.Mutex
	accept := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		call, first := tries.add(r)
		mu.Lock()
		accept[call] = r.Header.Get("Accept")
		mu.Unlock()
		switch {
		case first:
			w.WriteHeader(http.StatusBadGateway)
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case strings.HasSuffix(r.URL.Path, "/file"):
			w.Header().Set("Content-Type", "audio/wav")
			_, _ = w.Write(testutil.SilentWAV(0.1, 1, 8000))
		case r.URL.Path == "/v2/live" || r.URL.Path == "/v2/pre-recorded":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"first":"","current":"","next":null,"items":[]}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"`+id+`","status":"done"}`)
		}
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	ctx := context.Background()
	openFile := func(open func(context.Context, string) (*client.AudioFile, error)) func() error {
		return func() error {
			f, err := open(ctx, id)
			if err == nil {
				err = f.Body.Close()
			}
			return err
		}
	}
	for _, tc := range []struct {
		call   string
		accept string
		do     func() error
	}{
		{"GET /v2/pre-recorded/" + id, "application/json", func() error { _, err := c.GetPreRecorded(ctx, id); return err }},
		{"GET /v2/live/" + id, "application/json", func() error { _, err := c.GetLive(ctx, id); return err }},
		{"GET /v2/pre-recorded", "application/json", func() error { _, err := c.ListPreRecorded(ctx, client.ListOptions{}); return err }},
		{"GET /v2/live", "application/json", func() error { _, err := c.ListLive(ctx, client.ListOptions{}); return err }},
		{"DELETE /v2/pre-recorded/" + id, "application/json", func() error { return c.DeletePreRecorded(ctx, id) }},
		{"DELETE /v2/live/" + id, "application/json", func() error { return c.DeleteLive(ctx, id) }},
		{"GET /v2/pre-recorded/" + id + "/file", "*/*", openFile(c.GetPreRecordedFile)},
		{"GET /v2/live/" + id + "/file", "*/*", openFile(c.GetLiveFile)},
	} {
		if err := tc.do(); err != nil {
			t.Errorf("%s after a 502: %v", tc.call, err)
		}
		if n := tries.count(tc.call); n != 2 {
			t.Errorf("%s was sent %d times, want 2 (a 502, then its answer)", tc.call, n)
		}
		mu.Lock()
		if accept[tc.call] != tc.accept {
			t.Errorf("%s asked for %q, want %q", tc.call, accept[tc.call], tc.accept)
		}
		mu.Unlock()
	}
}

func TestRetries_connectionFailures(t *testing.T) {
	var dials atomic.Int32
	refused := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}}}
	c, _ := client.New(client.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", HTTPClient: refused, MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, MaxRetries: 3})
	_, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	var te *client.TransportError
	if !errors.As(err, &te) || te.Sent {
		t.Fatalf("refused create: %v", err)
	}
	if dials.Load() != 4 {
		t.Errorf("a refused create was tried %d times, want 4 (it never reached the service)", dials.Load())
	}

	// A connection dropped after the whole request was received: the create
	// may have been accepted, so it is not retried; a GET is. (One dropped
	// before the request went out whole is retried: TestUpload_resentAfter
	// ConnectionLostWhileSending.)
	var conns atomic.Int32
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				if req, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
					_, _ = io.Copy(io.Discard, req.Body)
				}
				conn.Close()
			}()
		}
	}()
	c = newClient(t, "http://"+ln.Addr().String(), "k")
	if _, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"}); err == nil {
		t.Fatal("create on a dropped connection succeeded")
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("dropped create was sent %d times, want 1", n)
	}
	conns.Store(0)
	if _, err := c.GetPreRecorded(context.Background(), "x"); err == nil {
		t.Fatal("GET on a dropped connection succeeded")
	}
	if n := conns.Load(); n != 7 {
		t.Errorf("dropped GET was tried %d times, want 7 (1 + 6 retries)", n)
	}
}

func TestRetries_stopWhenCancelled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.GetPreRecorded(ctx, "x")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's error", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("waited %v for a cancelled call", time.Since(start))
	}
}

// An interrupt while the answer's body is being read is an interruption,
// as one while the request is in flight is: not an answer the client could
// not understand, which would send the user to check base_url. For a create
// it is the context's error too, which the provider reports as a create the
// service may have carried out, once the answer, still read after the
// interrupt (the create carries through), makes no progress for
// StallTimeout.
func TestRetries_interruptWhileReadingTheAnswer(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		switch {
		case r.Method == http.MethodPost:
			_, _ = io.WriteString(w, `{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6",`)
		case strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/"):
			_, _ = io.WriteString(w, `{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","result":{`)
		default:
			_, _ = io.WriteString(w, `{"first":"x","current":"x","next":null,"items":[`)
		}
		w.(http.Flusher).Flush()
		<-release
	}))
	defer srv.Close()
	defer close(release)
	// The answer's headers are in: the client reads its body when cancel
	// comes.
	var cancel context.CancelFunc
	answered := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			cancel()
		}
		return resp, err
	})
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Transport: answered}, MaxRetries: -1, StallTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func(context.Context) error{
		"list": func(ctx context.Context) error {
			_, err := c.ListPreRecorded(ctx, client.ListOptions{})
			return err
		},
		"create": func(ctx context.Context) error {
			_, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
			return err
		},
		"status": func(ctx context.Context) error {
			_, err := c.GetPreRecordedStatus(ctx, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			var ctx context.Context
			ctx, cancel = context.WithCancel(context.Background())
			defer cancel()
			err := call(ctx)
			var decodeErr *client.DecodeError
			if !errors.Is(err, context.Canceled) || errors.As(err, &decodeErr) {
				t.Fatalf("got %v, want the context's error, not a decoding failure", err)
			}
		})
	}
}

// A job's id is a UUID, which the service may write in either case: a
// record whose id differs from the one asked for only in case is that
// job's, for both reads of a job.
func TestGet_idInAnotherCase(t *testing.T) {
	const asked = "3FA85F64-5717-4562-B3FC-2C963F66AFA6"
	c := clientOfServerAnswering(t, http.StatusOK, "application/json", `{"id":"`+strings.ToLower(asked)+`","status":"done"}`, client.Config{})
	if _, err := c.GetPreRecorded(context.Background(), asked); err != nil {
		t.Errorf("GetPreRecorded: %v", err)
	}
	if _, err := c.GetPreRecordedStatus(context.Background(), asked); err != nil {
		t.Errorf("GetPreRecordedStatus: %v", err)
	}
}

// A delete's answer is its 202 status: a body cut short after it (the
// connection dropped) does not fail a delete the service carried out.
func TestDelete_answerCutShortAfterItsStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"deleted\":")
		_ = buf.Flush()
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	if err := c.DeletePreRecorded(context.Background(), "x"); err != nil {
		t.Errorf("DeletePreRecorded: %v", err)
	}
	if err := c.DeleteLive(context.Background(), "x"); err != nil {
		t.Errorf("DeleteLive: %v", err)
	}
}

// A read whose answer is cut short (the connection lost mid-body) is a
// transport failure: the reads, which are idempotent, are sent again, as
// when the connection is lost before the answer; a create or an upload,
// which the service may have carried out, is not, and its error says the
// request may have reached the service.
func TestReads_answerCutShortAreRetried(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	whole := map[string]string{
		"/v2/pre-recorded/" + id: `{"id":"` + id + `","status":"done"}`,
		"/v2/live/" + id:         `{"id":"` + id + `","status":"done","kind":"live"}`,
		"/v2/live":               `{"first":"x","current":"x","next":null,"items":[]}`,
		"/v2/pre-recorded":       `{"id":"` + id + `","result_url":"http://x/v2/transcription/` + id + `"}`,
	}
	var mu sync.Mutex
	tries := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		tries[r.Method+" "+r.URL.Path]++
		first := tries[r.Method+" "+r.URL.Path] == 1
		mu.Unlock()
		body := whole[r.URL.Path]
		if !first {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body)+100, body[:len(body)/2])
		_ = buf.Flush()
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	ctx := context.Background()
	if _, err := c.GetPreRecorded(ctx, id); err != nil {
		t.Errorf("GetPreRecorded: %v", err)
	}
	if _, err := c.GetLive(ctx, id); err != nil {
		t.Errorf("GetLive: %v", err)
	}
	if _, err := c.ListLive(ctx, client.ListLiveOptions{}); err != nil {
		t.Errorf("ListLive: %v", err)
	}
	mu.Lock()
	tries["GET /v2/pre-recorded/"+id] = 0
	mu.Unlock()
	if _, err := c.GetPreRecordedStatus(ctx, id); err != nil {
		t.Errorf("GetPreRecordedStatus: %v", err)
	}
	_, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) || !transportErr.Sent {
		t.Errorf("CreatePreRecorded: %v (%T), want a transport failure after sending", err, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, op := range []string{"GET /v2/pre-recorded/" + id, "GET /v2/live/" + id, "GET /v2/live"} {
		if tries[op] != 2 {
			t.Errorf("%s sent %d times, want 2", op, tries[op])
		}
	}
	if n := tries["POST /v2/pre-recorded"]; n != 1 {
		t.Errorf("the create was sent %d times, want once", n)
	}
}

// Bodies a broken or hostile server might send fail both reads of a job
// with an error that says what is wrong.
func TestResponses_hostileBodies(t *testing.T) {
	cases := []struct {
		name        string
		status      int
		contentType string
		body        string
		wantInError string
	}{
		{"html error page", 502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>", "502 Bad Gateway"},
		{"invalid json", 200, "application/json", `{"id": "x", "status":`, "invalid JSON"},
		{"wrong type", 200, "application/json", `{"id": 5, "status": "done"}`, "invalid JSON"},
		{"missing fields", 200, "application/json", `{"kind": "pre-recorded"}`, "lacks id or status"},
		{"another job's record", 200, "application/json", `{"id": "y", "status": "done"}`, `record of job "y", not of job "x"`},
		{"unknown status", 200, "application/json", `{"id": "x", "status": "cancelled"}`, `status "cancelled"`},
		{"wrong content type", 200, "text/plain", `{"id": "x", "status": "done"}`, "Content-Type"},
		{"huge body", 200, "application/json", `{"id":"x","request_id":"` + strings.Repeat("a", 2<<20) + `","status":"done"}`, "exceeds"},
		{"not an object", 200, "application/json", `["x", "done"]`, "invalid JSON"},
		// Exactly MaxResponseBytes long: within the bound, so cut short, not too long.
		{"truncated at the limit", 200, "application/json", atLength(`{"id":"x","request_id":"`, 'a', 1<<20), "invalid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := clientOfServerAnswering(t, tc.status, tc.contentType, tc.body, client.Config{MaxResponseBytes: 1 << 20})
			_, err := c.GetPreRecorded(context.Background(), "x")
			if err == nil || !strings.Contains(err.Error(), tc.wantInError) {
				t.Errorf("GetPreRecorded: got %v, want an error containing %q", err, tc.wantInError)
			}
			_, err = c.GetPreRecordedStatus(context.Background(), "x")
			if err == nil || !strings.Contains(err.Error(), tc.wantInError) {
				t.Errorf("GetPreRecordedStatus: got %v, want an error containing %q", err, tc.wantInError)
			}
		})
	}
}

// An HTML page in place of the service's answer (a proxy's or a gateway's
// error page, a login page at base_url) is shown by its title, without its
// markup: its first 200 bytes, which errors quoted, are often nothing but
// doctype, comments and styles.
func TestResponses_htmlPagesShowTheirTitle(t *testing.T) {
	cdnPage := `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<!--[if gt IE 8]><!--> <html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>api.example.com | 502: Bad gateway</title>
<meta charset="UTF-8" /><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<style>body{margin:0;padding:0;font-family:-apple-system,system-ui,BlinkMacSystemFont,"Segoe UI",Roboto}</style>
</head>
<body><div id="cf-error-details"><h1>Bad gateway</h1><span>Error code 502</span></div></body></html>`
	cases := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        string
	}{
		{"nginx", 502, "text/html", "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n", "HTML page: 502 Bad Gateway"},
		{"content delivery network", 502, "text/html; charset=UTF-8", cdnPage, "HTML page: api.example.com | 502: Bad gateway"},
		{"no title", 503, "text/html", "<html><body><h1>Service &amp; API down</h1><script>var x = '<b>';</script></body></html>", "HTML page: Service & API down"},
		{"login page answered 200", 200, "text/html", "<!doctype html><html><head><title>Sign in &#8211; Corporate proxy</title></head><body>...</body></html>", "HTML page: Sign in – Corporate proxy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := clientOfServerAnswering(t, tc.status, tc.contentType, tc.body, client.Config{})
			_, err := c.GetPreRecorded(context.Background(), "x")
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.ContainsAny(err.Error(), "<>") {
				t.Errorf("got %v, want an error showing %q and no markup", err, tc.want)
			}
		})
	}
}

// atLength is prefix followed by fill up to n bytes.
func atLength(prefix string, fill byte, n int) string {
	return prefix + strings.Repeat(string(fill), n-len(prefix))
}

// clientOfServerAnswering is a client, configured as cfg without retries,
// of a server that answers every request with status, contentType and body.
func clientOfServerAnswering(t *testing.T, status int, contentType, body string, cfg client.Config) *client.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	cfg.BaseURL, cfg.APIKey, cfg.MaxRetries = srv.URL, "k", -1
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// recordingLogger keeps every line the client logs.
type recordingLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *recordingLogger) Debug(_ context.Context, msg string, fields map[string]any) {
	l.add(msg, fields)
}

func (l *recordingLogger) Trace(_ context.Context, msg string, fields map[string]any) {
	l.add(msg, fields)
}

func (l *recordingLogger) add(msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf("%s %v", msg, fields))
}

// The client logs its requests, retries and answers through the Logger it
// is given, never the API key.
func TestLogging_neverTheKey(t *testing.T) {
	var logs recordingLogger
	f := newFixture(t, fakeserver.Options{})
	fs := f.fs
	c, err := client.New(client.Config{BaseURL: f.url, APIKey: testKey, Logger: &logs, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, MaxRetries: 6})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 0.5, Seed: 1}) // retries log too
	if _, err := c.GetPreRecorded(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(logs.lines, "\n")
	if !strings.Contains(out, "transcription API request") || !strings.Contains(out, "/v2/pre-recorded") || !strings.Contains(out, "retrying") {
		t.Fatalf("requests were not logged:\n%s", out)
	}
	if strings.Contains(out, testKey) {
		t.Fatal("the API key appears in the logs")
	}
}

// A redirect to another origin (another host, port or scheme) would take
// the API key, which Go's client sends along with every header it does not
// know to be a credential: it is not followed. One within the service's
// origin is.
func TestRedirects_neverTakeTheKeyElsewhere(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(client.ServiceKeyHeader) != "" {
			leaked.Add(1)
		}
		http.Error(w, `{"message":"not the service"}`, http.StatusNotFound)
	}))
	t.Cleanup(other.Close)
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey, LiveJobs: 3})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old/v2/live":
			http.Redirect(w, r, "/v2/live?"+r.URL.RawQuery, http.StatusFound)
		case "/moved/v2/live":
			http.Redirect(w, r, other.URL+"/v2/live?"+r.URL.RawQuery, http.StatusFound)
		default:
			fs.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })

	if _, err := newClient(t, srv.URL+"/old", testKey).ListLive(context.Background(), client.ListOptions{}); err != nil {
		t.Fatalf("a redirect within the service's origin was not followed: %v", err)
	}
	_, err := newClient(t, srv.URL+"/moved", testKey).ListLive(context.Background(), client.ListOptions{})
	if n := leaked.Load(); n > 0 {
		t.Fatalf("the API key was sent to another origin %d times", n)
	}
	if !client.IsStatus(err, http.StatusFound) {
		t.Fatalf("a redirect to another origin: %v, want the 302 as an error", err)
	}
	// Where it leads is told, without its query (which may carry a
	// credential).
	if apiErr := (*client.APIError)(nil); !errors.As(err, &apiErr) || apiErr.Location != other.URL+"/v2/live?…" {
		t.Errorf("%v, want an APIError with Location %q", err, other.URL+"/v2/live?…")
	}
}

// TestRedirects_onlyReadsAreFollowed: a redirect within the service's
// origin is followed for a read only. Go's client re-sends a POST or DELETE
// answered 301, 302 or 303 as a GET: a DELETE then read the job and counted
// as done (the destroy emptied state, the job stayed on the service), and a
// create read a listing and said the job may exist. The redirect is the
// answer, an error, and nothing but the first request reaches the service.
func TestRedirects_onlyReadsAreFollowed(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey})
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method+" "+r.URL.Path)
		if rest, ok := strings.CutPrefix(r.URL.Path, "/old"); ok {
			http.Redirect(w, r, rest, http.StatusMovedPermanently)
			return
		}
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); fs.Close() })
	direct := newClient(t, srv.URL, testKey)
	job, err := direct.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}
	moved := newClient(t, srv.URL+"/old", testKey)
	for name, call := range map[string]func() error{
		"DELETE": func() error { return moved.DeletePreRecorded(context.Background(), job.ID) },
		"POST": func() error {
			_, err := moved.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/b.wav"})
			return err
		},
	} {
		methods = nil
		err := call()
		if !client.IsStatus(err, http.StatusMovedPermanently) {
			t.Errorf("%s through a redirect: %v, want the 301 as an error", name, err)
		}
		if len(methods) != 1 {
			t.Errorf("%s through a redirect sent %q, want the first request only", name, methods)
		}
	}
	if _, ok := fs.Job(job.ID); !ok {
		t.Fatal("the job is gone")
	}
	if n := fs.Stats().JobsCreated; n != 1 {
		t.Fatalf("%d jobs created, want 1", n)
	}
}

// TestDelete_onlyTheServicesAnswerIsSuccess: a DELETE succeeds on the
// service's 202 (or a 204) only; another 2xx (a web page at a wrong
// base_url, a proxy's catch-all) is not the service deleting the job.
func TestDelete_onlyTheServicesAnswerIsSuccess(t *testing.T) {
	for _, c := range []struct {
		status      int
		contentType string
		ok          bool
	}{
		{http.StatusAccepted, "", true},
		{http.StatusNoContent, "", true},
		{http.StatusOK, "text/html", false},
		{http.StatusOK, "application/json", false},
		{http.StatusCreated, "application/json", false},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if c.contentType != "" {
				w.Header().Set("Content-Type", c.contentType)
			}
			w.WriteHeader(c.status)
			if c.status != http.StatusNoContent {
				_, _ = w.Write([]byte("<html>Welcome</html>"))
			}
		}))
		err := newClient(t, srv.URL, testKey).DeletePreRecorded(context.Background(), "6f1c1a2e-0000-4000-8000-000000000001")
		srv.Close()
		if (err == nil) != c.ok {
			t.Errorf("DELETE answered %d %s: %v, want success %v", c.status, c.contentType, err, c.ok)
		}
	}
}

// TestErrorAnswer_readOnlyAsFarAsItIsShown: an error answer is read up to
// what an error can show (its JSON body, a page's title), not up to the
// 64 MiB a record may take: a proxy's 502 of hundreds of megabytes cost
// several times that in memory, per request in flight.
func TestErrorAnswer_readOnlyAsFarAsItIsShown(t *testing.T) {
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadRequest)
		chunk := bytes.Repeat([]byte("<p>oops</p>"), 10000)
		for written.Load() < 200<<20 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	_, err := newClient(t, srv.URL, testKey).GetPreRecorded(context.Background(), "6f1c1a2e-0000-4000-8000-000000000001")
	if !client.IsStatus(err, http.StatusBadRequest) {
		t.Fatalf("err %v, want the 400", err)
	}
	srv.CloseClientConnections()
	if n := written.Load(); n > 32<<20 {
		t.Errorf("the client read %d MiB of an error page", n>>20)
	}
}

// roundTripperFunc is an http.RoundTripper made of a function.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// closeCounter counts the sources an upload opened and closed.
type closeCounter struct{ opened, closed int }

func (c *closeCounter) open(data []byte) (io.ReadCloser, error) {
	c.opened++
	return struct {
		io.Reader
		io.Closer
	}{bytes.NewReader(data), closerFunc(func() error { c.closed++; return nil })}, nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// An upload closes every source it opened, whether it succeeds or fails:
// a file left open per upload would exhaust a long apply's descriptors.
func TestUpload_closesItsSource(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{})
	wav := testutil.SilentWAV(1, 1, 8000)
	var uploaded, cut closeCounter
	if _, err := c.Upload(context.Background(), "a.wav", int64(len(wav)), func() (io.ReadCloser, error) { return uploaded.open(wav) }); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Upload(context.Background(), "a.wav", int64(len(wav))+1, func() (io.ReadCloser, error) { return cut.open(wav) }); err == nil {
		t.Fatal("an upload whose size changed succeeded")
	}
	for name, files := range map[string]closeCounter{"uploaded": uploaded, "size changed": cut} {
		if files.opened == 0 || files.closed != files.opened {
			t.Errorf("%s: %d sources opened, %d closed", name, files.opened, files.closed)
		}
	}
}

// A source that cannot be opened fails the upload with its error, and
// nothing is sent.
func TestUpload_sourceNotOpened(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{})
	gone := errors.New("no such file")
	_, err := c.Upload(context.Background(), "a.wav", 10, func() (io.ReadCloser, error) { return nil, gone })
	if !errors.Is(err, gone) {
		t.Errorf("got %v, want the open's error", err)
	}
	if n := len(fs.Requests()); n != 0 {
		t.Errorf("the service received %d requests, want none", n)
	}
}

// A field the client does not know, at any depth of a job record, is left
// out: a field the service adds keeps its jobs and listings readable.
func TestGet_fieldsTheClientDoesNotKnow(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	params := `{"audio_url":"https://example.com/a.wav","new_switch":true,
	  "custom_vocabulary":true,"custom_vocabulary_config":{"vocabulary":["a",{"value":"b","boost":2}],"new":1},
	  "audio_to_llm":true,"audio_to_llm_config":{"prompts":["p"],"temperature":0.2},
	  "pii_redaction":true,"pii_redaction_config":{"entity_types":["NAME"],"new_field":"x"},
	  "subtitles":true,"subtitles_config":{"formats":["srt"],"font":"big"}}`
	record := `{"id":"` + id + `","status":"done","new_member":{"a":1},"request_params":` + params + `}`
	c := clientOfServerAnswering(t, http.StatusOK, "application/json", record, client.Config{})
	job, err := c.GetPreRecorded(context.Background(), id)
	if err != nil {
		t.Fatalf("GetPreRecorded: %v", err)
	}
	p := job.RequestParams
	if p == nil || p.CustomVocabularyConfig == nil || len(p.CustomVocabularyConfig.Vocabulary) != 2 || p.CustomVocabularyConfig.Vocabulary[1].Value != "b" ||
		p.AudioToLLMConfig == nil || !reflect.DeepEqual(p.AudioToLLMConfig.Prompts, []string{"p"}) ||
		p.PIIRedactionConfig == nil || !reflect.DeepEqual(p.PIIRedactionConfig.EntityTypes, []string{"NAME"}) {
		t.Errorf("request_params read as %+v", p)
	}
	live := clientOfServerAnswering(t, http.StatusOK, "application/json",
		`{"first":"x","current":"x","next":null,"items":[{"id":"`+id+`","status":"done","kind":"live","request_params":{"realtime_processing":{"custom_vocabulary":true,"custom_vocabulary_config":{"vocabulary":[{"value":"b","boost":2}]}}}}]}`, client.Config{})
	if page, err := live.ListLive(context.Background(), client.ListLiveOptions{}); err != nil || len(page.Items) != 1 {
		t.Errorf("ListLive: %d items, %v", len(page.Items), err)
	}
}

// A create in flight when its context ends (Terraform's first Ctrl-C, or
// timeouts.create) is carried through to the service's answer: the service
// may well create the job, and its id must not be lost. A create whose
// context ended before it was sent is not sent.
func TestCreate_inFlightCarriedThroughTheEndOfItsContext(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	arrived, answer := make(chan struct{}, 1), make(chan struct{})
	var creates atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		creates.Add(1)
		arrived <- struct{}{}
		<-answer
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":"`+id+`","result_url":"http://x/v2/transcription/`+id+`"}`)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()                          // the interrupt, while the service creates the job
		time.Sleep(50 * time.Millisecond) // the cancellation has reached the transport
		close(answer)
	}()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil || created.ID != id {
		t.Fatalf("create interrupted in flight: %+v, %v; want the job the service created", created, err)
	}

	_, err = c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	var interrupted *client.InterruptedError
	if !errors.As(err, &interrupted) || creates.Load() != 1 {
		t.Errorf("create after the interrupt: %v (%T), %d creates sent; want it not sent", err, err, creates.Load())
	}
}

// ServiceAnswers asks the listing of jobs once for a client's life when it
// answers: many jobs found gone in one refresh cost one more request, not
// one each. A failure is asked again.
func TestServiceAnswers_rememberedOnceItAnswers(t *testing.T) {
	var listings atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if listings.Add(1) == 1 {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message":"no such path","statusCode":404}`)
			return
		}
		if r.URL.Query().Get("limit") != "1" || r.URL.Query().Get("status") != client.StatusQueued {
			t.Errorf("listing %s, want one queued job", r.URL)
		}
		_, _ = io.WriteString(w, `{"first":"x","current":"x","next":null,"items":[]}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ServiceAnswers(context.Background()); !client.IsNotFound(err) {
		t.Errorf("first: %v, want the listing's 404", err)
	}
	for range 3 {
		if err := c.ServiceAnswers(context.Background()); err != nil {
			t.Errorf("then: %v", err)
		}
	}
	if n := listings.Load(); n != 2 {
		t.Errorf("%d listings, want 2 (the failure, then one answer remembered)", n)
	}
}

// Callers at the same time (a refresh reads its jobs in parallel, and each
// found gone asks) send one listing between them, and a caller whose
// context ends while another asks stops waiting.
func TestServiceAnswers_concurrentCallersAskOnce(t *testing.T) {
	var listings atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		listings.Add(1)
		<-release
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"first":"x","current":"x","next":null,"items":[]}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	const callers = 8
	errs := make(chan error, callers)
	for range callers {
		go func() { errs <- c.ServiceAnswers(context.Background()) }()
	}
	for listings.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := c.ServiceAnswers(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a caller whose context ends while another asks: %v, want its context's end", err)
	}
	close(release)
	for range callers {
		if err := <-errs; err != nil {
			t.Errorf("ServiceAnswers: %v", err)
		}
	}
	if n := listings.Load(); n != 1 {
		t.Errorf("%d listings for %d callers at once, want 1", n, callers)
	}
}

// A listing that fails fails every caller waiting on it at once: one
// listing, not one after another for each job found gone (8 callers of a
// listing failing after 0.3 s waited 2.4 s).
func TestServiceAnswers_concurrentCallersShareAFailure(t *testing.T) {
	var listings atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		listings.Add(1)
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	const callers = 8
	start := time.Now()
	errs := make(chan error, callers)
	for range callers {
		go func() { errs <- c.ServiceAnswers(context.Background()) }()
	}
	for range callers {
		if err := <-errs; !client.IsStatus(err, http.StatusBadGateway) {
			t.Errorf("ServiceAnswers: %v, want the listing's 502", err)
		}
	}
	// Callers that came after the first listing ended may send another.
	if n := listings.Load(); n > 2 {
		t.Errorf("%d listings for %d callers at once, want the first shared", n, callers)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the callers took %s to fail, want about one listing's 0.3 s", took)
	}

	// A listing that never answers times out (a deadline, as net/http's
	// timeouts are): that is the outcome the callers share too, not an
	// interruption of its asker's.
	listings.Store(0)
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		listings.Add(1)
		<-r.Context().Done()
	}))
	defer hung.Close()
	c, err = client.New(client.Config{BaseURL: hung.URL, APIKey: "k", MaxRetries: -1, ResponseHeaderTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	for range callers {
		go func() { errs <- c.ServiceAnswers(context.Background()) }()
	}
	for range callers {
		if err := <-errs; err == nil {
			t.Error("ServiceAnswers: nil, want the listing's timeout")
		}
	}
	if n, took := listings.Load(), time.Since(start); n > 2 || took > 2*time.Second {
		t.Errorf("%d listings in %s for %d callers of a listing that never answers, want the first shared", n, took, callers)
	}
}

// A listing refused with the service's own error body (403 with its
// request_id: zero data retention refuses listings) shows that base_url
// leads to the service; a bare 403 (a proxy's, another host's) does not.
func TestServiceAnswers_refusedByTheService(t *testing.T) {
	for name, tc := range map[string]struct {
		body    string
		answers bool
	}{
		"the service's error body": {`{"timestamp":"2026-01-01T00:00:00.000Z","path":"/v2/pre-recorded","request_id":"G-1","statusCode":403,"message":"zero data retention is enabled for this account"}`, true},
		"another body":             {`<html>Forbidden</html>`, false},
		"a message only":           {`{"message":"forbidden"}`, false},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				_, _ = io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.ServiceAnswers(context.Background()); (err == nil) != tc.answers {
				t.Errorf("ServiceAnswers: %v, want the service found %t", err, tc.answers)
			}
		})
	}
}

// An answer of success to a create is the job's id whenever its body is the
// service's (a JSON object naming a UUID), even when its Content-Type is not
// JSON's (a proxy relabeling answers): the job is billed, and losing its id
// loses it. Anything else stays an unreadable answer, and an id that is not
// a UUID (it goes into later requests' paths) is not taken.
func TestCreatePreRecorded_answerOfSuccess(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	created := `{"id": "` + id + `", "result_url": "https://api.example.com/v2/transcription/` + id + `"}`
	cases := []struct {
		name, contentType, body string
		wantMislabeled          string // the answer is read, and was labeled so
		wantInError             string // the answer is refused with this
	}{
		{"json", "application/json", created, "", ""},
		{"relabeled as text", "text/plain; charset=utf-8", created, `Content-Type "text/plain; charset=utf-8"`, ""},
		{"no content type", "", created, "no Content-Type", ""},
		{"html page", "text/html", "<html><title>Sign in</title></html>", "", "HTML page: Sign in"},
		{"json array as text", "text/plain", `["` + id + `"]`, "", "Content-Type"},
		{"id of another type as text", "text/plain", `{"id": 5}`, "", "Content-Type"},
		{"id not a uuid", "application/json", `{"id": "..", "result_url": "x"}`, "", `response's id ".." is not a UUID`},
		{"id not a uuid as text", "text/plain", `{"id": "job-1"}`, "", `response's id "job-1" is not a UUID`},
		{"no id", "application/json", `{"result_url": "x"}`, "", "response has no id"},
		{"no result_url", "application/json", `{"id": "` + id + `"}`, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := clientOfServerAnswering(t, http.StatusCreated, tc.contentType, tc.body, client.Config{})
			got, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
			if tc.wantInError != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantInError) {
					t.Fatalf("got %+v, %v; want an error containing %q", got, err, tc.wantInError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != id || got.Mislabeled != tc.wantMislabeled {
				t.Errorf("got id %q labeled %q, want %q labeled %q", got.ID, got.Mislabeled, id, tc.wantMislabeled)
			}
			// An answer without result_url gets the one the service gives
			// every job, not "".
			if want := c.ResultURL(id); !strings.HasSuffix(got.ResultURL, "/v2/transcription/"+id) || (tc.name == "no result_url" && got.ResultURL != want) {
				t.Errorf("result_url %q, want the job's (%s)", got.ResultURL, want)
			}
		})
	}
}

// An upload's answer must name the file's id (audio_metadata.id), the
// upload's identity: without it, state would keep an upload with id "" and
// a file of 0 bytes.
func TestUpload_answerWithoutFileID(t *testing.T) {
	for name, body := range map[string]string{
		"no audio_metadata": `{"audio_url": "https://api.example.com/file/1"}`,
		"no id":             `{"audio_url": "https://api.example.com/file/1", "audio_metadata": {"filename": "a.wav", "size": 44}}`,
	} {
		c := clientOfServerAnswering(t, http.StatusOK, "application/json", body, client.Config{})
		_, err := c.Upload(context.Background(), "a.wav", 4, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("RIFF")), nil })
		var decodeErr *client.DecodeError
		if !errors.As(err, &decodeErr) || !strings.Contains(err.Error(), "response has no audio_metadata.id") {
			t.Errorf("%s: %v, want a DecodeError naming audio_metadata.id", name, err)
		}
	}
}

// TestRedirects_loopIsTheLastRedirect: a redirect loop within the service's
// origin ends as its last redirect, an answer not retried, whose target is
// shown without its query; it was a lost connection, retried, quoting the
// target whole (a token in its query included).
func TestRedirects_loopIsTheLastRedirect(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Redirect(w, r, "/v2/pre-recorded/x?token=s3cr3t-in-query", http.StatusMovedPermanently)
	}))
	t.Cleanup(srv.Close)
	_, err := newClient(t, srv.URL, testKey).GetPreRecorded(context.Background(), "x")
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusMovedPermanently {
		t.Fatalf("got %v, want the last redirect as the answer", err)
	}
	if n := requests.Load(); n != 10 {
		t.Errorf("%d requests, want 10 (the first and 9 redirects followed, not retried)", n)
	}
	if strings.Contains(err.Error(), "s3cr3t") || apiErr.Location != srv.URL+"/v2/pre-recorded/x?…" {
		t.Errorf("error %q, Location %q: want the target without its query", err, apiErr.Location)
	}
}

// callCounter counts the tries of each call ("METHOD /path") a test server
// is sent, from its concurrent handlers.
type callCounter struct {
	mu    sync.Mutex
	tries map[string]int
}

// add counts r's try, and reports its call and whether it is the first.
func (c *callCounter) add(r *http.Request) (call string, first bool) {
	call = r.Method + " " + r.URL.Path
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tries == nil {
		c.tries = map[string]int{}
	}
	c.tries[call]++
	return call, c.tries[call] == 1
}

// count is how many tries of call were sent.
func (c *callCounter) count(call string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tries[call]
}

// A live session's messages repeat its utterances as final transcripts:
// WithoutUtterances leaves them out too, WithoutWords reads them.
func TestGetLive_detail(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{LiveJobs: 100})
	ctx := context.Background()
	page, err := c.ListLive(ctx, client.ListOptions{Status: []string{client.StatusDone}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, j := range page.Items {
		if j.Result != nil && len(j.Result.Messages) > 0 {
			id = j.ID
			break
		}
	}
	if id == "" {
		t.Fatal("fixture: no seeded session with messages")
	}
	full, err := c.GetLive(ctx, id, client.FullDetail)
	if err != nil || len(full.Result.Messages) == 0 {
		t.Fatalf("GetLive: %v, %d messages", err, len(full.Result.Messages))
	}
	withoutWords, err := c.GetLive(ctx, id, client.WithoutWords)
	if err != nil || !reflect.DeepEqual(withoutWords.Result.Messages, full.Result.Messages) {
		t.Errorf("WithoutWords: %v, messages %d, want all %d as sent", err, len(withoutWords.Result.Messages), len(full.Result.Messages))
	}
	summary, err := c.GetLive(ctx, id, client.WithoutUtterances)
	if err != nil || summary.Result.Messages != nil || summary.Result.Transcription.FullTranscript != full.Result.Transcription.FullTranscript {
		t.Errorf("WithoutUtterances: %v, %d messages, want none and the rest read", err, len(summary.Result.Messages))
	}
}

// LookLive tries once: its failure changes nothing for its caller, which
// retries would only make slow (a wrong id's plan failed after 27 s behind
// a failing live endpoint). GetLive retries.
func TestLookLive_triesOnce(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{Faults: fakeserver.Faults{ServerErrorRatio: 1}})
	const id = "0b6f7c1e-3a52-4c1d-9d7e-2f1a5b6c7d8e"
	if _, err := c.LookLive(context.Background(), id); err == nil {
		t.Fatal("LookLive succeeded against a failing service")
	}
	if n := len(fs.Requests()); n != 1 {
		t.Fatalf("LookLive sent %d requests, want 1", n)
	}
}

// A create in flight counts in CarryingThrough until its answer is read,
// which a process stopping must outlive (main.go); a read does not count.
func TestCarryingThrough_countsCreatesInFlight(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"id":"`+recordedJobID+`","result_url":"x"}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"`+recordedJobID+`","status":"queued"}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	before := client.CarryingThrough()
	done := make(chan error, 2)
	go func() {
		_, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
		done <- err
	}()
	go func() {
		_, err := c.GetPreRecordedStatus(context.Background(), recordedJobID)
		done <- err
	}()
	<-arrived
	<-arrived
	if n := client.CarryingThrough() - before; n != 1 {
		t.Errorf("%d calls carried through while a create and a read are in flight, want 1", n)
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if n := client.CarryingThrough() - before; n != 0 {
		t.Errorf("%d calls carried through once both are answered, want 0", n)
	}
}

// A response body logged cut short says so (LoggedBodyCutField), so that
// the logger masks a URL cut in its authority at its end; a whole one
// does not.
func TestLogResponse_marksABodyCutShort(t *testing.T) {
	for _, tc := range []struct {
		size int
		cut  bool
	}{{100, false}, {5 << 10, true}} {
		// The key quoted in the body: masked, the text is shorter than the
		// body, which is no cut.
		const key = "sk_live_a_key_of_forty_characters_000000"
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "bad gateway for key "+key+" "+strings.Repeat("x", tc.size))
		}))
		var logs recordingLogger
		c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: key, MaxRetries: -1, Logger: &logs})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.GetPreRecordedStatus(context.Background(), recordedJobID)
		srv.Close()
		if marked := strings.Contains(strings.Join(logs.lines, "\n"), client.LoggedBodyCutField+":true"); marked != tc.cut {
			t.Errorf("a body of %d bytes marked cut: %t, want %t\n%s", tc.size, marked, tc.cut, logs.lines)
		}
	}
}

// Each try's answer is logged on one line with the try's number and how
// long it took; a try that got no answer is logged too. A status read,
// which reads only the head of the record, logs the size of the whole
// answer and marks its body cut, not the head's size as if the service had
// sent no more.
func TestLogging_eachTryOnOneLine(t *testing.T) {
	record := `{"id":"` + recordedJobID + `","status":"done","result":{"padding":"` + strings.Repeat("x", 6000) + `"}}`
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"message":"failed"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, record[:100])
		w.(http.Flusher).Flush() // chunked: no Content-Length to read the size from
		_, _ = io.WriteString(w, record[100:])
	}))
	defer srv.Close()
	var logs recordingLogger
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPreRecordedStatus(context.Background(), recordedJobID); err != nil {
		t.Fatal(err)
	}
	var answers []string
	for _, line := range logs.lines {
		if strings.HasPrefix(line, "transcription API response map") {
			answers = append(answers, line)
		}
	}
	if len(answers) != 2 {
		t.Fatalf("%d answer lines, want 2:\n%s", len(answers), strings.Join(logs.lines, "\n"))
	}
	for i, want := range []string{"attempt:1", "attempt:2"} {
		if !strings.Contains(answers[i], want) || !strings.Contains(answers[i], "duration_ms:") {
			t.Errorf("answer line %d has no %s and duration_ms: %s", i+1, want, answers[i])
		}
	}
	if want := fmt.Sprintf("bytes:%d", len(record)); !strings.Contains(answers[1], want) {
		t.Errorf("the status read's answer line has no %s: %s", want, answers[1])
	}
	if !strings.Contains(strings.Join(logs.lines, "\n"), client.LoggedBodyCutField+":true") {
		t.Errorf("the head of the record logged without %s:\n%s", client.LoggedBodyCutField, strings.Join(logs.lines, "\n"))
	}

	// A record too long to drain, sent chunked: its size is not known, and
	// the line says the bytes counted are a least.
	long := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, record[:100])
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, `"`+strings.Repeat("x", 200<<10)+`"}}`)
	}))
	defer long.Close()
	logs = recordingLogger{}
	c, err = client.New(client.Config{BaseURL: long.URL, APIKey: testKey, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPreRecordedStatus(context.Background(), recordedJobID); err != nil {
		t.Fatal(err)
	}
	if all := strings.Join(logs.lines, "\n"); !strings.Contains(all, "bytes_at_least:true") {
		t.Errorf("a record not received whole logged as whole:\n%s", all)
	}

	// A try with no answer: its line names the try and the failure.
	srv.Close()
	logs = recordingLogger{}
	c, err = client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: -1, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPreRecordedStatus(context.Background(), recordedJobID); err == nil {
		t.Fatal("a closed server answered")
	}
	if all := strings.Join(logs.lines, "\n"); !strings.Contains(all, "transcription API request failed") || !strings.Contains(all, "attempt:1") {
		t.Errorf("no line of the failed try:\n%s", all)
	}
}

// A call that failed for good says how many times its request was sent,
// answered or not.
func TestErrors_countTheTries(t *testing.T) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer failing.Close()
	c, err := client.New(client.Config{BaseURL: failing.URL, APIKey: testKey, MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var apiErr *client.APIError
	if _, err := c.GetPreRecorded(context.Background(), recordedJobID); !errors.As(err, &apiErr) || apiErr.Tries != 3 {
		t.Errorf("err %v (tries %v), want an APIError after 3 tries", err, apiErr)
	}

	failing.Close()
	c, err = client.New(client.Config{BaseURL: failing.URL, APIKey: testKey, MaxRetries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var transportErr *client.TransportError
	_, err = c.GetPreRecorded(context.Background(), recordedJobID)
	if !errors.As(err, &transportErr) || transportErr.Tries != 2 {
		t.Errorf("err %v, want a TransportError after 2 tries", err)
	}
	// The request is named once (net/http's error repeats it), with where
	// it went (base_url often comes from the environment).
	if err != nil && (strings.Count(err.Error(), recordedJobID) != 1 || !strings.Contains(err.Error(), recordedJobID+" at "+failing.URL+": ")) {
		t.Errorf("err %q, want the request named once, at %s", err, failing.URL)
	}
}

// Succeeded says whether any call of the client was answered with success:
// a status read (which reads only the head of a record) counts, as a whole
// read does.
func TestSucceeded_byAStatusRead(t *testing.T) {
	f := newFixture(t, fakeserver.Options{ProcessingTime: time.Nanosecond})
	created, err := f.c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, f.url, testKey)
	if c.Succeeded() {
		t.Fatal("a new client has succeeded")
	}
	if _, err := c.GetPreRecordedStatus(context.Background(), created.ID); err != nil {
		t.Fatal(err)
	}
	if !c.Succeeded() {
		t.Error("a status read answered with success, and Succeeded is false")
	}
}

// An answer cut short on every try says how many tries were made too.
func TestErrors_countTheTriesOfAnswersCutShort(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "1000")
		_, _ = io.WriteString(w, `{"id":"`)
	}))
	defer srv.Close()
	// Behind a path prefix, which the error names with the host.
	c, err := client.New(client.Config{BaseURL: srv.URL + "/gw", APIKey: testKey, MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(context.Background(), recordedJobID)
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) || transportErr.Tries != 3 || tries.Load() != 3 {
		t.Errorf("err %v after %d tries, want a TransportError counting 3", err, tries.Load())
	}
	if err != nil && !strings.Contains(err.Error(), recordedJobID+" at "+srv.URL+"/gw: ") {
		t.Errorf("err %q, want where the request went: %s/gw", err, srv.URL)
	}
}

// A time limit that runs out while a try is waiting for its answer keeps
// what the try before met: a service failing, not slow.
func TestErrors_timeLimitKeepsTheTryBefore(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tries.Add(1) == 1 {
			http.Error(w, "failing", http.StatusInternalServerError)
			return
		}
		<-r.Context().Done()
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = c.GetPreRecorded(ctx, recordedJobID)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(fmt.Sprint(err), "(the try before: ") || !strings.Contains(fmt.Sprint(err), "500") {
		t.Errorf("err %v, want the deadline with the try before's 500", err)
	}
	if errors.As(err, new(*client.APIError)) {
		t.Errorf("err %v reads as the service's answer, which it is not", err)
	}
}

// A whole read (GetPreRecorded) of an answer longer than the client takes,
// sent chunked, logs what it received as a least: the rest was neither
// received nor announced.
func TestLogging_answerNotReadWholeIsALeast(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"`+recordedJobID+`","status":"done","result":{"padding":"`)
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, strings.Repeat("x", 4000)+`"}}`)
	}))
	defer srv.Close()
	var logs recordingLogger
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: -1, MaxResponseBytes: 1000, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPreRecorded(context.Background(), recordedJobID); err == nil {
		t.Fatal("an answer past MaxResponseBytes was taken")
	}
	if all := strings.Join(logs.lines, "\n"); !strings.Contains(all, "bytes_at_least:true") {
		t.Errorf("an answer not read whole logged as whole:\n%s", all)
	}
}

// WithRetriesBefore: a retry its backoff would start later is made at the
// time given, and none after it; the call ends with its last failure.
func TestWithRetriesBefore(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		tries.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"statusCode":503,"message":"down","request_id":"r-1"}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k-retries-before", MaxRetries: 5, MinBackoff: 10 * time.Second, MaxBackoff: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.GetPreRecorded(client.WithRetriesBefore(context.Background(), start.Add(200*time.Millisecond)), "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	elapsed := time.Since(start)
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable || apiErr.Tries != 2 || tries.Load() != 2 {
		t.Fatalf("err %v (%d tries sent), want the 503 after 2 tries: one, and one retry at the time given", err, tries.Load())
	}
	if elapsed < 200*time.Millisecond || elapsed > 5*time.Second {
		t.Errorf("ended after %s, want just after 200 ms", elapsed)
	}
}
