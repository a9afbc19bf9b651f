package fakeserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

func liveFixture(id, createdAt, status string, metadata map[string]any) client.LiveJob {
	return client.LiveJob{JobCommon: client.JobCommon{
		ID: id, Status: status, CreatedAt: createdAt, Kind: client.KindLive, Version: 2, CustomMetadata: metadata,
	}}
}

// liveFixtures: a few jobs over three days with varied status and metadata.
func liveFixtures(h *harness) {
	for _, j := range []client.LiveJob{
		liveFixture("a", "2025-03-12T08:00:00.000Z", "done", map[string]any{"team": "alpha", "env": "prod"}),
		liveFixture("b", "2025-03-12T23:59:59.999Z", "error", map[string]any{"team": "bravo", "env": "prod", "priority": 2.0}),
		liveFixture("c", "2025-03-13T00:00:00.000Z", "done", map[string]any{"team": "alpha", "env": "staging", "urgent": true, "ticket": 12345678.0, "ratio": 0.00001}),
		liveFixture("d", "2025-03-13T12:00:00.000Z", "processing", nil),
		liveFixture("e", "2025-03-14T09:00:00.000Z", "queued", map[string]any{"team": "alpha", "env": "prod", "priority": 1.5}),
		liveFixture("f", "2025-03-13T12:00:00.000Z", "done", map[string]any{"team": "bravo"}), // same time as d: ordered by id
	} {
		h.srv.AddLiveJob(j)
	}
}

func (h *harness) livePage(query string) client.LivePage {
	h.t.Helper()
	return pageAt[client.LiveJob](h, "/v2/live"+query)
}

// pageAt is the page a listing answers at target: a path and query, or a
// page link of this server's.
func pageAt[T any](h *harness, target string) client.Page[T] {
	h.t.Helper()
	target = strings.TrimPrefix(target, h.url)
	resp := h.get(target)
	if resp.status != http.StatusOK || resp.header.Get("Content-Type") != "application/json" {
		h.t.Fatalf("GET %s: %d %s", target, resp.status, resp.body)
	}
	var page client.Page[T]
	decodeInto(h.t, resp.body, &page)
	return page
}

func liveIDs(items []client.LiveJob) string {
	out := make([]string, len(items))
	for i, j := range items {
		out[i] = j.ID
	}
	return strings.Join(out, ",")
}

func TestLiveFilters(t *testing.T) {
	h := newHarness(t, Options{})
	liveFixtures(h)
	cases := []struct{ query, want string }{
		{"", "e,d,f,c,b,a"},
		{"?date=2025-03-13", "d,f,c"},
		{"?date=2025-03-12", "b,a"},
		{"?date=2025-03-11", ""},
		{"?after_date=2025-03-13T00:00:00Z", "e,d,f"}, // strictly after: c is excluded
		{"?after_date=2025-03-12T23:59:59.998Z", "e,d,f,c,b"},
		{"?before_date=2025-03-13T00:00:00Z", "b,a"}, // strictly before
		{"?before_date=2025-03-13T02:00:00%2B02:00", "b,a"},
		{"?after_date=2025-03-12T09:00:00Z&before_date=2025-03-13T12:00:00Z", "c,b"},
		{"?status=done", "f,c,a"},
		{"?status=done&status=error", "f,c,b,a"},
		{"?status=queued&status=processing", "e,d"},
		{"?custom_metadata%5Bteam%5D=alpha", "e,c,a"},
		{"?custom_metadata[team]=alpha&custom_metadata[env]=prod", "e,a"},
		{"?custom_metadata[priority]=2", "b"},
		{"?custom_metadata[priority]=1.5", "e"},
		{"?custom_metadata[urgent]=true", "c"},
		// Numbers as the official client writes them (String(value)).
		{"?custom_metadata[ticket]=12345678", "c"},
		{"?custom_metadata[ratio]=0.00001", "c"},
		{"?custom_metadata[ticket]=12345679", ""},
		// A number matches its JSON text only, as the docs say.
		{"?custom_metadata[priority]=2.0", ""},
		{"?custom_metadata[priority]=02", ""},
		{"?custom_metadata[priority]=%2B2", ""},
		{"?custom_metadata[priority]=0x1p1", ""},
		{"?custom_metadata[ratio]=1e-05", ""},
		{"?custom_metadata[team]=charlie", ""},
		{"?custom_metadata[team]=Alpha", ""}, // values match exactly, case included
		{"?custom_metadata[missing]=x", ""},
		{"?status=done&custom_metadata[team]=alpha&date=2025-03-13", "c"},
		{"?status=done&status=error&custom_metadata[env]=prod&after_date=2025-03-11T00:00:00Z&before_date=2025-03-14T00:00:00Z", "b,a"},
		{"?limit=2", "e,d"},
		{"?offset=2&limit=2", "f,c"},
		{"?offset=5", "a"},
		{"?offset=6", ""},
		{"?offset=100", ""},
		{"?status=done&offset=1&limit=1", "c"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			page := h.livePage(c.query)
			if got := liveIDs(page.Items); got != c.want {
				t.Fatalf("items %q, want %q", got, c.want)
			}
			if page.Items == nil {
				t.Fatal("items is null, want an array")
			}
		})
	}
}

func TestLivePaginationLinks(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 45})
	base := h.url + "/v2/transcription?kind=live&"

	page := h.livePage("")
	if len(page.Items) != 20 {
		t.Fatalf("%d items, want the default 20", len(page.Items))
	}
	if page.First != base+"offset=0&limit=20" || page.Current != base+"offset=0&limit=20" || page.Next == nil || *page.Next != base+"offset=20&limit=20" {
		t.Fatalf("links %q %q %v", page.First, page.Current, page.Next)
	}

	// Following next links walks every job once, newest first.
	var all []client.LiveJob
	link := &page.Current
	for link != nil {
		p := pageAt[client.LiveJob](h, *link)
		all = append(all, p.Items...)
		link = p.Next
	}
	if len(all) != 45 {
		t.Fatalf("walked %d jobs, want 45", len(all))
	}
	seen := map[string]bool{}
	for i, j := range all {
		if seen[j.ID] {
			t.Fatalf("job %s listed twice", j.ID)
		}
		seen[j.ID] = true
		if i > 0 && all[i-1].CreatedAt < j.CreatedAt {
			t.Fatalf("not ordered by created_at descending at %d: %s then %s", i, all[i-1].CreatedAt, j.CreatedAt)
		}
	}

	last := h.livePage("?offset=40&limit=5")
	if len(last.Items) != 5 || last.Next != nil {
		t.Fatalf("exact last page: %d items, next %v", len(last.Items), last.Next)
	}
	if last.Current != base+"offset=40&limit=5" || last.First != base+"offset=0&limit=5" {
		t.Fatalf("links %q %q", last.First, last.Current)
	}
}

