package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

func TestCreateAnswers201WithIDAndResultURL(t *testing.T) {
	h := newHarness(t, Options{})
	body := `{"audio_url":"https://example.com/a.wav"}`
	resp := h.postCreate(body)
	if resp.status != http.StatusCreated || resp.header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, Content-Type %q", resp.status, resp.header.Get("Content-Type"))
	}
	var out client.InitResponse
	decodeInto(t, resp.body, &out)
	if _, err := uuid.Parse(out.ID); err != nil {
		t.Fatalf("id %q is not a UUID", out.ID)
	}
	if want := h.url + "/v2/transcription/" + out.ID; out.ResultURL != want {
		t.Fatalf("result_url %q, want %q", out.ResultURL, want)
	}
	second := h.create(body)
	if second.ID == out.ID {
		t.Fatal("two creates share an id")
	}
	bodies := h.srv.CreateBodies()
	if len(bodies) != 2 || string(bodies[0]) != body {
		t.Fatalf("create bodies %q", bodies)
	}
	if st := h.srv.Stats(); st.JobsCreated != 2 {
		t.Fatalf("JobsCreated %d", st.JobsCreated)
	}
}

func TestJobLifecycleFollowsTheClock(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 8 * time.Second})
	id := h.create(`{"audio_url":"https://example.com/talk.wav?duration=42&channels=2","custom_metadata":{"team":"a"}}`).ID

	steps := []struct {
		at     time.Duration
		status string
	}{
		{0, client.StatusQueued},
		{1999 * time.Millisecond, client.StatusQueued},
		{2 * time.Second, client.StatusProcessing},
		{7999 * time.Millisecond, client.StatusProcessing},
		{8 * time.Second, client.StatusDone},
		{time.Hour, client.StatusDone},
	}
	for _, step := range steps {
		h.clock.Set(testEpoch.Add(step.at))
		job := h.job(id)
		if job.Status != step.status {
			t.Fatalf("at +%v: status %q, want %q", step.at, job.Status, step.status)
		}
		final := step.status == client.StatusDone
		if (job.CompletedAt != nil) != final || (job.Result != nil) != final {
			t.Fatalf("at +%v: completed_at %v, result %v", step.at, job.CompletedAt, job.Result != nil)
		}
	}

	job := h.job(id)
	if job.ID != id || job.Kind != client.KindPreRecorded || job.Version != 2 || job.ErrorCode != nil {
		t.Fatalf("record %+v", job.JobCommon)
	}
	if job.CreatedAt != "2025-03-14T09:26:53.000Z" || *job.CompletedAt != "2025-03-14T09:27:01.000Z" {
		t.Fatalf("created_at %q, completed_at %q", job.CreatedAt, *job.CompletedAt)
	}
	if _, err := uuid.Parse(job.RequestID); err != nil {
		t.Fatalf("request_id %q", job.RequestID)
	}
	if !reflect.DeepEqual(job.CustomMetadata, client.Metadata{"team": "a"}) {
		t.Fatalf("custom_metadata %v", job.CustomMetadata)
	}
	if string(job.PostSessionMetadata) != "{}" {
		t.Fatalf("post_session_metadata %s", job.PostSessionMetadata)
	}
	f := job.File
	if f == nil || *f.Filename != "talk.wav" || *f.Source != "https://example.com/talk.wav?duration=42&channels=2" ||
		*f.AudioDuration != 42 || *f.NumberOfChannels != 2 || f.ID == "" {
		t.Fatalf("file %+v", f)
	}
	if job.Result.Metadata.AudioDuration != 42 {
		t.Fatalf("result metadata %+v", job.Result.Metadata)
	}

	// The legacy path serves the same record, and so does Job.
	var legacy client.PreRecordedJob
	resp := h.get("/v2/transcription/" + id)
	if resp.status != http.StatusOK {
		t.Fatalf("GET /v2/transcription: %d", resp.status)
	}
	decodeInto(t, resp.body, &legacy)
	if !reflect.DeepEqual(legacy, job) {
		t.Fatalf("legacy record differs:\n%+v\n%+v", legacy, job)
	}
	if rec, ok := h.srv.Job(id); !ok || !reflect.DeepEqual(rec, job) {
		t.Fatalf("Job() = %+v, %v", rec, ok)
	}
}

