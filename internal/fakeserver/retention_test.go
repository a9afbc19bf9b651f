package fakeserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

func TestProcessingTimeRange(t *testing.T) {
	const lo, hi = 10 * time.Second, 50 * time.Second
	h := newHarness(t, Options{ProcessingTime: lo, ProcessingTimeMax: hi})
	times := map[string]time.Duration{}
	ids := map[string]string{}
	for i := range 20 {
		u := fmt.Sprintf("https://example.com/range-%d.wav", i)
		ids[u] = h.create(`{"audio_url":"` + u + `"}`).ID
	}
	// Step through the range a second at a time: each job turns done exactly
	// once, at its own time, within the range.
	for elapsed := time.Duration(0); elapsed <= hi; elapsed += time.Second {
		for u, id := range ids {
			if _, seen := times[u]; !seen && h.job(id).Status == client.StatusDone {
				times[u] = elapsed
			}
		}
		h.clock.Advance(time.Second)
	}
	distinct := map[time.Duration]bool{}
	for u, d := range times {
		if d < lo || d > hi {
			t.Errorf("%s done after %s, outside [%s, %s]", u, d, lo, hi)
		}
		distinct[d] = true
	}
	if len(times) != len(ids) {
		t.Fatalf("%d of %d jobs done by the end of the range", len(times), len(ids))
	}
	if len(distinct) < 5 {
		t.Fatalf("20 URLs took only %d distinct times: %v", len(distinct), times)
	}

	// The same URL takes the same time on another server (order-independent).
	for u, d := range times {
		other := New(Options{ProcessingTime: lo, ProcessingTimeMax: hi})
		got := other.processingTimeFor(u)
		other.Close()
		if got > d || got <= d-time.Second { // seen done at the first whole second at or past it
			t.Fatalf("%s: %s on another server, seen done after %s here", u, got, d)
		}
	}
}

// The range's top is one of its times: with a range one nanosecond wide,
// some URLs take the longer time.
func TestProcessingTimeRangeIncludesItsTop(t *testing.T) {
	const lo = 10 * time.Second
	s := New(Options{ProcessingTime: lo, ProcessingTimeMax: lo + time.Nanosecond})
	defer s.Close()
	seen := map[time.Duration]int{}
	for i := range 32 {
		seen[s.processingTimeFor(fmt.Sprintf("https://example.com/%d.wav", i))]++
	}
	if len(seen) != 2 || seen[lo] == 0 || seen[lo+time.Nanosecond] == 0 {
		t.Fatalf("times of 32 URLs: %v, want both %s and %s", seen, lo, lo+time.Nanosecond)
	}
}

func TestProcessingTimeFixedWithoutRange(t *testing.T) {
	for _, top := range []time.Duration{0, 5 * time.Second, 10 * time.Second} {
		s := New(Options{ProcessingTime: 10 * time.Second, ProcessingTimeMax: top})
		for i := range 10 {
			if got := s.processingTimeFor(fmt.Sprintf("https://example.com/%d.wav", i)); got != 10*time.Second {
				t.Errorf("max %s: processing time %s, want the fixed 10s", top, got)
			}
		}
		s.Close()
	}
}