func TestLiveLinksCarryTheFilters(t *testing.T) {
	h := newHarness(t, Options{})
	liveFixtures(h)
	page := h.livePage("?status=done&status=error&custom_metadata[team]=alpha&date=2025-03-12&limit=1&after_date=2025-03-01T00:00:00Z")
	filters := "after_date=2025-03-01T00%3A00%3A00Z&custom_metadata%5Bteam%5D=alpha&date=2025-03-12&kind=live&status=done&status=error"
	base := h.url + "/v2/transcription?" + filters
	if page.First != base+"&offset=0&limit=1" || page.Current != page.First {
		t.Fatalf("first %q", page.First)
	}
	if liveIDs(page.Items) != "a" || page.Next != nil {
		t.Fatalf("items %q, next %v", liveIDs(page.Items), page.Next)
	}
	// The links parse back to the same filters.
	u, err := url.Parse(page.First)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if !reflect.DeepEqual(q["status"], []string{"done", "error"}) || q.Get("custom_metadata[team]") != "alpha" || q.Get("offset") != "0" {
		t.Fatalf("link query %v", q)
	}
}

func TestLiveQueryErrors(t *testing.T) {
	h := newHarness(t, Options{})
	cases := []struct{ query, problem string }{
		{"?offset=-1", "offset must not be less than 0"},
		{"?offset=abc", "offset must be an integer"},
		{"?offset=", "offset must be an integer"},
		{"?offset=1.5", "offset must be an integer"},
		{"?limit=0", "limit must not be less than 1"},
		{"?limit=-5", "limit must not be less than 1"},
		{"?limit=ten", "limit must be an integer"},
		{"?offset=99999999999999999999", "offset must be at most 9223372036854775807 (got 99999999999999999999)"},
		{"?limit=99999999999999999999", "limit must be at most 9223372036854775807"},
		{"?offset=-99999999999999999999", "offset must not be less than 0"},
		{"?limit=1&limit=2", "limit must be given at most once"},
		{"?date=2025-3-14", "date must be a calendar day"},
		{"?date=2025-02-30", "date must be a calendar day"},
		{"?date=2025-03-14T00:00:00Z", "date must be a calendar day"},
		{"?date=", "date must be a calendar day"},
		{"?after_date=2025-03-14", "after_date must be an ISO 8601 date-time"},
		{"?after_date=yesterday", "after_date must be an ISO 8601 date-time"},
		{"?before_date=2025-03-14T00:00:00", "before_date must be an ISO 8601 date-time"},
		{"?before_date=2025-03-14%2000:00:00Z", "before_date must be an ISO 8601 date-time"},
		{"?before_date=2025-03-14T00:00:00%2B24:00", "before_date must be an ISO 8601 date-time"},
		{"?after_date=2025-03-14T00:00:00-01:60", "after_date must be an ISO 8601 date-time"},
		// A comma before the fraction is ISO 8601's, not RFC 3339's, which
		// the provider holds these filters to; Go's parser takes it.
		{"?after_date=2025-03-14T00:00:00,5Z", "after_date must be an ISO 8601 date-time in RFC 3339's form"},
		{"?status=finished", `status must be one of: queued, processing, done, error (got "finished")`},
		{"?status=done&status=DONE", `(got "DONE")`},
		{"?status=", `(got "")`},
		{"?sort=asc", `unknown query parameter "sort"`},
		// Unknown however often it is given; its name alone is the fault.
		{"?foo=1&foo=2", `unknown query parameter "foo"`},
		{"?status[]=done&status[]=error", `unknown query parameter "status[]"`},
		// A bare "+" reads as a space: said so.
		{"?after_date=2025-03-14T14:00:00+02:00", `(got "2025-03-14T14:00:00 02:00"): a "+" in a query must be written %2B`},
		{"?before_date=2025-03-14%2014:00:00Z", `before_date must be an ISO 8601 date-time in RFC 3339's form, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00.5+02:00 (got "2025-03-14 14:00:00Z")`},
		{"?custom_metadata=team", `unknown query parameter "custom_metadata"`},
		// A key the encoding cannot carry is named as such, not as an
		// unknown parameter (a key with brackets can be sent at create).
		{"?custom_metadata[]=x", `"custom_metadata[]": a custom_metadata filter is custom_metadata[key]=value, with a key that is not empty and has no square brackets`},
		{"?custom_metadata[team=x", `"custom_metadata[team": a custom_metadata filter is custom_metadata[key]=value`},
		{"?custom_metadata[a[b]]=x", `"custom_metadata[a[b]]": a custom_metadata filter is custom_metadata[key]=value, with a key that is not empty and has no square brackets`},
		{"?custom_metadata[team]=a&custom_metadata[team]=b", "custom_metadata[team] must be given at most once"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			body := requireError(t, h.get("/v2/live"+c.query), http.StatusBadRequest, "/v2/live")
			requireProblem(t, body, c.problem)
		})
	}
	// Several problems are reported together.
	body := requireError(t, h.get("/v2/live?offset=-1&limit=0&status=x&foo=1"), http.StatusBadRequest, "/v2/live")
	if len(body.ValidationErrors) != 4 {
		t.Fatalf("validation_errors %q", body.ValidationErrors)
	}
	requireError(t, h.get("/v2/live?a=%zz"), http.StatusBadRequest, "/v2/live")
}

