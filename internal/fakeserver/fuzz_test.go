package fakeserver

// Fuzz targets of the fake server: no request crashes it, answers a 5xx,
// holds unbounded memory or changes another job. The f.Add seeds and the
// entries under testdata/fuzz run as ordinary tests in `go test`; run one
// target longer with
//
//	go test -run '^$' -fuzz '^FuzzCreateRequest$' -fuzztime 60s ./internal/fakeserver/

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
	"github.com/transcription-service/terraform-provider-transcription/internal/wav"
)

// fuzzMaxUploadBytes keeps uploads small while fuzzing.
const fuzzMaxUploadBytes = 16 << 10

// refusingTransport fails every callback delivery without touching the network.
type refusingTransport struct{}

func (refusingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("callbacks are not delivered while fuzzing")
}

// newFuzzServer is a server on a ManualClock that never reaches the network.
func newFuzzServer(opts Options) *Server {
	opts.APIKey = testKey
	if opts.Clock == nil {
		opts.Clock = NewManualClock(testEpoch)
	}
	opts.CallbackClient = &http.Client{Transport: refusingTransport{}}
	s := New(opts)
	s.callbackBackoff = 0
	return s
}

// serve sends one request straight to the handler. Its Host is example.com.
func serve(s *Server, method, target, contentType string, body []byte) testResponse {
	return serveAt(s, "", method, target, contentType, body)
}

// serveAt is serve with the request sent to host (its Host header), or to
// httptest's example.com when host is "".
func serveAt(s *Server, host, method, target, contentType string, body []byte) testResponse {
	r := httptest.NewRequest(method, "/", bytes.NewReader(body))
	if host != "" {
		r.Host = host
	}
	u, err := url.ParseRequestURI(target)
	if err != nil {
		panic(err)
	}
	r.URL, r.RequestURI = u, target
	r.Header.Set(client.ServiceKeyHeader, testKey)
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	return testResponse{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// decodeStrict decodes a whole answer, refusing fields the type lacks.
func decodeStrict(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding %.500s: %v", data, err)
	}
	if dec.More() {
		t.Fatalf("data after the JSON value: %.500s", data)
	}
}

func requireStatusIn(t *testing.T, resp testResponse, allowed ...int) {
	t.Helper()
	for _, s := range allowed {
		if resp.status == s {
			return
		}
	}
	t.Fatalf("status %d, want one of %v: %.1000s", resp.status, allowed, resp.body)
}

// bystander is a job and an upload created before the fuzzed request, and
// how GET showed them then.
type bystander struct {
	jobID, jobRecord   string
	fileID             string
	fileBody, jobTrans []byte
}

// bystanderBody has every add-on on: any state shared with a later request
// (maps, slices, pointers) would show in its record.
const bystanderBody = `{"audio_url":"https://example.com/bystander.wav?duration=3&channels=2","language_config":{"languages":["en"]},
"custom_vocabulary":true,"custom_vocabulary_config":{"vocabulary":["Kubernetes",{"value":"Terraform","intensity":0.5,"pronunciations":["terra form"]}]},
"subtitles":true,"subtitles_config":{"formats":["srt","vtt"],"maximum_characters_per_row":32},
"diarization":true,"diarization_config":{"number_of_speakers":2},"translation":true,"translation_config":{"target_languages":["fr"]},
"summarization":true,"summarization_config":{"type":"concise"},"named_entity_recognition":true,
"custom_spelling":true,"custom_spelling_config":{"spelling_dictionary":{"SQL":["sequel"]}},"sentiment_analysis":true,
"audio_to_llm":true,"audio_to_llm_config":{"prompts":["What is said?"]},"pii_redaction":true,"pii_redaction_config":{"entity_types":["GDPR"],"processed_text_type":"MASK"},
"custom_metadata":{"team":"a","nested":{"list":[1,"x",null],"flag":true}},"sentences":true,"punctuation_enhanced":true}`

func newBystander(t *testing.T, s *Server) bystander {
	t.Helper()
	var b bystander
	created := serve(s, http.MethodPost, "/v2/pre-recorded", "application/json", []byte(bystanderBody))
	requireStatusIn(t, created, http.StatusCreated)
	var init client.InitResponse
	decodeStrict(t, created.body, &init)
	b.jobID = init.ID
	b.jobRecord = string(serve(s, http.MethodGet, "/v2/pre-recorded/"+b.jobID, "", nil).body)
	b.jobTrans = serve(s, http.MethodGet, "/v2/transcription/"+b.jobID, "", nil).body

	mp, ct := multipartFile(t, "audio", "bystander.wav", testutil.SilentWAV(0.25, 1, 8000))
	up := serve(s, http.MethodPost, "/v2/upload", ct, mp)
	requireStatusIn(t, up, http.StatusOK)
	var upr client.UploadResponse
	decodeStrict(t, up.body, &upr)
	b.fileID = upr.AudioMetadata.ID
	b.fileBody = serve(s, http.MethodGet, "/file/"+b.fileID, "", nil).body
	return b
}

// unchanged fails when the bystanders answer differently from before.
func (b bystander) unchanged(t *testing.T, s *Server) {
	t.Helper()
	if got := string(serve(s, http.MethodGet, "/v2/pre-recorded/"+b.jobID, "", nil).body); got != b.jobRecord {
		t.Fatalf("another job changed:\nbefore %s\nafter  %s", b.jobRecord, got)
	}
	if got := serve(s, http.MethodGet, "/v2/transcription/"+b.jobID, "", nil).body; !bytes.Equal(got, b.jobTrans) {
		t.Fatalf("another job changed on /v2/transcription")
	}
	if got := serve(s, http.MethodGet, "/file/"+b.fileID, "", nil).body; !bytes.Equal(got, b.fileBody) {
		t.Fatalf("another upload changed")
	}
}

// FuzzCreateRequest posts any body as a create request: 201 with a job GET
// returns, or 400/413/422 with the error body; the jobs already there are
// unchanged.
func FuzzCreateRequest(f *testing.F) {
	for _, s := range createSeeds() {
		f.Add([]byte(s))
	}
	f.Add(append([]byte(`{"audio_url":"https://e.com/a.wav","custom_metadata":{"pad":"`), append(bytes.Repeat([]byte("x"), maxCreateBodyBytes), `"}}`...)...))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := newFuzzServer(Options{})
		defer s.Close()
		by := newBystander(t, s)

		resp := serve(s, http.MethodPost, "/v2/pre-recorded", "application/json", body)
		requireStatusIn(t, resp, http.StatusCreated, http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity)
		if resp.status != http.StatusCreated {
			requireError(t, resp, resp.status, "/v2/pre-recorded")
			if resp.status == http.StatusRequestEntityTooLarge && len(body) <= maxCreateBodyBytes {
				t.Fatalf("a %d-byte body refused as too large", len(body))
			}
			by.unchanged(t, s)
			if n := s.JobCount(); n != 1 {
				t.Fatalf("%d jobs after a refused create", n)
			}
			return
		}

		var init client.InitResponse
		decodeStrict(t, resp.body, &init)
		if init.ID == "" || init.ID == by.jobID || init.ResultURL != "http://example.com/v2/transcription/"+init.ID {
			t.Fatalf("create answered %+v", init)
		}
		got := serve(s, http.MethodGet, "/v2/pre-recorded/"+init.ID, "", nil)
		requireStatusIn(t, got, http.StatusOK)
		var job client.PreRecordedJob
		decodeStrict(t, got.body, &job)
		if job.ID != init.ID || !client.IsFinal(job.Status) || job.Kind != client.KindPreRecorded || job.RequestParams == nil || job.RequestParams.Model == nil {
			t.Fatalf("the new job's record: %.1000s", got.body)
		}
		if job.Status == client.StatusDone && (job.Result == nil || job.Result.Transcription == nil || job.File == nil) {
			t.Fatalf("a done job without result or file: %.1000s", got.body)
		}
		if f := job.File; f != nil && (f.AudioDuration == nil || math.IsNaN(*f.AudioDuration) || *f.AudioDuration < 0) {
			t.Fatalf("file %+v", f)
		}
		legacy := serve(s, http.MethodGet, "/v2/transcription/"+init.ID, "", nil)
		if !bytes.Equal(legacy.body, got.body) {
			t.Fatalf("/v2/transcription differs from /v2/pre-recorded")
		}
		by.unchanged(t, s)

		// Deleting it leaves the other job alone too.
		requireStatusIn(t, serve(s, http.MethodDelete, "/v2/pre-recorded/"+init.ID, "", nil), http.StatusAccepted)
		requireError(t, serve(s, http.MethodGet, "/v2/pre-recorded/"+init.ID, "", nil), http.StatusNotFound, "/v2/pre-recorded/"+init.ID)
		by.unchanged(t, s)
	})
}