func TestConcurrencyLimit(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 10 * time.Second, MaxConcurrentJobs: 2})
	h.create(`{"audio_url":"https://example.com/1.wav"}`)
	h.clock.Advance(3 * time.Second)
	h.create(`{"audio_url":"https://example.com/2.wav"}`)

	for _, c := range []struct {
		advance    time.Duration
		retryAfter string
	}{
		{0, "7"},                       // the first is final 7 s from now
		{1500 * time.Millisecond, "6"}, // 5.5 s, rounded up
		{5400 * time.Millisecond, "1"}, // 0.1 s, at least 1
	} {
		h.clock.Advance(c.advance)
		resp := h.postCreate(`{"audio_url":"https://example.com/3.wav"}`)
		requireError(t, resp, http.StatusTooManyRequests, "/v2/pre-recorded")
		if got := resp.header.Get("Retry-After"); got != c.retryAfter {
			t.Fatalf("after %s more: Retry-After %q, want %q", c.advance, got, c.retryAfter)
		}
	}
	if n := h.srv.JobCount(); n != 2 {
		t.Fatalf("%d jobs stored; a refused create must make none", n)
	}
	// Once the first is final there is room for one more, and only one.
	h.clock.Advance(100 * time.Millisecond)
	h.create(`{"audio_url":"https://example.com/3.wav"}`)
	requireError(t, h.postCreate(`{"audio_url":"https://example.com/4.wav"}`), http.StatusTooManyRequests, "/v2/pre-recorded")
	st := h.srv.Stats()
	if st.ConcurrencyLimited != 4 || st.JobsCreated != 3 {
		t.Fatalf("stats %+v: want 4 creates limited, 3 jobs", st)
	}
	// Invalid creates are refused as such, not counted against the limit.
	requireError(t, h.postCreate(`{}`), http.StatusBadRequest, "/v2/pre-recorded")
}

func TestConcurrencyLimitOffByDefault(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: time.Hour})
	for i := range 50 {
		h.create(fmt.Sprintf(`{"audio_url":"https://example.com/%d.wav"}`, i))
	}
}

// TestProcessingLimitQueues: past Options.MaxProcessingJobs, a job waits
// queued, first in first out, until one ends, and then takes its own
// processing time, as the service queues jobs past an account's processing
// concurrency.
func TestProcessingLimitQueues(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 10 * time.Second, MaxProcessingJobs: 2})
	created := h.clock.Now()
	var ids []string
	for i := range 5 {
		ids = append(ids, h.create(fmt.Sprintf(`{"audio_url":"https://example.com/%d.wav"}`, i)).ID)
	}
	// Jobs 0 and 1 start at once and end at 10 s; 2 and 3 start then and
	// end at 20 s; 4 starts at 20 s and ends at 30 s.
	for _, c := range []struct {
		at   time.Duration
		want []string
	}{
		{3 * time.Second, []string{"processing", "processing", "queued", "queued", "queued"}},
		{9 * time.Second, []string{"processing", "processing", "queued", "queued", "queued"}},
		{10 * time.Second, []string{"done", "done", "queued", "queued", "queued"}},
		{13 * time.Second, []string{"done", "done", "processing", "processing", "queued"}},
		{20 * time.Second, []string{"done", "done", "done", "done", "queued"}},
		{23 * time.Second, []string{"done", "done", "done", "done", "processing"}},
		{30 * time.Second, []string{"done", "done", "done", "done", "done"}},
	} {
		h.clock.Set(created.Add(c.at))
		for i, id := range ids {
			if got := h.job(id).Status; got != c.want[i] {
				t.Errorf("at %s: job %d is %s, want %s", c.at, i, got, c.want[i])
			}
		}
	}
	if got, want := *h.job(ids[4]).CompletedAt, formatTimestamp(created.Add(30*time.Second)); got != want {
		t.Errorf("the last job completed_at %s, want %s (queued 20 s, then its 10 s)", got, want)
	}
	// Nothing is refused: the queue is bounded only by MaxConcurrentJobs.
	if st := h.srv.Stats(); st.ConcurrencyLimited != 0 || st.JobsCreated != 5 {
		t.Errorf("stats %+v: want 5 jobs, none refused", st)
	}
}

// A job created after its slot has been free for a while starts when it is
// created, not back when the slot freed: it gets its whole processing time.
func TestProcessingLimitSlotFreedEarlier(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 10 * time.Second, MaxProcessingJobs: 1})
	h.create(`{"audio_url":"https://example.com/1.wav"}`) // its slot frees at 10 s
	h.clock.Advance(30 * time.Second)
	second := h.clock.Now()
	id := h.create(`{"audio_url":"https://example.com/2.wav"}`).ID
	h.clock.Advance(time.Second)
	job := h.job(id)
	if job.Status != "queued" {
		t.Errorf("the second job 1 s after its creation is %s, want queued (the first quarter of its 10 s)", job.Status)
	}
	h.clock.Advance(9 * time.Second)
	if got, want := *h.job(id).CompletedAt, formatTimestamp(second.Add(10*time.Second)); got != want {
		t.Errorf("the second job completed_at %s, want %s (10 s from its creation)", got, want)
	}
}