func TestRecordHasNullsUntilFinal(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: time.Minute})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	var raw map[string]json.RawMessage
	decodeInto(t, h.get("/v2/pre-recorded/"+id).body, &raw)
	for _, field := range []string{"completed_at", "error_code", "result"} {
		if string(raw[field]) != "null" {
			t.Fatalf("%s = %s, want null", field, raw[field])
		}
	}
	// The official client types custom_metadata as an optional object, never
	// null: a job created without it has none.
	if v, ok := raw["custom_metadata"]; ok {
		t.Fatalf("custom_metadata = %s, want it absent", v)
	}
	for _, field := range []string{"id", "request_id", "version", "status", "created_at", "kind", "post_session_metadata", "file", "request_params"} {
		if _, ok := raw[field]; !ok {
			t.Fatalf("field %s missing", field)
		}
	}
}

func TestZeroProcessingTimeIsDoneAtOnce(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	job := h.job(id)
	if job.Status != client.StatusDone || job.Result == nil || *job.CompletedAt != job.CreatedAt {
		t.Fatalf("status %q, completed_at %v", job.Status, job.CompletedAt)
	}
}

// A job's transcription_time is the processing its record's timestamps
// show (from leaving the queue to completed_at), whatever the recording's
// length: a 1-hour recording processed in 8 s took 6 s to transcribe, not a
// minute.
func TestTranscriptionTimeIsTheJobsProcessing(t *testing.T) {
	for _, processing := range []time.Duration{0, 8 * time.Second, 2 * time.Minute} {
		h := newHarness(t, Options{ProcessingTime: processing})
		id := h.create(`{"audio_url":"https://example.com/long.wav?duration=3600"}`).ID
		h.clock.Advance(processing)
		job := h.job(id)
		if job.Status != client.StatusDone {
			t.Fatalf("processing %s: status %q", processing, job.Status)
		}
		created, _ := time.Parse(time.RFC3339Nano, job.CreatedAt)
		completed, _ := time.Parse(time.RFC3339Nano, *job.CompletedAt)
		want := (processing * 3 / 4).Seconds()
		if got := job.Result.Metadata.TranscriptionTime; got != want || got > completed.Sub(created).Seconds() {
			t.Errorf("processing %s: transcription_time %v, want %v (created %s, completed %s)", processing, got, want, job.CreatedAt, *job.CompletedAt)
		}
	}
}

func TestJobsAdvanceWithoutPolling(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 4 * time.Second})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	h.clock.Advance(4 * time.Second)
	h.srv.SettleJobs()
	h.srv.mu.Lock()
	final := h.srv.jobs[id].final
	h.srv.mu.Unlock()
	if !final {
		t.Fatal("SettleJobs did not finalize a due job")
	}
}

func TestAudioURLTriggersFailure(t *testing.T) {
	cases := []struct {
		url  string
		code int64
	}{
		{"https://example.com/fail.wav", 500},
		{"https://example.com/x.wav?mode=failure", 500},
		{"https://example.com/fail-404.wav", 404},
		{"https://example.com/fail-400/a.wav", 400},
		{"https://example.com/fail-599.wav", 599},
		{"https://example.com/fail-422.wav", 422},
		{"https://example.com/fail-399.wav", 500},
		{"https://example.com/fail-600.wav", 500},
		{"https://example.com/fail-4220.wav", 500},
	}
	h := newHarness(t, Options{ProcessingTime: time.Second})
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			id := h.create(`{"audio_url":"` + c.url + `"}`).ID
			if job := h.job(id); job.Status != client.StatusQueued || job.File != nil || job.ErrorCode != nil {
				t.Fatalf("before the end: %+v", job.JobCommon)
			}
			h.clock.Advance(time.Second)
			job := h.job(id)
			if job.Status != client.StatusError || job.ErrorCode == nil || *job.ErrorCode != c.code {
				t.Fatalf("status %q, error_code %v, want error %d", job.Status, job.ErrorCode, c.code)
			}
			if job.File != nil || job.Result != nil || job.CompletedAt == nil {
				t.Fatalf("error job: file %v, result %v, completed_at %v", job.File, job.Result, job.CompletedAt)
			}
		})
	}
}