func createSeeds() []string {
	every, err := json.Marshal(everyOption())
	if err != nil {
		panic(err)
	}
	seeds := []string{
		string(every),
		bystanderBody,
		`{"audio_url":"https://example.com/a.wav"}`,
		`{"audio_url":"https://example.com/talk.wav?duration=42&channels=2","custom_metadata":{"team":"a"}}`,
		`{"audio_url":"https://example.com/fail-422.wav"}`,
		`{"audio_url":"https://example.com/fail.wav","callback":true,"callback_config":{"url":"https://hooks.example.com/x","method":"PUT"}}`,
		`{"audio_url":"https://example.com/a.wav","callback_url":"https://hooks.example.com/legacy"}`,
		`{"audio_url":"http://example.com/file/no-such-upload"}`,
		`{"audio_url":"https://e.com/a.wav","model":"model-3","language_config":{"languages":["fr"]}}`,
		`{"audio_url":"https://e.com/a.wav","model":"model-fusion","language_config":{"languages":["en","fr","ja"],"code_switching":true}}`,
		`{"audio_url":"https://e.com/a.wav","translation":true,"translation_config":{"target_languages":["wo","en"],"model":"base","context":"x","informal":true}}`,
		`{"audio_url":"https://e.com/a.wav","subtitles":true,"subtitles_config":{"formats":["vtt"],"minimum_duration":0,"maximum_duration":30,"maximum_characters_per_row":1,"maximum_rows_per_caption":5,"style":"compliance"}}`,
		`{"audio_url":"https://e.com/a.wav","diarization":true,"diarization_config":{"min_speakers":0,"max_speakers":9223372036854775807}}`,
		`{"audio_url":"https://e.com/a.wav","diarization":true,"diarization_config":{"number_of_speakers":9223372036854775807}}`,
		`{"audio_url":"https://e.com/a.wav","custom_spelling":true,"custom_spelling_config":{"spelling_dictionary":{"":[""],"a b":["c","a b"," "]}}}`,
		`{"audio_url":"https://e.com/a.wav","custom_vocabulary":true,"custom_vocabulary_config":{"vocabulary":["x",{"value":"y","intensity":1,"language":"en"}],"default_intensity":0}}`,
		`{"audio_url":"https://e.com/a.wav","audio_to_llm":true,"audio_to_llm_config":{"prompts":[""]}}`,
		`{"audio_url":"https://e.com/a.wav","pii_redaction":true,"pii_redaction_config":{"entity_types":["PCI","NAME","EMAIL_ADDRESS"],"processed_text_type":"MARKER"}}`,
		// Audio durations from the URL: long, huge, and not numbers.
		`{"audio_url":"https://e.com/a.wav?duration=0.001"}`,
		`{"audio_url":"https://e.com/a.wav?duration=3600&channels=64","subtitles":true}`,
		`{"audio_url":"https://e.com/a.wav?duration=1e12"}`,
		`{"audio_url":"https://e.com/a.wav?duration=1e308&channels=9223372036854775807"}`,
		`{"audio_url":"https://e.com/a.wav?duration=3e306&channels=64","callback":true,"callback_config":{"url":"http://127.0.0.1:1/cb"}}`,
		`{"audio_url":"https://e.com/a.wav?duration=NaN&channels=-1"}`,
		`{"audio_url":"https://e.com/a.wav?duration=Inf"}`,
		// Values the validator refuses (422).
		`{"audio_url":"not a url"}`,
		`{"audio_url":"ftp://e.com/a.wav","model":"model-9","language_config":{"languages":["xx","wo"]}}`,
		`{"audio_url":"https://e.com/a.wav","model":"model-3"}`,
		`{"audio_url":"https://e.com/a.wav","model":"model-3","language_config":{"languages":["ja"],"code_switching":true}}`,
		`{"audio_url":"https://e.com/a.wav","callback":true}`,
		`{"audio_url":"https://e.com/a.wav","subtitles_config":{"formats":[],"minimum_duration":-1,"maximum_duration":31,"maximum_rows_per_caption":6,"maximum_characters_per_row":0,"style":"x"}}`,
		`{"audio_url":"https://e.com/a.wav","diarization_config":{"number_of_speakers":0,"min_speakers":5,"max_speakers":2}}`,
		`{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[" ",{"value":"x","intensity":1.5}],"default_intensity":-0.1}}`,
		`{"audio_url":"https://e.com/a.wav","translation_config":{"target_languages":[]},"audio_to_llm_config":{"prompts":[]},"summarization_config":{"type":"long"}}`,
		`{"audio_url":"https://e.com/a.wav","pii_redaction_config":{"entity_types":["NOPE"],"processed_text_type":"BLUR"},"callback_config":{"url":"/relative","method":"GET"}}`,
		// Malformed bodies (400).
		``, ` `, `null`, `[]`, `"audio_url"`, `42`, `{`, `{"audio_url":`, `{"audio_url":"https://e.com/a.wav"`, `{"audio_url":"https://e.com/a.wav"}{}`,
		`{"audio_url":"https://e.com/a.wav"} trailing`, `{}`, `{"audio_url":null}`, `{"audio_url":5}`, `{"AUDIO_URL":"https://e.com/a.wav"}`,
		`{"audio_url":"https://e.com/a.wav","unknown":{"nested":{"deeper":[1,{"x":null}]}}}`,
		`{"audio_url":"https://e.com/a.wav","language_config":{"languages":"en","extra":1}}`,
		`{"audio_url":"https://e.com/a.wav","subtitles":"true","diarization":1,"sentences":null}`,
		`{"audio_url":"https://e.com/a.wav","diarization_config":{"number_of_speakers":1.5,"min_speakers":1e400,"max_speakers":99999999999999999999}}`,
		`{"audio_url":"https://e.com/a.wav","subtitles_config":{"maximum_duration":"5","minimum_duration":1e400}}`,
		`{"audio_url":"https://e.com/a.wav","custom_vocabulary_config":{"vocabulary":[5,null,{"intensity":0.5},{"value":"x","extra":true}]}}`,
		`{"audio_url":"https://e.com/a.wav","custom_spelling_config":{"spelling_dictionary":{"a":"b","c":[1],"d":null}}}`,
		`{"audio_url":"https://e.com/a.wav","custom_spelling_config":{}}`,
		`{"audio_url":"https://e.com/a.wav","callback_config":{"method":"POST"},"translation_config":{},"audio_to_llm_config":{"model":"x"}}`,
		`{"audio_url":"https://e.com/a.wav","audio_url":5}`,
		`{"audio_url":5,"audio_url":"https://e.com/a.wav"}`,
		`{"audio_url":"https://e.com/a.wav","custom_metadata":[]}`,
		`{"audio_url":"https://e.com/a.wav","custom_metadata":{"deep":` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `}}`,
		`{"audio_url":"https://e.com/a.wav","custom_metadata":{"n":1e400}}`,
		"\xef\xbb\xbf{\"audio_url\":\"https://e.com/a.wav\"}",
		"{\"audio_url\":\"https://e.com/\xff\xfe.wav\"}",
		"{\"audio_url\":\"https://e.com/a.wav\",\"custom_metadata\":{\"\\u0000\":\"\\ud800\"}}",
		`<!DOCTYPE html><html><body><h1>Not JSON</h1></body></html>`,
	}
	return seeds
}

