package fakeserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// Seeded pre-recorded jobs are listed newest first, created over the week
// before the clock's time and ended, each read as a job made by a create:
// done with a result, or in error with its code; custom_metadata filters
// them as it does the live ones; and they can be deleted.
func TestSeededPreRecordedJobs(t *testing.T) {
	t.Parallel()
	const n = 60
	h := newHarness(t, Options{PreRecordedJobs: n})
	items := h.preRecordedPage("?limit=1000").Items
	if len(items) != n {
		t.Fatalf("%d jobs listed, want %d", len(items), n)
	}
	statuses := map[string]int{}
	var last time.Time
	for i, item := range items {
		created, err := time.Parse(time.RFC3339Nano, item.CreatedAt)
		if err != nil {
			t.Fatal(err)
		}
		if age := testEpoch.Sub(created); age < 15*time.Minute || age > 7*24*time.Hour {
			t.Errorf("job %s created %s before the clock's time, want 15 minutes to a week", item.ID, age)
		}
		if i > 0 && created.After(last) {
			t.Errorf("job %s listed after a newer one", item.ID)
		}
		last = created
		statuses[item.Status]++
		job := h.job(item.ID)
		switch job.Status {
		case client.StatusDone:
			if job.Result == nil || job.Result.Transcription == nil || job.Result.Transcription.FullTranscript == "" || job.CompletedAt == nil {
				t.Errorf("done job %s has no result or completed_at", job.ID)
			}
		case client.StatusError:
			if job.ErrorCode == nil || *job.ErrorCode != http.StatusUnprocessableEntity {
				t.Errorf("failed job %s: error_code %v, want 422", job.ID, job.ErrorCode)
			}
		default:
			t.Errorf("job %s is %s, want it ended", job.ID, job.Status)
		}
		if job.RequestParams == nil || job.RequestParams.AudioURL == "" {
			t.Errorf("job %s has no request_params", job.ID)
		}
	}
	if statuses[client.StatusDone] == 0 || statuses[client.StatusError] == 0 {
		t.Errorf("statuses %v, want both done and error jobs", statuses)
	}

	alpha := h.preRecordedPage("?custom_metadata%5Bteam%5D=alpha&limit=1000").Items
	if len(alpha) == 0 || len(alpha) == n {
		t.Fatalf("%d of %d jobs have team alpha, want some", len(alpha), n)
	}
	for _, j := range alpha {
		if j.CustomMetadata["team"] != "alpha" {
			t.Errorf("job %s listed for team alpha has %v", j.ID, j.CustomMetadata)
		}
	}

	if resp := h.do(http.MethodDelete, "/v2/pre-recorded/"+items[0].ID, "", nil, nil); resp.status >= 300 {
		t.Fatalf("DELETE of a seeded job: status %d: %s", resp.status, resp.body)
	}
	if resp := h.get("/v2/pre-recorded/" + items[0].ID); resp.status != http.StatusNotFound {
		t.Errorf("a deleted seeded job answers %d, want 404", resp.status)
	}
}

// With a retention shorter than a week, seeded jobs are created within it:
// none has expired at startup, and they expire as others do.
func TestSeededPreRecordedJobsWithinRetention(t *testing.T) {
	t.Parallel()
	const n = 30
	h := newHarness(t, Options{PreRecordedJobs: n, Retention: 10 * time.Minute})
	if got := len(h.preRecordedPage("?limit=1000").Items); got != n {
		t.Fatalf("%d jobs listed at startup, want %d", got, n)
	}
	h.clock.Advance(11 * time.Minute)
	if got := len(h.preRecordedPage("?limit=1000").Items); got != 0 {
		t.Errorf("%d jobs listed after the retention, want none", got)
	}
}

// Seeded jobs have ended whatever the processing time: none counts against
// the account's concurrency limit or takes a processing slot, so a create
// made after them is accepted and queued as on an empty account. Under zero
// data retention none is seeded.
func TestSeededPreRecordedJobsHaveEnded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{PreRecordedJobs: 25, ProcessingTime: time.Hour, Retention: 30 * time.Minute, MaxConcurrentJobs: 3, MaxProcessingJobs: 2})
	for _, j := range h.preRecordedPage("?limit=1000").Items {
		if !client.IsFinal(j.Status) {
			t.Errorf("seeded job %s is %s", j.ID, j.Status)
		}
	}
	created := h.create(`{"audio_url": "https://example.com/after-the-seed.wav"}`)
	h.clock.Advance(10 * time.Minute)
	if got := h.job(created.ID).Status; got != client.StatusQueued {
		t.Errorf("a job created after the seeded ones is %s 10 minutes in, want queued (a quarter of its hour)", got)
	}
	if got := len(newHarness(t, Options{PreRecordedJobs: 25, ZeroDataRetention: true}).srv.jobs); got != 0 {
		t.Errorf("%d jobs seeded under zero data retention, want none", got)
	}
}

// The same index and clock time give the same job, whatever the number
// seeded.
func TestSeededPreRecordedJobsAreDeterministic(t *testing.T) {
	t.Parallel()
	ids := func(n int) map[string]string {
		got := map[string]string{}
		for _, j := range newHarness(t, Options{PreRecordedJobs: n}).preRecordedPage("?limit=1000").Items {
			got[j.ID] = j.CreatedAt + " " + j.Status + " " + j.RequestParams.AudioURL
		}
		return got
	}
	small, big := ids(10), ids(40)
	if len(small) != 10 || len(big) != 40 {
		t.Fatalf("%d and %d jobs, want 10 and 40", len(small), len(big))
	}
	for id, drawn := range small {
		if big[id] != drawn {
			t.Errorf("job %s: %q in a 10-job seed, %q in a 40-job seed", id, drawn, big[id])
		}
	}
}

// BenchmarkSeedPreRecorded: the startup cost of -pre-recorded-jobs, per
// 1,000 jobs (each built whole, its result included).
func BenchmarkSeedPreRecorded(b *testing.B) {
	for b.Loop() {
		s := New(Options{APIKey: "k", Clock: NewManualClock(testEpoch), PreRecordedJobs: 1000})
		s.Close()
	}
}