func TestDerivedAudio(t *testing.T) {
	h := newHarness(t, Options{})
	fileOf := func(url string) *client.FileInfo {
		t.Helper()
		return h.job(h.create(`{"audio_url":"` + url + `"}`).ID).File
	}
	f := fileOf("https://example.com/calls/2024/support%20call.mp3?duration=12.5&channels=2")
	if *f.AudioDuration != 12.5 || *f.NumberOfChannels != 2 || *f.Filename != "support call.mp3" {
		t.Fatalf("file %+v", f)
	}
	a, b := fileOf("https://example.com/a.wav"), fileOf("https://example.com/a.wav")
	if *a.AudioDuration != *b.AudioDuration || a.ID != b.ID {
		t.Fatalf("the same URL gave %v and %v", *a.AudioDuration, *b.AudioDuration)
	}
	seen := map[float64]bool{}
	for i := range 40 {
		d := *fileOf("https://example.com/" + uuid.NewSHA1(uuid.NameSpaceURL, []byte{byte(i)}).String() + ".wav").AudioDuration
		if d < 5 || d > 60 || d != float64(int(d)) {
			t.Fatalf("derived duration %v is not a whole number of seconds from 5 to 60", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Fatalf("durations barely vary: %v", seen)
	}
	// Invalid parameters fall back to the derived values.
	g := fileOf("https://example.com/b.wav?duration=-3&channels=zero")
	if *g.AudioDuration < 5 || *g.NumberOfChannels != 1 {
		t.Fatalf("file %+v", g)
	}
	if root := fileOf("https://example.com/"); *root.Filename != "audio" {
		t.Fatalf("filename of a bare host: %q", *root.Filename)
	}
	// Only this server's own host names uploads: a /file/ path elsewhere (a
	// CDN's, say) is external audio, not a missing upload failing with 404.
	ext := h.job(h.create(`{"audio_url":"https://cdn.example.com/file/board-call.wav?duration=7"}`).ID)
	if ext.Status != client.StatusDone || *ext.File.AudioDuration != 7 || *ext.File.Filename != "board-call.wav" {
		t.Fatalf("external /file/ URL: status %q, error_code %v, file %+v", ext.Status, ext.ErrorCode, ext.File)
	}
}

// URLs that name the same file (RFC 9110 §4.2.3: scheme and host without
// case, the default port, no fragment, unreserved characters encoded or
// not) are the same audio: the same file facts, processing time and
// transcript. Another path is another file.
func TestSameFileWrittenAnotherWay(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: time.Second, ProcessingTimeMax: time.Minute})
	finished := func(url string) client.PreRecordedJob {
		t.Helper()
		id := h.create(`{"audio_url":"` + url + `"}`).ID
		h.clock.Advance(time.Minute)
		job := h.job(id)
		if job.Status != client.StatusDone || job.File == nil || job.Result == nil || job.Result.Transcription == nil || job.CompletedAt == nil {
			t.Fatalf("%s: status %q, file %v", url, job.Status, job.File)
		}
		return job
	}
	facts := func(j client.PreRecordedJob) string {
		created, errCreated := time.Parse(time.RFC3339Nano, j.CreatedAt)
		completed, errCompleted := time.Parse(time.RFC3339Nano, *j.CompletedAt)
		if errCreated != nil || errCompleted != nil {
			t.Fatalf("created_at %q, completed_at %q", j.CreatedAt, *j.CompletedAt)
		}
		return fmt.Sprintf("file %s, %v s, %d channels, %q; processing %v; transcript %q", j.File.ID, *j.File.AudioDuration, *j.File.NumberOfChannels,
			*j.File.Filename, completed.Sub(created), j.Result.Transcription.FullTranscript)
	}
	want := facts(finished("https://example.com/calls/a.wav"))
	for _, same := range []string{"HTTPS://Example.COM/calls/a.wav", "https://example.com:443/calls/a.wav", "https://example.com/calls/a.wav#t=30", "https://example.com/calls/%61.wav"} {
		if got := facts(finished(same)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", same, got, want)
		}
	}
	if other := facts(finished("https://example.com/calls/A.wav")); other == want {
		t.Errorf("another path gave the same file: %s", other)
	}
}