// FuzzLiveQuery lists live jobs with any query string: 200 with a page whose
// links work and whose items honour the filters, or 400 with the error body.
func FuzzLiveQuery(f *testing.F) {
	for _, q := range []string{
		"", "limit=1", "offset=5&limit=5", "offset=0&limit=1000", "status=done", "status=done&status=error&status=queued&status=processing",
		"date=2025-03-14", "date=2025-03-10&status=done", "after_date=2025-03-10T00:00:00Z&before_date=2025-03-12T00:00:00.5+02:00",
		"custom_metadata%5Bteam%5D=alpha", "custom_metadata[env]=prod&custom_metadata[priority]=1",
		"custom_metadata[a=b]=c", "custom_metadata[]=x", "custom_metadata[[x]]=y", "custom_metadata[x]]=y", "custom_metadata[x",
		"offset=-1", "limit=0", "limit=-5", "offset=abc", "limit=1.5", "offset=9223372036854775807", "offset=9223372036854775807&limit=9223372036854775807",
		"offset=9223372036854775800&limit=20", "limit=9223372036854775807", "offset=99999999999999999999", "offset=+3", "offset=0x10",
		"limit=1&limit=2", "status=bogus", "status=", "date=2025-02-30", "date=2025-3-1", "date=", "after_date=yesterday",
		"before_date=2025-03-14T09:26:53", "unknown=1", "=1", "&&&", "a;b=c", "%zz", "status=%E2%9C%93", "limit=%00",
		"custom_metadata%5B%E2%9C%93%5D=%F0%9F%98%80", "status=done&status=done", strings.Repeat("status=done&", 500),
	} {
		f.Add(q)
	}
	s := newFuzzServer(Options{LiveJobs: 2})
	f.Cleanup(s.Close)
	addSmallLiveJobs(s, 40)
	before := serve(s, http.MethodGet, "/v2/live?limit=1000", "", nil).body

	f.Fuzz(func(t *testing.T, rawQuery string) {
		s.ResetRequests()
		resp := listLive(s, rawQuery)
		requireStatusIn(t, resp, http.StatusOK, http.StatusBadRequest)
		if resp.status == http.StatusBadRequest {
			requireError(t, resp, http.StatusBadRequest, "/v2/live")
			return
		}
		q, _ := url.ParseQuery(rawQuery)
		page := checkLivePage(t, resp.body, q)

		// The links repeat the query in the spec's form, on live jobs:
		// current gives the same page, first and next answer with pages of
		// the same filter.
		links := map[string]string{"first": page.First, "current": page.Current}
		if page.Next != nil {
			links["next"] = *page.Next
		}
		for name, link := range links {
			u, err := url.Parse(link)
			if err != nil || u.Host != "example.com" || u.Path != "/v2/transcription" || u.Query().Get("kind") != client.KindLive {
				t.Fatalf("%s link %q", name, link)
			}
			again := serve(s, http.MethodGet, u.RequestURI(), "", nil)
			if again.status != http.StatusOK {
				t.Fatalf("%s link %q answered %d: %s", name, link, again.status, again.body)
			}
			lq, _ := url.ParseQuery(u.RawQuery)
			linked := checkLivePage(t, again.body, lq)
			if name == "current" && !bytes.Equal(again.body, resp.body) {
				t.Fatalf("the current link %q gives another page", link)
			}
			if name == "next" {
				cur, _ := strconv.Atoi(q.Get("offset"))
				next, err := strconv.Atoi(lq.Get("offset"))
				if err != nil || next <= cur {
					t.Fatalf("next link %q does not advance past offset %d", link, cur)
				}
				if len(linked.Items) == 0 {
					t.Fatalf("next link %q leads to an empty page", link)
				}
			}
		}
		if got := serve(s, http.MethodGet, "/v2/live?limit=1000", "", nil).body; !bytes.Equal(got, before) {
			t.Fatal("listing changed the live jobs")
		}
	})
}

