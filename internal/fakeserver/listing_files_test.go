package fakeserver

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

func (h *harness) preRecordedPage(query string) client.PreRecordedPage {
	h.t.Helper()
	return pageAt[client.PreRecordedJob](h, "/v2/pre-recorded"+query)
}

// TestPreRecordedListing: GET /v2/pre-recorded lists job records newest
// first with GET /v2/live's filters, pages and links.
func TestPreRecordedListing(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 10 * time.Minute})
	ids := map[string]string{}
	// Jobs a to f, one every 4 hours from testEpoch (2025-03-14T09:26:53Z):
	// a, b, c, d on the 14th, e, f on the 15th.
	for i, c := range []struct{ name, body string }{
		{"a", `{"audio_url":"https://example.com/a.wav","custom_metadata":{"team":"alpha","env":"prod"}}`},
		{"b", `{"audio_url":"https://example.com/fail-422.wav","custom_metadata":{"team":"bravo","env":"prod","priority":2}}`},
		{"c", `{"audio_url":"https://example.com/c.wav","custom_metadata":{"team":"alpha","env":"staging"}}`},
		{"d", `{"audio_url":"https://example.com/d.wav"}`},
		{"e", `{"audio_url":"https://example.com/e.wav","custom_metadata":{"team":"alpha","env":"prod","priority":1.5}}`},
		{"f", `{"audio_url":"https://example.com/f.wav","custom_metadata":{"team":"bravo"}}`},
	} {
		if i > 0 {
			h.clock.Advance(4 * time.Hour)
		}
		ids[c.name] = h.create(c.body).ID
	}
	// Five minutes into its ten of processing, f is processing; every older
	// job is final.
	h.clock.Advance(5 * time.Minute)
	names := func(items []client.PreRecordedJob) string {
		byID := map[string]string{}
		for n, id := range ids {
			byID[id] = n
		}
		out := make([]string, len(items))
		for i, j := range items {
			out[i] = byID[j.ID]
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct{ query, want string }{
		{"", "f,e,d,c,b,a"},
		{"?status=done", "e,d,c,a"},
		{"?status=error&status=processing", "f,b"},
		{"?custom_metadata%5Bteam%5D=alpha", "e,c,a"},
		{"?custom_metadata%5Bteam%5D=alpha&custom_metadata%5Benv%5D=prod", "e,a"},
		{"?custom_metadata%5Bpriority%5D=2", "b"},
		{"?date=2025-03-14", "d,c,b,a"},
		{"?date=2025-03-15", "f,e"},
		{"?after_date=2025-03-14T17:26:53Z", "f,e,d"},
		{"?before_date=2025-03-14T17:26:53Z", "b,a"},
		{"?offset=2&limit=2", "d,c"},
		{"?offset=6", ""},
	} {
		t.Run(c.query, func(t *testing.T) {
			if got := names(h.preRecordedPage(c.query).Items); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}

	// Items are the records GET /v2/pre-recorded/{id} returns.
	page := h.preRecordedPage("?status=error")
	if len(page.Items) != 1 || page.Items[0].ErrorCode == nil || *page.Items[0].ErrorCode != 422 || page.Items[0].Kind != client.KindPreRecorded {
		t.Fatalf("failed job in the listing: %+v", page.Items)
	}
	if got, want := string(mustJSON(t, page.Items[0])), string(mustJSON(t, h.job(ids["b"]))); got != want {
		t.Errorf("listed record %s\nwant the record %s", got, want)
	}

	// Pages link to the spec's form, with the filters and the kind.
	page = h.preRecordedPage("?status=done&limit=3")
	if page.Next == nil {
		t.Fatal("first of two pages has no next link")
	}
	next, err := url.Parse(*page.Next)
	if err != nil || next.Path != "/v2/transcription" || next.Query().Get("kind") != client.KindPreRecorded ||
		next.Query().Get("offset") != "3" || next.Query().Get("status") != "done" {
		t.Fatalf("next link %q", *page.Next)
	}
	last := pageAt[client.PreRecordedJob](h, *page.Next)
	if names(last.Items) != "a" || last.Next != nil {
		t.Fatalf("last page %q, next %v", names(last.Items), last.Next)
	}

	// The default page size is 20; bad filters are refused as on /v2/live.
	for range 20 {
		h.create(`{"audio_url":"https://example.com/more.wav"}`)
	}
	if page := h.preRecordedPage(""); len(page.Items) != client.DefaultLiveListLimit || page.Next == nil {
		t.Fatalf("default page: %d items, next %v", len(page.Items), page.Next)
	}
	for _, q := range []string{"?limit=0", "?offset=-1", "?status=finished", "?date=2025-3-14", "?after_date=yesterday", "?sort=asc"} {
		requireError(t, h.get("/v2/pre-recorded"+q), http.StatusBadRequest, "/v2/pre-recorded")
	}
}

// TestLiveJobByID: GET and DELETE /v2/live/{id} behave as their pre-recorded
// counterparts.
func TestLiveJobByID(t *testing.T) {
	h := newHarness(t, Options{})
	liveFixtures(h)
	all := h.livePage("?limit=100").Items
	for _, want := range all {
		resp := h.get("/v2/live/" + want.ID)
		if resp.status != http.StatusOK {
			t.Fatalf("GET /v2/live/%s: %d %s", want.ID, resp.status, resp.body)
		}
		if string(bytes.TrimSpace(resp.body)) != string(mustJSON(t, want)) {
			t.Errorf("GET /v2/live/%s: %s\nwant the listed record %s", want.ID, resp.body, mustJSON(t, want))
		}
	}
	requireError(t, h.get("/v2/live/nope"), http.StatusNotFound, "/v2/live/nope")

	for _, c := range []struct {
		id     string
		status int
	}{
		{"d", http.StatusForbidden}, // processing
		{"e", http.StatusForbidden}, // queued
		{"a", http.StatusAccepted},  // done
		{"b", http.StatusAccepted},  // error
		{"a", http.StatusNotFound},  // deleted
		{"nope", http.StatusNotFound},
	} {
		resp := h.do(http.MethodDelete, "/v2/live/"+c.id, "", nil, nil)
		if c.status == http.StatusAccepted {
			if resp.status != c.status || len(resp.body) != 0 {
				t.Fatalf("DELETE %s: %d %s, want 202 without a body", c.id, resp.status, resp.body)
			}
			continue
		}
		requireError(t, resp, c.status, "/v2/live/"+c.id)
	}
	if got := liveIDs(h.livePage("").Items); got != "e,d,f,c" {
		t.Fatalf("listing after deletes: %s", got)
	}
	requireError(t, h.get("/v2/live/a"), http.StatusNotFound, "/v2/live/a")
}

// getFile GETs an audio file and requires a 200 with a WAV.
func (h *harness) getFile(path string) (testResponse, wavInfo) {
	h.t.Helper()
	resp := h.get(path)
	if resp.status != http.StatusOK {
		h.t.Fatalf("GET %s: %d %s", path, resp.status, resp.body)
	}
	if ct := resp.header.Get("Content-Type"); ct != "audio/wav" {
		h.t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	info, err := parseWAV(resp.body)
	if err != nil {
		h.t.Fatalf("GET %s: not a WAV file: %v", path, err)
	}
	return resp, info
}

func attachmentName(t *testing.T, resp testResponse) string {
	t.Helper()
	_, params, err := mime.ParseMediaType(resp.header.Get("Content-Disposition"))
	if err != nil {
		t.Fatalf("Content-Disposition %q: %v", resp.header.Get("Content-Disposition"), err)
	}
	return params["filename"]
}

// TestJobFiles: GET .../{id}/file serves the uploaded file a job was made
// from, and for external or live audio a WAV of the job's duration and
// channels.
func TestJobFiles(t *testing.T) {
	h := newHarness(t, Options{LiveJobs: 40})

	wav := testutil.SilentWAV(2.5, 2, 8000)
	up := h.upload("meeting.wav", wav)
	uploaded := h.create(fmt.Sprintf(`{"audio_url":%q}`, up.AudioURL)).ID
	resp, _ := h.getFile("/v2/pre-recorded/" + uploaded + "/file")
	if !bytes.Equal(resp.body, wav) || attachmentName(t, resp) != "meeting.wav" {
		t.Fatalf("uploaded job's file: %d bytes named %q, want the %d bytes uploaded", len(resp.body), attachmentName(t, resp), len(wav))
	}

	for _, c := range []struct {
		url      string
		duration float64
		channels int
	}{
		{"https://example.com/calls/call.wav?duration=12.5&channels=2", 12.5, 2},
		{"https://example.com/talk.mp3?duration=0.001", 0.001, 1},
		{"https://example.com/long.wav?duration=600", 600, 1},
	} {
		id := h.create(fmt.Sprintf(`{"audio_url":%q}`, c.url)).ID
		rec := h.job(id)
		resp, info := h.getFile("/v2/pre-recorded/" + id + "/file")
		if info.Channels != c.channels || info.Duration() != *rec.File.AudioDuration || *rec.File.AudioDuration != c.duration {
			t.Errorf("%s: WAV of %v s on %d channels, record says %v s", c.url, info.Duration(), info.Channels, *rec.File.AudioDuration)
		}
		if attachmentName(t, resp) != *rec.File.Filename || int64(len(resp.body)) != 44+info.DataBytes {
			t.Errorf("%s: named %q (record %q), %d bytes", c.url, attachmentName(t, resp), *rec.File.Filename, len(resp.body))
		}
	}

	// Ranges are served, so a player can seek.
	id := h.create(`{"audio_url":"https://example.com/r.wav?duration=10"}`).ID
	full, _ := h.getFile("/v2/pre-recorded/" + id + "/file")
	part := h.do(http.MethodGet, "/v2/pre-recorded/"+id+"/file", "", nil, http.Header{"Range": {"bytes=40-99"}})
	if part.status != http.StatusPartialContent || !bytes.Equal(part.body, full.body[40:100]) {
		t.Fatalf("range 40-99: %d, %d bytes", part.status, len(part.body))
	}
	// A range past the end is an error, with the service's error body as
	// every other, where http.ServeContent wrote text.
	for _, path := range []string{"/v2/pre-recorded/" + id + "/file", "/file/" + up.AudioMetadata.ID} {
		past := h.do(http.MethodGet, path, "", nil, http.Header{"Range": {"bytes=99999999-"}})
		body := requireError(t, past, http.StatusRequestedRangeNotSatisfiable, path)
		if !strings.Contains(body.Message, "bytes=99999999-") || past.header.Get("Content-Disposition") != "" {
			t.Errorf("%s: unsatisfiable range answered %q, Content-Disposition %q", path, body.Message, past.header.Get("Content-Disposition"))
		}
	}

	failed := h.create(`{"audio_url":"https://example.com/fail.wav"}`).ID
	requireError(t, h.get("/v2/pre-recorded/"+failed+"/file"), http.StatusNotFound, "/v2/pre-recorded/"+failed+"/file")
	requireError(t, h.get("/v2/pre-recorded/nope/file"), http.StatusNotFound, "/v2/pre-recorded/nope/file")

	// Live jobs: every one with a file serves a WAV of its recorded length;
	// a queued one has none yet.
	var served, queued int
	for _, j := range h.livePage("?limit=100").Items {
		path := "/v2/live/" + j.ID + "/file"
		if j.File == nil {
			requireError(t, h.get(path), http.StatusNotFound, path)
			queued++
			continue
		}
		resp, info := h.getFile(path)
		if d := info.Duration() - *j.File.AudioDuration; d > 1e-9 || d < -1e-9 || int64(info.Channels) != *j.File.NumberOfChannels || attachmentName(t, resp) != *j.File.Filename {
			t.Errorf("%s: WAV of %v s on %d channels named %q, record %v s on %d named %q", path, info.Duration(), info.Channels, attachmentName(t, resp),
				*j.File.AudioDuration, *j.File.NumberOfChannels, *j.File.Filename)
		}
		served++
	}
	if served == 0 || queued == 0 {
		t.Fatalf("%d live files served, %d queued jobs: the seed should give both", served, queued)
	}
	requireError(t, h.get("/v2/live/nope/file"), http.StatusNotFound, "/v2/live/nope/file")
}

func TestSilentWAV(t *testing.T) {
	for _, c := range []struct {
		duration   float64
		channels   int64
		wantFrames int64
	}{
		{1, 1, 16000},
		{0.25, 2, 4000},
		{0, 1, 0},
		{-3, 1, 0},
		{1e12, 64, (maxWAVDataBytes / 128)}, // cut at what a WAV header can describe
	} {
		w := newSilentWAV(c.duration, c.channels)
		if want := 44 + c.wantFrames*c.channels*2; w.size != want {
			t.Errorf("%v s on %d channels: %d bytes, want %d", c.duration, c.channels, w.size, want)
		}
		if c.wantFrames > 1<<20 {
			continue // not read whole
		}
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(w); err != nil {
			t.Fatal(err)
		}
		info, err := parseWAV(buf.Bytes())
		if err != nil || info.DataBytes != c.wantFrames*c.channels*2 || int64(info.Channels) != c.channels || info.SampleRate != silentSampleRate {
			t.Errorf("%v s on %d channels: %+v, %v", c.duration, c.channels, info, err)
		}
		if bytes.Count(buf.Bytes()[44:], []byte{0}) != buf.Len()-44 {
			t.Errorf("%v s: the samples are not silence", c.duration)
		}
	}
	// Seeking anywhere reads what reading from the start reads there.
	w := newSilentWAV(0.01, 1)
	var whole bytes.Buffer
	_, _ = whole.ReadFrom(w)
	for _, off := range []int64{0, 10, 43, 44, 100, int64(whole.Len() - 1)} {
		if _, err := w.Seek(off, 0); err != nil {
			t.Fatal(err)
		}
		var rest bytes.Buffer
		_, _ = rest.ReadFrom(w)
		if !bytes.Equal(rest.Bytes(), whole.Bytes()[off:]) {
			t.Errorf("read from %d differs", off)
		}
	}
}

// Jobs created at the same instant are listed by id, as live jobs are, so
// that pages of a listing neither repeat nor skip one of them.
func TestPreRecordedListingOrdersTiesByID(t *testing.T) {
	h := newHarness(t, Options{})
	var ids []string
	for range 5 {
		ids = append(ids, h.create(`{"audio_url":"https://example.com/a.wav"}`).ID)
	}
	slices.Sort(ids)
	for _, c := range []struct {
		query         string
		offset, limit int
	}{{"", 0, 5}, {"?limit=2", 0, 2}, {"?offset=2&limit=2", 2, 2}, {"?offset=4&limit=2", 4, 1}} {
		t.Run(c.query, func(t *testing.T) {
			page := h.preRecordedPage(c.query)
			got := make([]string, len(page.Items))
			for i, j := range page.Items {
				got[i] = j.ID
			}
			if want := ids[c.offset : c.offset+c.limit]; !slices.Equal(got, want) {
				t.Fatalf("ids %q, want %q", got, want)
			}
		})
	}
}

// A job's created_at is its creation time exactly, to the millisecond it
// shows, whatever finer time the clock read: filtering strictly after or
// before it leaves the job out, so a client can page by date from the last
// created_at it saw, and jobs of the same millisecond are listed by id.
func TestPreRecordedCreatedAtIsWhatFiltersRead(t *testing.T) {
	h := newHarness(t, Options{})
	h.clock.Set(testEpoch.Add(123456789 * time.Nanosecond))
	first := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	h.clock.Advance(300 * time.Microsecond) // the same millisecond
	second := h.create(`{"audio_url":"https://example.com/b.wav"}`).ID
	createdAt := h.preRecordedPage("").Items[0].CreatedAt
	if createdAt != "2025-03-14T09:26:53.123Z" {
		t.Fatalf("created_at %q", createdAt)
	}
	for _, filter := range []string{"after_date", "before_date"} {
		if items := h.preRecordedPage("?" + filter + "=" + url.QueryEscape(createdAt)).Items; len(items) != 0 {
			t.Errorf("%s=%s lists %d jobs created at %s", filter, createdAt, len(items), createdAt)
		}
	}
	ids := []string{first, second}
	slices.Sort(ids)
	var got []string
	for _, j := range h.preRecordedPage("?before_date=2025-03-14T09:26:53.124Z").Items {
		got = append(got, j.ID)
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("jobs of one millisecond listed as %q, want by id %q", got, ids)
	}
}

// TestListingMatchesMetadataNumbersByTheirText: a number in a job's
// custom_metadata matches the text it was sent as, the text the provider
// shows (Terraform's jsonencode: every digit, no exponent) and a float64's
// JSON text (what a JavaScript client writes).
func TestListingMatchesMetadataNumbersByTheirText(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/n.wav","custom_metadata":{"big":12345678901234567891,"tiny":1e-7,"two":2.0}}`).ID
	for _, c := range []struct {
		value string
		found bool
	}{
		{"big=12345678901234567891", true},
		{"big=12345678901234567000", true}, // a float64's
		{"big=12345678901234567890", false},
		{"tiny=1e-7", true},
		{"tiny=0.0000001", true},
		{"tiny=1e-07", false},
		{"two=2", true},
		{"two=2.0", true}, // as sent
		{"two=02", false},
	} {
		key, value, _ := strings.Cut(c.value, "=")
		items := h.preRecordedPage("?custom_metadata%5B" + key + "%5D=" + url.QueryEscape(value)).Items
		if found := len(items) == 1 && items[0].ID == id; found != c.found {
			t.Errorf("%s: found %t, want %t", c.value, found, c.found)
		}
	}
}