// TestProcessingLimitWithQueueCap: with both limits, as a paid account
// (25 processing, 300 queued or processing), creates past the queue's cap
// are refused until the first job ends.
func TestProcessingLimitWithQueueCap(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 10 * time.Second, MaxProcessingJobs: 1, MaxConcurrentJobs: 2})
	h.create(`{"audio_url":"https://example.com/1.wav"}`)
	h.create(`{"audio_url":"https://example.com/2.wav"}`) // queued until 10 s, ends at 20 s
	resp := h.postCreate(`{"audio_url":"https://example.com/3.wav"}`)
	requireError(t, resp, http.StatusTooManyRequests, "/v2/pre-recorded")
	if got := resp.header.Get("Retry-After"); got != "10" {
		t.Errorf("Retry-After %q, want 10 (the first job ends then)", got)
	}
	h.clock.Advance(10 * time.Second)
	id := h.create(`{"audio_url":"https://example.com/3.wav"}`).ID // starts when the second ends
	h.clock.Advance(10*time.Second + 2*time.Second)
	if got := h.job(id).Status; got != "queued" {
		t.Errorf("the third job at 22 s is %s, want queued (it starts at 20 s)", got)
	}
	h.clock.Advance(8 * time.Second)
	if got := h.job(id).Status; got != "done" {
		t.Errorf("the third job at 30 s is %s, want done", got)
	}
}

func TestRetentionExpiresJobs(t *testing.T) {
	const processing, retention = 10 * time.Second, time.Minute
	cases := []struct {
		name   string
		after  time.Duration // from creation
		status int           // of GET
		listed int
	}{
		{"processing", 5 * time.Second, http.StatusOK, 1},
		{"done", processing, http.StatusOK, 1},
		{"last instant of retention", processing + retention - time.Millisecond, http.StatusOK, 1},
		{"retention over", processing + retention, http.StatusNotFound, 0},
		{"long after, never looked at before", 30 * 24 * time.Hour, http.StatusNotFound, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Options{ProcessingTime: processing, Retention: retention})
			id := h.create(`{"audio_url":"https://example.com/kept.wav"}`).ID
			h.clock.Advance(c.after)
			resp := h.get("/v2/pre-recorded/" + id)
			if resp.status != c.status {
				t.Fatalf("GET after %s: %d, want %d: %s", c.after, resp.status, c.status, resp.body)
			}
			var page client.PreRecordedPage
			decodeInto(t, h.get("/v2/pre-recorded").body, &page)
			if len(page.Items) != c.listed {
				t.Fatalf("listing after %s: %d items, want %d", c.after, len(page.Items), c.listed)
			}
			if c.status == http.StatusNotFound {
				requireError(t, resp, http.StatusNotFound, "/v2/pre-recorded/"+id)
				requireError(t, h.get("/v2/transcription/"+id), http.StatusNotFound, "/v2/transcription/"+id)
				requireError(t, h.do(http.MethodDelete, "/v2/pre-recorded/"+id, "", nil, nil), http.StatusNotFound, "/v2/pre-recorded/"+id)
				if st := h.srv.Stats(); st.JobsExpired != 1 {
					t.Fatalf("stats %+v: want 1 job expired", st)
				}
			}
		})
	}
}

func TestRetentionCountsFromCompletion(t *testing.T) {
	// A job that fails is final too, and expires the same way.
	h := newHarness(t, Options{ProcessingTime: time.Hour, Retention: time.Minute})
	id := h.create(`{"audio_url":"https://example.com/fail-422.wav"}`).ID
	h.clock.Advance(time.Hour + 59*time.Second)
	if got := h.job(id); got.Status != client.StatusError {
		t.Fatalf("status %q, want error", got.Status)
	}
	h.clock.Advance(time.Second)
	requireError(t, h.get("/v2/pre-recorded/"+id), http.StatusNotFound, "/v2/pre-recorded/"+id)
}