// addSmallLiveJobs adds n live jobs without results (listing full records
// would make each try slow) spread over the week before testEpoch, with the
// seeded jobs' statuses and metadata; some share a creation time.
func addSmallLiveJobs(s *Server, n int) {
	teams := []string{"alpha", "bravo", "charlie", "delta"}
	for i := range n {
		meta := map[string]any{"team": teams[i%len(teams)], "env": []string{"prod", "staging"}[i%2]}
		if i%3 == 0 {
			meta["priority"] = i%3 + 1
		}
		if i%10 == 9 {
			meta = nil
		}
		s.AddLiveJob(client.LiveJob{JobCommon: client.JobCommon{
			ID:             fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
			Version:        client.InterfaceVersion,
			Status:         client.JobStatuses[i*7%len(client.JobStatuses)],
			CreatedAt:      formatTimestamp(testEpoch.Add(-time.Duration(i/2) * 4 * time.Hour)),
			Kind:           client.KindLive,
			CustomMetadata: meta,
		}})
	}
}

func listLive(s *Server, rawQuery string) testResponse {
	r := httptest.NewRequest(http.MethodGet, "/v2/live", nil)
	r.URL.RawQuery = rawQuery
	r.Header.Set(client.ServiceKeyHeader, testKey)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	return testResponse{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// checkLivePage decodes a page and checks its items against the query.
func checkLivePage(t *testing.T, body []byte, q url.Values) client.LivePage {
	t.Helper()
	var page client.LivePage
	decodeStrict(t, body, &page)
	limit := client.DefaultLiveListLimit
	if v := q.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	if page.Items == nil || len(page.Items) > limit || page.First == "" || page.Current == "" {
		t.Fatalf("page of %d items for limit %d: %.500s", len(page.Items), limit, body)
	}
	for _, it := range page.Items {
		if it.ID == "" || it.Kind != client.KindLive || !client.Contains(client.JobStatuses, it.Status) {
			t.Fatalf("item %+v", it.JobCommon)
		}
		if st := q["status"]; len(st) > 0 && !client.Contains(st, it.Status) {
			t.Fatalf("status filter %q let through %q", st, it.Status)
		}
		if d := q.Get("date"); d != "" && !strings.HasPrefix(it.CreatedAt, d) {
			t.Fatalf("date filter %q let through %q", d, it.CreatedAt)
		}
		for key, vals := range q {
			if k, ok := customMetadataKey(key); ok && fmt.Sprint(it.CustomMetadata[k]) != vals[0] {
				t.Fatalf("filter %s=%q let through %v", key, vals[0], it.CustomMetadata)
			}
		}
	}
	return page
}

// FuzzUpload posts any body with any Content-Type to the upload endpoint:
// 200 with a file that can be fetched and transcribed, or 400/413/422 with
// the error body; memory stays bounded by the upload limit, and the files
// and jobs already there are unchanged.
func FuzzUpload(f *testing.F) {
	for _, s := range uploadSeeds() {
		f.Add(s.body, s.contentType)
	}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		s := newFuzzServer(Options{MaxUploadBytes: fuzzMaxUploadBytes})
		defer s.Close()
		by := newBystander(t, s)

		resp := serve(s, http.MethodPost, "/v2/upload", contentType, body)
		requireStatusIn(t, resp, http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity)
		if resp.status != http.StatusOK {
			requireError(t, resp, resp.status, "/v2/upload")
			by.unchanged(t, s)
			return
		}
		var up client.UploadResponse
		decodeStrict(t, resp.body, &up)
		m := up.AudioMetadata
		if m == nil || up.AudioURL != "http://example.com/file/"+m.ID || m.ID == "" || m.ID == by.fileID || m.Size <= 0 || m.Size > fuzzMaxUploadBytes ||
			!(m.AudioDuration >= 0) || math.IsInf(m.AudioDuration, 0) || m.NumberOfChannels < 1 || m.Filename == "" {
			t.Fatalf("upload answered %s", resp.body)
		}
		file := serve(s, http.MethodGet, "/file/"+m.ID, "", nil)
		if file.status != http.StatusOK || int64(len(file.body)) != m.Size {
			t.Fatalf("GET /file/%s: %d, %d bytes, want %d", m.ID, file.status, len(file.body), m.Size)
		}
		// The extension is the name's, else the one the content sniffs as:
		// none only when neither tells (a name without one, bytes of no
		// format the sniffer knows).
		if m.Extension == "" && (path.Ext(m.Filename) != "" || sniffedExtensions[http.DetectContentType(file.body)] != "") {
			t.Fatalf("upload answered no extension for %q: %s", m.Filename, resp.body)
		}

		// The file can be transcribed; its duration and channels carry over.
		created := serve(s, http.MethodPost, "/v2/pre-recorded", "application/json", []byte(`{"audio_url":"`+up.AudioURL+`"}`))
		requireStatusIn(t, created, http.StatusCreated)
		var init client.InitResponse
		decodeStrict(t, created.body, &init)
		got := serve(s, http.MethodGet, "/v2/pre-recorded/"+init.ID, "", nil)
		requireStatusIn(t, got, http.StatusOK)
		var job client.PreRecordedJob
		decodeStrict(t, got.body, &job)
		if job.Status != client.StatusDone || job.File == nil || job.File.AudioDuration == nil || *job.File.AudioDuration != m.AudioDuration ||
			job.File.NumberOfChannels == nil || *job.File.NumberOfChannels != m.NumberOfChannels || job.Result == nil {
			t.Fatalf("the job of upload %s: %.1000s", resp.body, got.body)
		}
		by.unchanged(t, s)
	})
}