func TestSeededLiveJobs(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 150})
	page := h.livePage("?limit=150")
	if len(page.Items) != 150 {
		t.Fatalf("%d items", len(page.Items))
	}
	statuses := map[string]int{}
	teams := map[string]bool{}
	withoutMetadata, withCallback := 0, 0
	summaryTypes := map[string]bool{}
	earliest := testEpoch.Add(-7 * 24 * time.Hour)
	for _, j := range page.Items {
		statuses[j.Status]++
		if j.Version != 2 || j.Kind != client.KindLive || j.RequestID == "" || len(j.PostSessionMetadata) == 0 {
			t.Fatalf("job %s: %+v", j.ID, j.JobCommon)
		}
		created, err := time.Parse(time.RFC3339, j.CreatedAt)
		if err != nil || !created.Before(testEpoch) || created.Before(earliest) {
			t.Fatalf("created_at %q is not within the 7 days before now", j.CreatedAt)
		}
		if j.CustomMetadata == nil {
			withoutMetadata++
		} else {
			teams[j.CustomMetadata["team"].(string)] = true
			if env := j.CustomMetadata["env"]; env != "prod" && env != "staging" {
				t.Fatalf("env %v", env)
			}
		}
		p := j.RequestParams
		if p == nil || p.Encoding == nil || p.BitDepth == nil || p.SampleRate == nil || p.Channels == nil || p.Model == nil ||
			*p.Model != client.ModelOne || p.Endpointing == nil || p.MaximumDurationWithoutEndpointing == nil || p.LanguageConfig == nil ||
			p.PreProcessing == nil || p.RealtimeProcessing == nil || p.PostProcessing == nil || p.MessagesConfig == nil || p.Callback == nil {
			t.Fatalf("job %s request_params incomplete: %+v", j.ID, p)
		}
		if m := p.MessagesConfig; m.ReceivePartialTranscripts == nil || m.ReceiveFinalTranscripts == nil || m.ReceiveSpeechEvents == nil ||
			m.ReceivePreProcessingEvents == nil || m.ReceiveRealtimeProcessingEvents == nil || m.ReceivePostProcessingEvents == nil ||
			m.ReceiveAcknowledgments == nil || m.ReceiveErrors == nil || m.ReceiveLifecycleEvents == nil {
			t.Fatalf("messages_config incomplete: %+v", m)
		}
		if *p.Callback {
			withCallback++
			if p.CallbackConfig == nil || p.CallbackConfig.URL == nil || p.CallbackConfig.ReceiveErrors == nil {
				t.Fatalf("callback_config %+v", p.CallbackConfig)
			}
		}
		if rt := p.RealtimeProcessing; *rt.Translation && (rt.TranslationConfig == nil || len(rt.TranslationConfig.TargetLanguages) == 0) {
			t.Fatalf("translation on without config")
		}
		switch j.Status {
		case client.StatusDone:
			if j.Result == nil || j.CompletedAt == nil || j.File == nil || j.ErrorCode != nil {
				t.Fatalf("done job %s: %+v", j.ID, j.JobCommon)
			}
			if completed, _ := time.Parse(time.RFC3339, *j.CompletedAt); !completed.After(created) || completed.After(testEpoch) {
				t.Fatalf("completed_at %s for created_at %s", *j.CompletedAt, j.CreatedAt)
			}
			// Its messages tell the session's lifecycle, in order, in the
			// official client's shapes: end_recording carries the
			// recording's duration (LiveV2EndRecordingMessageData).
			var kinds []string
			for _, m := range j.Result.Messages {
				var msg struct {
					Type      string `json:"type"`
					SessionID string `json:"session_id"`
					CreatedAt string `json:"created_at"`
					Data      *struct {
						RecordingDuration *float64 `json:"recording_duration"`
					} `json:"data"`
				}
				if err := json.Unmarshal([]byte(m), &msg); err != nil {
					t.Fatalf("job %s: message %q: %v", j.ID, m, err)
				}
				if msg.SessionID != j.ID || msg.CreatedAt == "" {
					t.Fatalf("job %s: message %q without its session or time", j.ID, m)
				}
				if msg.Type == "end_session" && msg.CreatedAt != *j.CompletedAt {
					t.Fatalf("job %s: end_session at %s, completed_at %s", j.ID, msg.CreatedAt, *j.CompletedAt)
				}
				if msg.Type == "end_recording" && (msg.Data == nil || msg.Data.RecordingDuration == nil || *msg.Data.RecordingDuration != *j.File.AudioDuration) {
					t.Fatalf("job %s: message %q, want data.recording_duration %v", j.ID, m, *j.File.AudioDuration)
				}
				if msg.Type != "transcript" { // TestSeededLiveMessagesFollowMessagesConfig
					kinds = append(kinds, msg.Type)
				}
			}
			var want []string
			if *p.MessagesConfig.ReceiveLifecycleEvents {
				want = []string{"start_session", "start_recording", "end_recording", "end_session"}
			}
			if !slices.Equal(kinds, want) {
				t.Fatalf("job %s: lifecycle messages %v, want %v", j.ID, kinds, want)
			}
			// A session has no audio_url, so its file has no source
			// (LiveV2FileResponse: "The link used to download the file if
			// audio_url was used").
			if j.File.Source != nil {
				t.Fatalf("job %s: file.source %q, want null", j.ID, *j.File.Source)
			}
			// The session's channels are those of its file and of its result.
			if *j.File.NumberOfChannels != *p.Channels || j.Result.Metadata.NumberOfDistinctChannels != *p.Channels {
				t.Fatalf("job %s: %d channels, file has %d, result %d", j.ID, *p.Channels, *j.File.NumberOfChannels, j.Result.Metadata.NumberOfDistinctChannels)
			}
			// The result follows the session's processing options: a
			// summary exactly when post_processing asks for one, in the
			// type its summarization_config names.
			post := p.PostProcessing
			if sum := j.Result.Summarization; (sum != nil) != *post.Summarization {
				t.Fatalf("job %s: summarization %v, result has one: %v", j.ID, *post.Summarization, sum != nil)
			} else if sum != nil {
				typ := *post.SummarizationConfig.Type
				summaryTypes[typ] = true
				if bullets := strings.HasPrefix(*sum.Results, "- "); bullets != (typ == "bullet_points") {
					t.Fatalf("job %s: a %s summary reads %q", j.ID, typ, *sum.Results)
				}
			}
		case client.StatusError:
			if j.Result != nil || j.CompletedAt == nil || j.ErrorCode == nil || *j.ErrorCode < 400 || *j.ErrorCode > 599 {
				t.Fatalf("error job %s: %+v", j.ID, j.JobCommon)
			}
		default:
			if j.Result != nil || j.CompletedAt != nil || j.ErrorCode != nil {
				t.Fatalf("%s job %s: %+v", j.Status, j.ID, j.JobCommon)
			}
			// A session still running has recorded no more than the time
			// since it began.
			if j.File != nil && *j.File.AudioDuration > testEpoch.Sub(created).Seconds() {
				t.Fatalf("%s job %s: %v s of audio %v after its creation", j.Status, j.ID, *j.File.AudioDuration, testEpoch.Sub(created))
			}
		}
	}
	for _, s := range client.JobStatuses {
		if statuses[s] == 0 {
			t.Fatalf("no %s job among %v", s, statuses)
		}
	}
	if statuses[client.StatusDone] < 100 || len(teams) != len(liveTeams) || withoutMetadata == 0 || withCallback == 0 || len(summaryTypes) != len(client.SummaryTypes) {
		t.Fatalf("statuses %v, teams %v, %d without metadata, %d with callback, summary types %v", statuses, teams, withoutMetadata, withCallback, summaryTypes)
	}

	// created_at is the job's creation time exactly (whole milliseconds):
	// filtering strictly after or before it leaves the job out, so a client
	// can page by date from the last created_at it saw.
	for _, j := range page.Items[:10] {
		for _, filter := range []string{"after_date", "before_date"} {
			for _, other := range h.livePage("?limit=150&" + filter + "=" + url.QueryEscape(j.CreatedAt)).Items {
				if other.ID == j.ID {
					t.Fatalf("job %s created at %s is listed with %s=%s", j.ID, j.CreatedAt, filter, j.CreatedAt)
				}
			}
		}
	}

	// Every custom_metadata value a seeded job shows finds it, written as
	// the record writes it (a number, such as priority, by its value).
	filtered := 0
	for _, j := range page.Items[:40] {
		for k, v := range j.CustomMetadata {
			text, _ := json.Marshal(v)
			query := "?limit=150&" + url.QueryEscape("custom_metadata["+k+"]") + "=" + url.QueryEscape(strings.Trim(string(text), `"`))
			if !slices.ContainsFunc(h.livePage(query).Items, func(o client.LiveJob) bool { return o.ID == j.ID }) {
				t.Fatalf("job %s with custom_metadata %v is not listed by %s", j.ID, j.CustomMetadata, query)
			}
			if k == "priority" {
				filtered++
			}
		}
	}
	if filtered == 0 {
		t.Fatal("no seeded job among the first 40 has a priority to filter on")
	}

	// A live job is also served by the legacy transcription path.
	id := page.Items[0].ID
	var one client.LiveJob
	decodeInto(t, h.get("/v2/transcription/"+id).body, &one)
	if !reflect.DeepEqual(one, page.Items[0]) {
		t.Fatal("GET /v2/transcription/{live id} differs from the listing")
	}
	requireError(t, h.get("/v2/pre-recorded/"+id), http.StatusNotFound, "/v2/pre-recorded/"+id)
}