// An upload's URL names the upload however its host is written: in
// another case, or with the scheme's default port.
func TestUploadNamedByItsURLWrittenAnotherWay(t *testing.T) {
	h := newHarness(t, Options{})
	const host = "Media.Example.com"
	body, ct := multipartFile(t, "audio", "call.wav", testutil.SilentWAV(3, 1, 8000))
	resp := serveAt(h.srv, host, http.MethodPost, "/v2/upload", ct, body)
	var up client.UploadResponse
	decodeInto(t, resp.body, &up)
	if resp.status != http.StatusOK || !strings.HasPrefix(up.AudioURL, "http://"+host+"/file/") {
		t.Fatalf("upload: status %d, audio_url %q", resp.status, up.AudioURL)
	}
	path := strings.TrimPrefix(up.AudioURL, "http://"+host)
	for _, audioURL := range []string{up.AudioURL, "http://media.example.com" + path, "HTTP://MEDIA.EXAMPLE.COM:80" + path + "#t=1"} {
		created := serveAt(h.srv, host, http.MethodPost, "/v2/pre-recorded", "application/json", fmt.Appendf(nil, `{"audio_url":%q}`, audioURL))
		var init client.InitResponse
		decodeInto(t, created.body, &init)
		got := serveAt(h.srv, host, http.MethodGet, "/v2/pre-recorded/"+init.ID, "", nil)
		var job client.PreRecordedJob
		decodeInto(t, got.body, &job)
		if job.Status != client.StatusDone || job.File == nil || job.File.ID != up.AudioMetadata.ID || *job.File.AudioDuration != 3 {
			t.Errorf("%s: status %q, error_code %v, file %+v, want the upload %s", audioURL, job.Status, job.ErrorCode, job.File, up.AudioMetadata.ID)
		}
	}
}

// A server reached by several names (localhost and 127.0.0.1, or a
// container's name and localhost) knows its upload's URL whichever name the
// job is created through, and a URL on that name naming no upload fails as
// one of its own.
func TestUploadNamedThroughAnotherNameOfTheServer(t *testing.T) {
	h := newHarness(t, Options{})
	body, ct := multipartFile(t, "audio", "call.wav", testutil.SilentWAV(3, 1, 8000))
	var up client.UploadResponse
	decodeInto(t, serveAt(h.srv, "localhost:18080", http.MethodPost, "/v2/upload", ct, body).body, &up)
	for _, c := range []struct {
		audioURL string
		status   string
		fileID   string
	}{
		{up.AudioURL, client.StatusDone, up.AudioMetadata.ID},
		{"http://localhost:18080/file/" + uuid.NewString(), client.StatusError, ""},
	} {
		created := serveAt(h.srv, "127.0.0.1:18080", http.MethodPost, "/v2/pre-recorded", "application/json", fmt.Appendf(nil, `{"audio_url":%q}`, c.audioURL))
		var init client.InitResponse
		decodeInto(t, created.body, &init)
		var job client.PreRecordedJob
		decodeInto(t, serveAt(h.srv, "fakeserver:8080", http.MethodGet, "/v2/pre-recorded/"+init.ID, "", nil).body, &job)
		if job.Status != c.status || job.File == nil && c.fileID != "" || job.File != nil && job.File.ID != c.fileID {
			t.Errorf("%s: status %q, error_code %v, file %+v, want %s with file %q", c.audioURL, job.Status, job.ErrorCode, job.File, c.status, c.fileID)
		}
		if c.status == client.StatusError && (job.ErrorCode == nil || *job.ErrorCode != http.StatusNotFound) {
			t.Errorf("%s: error_code %v, want 404", c.audioURL, job.ErrorCode)
		}
	}
}

// A URL is on a server's host as HTTP compares hosts.
func TestOnHost(t *testing.T) {
	for _, tc := range []struct {
		url, host string
		want      bool
	}{
		{"http://127.0.0.1:8080/file/x", "127.0.0.1:8080", true},
		{"http://LocalHost:8080/file/x", "localhost:8080", true},
		{"http://localhost/file/x", "localhost:80", true},
		{"http://localhost:80/file/x", "localhost", true},
		{"https://localhost:443/file/x", "localhost", true},
		{"https://localhost/file/x", "localhost:443", true},
		{"http://localhost:8080/file/x", "localhost", false},
		{"http://localhost/file/x", "localhost:8080", false},
		{"https://localhost/file/x", "localhost:80", false},
		{"http://cdn.example.com/file/x", "localhost", false},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := onHost(u, tc.host); got != tc.want {
			t.Errorf("onHost(%s, %s) = %v, want %v", tc.url, tc.host, got, tc.want)
		}
	}
}