type uploadSeed struct {
	body        []byte
	contentType string
}

func uploadSeeds() []uploadSeed {
	file := func(field, name string, data []byte) uploadSeed {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		_ = mw.WriteField("note", "ignored")
		part, _ := mw.CreateFormFile(field, name)
		_, _ = part.Write(data)
		_ = mw.Close()
		return uploadSeed{b.Bytes(), mw.FormDataContentType()}
	}
	wav := testutil.SilentWAV(0.5, 2, 8000)
	raw := func(boundary, body string) uploadSeed {
		return uploadSeed{[]byte(body), "multipart/form-data; boundary=" + boundary}
	}
	part := func(headers, data string) string {
		return "--B\r\n" + headers + "\r\n\r\n" + data + "\r\n"
	}
	seeds := []uploadSeed{
		file("audio", "meeting.wav", wav),
		file("audio", "", wav),
		file("audio", "noext", testutil.SilentWAV(0.01, 1, 44100)),
		file("audio", "../../etc/passwd.WAV", wav),
		file("audio", "big.wav", testutil.SilentWAV(0.1, 1, 8000*10)), // past the limit
		file("audio", "slow.wav", slowWAV(1, 1, 4000)),                // 4000 s of 1 Hz audio
		file("audio", "a.mp3", []byte("ID3\x03\x00\x00\x00\x00\x00\x00 not a wav")),
		file("audio", "trunc.wav", wav[:30]),
		file("audio", "hdr.wav", wav[:44]),
		file("file", "wrong-field.wav", wav),
		file("audio", "zero.wav", zeroFmtWAV()),
		file("audio", "huge.wav", hugeFmtWAV()),
		raw("B", part(`Content-Disposition: form-data; name="audio"; filename="a.wav"`, string(wav))+part(`Content-Disposition: form-data; name="audio"; filename="b.wav"`, "second")+"--B--\r\n"),
		raw("B", part(`Content-Disposition: form-data; name="note"`, "x")+"--B--\r\n"),
		raw("B", "--B--\r\n"),
		raw("B", ""),
		raw("B", "--B\r\nContent-Disposition: form-data; name=\"audio\"\r\n\r\nRIFF"),
		raw("B", "--B\r\n"+strings.Repeat("X-Header: "+strings.Repeat("v", 100)+"\r\n", 200)+"\r\n\r\n--B--\r\n"),
		raw("B", part(`Content-Disposition: form-data; name="audio"; filename*=UTF-8''%E2%9C%93.wav`, string(wav))+"--B--\r\n"),
		raw("", "--\r\n\r\n"),
		{wav, "audio/wav"},
		{wav, "multipart/form-data"},
		{wav, "multipart/mixed; boundary=B"},
		{[]byte(`{"audio_url":"x"}`), "application/json"},
		{nil, ""},
		{[]byte("--B\r\n"), "multipart/form-data; boundary=\"B\"; boundary=C"},
		{[]byte("--B\r\n"), "multipart/form-data; boundary=" + strings.Repeat("b", 71)},
	}
	return seeds
}