func TestSeededLiveJobsAreDeterministic(t *testing.T) {
	t.Parallel()
	list := func(n int, now time.Time) []byte {
		h := newHarness(t, Options{LiveJobs: n, Clock: NewManualClock(now)})
		resp := h.get("/v2/live?limit=1000")
		// The links name the test server's random port; compare items only.
		var page struct {
			Items []any `json:"items"`
		}
		decodeInto(t, resp.body, &page)
		return mustJSON(t, page.Items)
	}
	a, b := list(20, testEpoch), list(20, testEpoch)
	if string(a) != string(b) {
		t.Fatal("the same count and time gave different jobs")
	}
	if c := list(20, testEpoch.Add(time.Hour)); string(c) == string(a) {
		t.Fatal("a different time gave the same created_at values")
	}

	// A larger seed holds the smaller one's jobs.
	small := newHarness(t, Options{LiveJobs: 10}).livePage("?limit=10")
	big := newHarness(t, Options{LiveJobs: 40}).livePage("?limit=40")
	bigIDs := map[string]bool{}
	for _, j := range big.Items {
		bigIDs[j.ID] = true
	}
	for _, j := range small.Items {
		if !bigIDs[j.ID] {
			t.Fatalf("job %s of a 10-job seed is missing from a 40-job seed", j.ID)
		}
	}
}

func TestBuildLiveJobsBuildsTheSameRecordsAtOnce(t *testing.T) {
	t.Parallel()
	const n = 30
	items := func(h *harness) []byte {
		resp := h.get("/v2/live?limit=1000")
		var page struct {
			Items []any `json:"items"`
		}
		decodeInto(t, resp.body, &page)
		if len(page.Items) != n {
			t.Fatalf("%d items, want %d", len(page.Items), n)
		}
		return mustJSON(t, page.Items)
	}
	lazy := newHarness(t, Options{LiveJobs: n, Clock: NewManualClock(testEpoch)})
	built := newHarness(t, Options{LiveJobs: n, Clock: NewManualClock(testEpoch)})
	built.srv.BuildLiveJobs()
	built.srv.mu.Lock()
	for _, e := range built.srv.live.entries {
		if e.encoded == nil {
			built.srv.mu.Unlock()
			t.Fatalf("live job %s not built", e.id)
		}
	}
	built.srv.mu.Unlock()
	if a, b := items(lazy), items(built); string(a) != string(b) {
		t.Fatal("records built ahead differ from records built on first read")
	}
}

func TestLivePagesAndRecordsAreWhatEncodingThemGives(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 30, Clock: NewManualClock(testEpoch)})
	h.srv.AddLiveJob(liveFixture("added", "2025-03-12T08:00:00.000Z", "done", map[string]any{"team": "<alpha & co>"}))
	for _, query := range []string{"?limit=10&offset=10", "?limit=10&offset=25", "?custom_metadata[team]=nobody", "?custom_metadata[team]=%3Calpha%20%26%20co%3E"} {
		resp := h.get("/v2/live" + query)
		var page client.Page[json.RawMessage]
		decodeInto(t, resp.body, &page)
		want, err := marshalJSON(page) // the whole page through encoding/json
		if err != nil {
			t.Fatal(err)
		}
		// As the service writes them: "&" in the links, "<" in metadata.
		if bytes.Contains(resp.body, []byte(`\u00`)) {
			t.Errorf("GET /v2/live%s: HTML's characters escaped: %s", query, resp.body)
		}
		if !bytes.Equal(resp.body, want) {
			t.Errorf("GET /v2/live%s:\n%s\nwant\n%s", query, resp.body, want)
		}
		for _, item := range page.Items {
			var j client.LiveJob
			decodeInto(t, item, &j)
			if one := h.get("/v2/live/" + j.ID); !bytes.Equal(one.body, item) {
				t.Errorf("GET /v2/live/%s differs from its listing's item", j.ID)
			}
		}
	}
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	for _, e := range h.srv.live.entries {
		if e.seed == nil {
			continue
		}
		if want := encodeRecord(e.seed.build(e)); !bytes.Equal(e.bodyAt(testEpoch), want) {
			t.Fatalf("live job %s is kept as other bytes than its record's", e.id)
		}
	}
}