func TestRequestParamsAreTheAppliedRequest(t *testing.T) {
	h := newHarness(t, Options{})
	paramsOf := func(body string) map[string]any {
		t.Helper()
		id := h.create(body).ID
		var raw struct {
			RequestParams map[string]any `json:"request_params"`
		}
		decodeInto(t, h.get("/v2/pre-recorded/"+id).body, &raw)
		return raw.RequestParams
	}

	minimal := paramsOf(`{"audio_url":"https://example.com/a.wav","custom_metadata":{"k":"v"}}`)
	want := map[string]any{
		"audio_url": "https://example.com/a.wav", "model": "model-1",
		"custom_vocabulary": false, "callback": false, "subtitles": false, "diarization": false,
		"translation": false, "summarization": false, "named_entity_recognition": false,
		"custom_spelling": false, "sentiment_analysis": false, "audio_to_llm": false,
		"pii_redaction": false, "sentences": false, "punctuation_enhanced": false,
	}
	if !reflect.DeepEqual(minimal, want) {
		t.Fatalf("request_params\n got %v\nwant %v", minimal, want)
	}

	full := paramsOf(`{"audio_url":"https://example.com/a.wav","model":"model-3","subtitles":true,
		"language_config":{"languages":["en"]},
		"subtitles_config":{"maximum_duration":5},
		"callback":true,"callback_config":{"url":"https://e.com/h"},
		"translation_config":{"target_languages":["fr"]},
		"summarization_config":{},
		"diarization_config":{"number_of_speakers":2}}`)
	checks := map[string]any{
		"model":                "model-3",
		"subtitles":            true,
		"callback":             true,
		"language_config":      map[string]any{"languages": []any{"en"}, "code_switching": false},
		"subtitles_config":     map[string]any{"formats": []any{"srt"}, "style": "default", "maximum_duration": 5.0},
		"callback_config":      map[string]any{"url": "https://e.com/h", "method": "POST"},
		"translation_config":   map[string]any{"target_languages": []any{"fr"}, "model": "batch", "match_original_utterances": true, "lipsync": true, "context_adaptation": true, "informal": false},
		"summarization_config": map[string]any{"type": "general"},
		"diarization_config":   map[string]any{"number_of_speakers": 2.0},
	}
	for k, v := range checks {
		if !reflect.DeepEqual(full[k], v) {
			t.Fatalf("request_params.%s = %v, want %v", k, full[k], v)
		}
	}
	for _, absent := range []string{"custom_metadata", "custom_vocabulary_config", "pii_redaction_config", "audio_to_llm_config", "custom_spelling_config", "callback_url"} {
		if _, ok := full[absent]; ok {
			t.Fatalf("request_params.%s present though not sent", absent)
		}
	}

	// Sent values are kept over defaults.
	kept := paramsOf(`{"audio_url":"https://example.com/a.wav","subtitles_config":{"formats":["vtt"],"style":"compliance"},
		"translation_config":{"target_languages":["wo"],"model":"base","lipsync":false,"informal":true},
		"callback_config":{"url":"https://e.com/h","method":"PUT"}}`)
	if got := kept["subtitles_config"]; !reflect.DeepEqual(got, map[string]any{"formats": []any{"vtt"}, "style": "compliance"}) {
		t.Fatalf("subtitles_config %v", got)
	}
	tc := kept["translation_config"].(map[string]any)
	if tc["model"] != "base" || tc["lipsync"] != false || tc["informal"] != true || tc["context_adaptation"] != true {
		t.Fatalf("translation_config %v", tc)
	}
	if kept["callback_config"].(map[string]any)["method"] != "PUT" {
		t.Fatalf("callback_config %v", kept["callback_config"])
	}
}

func TestDeleteJob(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 4 * time.Second})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	path := "/v2/pre-recorded/" + id

	for _, at := range []time.Duration{0, time.Second, 3 * time.Second} { // queued, processing
		h.clock.Set(testEpoch.Add(at))
		body := requireError(t, h.do(http.MethodDelete, path, "", nil, nil), http.StatusForbidden, path)
		if want := "not in a deletable state"; !strings.Contains(body.Message, want) {
			t.Fatalf("message %q", body.Message)
		}
	}
	h.clock.Set(testEpoch.Add(4 * time.Second))
	resp := h.do(http.MethodDelete, path, "", nil, nil)
	if resp.status != http.StatusAccepted || len(resp.body) != 0 {
		t.Fatalf("delete: %d %q", resp.status, resp.body)
	}
	requireError(t, h.get(path), http.StatusNotFound, path)
	requireError(t, h.get("/v2/transcription/"+id), http.StatusNotFound, "/v2/transcription/"+id)
	requireError(t, h.do(http.MethodDelete, path, "", nil, nil), http.StatusNotFound, path)
	requireError(t, h.do(http.MethodDelete, "/v2/pre-recorded/unknown", "", nil, nil), http.StatusNotFound, "/v2/pre-recorded/unknown")
	if h.srv.JobCount() != 0 {
		t.Fatal("a deleted job is still stored")
	}

	// A failed job is final, so deletable.
	failed := h.create(`{"audio_url":"https://example.com/fail.wav"}`).ID
	h.clock.Advance(4 * time.Second)
	if resp := h.do(http.MethodDelete, "/v2/pre-recorded/"+failed, "", nil, nil); resp.status != http.StatusAccepted {
		t.Fatalf("delete failed job: %d", resp.status)
	}
}