// slowWAV is 8-bit PCM at a low sample rate: a long duration in few bytes.
func slowWAV(channels, sampleRate, dataBytes int) []byte {
	return wavWith(uint16(channels), uint32(sampleRate), 8, make([]byte, dataBytes))
}

func zeroFmtWAV() []byte { return wavWith(0, 0, 0, make([]byte, 10)) }

func hugeFmtWAV() []byte {
	return wavWith(math.MaxUint16, math.MaxUint32, math.MaxUint16, make([]byte, 100))
}

func wavWith(channels uint16, rate uint32, bits uint16, data []byte) []byte {
	return append(wav.Header(channels, rate, bits, uint32(len(data))), data...)
}

// FuzzParseWAV: any file gives a WAV header with a finite, non-negative
// duration whose data fits the file, or an error.
func FuzzParseWAV(f *testing.F) {
	wav := testutil.SilentWAV(0.5, 2, 8000)
	for _, d := range [][]byte{
		wav, wav[:44], wav[:40], wav[:36], wav[:12], wav[:11], nil, []byte("RIFF\x00\x00\x00\x00WAVE"),
		slowWAV(1, 1, 100), zeroFmtWAV(), hugeFmtWAV(), testutil.SilentWAV(0.01, 1, 44100),
		append([]byte("RIFF\x00\x00\x00\x00WAVEJUNK\x03\x00\x00\x00abc\x00"), wav[12:]...), // odd chunk padded
		append([]byte("RIFF\x00\x00\x00\x00WAVEdata\xff\xff\xff\xff"), wav[12:]...),        // data first, claiming 4 GiB
		[]byte("RIFF\x00\x00\x00\x00WAVEfmt \x0f\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10"),
		[]byte("RIFX\x00\x00\x00\x00WAVEfmt "),
	} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := parseWAV(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		d := info.Duration()
		if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
			t.Fatalf("duration %v of %+v", d, info)
		}
		if info.Channels <= 0 || info.SampleRate <= 0 || info.BitsPerSample <= 0 || info.DataBytes < 0 || info.DataBytes > int64(len(data)) {
			t.Fatalf("header %+v of a %d-byte file", info, len(data))
		}
	})
}