func TestSeedingTenThousandLiveJobsIsCheap(t *testing.T) {
	t.Parallel()
	start := time.Now()
	h := newHarness(t, Options{LiveJobs: 10000})
	page := h.livePage("?status=done&custom_metadata[team]=alpha&limit=5")
	if len(page.Items) != 5 || page.Next == nil {
		t.Fatalf("%d items", len(page.Items))
	}
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Fatalf("seeding and listing 10,000 jobs took %v", elapsed)
	}
}

func TestAddLiveJobReplacesAndCopies(t *testing.T) {
	h := newHarness(t, Options{})
	j := liveFixture("x", "2025-03-14T00:00:00.000Z", "done", map[string]any{"team": "a"})
	h.srv.AddLiveJob(j)
	j.CustomMetadata["team"] = "changed"
	page := h.livePage("?custom_metadata[team]=a")
	if liveIDs(page.Items) != "x" {
		t.Fatalf("items %q", liveIDs(page.Items))
	}
	h.srv.AddLiveJob(liveFixture("x", "2025-03-14T00:00:00.000Z", "error", nil))
	page = h.livePage("")
	if len(page.Items) != 1 || page.Items[0].Status != "error" {
		t.Fatalf("items %+v", page.Items)
	}
}

func BenchmarkSeedLiveJobs(b *testing.B) {
	for range b.N {
		st := newLiveStore(10000, testEpoch, 0)
		st.ordered()
	}
}

func BenchmarkListLive(b *testing.B) {
	s := New(Options{APIKey: testKey, LiveJobs: 10000, Clock: NewManualClock(testEpoch)})
	defer s.Close()
	i := 0
	for b.Loop() {
		serveDiscarded(b, s, "/v2/live?status=done&limit=20&offset="+strconv.Itoa(i%400*20))
		i++
	}
}

// serveDiscarded has s answer GET target, requiring a 200, its body dropped.
func serveDiscarded(b *testing.B, s *Server, target string) {
	req, _ := http.NewRequest(http.MethodGet, target, nil)
	req.Header.Set(client.ServiceKeyHeader, testKey)
	w := &discardWriter{header: http.Header{}}
	s.ServeHTTP(w, req)
	if w.status != http.StatusOK {
		b.Fatalf("GET %s: status %d", target, w.status)
	}
}

type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(p), nil
}
func (w *discardWriter) WriteHeader(s int) { w.status = s }

// BenchmarkListLiveBuilt serves pages of 100 of 10,000 built live records,
// the provider's page size: what a listing costs the fake server once its
// records exist (see BuildLiveJobs).
func BenchmarkListLiveBuilt(b *testing.B) {
	s := New(Options{APIKey: testKey, LiveJobs: 10000, Clock: NewManualClock(testEpoch)})
	defer s.Close()
	s.BuildLiveJobs()
	i := 0
	for b.Loop() {
		serveDiscarded(b, s, "/v2/live?limit=100&offset="+strconv.Itoa(i%100*100))
		i++
	}
}

// The date filter keeps the jobs created on that day in UTC, whatever offset
// a record's created_at is written with.
func TestLiveDateFilterIsTheUTCDay(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.AddLiveJob(liveFixture("west", "2025-03-13T23:30:00-02:00", "done", nil)) // 2025-03-14T01:30Z
	h.srv.AddLiveJob(liveFixture("east", "2025-03-14T01:30:00+03:00", "done", nil)) // 2025-03-13T22:30Z
	for _, c := range []struct{ query, want string }{
		{"?date=2025-03-14", "west"},
		{"?date=2025-03-13", "east"},
	} {
		t.Run(c.query, func(t *testing.T) {
			if got := liveIDs(h.livePage(c.query).Items); got != c.want {
				t.Fatalf("items %q, want %q", got, c.want)
			}
		})
	}
}

// A live job whose file has no audio_duration (the record leaves it null)
// has no audio to serve: 404, as a queued job without a file.
func TestLiveFileWithoutDuration(t *testing.T) {
	h := newHarness(t, Options{})
	j := liveFixture("a", "2025-03-12T08:00:00.000Z", "done", nil)
	j.File = &client.FileInfo{ID: "file-a", Filename: pointerTo("a.wav")}
	h.srv.AddLiveJob(j)
	requireError(t, h.get("/v2/live/a/file"), http.StatusNotFound, "/v2/live/a/file")
}