func TestRetentionExpiresUploads(t *testing.T) {
	h := newHarness(t, Options{Retention: time.Minute})
	up := h.upload("talk.wav", testutil.SilentWAV(2, 1, 8000))
	filePath := "/file/" + up.AudioMetadata.ID
	h.clock.Advance(30 * time.Second)
	job := h.create(`{"audio_url":"` + up.AudioURL + `"}`).ID

	h.clock.Advance(29 * time.Second)
	if r := h.get(filePath); r.status != http.StatusOK {
		t.Fatalf("upload within retention: %d", r.status)
	}
	h.clock.Advance(time.Second)
	requireError(t, h.get(filePath), http.StatusNotFound, filePath)
	// The job made from it 30 s after the upload (done at once, expiring a
	// minute after) keeps its record but no longer has the audio: no
	// silent stand-in as for external audio.
	h.job(job)
	jobFile := "/v2/pre-recorded/" + job + "/file"
	if body := requireError(t, h.get(jobFile), http.StatusNotFound, jobFile); !strings.Contains(body.Message, "no longer retained") {
		t.Fatalf("job file after its upload expired: %q, want it to say the upload is no longer retained", body.Message)
	}
	// A job asked for on the expired upload fails as on an unknown one.
	late := h.create(`{"audio_url":"` + up.AudioURL + `"}`).ID
	if got := h.job(late); got.Status != client.StatusError || got.ErrorCode == nil || *got.ErrorCode != http.StatusNotFound {
		t.Fatalf("job on an expired upload: %+v", got)
	}
	if st := h.srv.Stats(); st.UploadsExpired != 1 {
		t.Fatalf("stats %+v: want 1 upload expired", st)
	}
}

// TestRetentionCountsReadTheClock: JobCount and UploadCount look at the
// clock themselves, as GET does, so a Go test that steps a ManualClock past
// the retention sees the jobs and the upload gone at once, without waiting
// for the background loop (~20ms): a job read when done, and one nobody
// read, whose processing and retention both ended within the step.
func TestRetentionCountsReadTheClock(t *testing.T) {
	h := newHarness(t, Options{Retention: time.Minute})
	body, ct := multipartFile(t, "audio", "talk.wav", testutil.SilentWAV(1, 1, 8000))
	if resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil); resp.status != http.StatusOK {
		t.Fatalf("upload: %d %s", resp.status, resp.body)
	}
	h.job(h.create(`{"audio_url":"https://example.com/a.wav"}`).ID) // done, its retention running
	if j, u := h.srv.JobCount(), h.srv.UploadCount(); j != 1 || u != 1 {
		t.Fatalf("%d jobs, %d uploads, want 1 and 1", j, u)
	}
	h.clock.Advance(time.Minute)
	if j, u := h.srv.JobCount(), h.srv.UploadCount(); j != 0 || u != 0 {
		t.Fatalf("retention over: %d jobs, %d uploads, want none", j, u)
	}
	h.create(`{"audio_url":"https://example.com/b.wav"}`) // queued, never read
	if j := h.srv.JobCount(); j != 1 {
		t.Fatalf("%d jobs, want the new one", j)
	}
	h.clock.Advance(time.Hour)
	if j := h.srv.JobCount(); j != 0 {
		t.Fatalf("processing and retention over, the job never read: %d jobs, want none", j)
	}
	h.create(`{"audio_url":"https://example.com/c.wav"}`)
	h.clock.Advance(time.Hour)
	if st := h.srv.Stats(); st.JobsExpired != 3 || st.UploadsExpired != 1 {
		t.Fatalf("stats %+v: want 3 jobs and 1 upload expired", st)
	}
}

func TestRetentionOffKeepsEverything(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.create(`{"audio_url":"https://example.com/a.wav"}`).ID
	h.clock.Advance(400 * 24 * time.Hour)
	h.job(id)
}