func TestExpireJob(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	if !h.srv.ExpireJob(id) {
		t.Fatal("ExpireJob did not find the job")
	}
	if h.srv.ExpireJob(id) {
		t.Fatal("ExpireJob found the job twice")
	}
	requireError(t, h.get("/v2/pre-recorded/"+id), http.StatusNotFound, "/v2/pre-recorded/"+id)
	requireError(t, h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil), http.StatusNotFound, "/v2/pre-recorded/"+id)
	if _, ok := h.srv.Job(id); ok || h.srv.JobCount() != 0 {
		t.Fatal("an expired job is still visible")
	}
}

func TestJobReturnsACopy(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/a.wav","custom_metadata":{"k":"v"}}`).ID
	rec, _ := h.srv.Job(id)
	rec.CustomMetadata["k"] = "changed"
	*rec.RequestParams.Model = "changed"
	again, _ := h.srv.Job(id)
	if again.CustomMetadata["k"] != "v" || *again.RequestParams.Model != "model-1" {
		t.Fatal("Job shares state with the server")
	}
	if _, ok := h.srv.Job("nope"); ok {
		t.Fatal("Job found an unknown id")
	}
}

func TestGetUnknownJob(t *testing.T) {
	h := newHarness(t, Options{})
	requireError(t, h.get("/v2/pre-recorded/nope"), http.StatusNotFound, "/v2/pre-recorded/nope")
	requireError(t, h.get("/v2/transcription/nope"), http.StatusNotFound, "/v2/transcription/nope")
}

// Ids are UUIDs, whose text is read without case (RFC 9562 §4): a job,
// a live job and an uploaded file are found by their id in upper case too.
func TestIDsAreReadWithoutCase(t *testing.T) {
	h := newHarness(t, Options{LiveJobs: 1})
	id := strings.ToUpper(h.create(`{"audio_url":"https://example.com/a.wav"}`).ID)
	for _, path := range []string{"/v2/pre-recorded/" + id, "/v2/transcription/" + id, "/v2/pre-recorded/" + id + "/file"} {
		if got := h.get(path); got.status != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, got.status, got.body)
		}
	}
	live := strings.ToUpper(h.livePage("").Items[0].ID)
	if got := h.get("/v2/live/" + live); got.status != http.StatusOK {
		t.Errorf("GET /v2/live/%s: %d %s", live, got.status, got.body)
	}
	body, ct := multipartFile(t, "audio", "call.wav", testutil.SilentWAV(1, 1, 8000))
	var up client.UploadResponse
	decodeInto(t, serveAt(h.srv, "", http.MethodPost, "/v2/upload", ct, body).body, &up)
	upper := strings.Replace(up.AudioURL, up.AudioMetadata.ID, strings.ToUpper(up.AudioMetadata.ID), 1)
	created := h.create(fmt.Sprintf(`{"audio_url":%q}`, upper))
	var job client.PreRecordedJob
	decodeInto(t, h.get("/v2/pre-recorded/"+created.ID).body, &job)
	if job.File == nil || job.File.ID != up.AudioMetadata.ID {
		t.Errorf("a job on the upload's URL in upper case has file %+v, want the upload %s", job.File, up.AudioMetadata.ID)
	}
	if got := h.get("/file/" + strings.ToUpper(up.AudioMetadata.ID)); got.status != http.StatusOK {
		t.Errorf("GET the upload's file in upper case: %d", got.status)
	}
	if got := h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil); got.status/100 != 2 {
		t.Errorf("DELETE /v2/pre-recorded/%s: %d %s", id, got.status, got.body)
	}
}