// TestSeededLiveSessionsMoveOnWithTheClock: a seeded session unfinished
// when seeded moves on as the service's do: a queued one starts within two
// minutes of its creation, a processing one records more audio as time
// passes, and each ends (done or error, completed_at in the past, its whole
// audio on file), after which it can be deleted; until then DELETE answers
// 403.
func TestSeededLiveSessionsMoveOnWithTheClock(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(testEpoch)
	h := newHarness(t, Options{LiveJobs: 200, Clock: clock})
	queued := h.livePage("?status=queued&limit=100").Items
	processing := h.livePage("?status=processing&limit=100").Items
	if len(queued) == 0 || len(processing) == 0 {
		t.Fatalf("fixture: %d queued and %d processing sessions, want some of each", len(queued), len(processing))
	}
	if resp := h.do(http.MethodDelete, "/v2/live/"+processing[0].ID, "", nil, nil); resp.status != http.StatusForbidden {
		t.Fatalf("DELETE of a processing session: %d, want 403", resp.status)
	}
	recorded := func(j client.LiveJob) float64 { return *j.File.AudioDuration }
	get := func(id string) client.LiveJob {
		var j client.LiveJob
		decodeInto(t, h.get("/v2/live/"+id).body, &j)
		return j
	}

	clock.Advance(5 * time.Second)
	grew := 0
	for _, before := range processing {
		now := get(before.ID)
		if now.Status == client.StatusProcessing && recorded(now) > recorded(before) {
			grew++
		}
		if recorded(now) < recorded(before) {
			t.Errorf("session %s recorded %v s, then %v s", before.ID, recorded(before), recorded(now))
		}
	}
	if grew == 0 {
		t.Error("no processing session recorded more audio in 5 s")
	}

	clock.Advance(2*time.Minute + time.Second)
	for _, j := range queued {
		if now := get(j.ID); now.Status == client.StatusQueued {
			t.Errorf("session %s created at %s is still queued at %s", j.ID, j.CreatedAt, formatTimestamp(clock.Now()))
		}
	}

	clock.Advance(10 * time.Minute)
	if n := len(h.livePage("?status=queued&status=processing").Items); n != 0 {
		t.Errorf("%d sessions still unfinished 12 minutes on", n)
	}
	for _, j := range append(queued, processing...) {
		now := get(j.ID)
		if !client.IsFinal(now.Status) || now.CompletedAt == nil || (now.Status == client.StatusDone) != (now.Result != nil) {
			t.Fatalf("session %s: status %s, completed_at %v, result %t", j.ID, now.Status, now.CompletedAt, now.Result != nil)
		}
		if completed, _ := time.Parse(time.RFC3339, *now.CompletedAt); completed.After(clock.Now()) || !completed.After(mustParseTime(t, now.CreatedAt)) {
			t.Errorf("session %s: completed_at %s, created_at %s, now %s", j.ID, *now.CompletedAt, now.CreatedAt, formatTimestamp(clock.Now()))
		}
		if now.Status != client.StatusDone || !*now.RequestParams.MessagesConfig.ReceiveLifecycleEvents {
			continue
		}
		// Its messages tell the same lifecycle as its record: it ended
		// (end_session) at completed_at, and one queued at the epoch
		// started recording after it.
		at := messageTimes(t, now)
		if at["end_session"] != *now.CompletedAt {
			t.Errorf("session %s: end_session at %s, completed_at %s", j.ID, at["end_session"], *now.CompletedAt)
		}
		if j.Status == client.StatusQueued && !mustParseTime(t, at["start_recording"]).After(testEpoch) {
			t.Errorf("session %s, queued at %s: start_recording at %s", j.ID, formatTimestamp(testEpoch), at["start_recording"])
		}
	}
	if resp := h.do(http.MethodDelete, "/v2/live/"+processing[0].ID, "", nil, nil); resp.status != http.StatusAccepted {
		t.Fatalf("DELETE of an ended session: %d, want 202", resp.status)
	}
}

// messageTimes is when each of a done session's messages was sent, by type.
func messageTimes(t *testing.T, j client.LiveJob) map[string]string {
	t.Helper()
	at := map[string]string{}
	for _, m := range j.Result.Messages {
		var msg struct {
			Type      string `json:"type"`
			CreatedAt string `json:"created_at"`
		}
		if err := json.Unmarshal([]byte(m), &msg); err != nil {
			t.Fatalf("session %s: message %q: %v", j.ID, m, err)
		}
		at[msg.Type] = msg.CreatedAt
	}
	return at
}

func mustParseTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestLiveClockHoldsSeededSessions: with Options.LiveClock, the seeded
// sessions follow it, not Clock, which the pre-recorded jobs follow.
func TestLiveClockHoldsSeededSessions(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(testEpoch)
	h := newHarness(t, Options{LiveJobs: 200, Clock: clock, LiveClock: NewManualClock(testEpoch)})
	before := h.get("/v2/live?status=queued&status=processing&limit=100").body
	clock.Advance(time.Hour)
	if after := h.get("/v2/live?status=queued&status=processing&limit=100").body; !bytes.Equal(before, after) {
		t.Error("the seeded sessions moved on with Clock, want them held by LiveClock")
	}
}

// TestLiveJobsExpireWithRetention: with Options.Retention, a live job is
// forgotten that long after it ended, as a pre-recorded one is (the spec's
// Data retention covers streams too): listings leave it out, and GET and
// DELETE answer 404. Seeded sessions have all ended within the retention,
// so none has expired at startup.
func TestLiveJobsExpireWithRetention(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(testEpoch)
	const retention = time.Hour
	h := newHarness(t, Options{LiveJobs: 300, Retention: retention, Clock: clock})
	ended := func(j client.LiveJob) time.Time { return mustParseTime(t, *j.CompletedAt) }
	final := h.livePage("?status=done&status=error&limit=1000").Items
	if len(final) < 200 {
		t.Fatalf("%d seeded sessions have ended, want most of 300 within the retention", len(final))
	}
	for _, j := range final {
		if age := clock.Now().Sub(ended(j)); age >= retention || age <= 0 {
			t.Fatalf("session %s ended %s before startup, want within %s", j.ID, age, retention)
		}
	}

	clock.Advance(retention / 2)
	var gone, kept []client.LiveJob
	for _, j := range final {
		if clock.Now().Sub(ended(j)) >= retention {
			gone = append(gone, j)
		} else {
			kept = append(kept, j)
		}
	}
	if len(gone) == 0 || len(kept) == 0 {
		t.Fatalf("fixture: %d sessions past their retention half an hour on, %d within it; want some of each", len(gone), len(kept))
	}
	listed := map[string]bool{}
	for _, j := range h.livePage("?limit=1000").Items {
		listed[j.ID] = true
	}
	everyKind := map[string]bool{}
	for _, j := range pageAt[client.LiveJob](h, "/v2/transcription?kind=live&limit=1000").Items {
		everyKind[j.ID] = true
	}
	for _, j := range gone {
		if listed[j.ID] || everyKind[j.ID] {
			t.Errorf("session %s, ended %s, still listed at %s", j.ID, *j.CompletedAt, formatTimestamp(clock.Now()))
		}
		if resp := h.get("/v2/live/" + j.ID); resp.status != http.StatusNotFound {
			t.Errorf("GET of expired session %s: %d, want 404", j.ID, resp.status)
		}
	}
	for _, j := range kept {
		if !listed[j.ID] || !everyKind[j.ID] {
			t.Errorf("session %s, ended %s, no longer listed at %s", j.ID, *j.CompletedAt, formatTimestamp(clock.Now()))
		}
	}
	if resp := h.do(http.MethodDelete, "/v2/live/"+gone[0].ID, "", nil, nil); resp.status != http.StatusNotFound {
		t.Errorf("DELETE of an expired session: %d, want 404", resp.status)
	}
	// Counted as expiries, and no longer among the jobs held.
	if st := h.srv.Stats(); st.JobsExpired != len(gone) || st.JobsStored != 300-len(gone) {
		t.Errorf("stats: %d jobs expired, %d held; want %d and %d", st.JobsExpired, st.JobsStored, len(gone), 300-len(gone))
	}
	if resp := h.get("/v2/live/" + kept[0].ID); resp.status != http.StatusOK {
		t.Errorf("GET of a session within its retention: %d, want 200", resp.status)
	}
	// The control interface's removal finds it gone too.
	clock.Advance(retention)
	if h.srv.RemoveLiveJob(kept[0].ID) {
		t.Errorf("session %s, past its retention, was removed as if still held", kept[0].ID)
	}
}