// TestRetentionBoundsMemory drives many jobs through a server with
// retention and a request log limit, the clock moving on, and checks that
// what it holds stays bounded: jobs, the expiry queue, the request log and
// the create bodies.
func TestRetentionBoundsMemory(t *testing.T) {
	const perSecond, seconds, limit = 20, 120, 100
	h := newHarness(t, Options{ProcessingTime: 2 * time.Second, Retention: 5 * time.Second, RequestLogLimit: limit})
	peakJobs := 0
	for sec := range seconds {
		for i := range perSecond {
			id := h.create(fmt.Sprintf(`{"audio_url":"https://example.com/%d-%d.wav"}`, sec, i)).ID
			h.get("/v2/pre-recorded/" + id)
		}
		h.clock.Advance(time.Second)
		h.srv.SettleJobs()
		peakJobs = max(peakJobs, h.srv.JobCount())
	}
	// Alive at once: created over the last 2 s of processing + 5 s of retention.
	if peakJobs > perSecond*8 {
		t.Fatalf("up to %d jobs held at once, want at most %d", peakJobs, perSecond*8)
	}
	h.srv.mu.Lock()
	queued, requests, bodies := len(h.srv.expiries), len(h.srv.requests), len(h.srv.createBodies)
	h.srv.mu.Unlock()
	if queued > perSecond*8 || requests >= 2*limit || bodies >= 2*limit {
		t.Fatalf("held: %d expiries, %d requests, %d create bodies; want them bounded", queued, requests, bodies)
	}
	reqs := h.srv.Requests()
	if len(reqs) != limit || reqs[limit-1].Seq != 2*perSecond*seconds {
		t.Fatalf("Requests: %d, the newest numbered %d; want the newest %d, up to %d", len(reqs), reqs[len(reqs)-1].Seq, limit, 2*perSecond*seconds)
	}
	for i := 1; i < len(reqs); i++ {
		if reqs[i].Seq != reqs[i-1].Seq+1 {
			t.Fatalf("Requests not consecutive at %d: %d then %d", i, reqs[i-1].Seq, reqs[i].Seq)
		}
	}
	if n := len(h.srv.CreateBodies()); n != limit {
		t.Fatalf("CreateBodies: %d, want %d", n, limit)
	}
	h.clock.Advance(time.Minute)
	h.srv.SettleJobs()
	if n := h.srv.JobCount(); n != 0 {
		t.Fatalf("%d jobs left after every retention ended", n)
	}
	if st := h.srv.Stats(); st.JobsExpired != perSecond*seconds {
		t.Fatalf("stats %+v: want %d jobs expired", st, perSecond*seconds)
	}
}

func TestInitialFaults(t *testing.T) {
	h := newHarness(t, Options{Faults: Faults{RateLimitRatio: 1, RetryAfter: 9}})
	resp := h.get("/v2/live")
	requireError(t, resp, http.StatusTooManyRequests, "/v2/live")
	if got := resp.header.Get("Retry-After"); got != strconv.Itoa(9) {
		t.Fatalf("Retry-After %q", got)
	}
}

func TestFaultsValidate(t *testing.T) {
	for _, c := range []struct {
		f  Faults
		ok bool
	}{
		{Faults{}, true},
		{Faults{RateLimitRatio: 0.5, ServerErrorRatio: 0.5, ServerErrorStatus: 502, Latency: time.Second, RetryAfter: 3}, true},
		{Faults{RateLimitRatio: 1.1}, false},
		{Faults{ServerErrorRatio: -0.1}, false},
		{Faults{RateLimitRatio: 0.6, ServerErrorRatio: 0.6}, false},
		{Faults{Latency: -time.Second}, false},
		{Faults{RetryAfter: -1}, false},
		{Faults{ServerErrorStatus: 429}, false},
		{Faults{ServerErrorStatus: 600}, false},
	} {
		if err := c.f.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: Validate() = %v, want ok %v", c.f, err, c.ok)
		}
	}
}