// FuzzServeHTTP sends any method, path, Content-Type and body: the server
// answers below 500, every error with its error body, and the jobs and files
// already there are unchanged.
func FuzzServeHTTP(f *testing.F) {
	for _, s := range []struct{ method, target, ct, body string }{
		{"GET", "/v2/pre-recorded/x", "", ""},
		{"DELETE", "/v2/pre-recorded/x", "", ""},
		{"POST", "/v2/pre-recorded", "application/json", `{"audio_url":"https://e.com/a.wav"}`},
		{"POST", "/v2/pre-recorded", "application/json; charset=utf-8", `{"audio_url":"https://e.com/a.wav"}`},
		{"POST", "/v2/pre-recorded", "text/plain", `{"audio_url":"https://e.com/a.wav"}`},
		{"POST", "/v2/pre-recorded", "application/json;;", `{}`},
		{"PUT", "/v2/pre-recorded", "application/json", `{}`},
		{"GET", "/v2/pre-recorded", "", ""},
		{"GET", "/v2/pre-recorded/", "", ""},
		{"GET", "/v2/pre-recorded/a/b", "", ""},
		{"GET", "/v2/pre-recorded/%2e%2e", "", ""},
		{"GET", "/v2/transcription/x", "", ""},
		{"GET", "/v2/live?status=done&limit=2", "", ""},
		{"POST", "/v2/live", "", ""},
		{"POST", "/v2/upload", "multipart/form-data; boundary=B", "--B--\r\n"},
		{"GET", "/v2/upload", "", ""},
		{"GET", "/file/x", "", ""},
		{"HEAD", "/file/x", "", ""},
		{"OPTIONS", "/", "", ""},
		{"GET", "/v2", "", ""},
		{"GET", "//v2/live", "", ""},
		{"GET", "/v2/live/", "", ""},
		{"PATCH", "/v2/pre-recorded/x", "application/json", `{"status":"done"}`},
		{"GET", "/v2/pre-recorded/x?y=%zz", "", ""},
		{"BREW", "/coffee", "message/coffeepot", "start"},
	} {
		f.Add(s.method, s.target, s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, method, target, contentType string, body []byte) {
		r, err := http.NewRequest(method, "http://example.com"+target, bytes.NewReader(body))
		if err != nil || !strings.HasPrefix(target, "/") {
			return // not a request a server can receive
		}
		s := newFuzzServer(Options{MaxUploadBytes: fuzzMaxUploadBytes, LiveJobs: 3})
		defer s.Close()
		by := newBystander(t, s)

		r.RequestURI = target
		r.Header.Set(client.ServiceKeyHeader, testKey)
		r.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		resp := testResponse{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
		switch {
		case resp.status >= 500:
			t.Fatalf("%s %s: %d %s", method, target, resp.status, resp.body)
		case resp.status >= 400:
			// JSON carries each byte of invalid UTF-8 in the path as U+FFFD.
			requireError(t, resp, resp.status, string([]rune(r.URL.Path)))
		}
		by.unchanged(t, s)
	})
}

// FuzzJobOptions drives the result generator, which a fuzzed JSON body
// rarely reaches past the validator: every add-on is on, free texts
// (vocabulary, spellings, prompts) are fuzzed as they are, and enumerations
// and bounds are brought into what the validator accepts. The job must be
// created, and its record, result included, served as valid JSON.
func FuzzJobOptions(f *testing.F) {
	f.Add(12.5, int64(2), int64(3), int64(1), int64(4), int64(32), int64(2), 1.0, 6.0, "default", "Kubernetes,Terraform provider", "SQL", "sequel", "en", "fr,ja", "What is said?", "GDPR", false, "model-1")
	f.Add(0.001, int64(1), int64(0), int64(0), int64(0), int64(1), int64(1), 0.0, 1.0, "compliance", "", "", "", "", "", "", "", true, "model-3")
	f.Add(599.9, int64(64), int64(9223372036854775807), int64(-1), int64(-9), int64(9223372036854775807), int64(5), 86400.0, 30.0, "COMPLIANCE", " , ,x", "a b", "a b c", "en,fr,de,es,it,ja,zh", "wo", "", "NAME,EMAIL_ADDRESS,PHONE_NUMBER", true, "model-fusion")
	f.Add(math.NaN(), int64(-3), int64(1), int64(5), int64(2), int64(0), int64(6), -1.0, 31.0, "x", "été,😀", "", "\x00", "xx,haw", "", ",", "NOPE", false, "")
	f.Add(math.Inf(1), int64(0), int64(2), int64(0), int64(1), int64(40), int64(3), math.Inf(1), math.NaN(), "default", strings.Repeat("word ", 50), "k", strings.Repeat("k", 200), "ja", "zh,ko", strings.Repeat("?", 300), "PCI", false, "model-1")
	f.Add(300.0, int64(1), int64(0), int64(0), int64(0), int64(0), int64(0), 0.0, 0.0, "", "the,the the,a", "the", "the,a,an", "en", "en", "?", "NAME_GIVEN,NAME_FAMILY,LOCATION_CITY,ORGANIZATION", true, "model-1")
	f.Fuzz(func(t *testing.T, duration float64, channels, speakers, minSpeakers, maxSpeakers, maxChars, maxRows int64, minDur, maxDur float64,
		style, vocab, spellKey, spellValues, langs, targets, prompts, pii string, mask bool, model string) {
		if duration > 600 { // longer audio only costs time; see the clamp seeds of FuzzCreateRequest
			duration = math.Mod(duration, 600)
		}
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, ",")
		}
		on := pointerTo(true)
		model = pick(client.Models, model)
		languages := pickAll(client.TranscriptionLanguages, split(langs))
		if model == client.ModelThree {
			languages = []string{pick(client.ModelThreeLanguages, langs)}
		}
		minDur, maxDur = inRange(minDur, 0, 30), inRange(maxDur, 1, 30)
		minDur = min(minDur, maxDur)
		minSpeakers, maxSpeakers = max(minSpeakers, 0), max(maxSpeakers, 0)
		minSpeakers = min(minSpeakers, maxSpeakers)
		maxChars, maxRows = max(maxChars, 1), min(max(maxRows, 1), 5)
		req := client.InitTranscriptionRequest{
			AudioURL:               "https://example.com/a.wav?duration=" + strconv.FormatFloat(duration, 'g', -1, 64) + "&channels=" + strconv.FormatInt(channels, 10),
			Model:                  &model,
			LanguageConfig:         &client.LanguageConfig{Languages: languages, CodeSwitching: pointerTo(mask && model != client.ModelThree)},
			CustomVocabulary:       on,
			CustomVocabularyConfig: &client.CustomVocabularyConfig{Vocabulary: []client.VocabularyEntry{}},
			Subtitles:              on,
			SubtitlesConfig: &client.SubtitlesConfig{Formats: []string{"srt", "vtt"}, MaximumCharactersPerRow: &maxChars, MaximumRowsPerCaption: &maxRows,
				MinimumDuration: &minDur, MaximumDuration: &maxDur, Style: pointerTo(pick(client.SubtitleStyles, style))},
			Diarization:            on,
			DiarizationConfig:      &client.DiarizationConfig{MinSpeakers: &minSpeakers, MaxSpeakers: &maxSpeakers},
			Translation:            on,
			TranslationConfig:      &client.TranslationConfig{TargetLanguages: append(pickAll(client.TranslationLanguages, split(targets)), "fr")},
			Summarization:          on,
			SummarizationConfig:    &client.SummarizationConfig{Type: pointerTo(pick(client.SummaryTypes, style))},
			NamedEntityRecognition: on,
			CustomSpelling:         on,
			CustomSpellingConfig:   &client.CustomSpellingConfig{SpellingDictionary: map[string][]string{spellKey: append([]string{}, split(spellValues)...)}},
			SentimentAnalysis:      on,
			AudioToLLM:             on,
			AudioToLLMConfig:       &client.AudioToLLMConfig{Prompts: append(split(prompts), "What is said?")},
			PIIRedaction:           on,
			PIIRedactionConfig:     &client.PIIRedactionConfig{EntityTypes: pickAll(client.PIIEntityTypes, split(pii)), ProcessedTextType: pointerTo(map[bool]string{true: "MASK", false: "MARKER"}[mask])},
			Sentences:              on,
			PunctuationEnhanced:    on,
		}
		if speakers != 0 {
			speakers = max(speakers, -speakers, 1)
			req.DiarizationConfig.NumberOfSpeakers = &speakers
		}
		for _, v := range split(vocab) {
			if strings.TrimSpace(v) != "" {
				req.CustomVocabularyConfig.Vocabulary = append(req.CustomVocabularyConfig.Vocabulary, client.VocabularyEntry{Value: v})
			}
		}
		body, err := json.Marshal(&req)
		if err != nil {
			t.Fatal(err)
		}

		s := newFuzzServer(Options{})
		defer s.Close()
		resp := serve(s, http.MethodPost, "/v2/pre-recorded", "application/json", body)
		requireStatusIn(t, resp, http.StatusCreated)
		var init client.InitResponse
		decodeStrict(t, resp.body, &init)
		got := serve(s, http.MethodGet, "/v2/pre-recorded/"+init.ID, "", nil)
		requireStatusIn(t, got, http.StatusOK)
		var job client.PreRecordedJob
		decodeStrict(t, got.body, &job)
		if job.Status != client.StatusDone || job.Result == nil || job.Result.Transcription == nil {
			t.Fatalf("job %.1000s", got.body)
		}
		for _, u := range job.Result.Transcription.Utterances {
			if u.Start < 0 || u.End < u.Start || u.Channel < 0 {
				t.Fatalf("utterance %+v", u)
			}
		}
	})
}

// pick returns v when it is one of values, else one of them chosen by v.
func pick(values []string, v string) string {
	if client.Contains(values, v) {
		return v
	}
	h := 0
	for _, b := range []byte(v) {
		h = h*31 + int(b)
	}
	return values[(h%len(values)+len(values))%len(values)]
}

func pickAll(values, vs []string) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, pick(values, v))
	}
	return out
}

// inRange brings x into [lo, hi]; NaN becomes lo.
func inRange(x, lo, hi float64) float64 {
	if !(x >= lo) {
		return lo
	}
	return min(x, hi)
}