// TestSeededLiveSessionsEndWithinAShortRetention: however short the
// retention (shorter than a session lasts), the seeded sessions that have
// ended did so within it: as many are listed at startup as without one.
func TestSeededLiveSessionsEndWithinAShortRetention(t *testing.T) {
	t.Parallel()
	finished := func(retention time.Duration) int {
		h := newHarness(t, Options{LiveJobs: 300, Retention: retention, Clock: NewManualClock(testEpoch)})
		return len(h.livePage("?status=done&status=error&limit=1000").Items)
	}
	want := finished(0)
	for _, retention := range []time.Duration{time.Minute, 5 * time.Minute, 10 * time.Minute, time.Hour} {
		if got := finished(retention); got != want {
			t.Errorf("-retention %s: %d finished sessions listed at startup, want all %d", retention, got, want)
		}
	}
}

// TestLiveSessionsExpireAtTheInstantTheirRecordShows: a seeded session
// answers until the instant its completed_at plus the retention, and 404
// from it on: its end was a nanosecond short of the millisecond its record
// shows (549.526 s × 1e9 in floats), and 8 of 300 answered a millisecond
// past their expiry.
func TestLiveSessionsExpireAtTheInstantTheirRecordShows(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(testEpoch)
	const retention = 20 * time.Minute
	h := newHarness(t, Options{LiveJobs: 300, Retention: retention, Clock: clock})
	final := h.livePage("?status=done&status=error&limit=1000").Items
	slices.SortFunc(final, func(a, b client.LiveJob) int { return strings.Compare(*a.CompletedAt, *b.CompletedAt) })
	for _, j := range final {
		expiry := mustParseTime(t, *j.CompletedAt).Add(retention)
		if expiry.Before(clock.Now()) {
			continue // expired with one before it, at the same instant
		}
		clock.Set(expiry.Add(-time.Millisecond))
		if resp := h.get("/v2/live/" + j.ID); resp.status != http.StatusOK {
			t.Fatalf("session %s, completed_at %s: %d a millisecond before its retention ends, want 200", j.ID, *j.CompletedAt, resp.status)
		}
		clock.Set(expiry)
		if resp := h.get("/v2/live/" + j.ID); resp.status != http.StatusNotFound {
			t.Errorf("session %s, completed_at %s: %d as its retention ends, want 404", j.ID, *j.CompletedAt, resp.status)
		}
	}
}

// TestLiveExpiryQueueStaysTheSizeOfWhatIsHeld: a session added again and
// again, or added and removed, leaves no growing queue of expiries behind.
func TestLiveExpiryQueueStaysTheSizeOfWhatIsHeld(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Retention: 30 * 24 * time.Hour})
	done := liveFixture("a", "2025-03-14T09:00:00.000Z", "done", nil)
	done.CompletedAt = pointerTo("2025-03-14T09:10:00.000Z")
	for range 20000 {
		h.srv.AddLiveJob(done)
	}
	other := liveFixture("b", "2025-03-14T09:00:00.000Z", "done", nil)
	other.CompletedAt = done.CompletedAt
	for range 20000 {
		h.srv.AddLiveJob(other)
		h.srv.RemoveLiveJob(other.ID)
	}
	h.srv.mu.Lock()
	queued, held := len(h.srv.live.expiries), len(h.srv.live.entries)
	h.srv.mu.Unlock()
	if held != 1 || queued > 2*held+1025 {
		t.Errorf("%d expiries queued for %d sessions held", queued, held)
	}
}

// A listing builds the records of sessions never read (about half a
// millisecond each) without the server's lock: a first page of 10,000 held
// every other request for 4 s when it built them under the lock.
func TestListingBuildsRecordsWhileOtherRequestsAreAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 50})
	other := h.livePage("?limit=1").Items[0].ID
	answered := make(chan int, 1)
	var once sync.Once
	h.srv.beforeRecordBuilds = func(int, int) {
		once.Do(func() {
			req, err := http.NewRequest(http.MethodGet, h.url+"/v2/live/"+other, nil)
			if err != nil {
				panic(err)
			}
			req.Header.Set(client.ServiceKeyHeader, testKey)
			c := http.Client{Timeout: 5 * time.Second}
			resp, err := c.Do(req)
			if err != nil {
				answered <- 0
				return
			}
			resp.Body.Close()
			answered <- resp.StatusCode
		})
	}
	if n := len(h.livePage("?limit=50").Items); n != 50 {
		t.Fatalf("%d items, want 50", n)
	}
	select {
	case status := <-answered:
		if status != http.StatusOK {
			t.Fatalf("GET /v2/live/%s while the listing built its records: status %d (0: no answer in 5 s), want 200", other, status)
		}
	default:
		t.Fatal("the listing built no record without the lock")
	}
}

// A record built without the lock is not kept for a session whose status
// another request saw change meanwhile: it would show the old status for
// good.
func TestRecordBuiltForAnEarlierStatusIsNotKept(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(testEpoch)
	h := newHarness(t, Options{LiveJobs: 200, Clock: clock})
	var processing string
	h.srv.mu.Lock()
	for _, e := range h.srv.live.entries {
		if e.statusAt(clock.Now()) == client.StatusProcessing {
			processing = e.id
			break
		}
	}
	h.srv.mu.Unlock()
	if processing == "" {
		t.Fatal("fixture: no processing session")
	}
	var once sync.Once
	h.srv.beforeRecordBuilds = func(int, int) {
		once.Do(func() {
			clock.Advance(15 * time.Minute) // every session has ended
			// A listing that looks at every session's status, and builds none.
			if page := h.livePage("?custom_metadata[team]=nobody"); len(page.Items) != 0 {
				panic("fixture: a session of team nobody")
			}
		})
	}
	var before client.LiveJob
	decodeInto(t, h.get("/v2/live/"+processing).body, &before)
	if before.Status != client.StatusProcessing {
		t.Fatalf("fixture: the record built at the request says %s", before.Status)
	}
	var after client.LiveJob
	decodeInto(t, h.get("/v2/live/"+processing).body, &after)
	if !client.IsFinal(after.Status) {
		t.Fatalf("session %s 15 minutes on: status %s, want it ended", processing, after.Status)
	}
}