func TestExpiryQueuePopsInTimeOrder(t *testing.T) {
	var q expiryQueue
	offsets := []int{7, 3, 9, 1, 3, 8, 0, 5, 2, 6, 4}
	for i, o := range offsets {
		q.add(testEpoch.Add(time.Duration(o)*time.Second), expiringJob, strconv.Itoa(i))
	}
	if _, due := q.popDue(testEpoch.Add(-time.Second)); due {
		t.Fatal("popped before anything was due")
	}
	var got []time.Duration
	for {
		e, due := q.popDue(testEpoch.Add(5 * time.Second))
		if !due {
			break
		}
		got = append(got, e.at.Sub(testEpoch))
	}
	want := []time.Duration{0, time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second, 4 * time.Second, 5 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(q) != 4 {
		t.Fatalf("popped %v (left %d), want %v (left 4)", got, len(q), want)
	}
}

// TestRetention_uploadsLeaveLittleInTheRequestLog: the request log keeps
// only the start of an upload, so uploads that have expired do not stay in
// memory through it (the command keeps up to 20,000 requests).
func TestRetention_uploadsLeaveLittleInTheRequestLog(t *testing.T) {
	h := newHarness(t, Options{Retention: time.Minute, RequestLogLimit: 10000})
	body, ct := multipartFile(t, "audio", "a.wav", testutil.SilentWAV(64, 1, 8000)) // 1 MB
	const uploads = 3
	for range uploads {
		if resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil); resp.status != http.StatusOK {
			t.Fatalf("upload: %d %s", resp.status, resp.body)
		}
	}
	h.clock.Advance(2 * time.Minute)
	if n := h.srv.UploadCount(); n != 0 {
		t.Fatalf("%d uploads kept past retention", n)
	}
	kept := 0
	for _, rec := range h.srv.Requests() {
		if rec.BodyBytes != len(body) {
			t.Errorf("upload %d listed as %d bytes, sent %d", rec.Seq, rec.BodyBytes, len(body))
		}
		kept += len(rec.Body)
	}
	if kept > uploads*maxRecordedUploadBytes {
		t.Errorf("the request log keeps %d KiB of %d expired uploads of %d KiB", kept>>10, uploads, len(body)>>10)
	}
}

// The pre-recorded listing leaves out a job whose retention ended while no
// one looked: made final by the listing itself, it is already expired.
func TestRetentionListingLeavesOutExpiredJobs(t *testing.T) {
	h := newHarness(t, Options{ProcessingTime: 10 * time.Second, Retention: time.Minute})
	expired := h.create(`{"audio_url":"https://example.com/expired.wav"}`).ID // final at 10 s, expired at 70 s
	h.clock.Advance(30 * time.Second)
	h.create(`{"audio_url":"https://example.com/recent.wav"}`) // final at 40 s, expired at 100 s
	h.clock.Advance(50 * time.Second)
	page := h.preRecordedPage("")
	if len(page.Items) != 1 || page.Items[0].ID == expired {
		t.Fatalf("listing at 80 s holds %d jobs (first %+v), want only the one created at 30 s", len(page.Items), page.Items)
	}
}

// With a request log limit, Requests and CreateBodies give the newest
// entries, however many the log holds before it is next trimmed.
func TestRequestLogLimitKeepsTheNewest(t *testing.T) {
	h := newHarness(t, Options{RequestLogLimit: 2})
	var bodies []string
	for i := range 3 {
		body := fmt.Sprintf(`{"audio_url":"https://example.com/%d.wav"}`, i)
		h.create(body)
		bodies = append(bodies, body)
	}
	if got := h.srv.CreateBodies(); len(got) != 2 || string(got[0]) != bodies[1] || string(got[1]) != bodies[2] {
		t.Errorf("CreateBodies %q, want the newest two %q", got, bodies[1:])
	}
	if reqs := h.srv.Requests(); len(reqs) != 2 || reqs[0].Seq != 2 || reqs[1].Seq != 3 {
		t.Errorf("Requests %+v, want the newest two, numbered 2 and 3", reqs)
	}
}