// A seeded session's messages are those its messages_config chose:
// lifecycle events only with receive_lifecycle_events, and one final
// transcript per utterance, in order, with receive_final_transcripts (the
// official client's LiveV2TranscriptMessage). Every finished session held
// the four lifecycle events, whatever its flags, and no transcript.
func TestSeededLiveMessagesFollowMessagesConfig(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 300})
	seen := map[[2]bool]int{}
	for _, j := range h.livePage("?status=done&limit=1000").Items {
		cfg := j.RequestParams.MessagesConfig
		lifecycle, transcripts := *cfg.ReceiveLifecycleEvents, *cfg.ReceiveFinalTranscripts
		seen[[2]bool{lifecycle, transcripts}]++
		var kinds []string
		var utterances []client.Utterance
		for _, m := range j.Result.Messages {
			var msg struct {
				Type      string `json:"type"`
				SessionID string `json:"session_id"`
				CreatedAt string `json:"created_at"`
				Data      struct {
					ID        string           `json:"id"`
					IsFinal   bool             `json:"is_final"`
					Utterance client.Utterance `json:"utterance"`
				} `json:"data"`
			}
			decodeInto(t, []byte(m), &msg)
			if msg.SessionID != j.ID || msg.CreatedAt == "" {
				t.Fatalf("session %s: message %s", j.ID, m)
			}
			kinds = append(kinds, msg.Type)
			if msg.Type == "transcript" {
				if !msg.Data.IsFinal || msg.Data.ID == "" {
					t.Fatalf("session %s: transcript message %s", j.ID, m)
				}
				utterances = append(utterances, msg.Data.Utterance)
			}
		}
		var want []string
		if lifecycle {
			want = append(want, "start_session", "start_recording")
		}
		if transcripts {
			for range j.Result.Transcription.Utterances {
				want = append(want, "transcript")
			}
		}
		if lifecycle {
			want = append(want, "end_recording", "end_session")
		}
		if !slices.Equal(kinds, want) {
			t.Fatalf("session %s (lifecycle %t, final transcripts %t): messages %v, want %v", j.ID, lifecycle, transcripts, kinds, want)
		}
		if transcripts && !reflect.DeepEqual(utterances, j.Result.Transcription.Utterances) {
			t.Fatalf("session %s: the transcript messages' utterances differ from the result's", j.ID)
		}
	}
	if len(seen) != 4 {
		t.Errorf("fixture: sessions of %d of the 4 combinations of the two flags: %v", len(seen), seen)
	}
}

// Requests reading the same sessions for the first time at once build each
// record once: the later ones wait for it (without the lock) rather than
// build it again. Four first reads of 3,000 at once held 1.9 GB.
func TestRecordsBeingBuiltAreWaitedFor(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 50})
	type counts struct{ builds, waits int }
	second := make(chan counts, 1)
	pages := make(chan []client.LiveJob, 1)
	var calls atomic.Int32
	h.srv.beforeRecordBuilds = func(builds, waits int) {
		if calls.Add(1) == 1 {
			// The first request, about to build: a second one comes.
			go func() { pages <- h.livePage("?limit=50").Items }()
			// Until the second request has gathered its records.
			select {
			case c := <-second:
				second <- c
			case <-time.After(5 * time.Second):
			}
			return
		}
		second <- counts{builds, waits}
	}
	first := h.livePage("?limit=50").Items
	got := <-second
	if got.builds != 0 || got.waits != 50 {
		t.Errorf("the second request built %d records and waited for %d, want 0 and 50", got.builds, got.waits)
	}
	if other := <-pages; !reflect.DeepEqual(other, first) {
		t.Error("the two requests listed other records")
	}
}

// A request waiting for a record another request builds waits for that
// record only, not for the whole page being built: a GET of one session
// waited half a second behind a first page of 1,000.
func TestRecordWaitedForIsTakenOnceBuilt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 50})
	h.srv.mu.Lock()
	first := h.srv.live.ordered()[0].id // the page's first, built first
	h.srv.mu.Unlock()
	answered := make(chan int, 1)
	h.srv.beforeRecordBuild = func(i int) {
		if i != 1 {
			return
		}
		// The first record is built, the others not: a request for it
		// must be answered before the builder goes on.
		go func() {
			req, _ := http.NewRequest(http.MethodGet, h.url+"/v2/live/"+first, nil)
			req.Header.Set(client.ServiceKeyHeader, testKey)
			resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
			if err != nil {
				answered <- 0
				return
			}
			resp.Body.Close()
			answered <- resp.StatusCode
		}()
		status := <-answered
		answered <- status
	}
	if n := len(h.livePage("?limit=50").Items); n != 50 {
		t.Fatalf("%d items", n)
	}
	if status := <-answered; status != http.StatusOK {
		t.Fatalf("GET of the first record while the page's others were still to build: %d (0: no answer in 5 s), want 200", status)
	}
}

// A request whose building fails (a panic) releases the records it had
// not kept: a later request builds them, where it waited for good.
func TestRecordsOfAFailedBuildAreReleased(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{LiveJobs: 20})
	var calls atomic.Int32
	h.srv.beforeRecordBuilds = func(builds, _ int) {
		if calls.Add(1) == 1 {
			panic("a build failing") // what net/http recovers from, closing the connection
		}
	}
	req, _ := http.NewRequest(http.MethodGet, h.url+"/v2/live?limit=20", nil)
	req.Header.Set(client.ServiceKeyHeader, testKey)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the failed build was answered %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodGet, h.url+"/v2/live?limit=20", nil)
	req.Header.Set(client.ServiceKeyHeader, testKey)
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("the next listing of the same sessions: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the next listing: %d", resp.StatusCode)
	}
}
