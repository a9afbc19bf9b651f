package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

var testPollSchedule = pollSchedule{initial: 5 * time.Millisecond, max: 20 * time.Millisecond}

// Waits are spread by up to a tenth either way, so that jobs created
// together do not look together for their whole wait; a Retry-After is
// kept to whole, and a schedule without jitter is exact.
func TestPollSchedule_jitter(t *testing.T) {
	ctx := context.Background()
	lowest, highest := time.Hour, time.Duration(0)
	for range 200 {
		d := defaultPollSchedule.waitBefore(ctx, 100*time.Second, nil)
		lowest, highest = min(lowest, d), max(highest, d)
	}
	if lowest < 9*time.Second || highest > 11*time.Second || lowest > 9500*time.Millisecond || highest < 10500*time.Millisecond {
		t.Errorf("200 waits after 100 s ranged over [%s, %s], want them spread over [9 s, 11 s]", lowest, highest)
	}
	limited := &client.APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: 30 * time.Second}
	if got := defaultPollSchedule.waitBefore(ctx, 100*time.Second, limited); got != 30*time.Second {
		t.Errorf("wait after a 429 asking for 30 s: %s", got)
	}
	// Within the schedule's bounds: a minute at most, 250 ms at least.
	for range 200 {
		if d := defaultPollSchedule.waitBefore(ctx, time.Hour, nil); d > time.Minute || d < 54*time.Second {
			t.Fatalf("wait after an hour: %s, want within [54 s, 1 min]", d)
		}
		if d := defaultPollSchedule.waitBefore(ctx, 0, nil); d < 250*time.Millisecond || d > 275*time.Millisecond {
			t.Fatalf("first wait: %s, want within [250 ms, 275 ms]", d)
		}
	}
	exact := defaultPollSchedule
	exact.jitter = 0
	if got := exact.waitBefore(ctx, 100*time.Second, nil); got != 10*time.Second {
		t.Errorf("wait without jitter after 100 s: %s, want 10 s", got)
	}
}

func TestPollSchedule_delay(t *testing.T) {
	for _, tc := range []struct {
		elapsed, want time.Duration
	}{
		{0, 250 * time.Millisecond},
		{time.Second, 250 * time.Millisecond},
		{2500 * time.Millisecond, 250 * time.Millisecond},
		{3 * time.Second, 300 * time.Millisecond},
		{30 * time.Second, 3 * time.Second},
		{10 * time.Minute, time.Minute},
		{10 * time.Minute, time.Minute},
		{time.Hour, time.Minute},
		{5 * time.Hour, time.Minute},
	} {
		if got := defaultPollSchedule.delay(tc.elapsed); got != tc.want {
			t.Errorf("delay(%s) = %s, want %s", tc.elapsed, got, tc.want)
		}
	}
}

// looks follows the schedule for a job that ends processing after p (the
// round trips of the looks taken as instant): the number of looks until one
// sees it ended, and when that look is.
func (s pollSchedule) looks(p time.Duration) (count int, seen time.Duration) {
	t := time.Duration(0)
	for count = 1; t < p; count++ {
		t += s.delay(t)
	}
	return count, t
}

func TestPollSchedule_overshootAndLooks(t *testing.T) {
	for _, tc := range []struct {
		processing time.Duration
		maxLooks   int
	}{
		{0, 1}, // done at the look right after the create
		{100 * time.Millisecond, 2},
		{2 * time.Second, 9},
		{5 * time.Second, 19},
		{30 * time.Second, 38},
		{2 * time.Minute, 52},
		{10 * time.Minute, 69},
		{30 * time.Minute, 89},
		{time.Hour, 119},
		{3 * time.Hour, 239}, // past 10 min, one look a minute
	} {
		looks, seen := defaultPollSchedule.looks(tc.processing)
		overshoot := seen - tc.processing
		if limit := max(defaultPollSchedule.initial, tc.processing/pollFraction); overshoot > limit {
			t.Errorf("P=%s: seen %s late, more than %s", tc.processing, overshoot, limit)
		}
		if looks > tc.maxLooks {
			t.Errorf("P=%s: %d looks, want at most %d", tc.processing, looks, tc.maxLooks)
		}
	}
}

// Between 10·initial and 10·max, ten times longer costs a fixed number of
// looks: they grow with the logarithm of the processing time.
func TestPollSchedule_looksGrowLogarithmically(t *testing.T) {
	for p := 3 * time.Second; p*10 <= 10*defaultPollSchedule.max; p *= 2 {
		short, _ := defaultPollSchedule.looks(p)
		long, _ := defaultPollSchedule.looks(10 * p)
		if extra := long - short; extra < 23 || extra > 26 {
			t.Errorf("P=%s: %d looks, P=%s: %d looks; want 23 to 26 more", p, short, 10*p, long)
		}
	}
}

func testClient(t *testing.T, opts fakeserver.Options) (*client.Client, *fakeserver.Server) {
	t.Helper()
	fs, url := acctest.FakeServer(t, opts)
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c, fs
}

// boundedContext is the context of a wait or a delete that should end on
// its own: one that waits for ever (a regression, or waitlessSchedule's
// hour) then fails its test after testWaitBound, where it would hang the
// package until go test's own timeout.
func boundedContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), testWaitBound)
	t.Cleanup(cancel)
	return ctx
}

const testWaitBound = 30 * time.Second

func createTestJob(t *testing.T, c *client.Client, audioURL string) string {
	t.Helper()
	created, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: audioURL})
	if err != nil {
		t.Fatal(err)
	}
	return created.ID
}

func TestWaitForFinalJob(t *testing.T) {
	c, _ := testClient(t, fakeserver.Options{ProcessingTime: 50 * time.Millisecond})
	for audio, want := range map[string]string{"https://example.com/a.wav": client.StatusDone, "https://example.com/fail-503.wav": client.StatusError} {
		job, err := waitForFinalJob(boundedContext(t), c, createTestJob(t, c, audio), testPollSchedule, client.FullDetail, nil)
		if err != nil {
			t.Fatal(err)
		}
		if job.Status != want {
			t.Errorf("%s: status %s, want %s", audio, job.Status, want)
		}
	}
}

// TestPollSchedule_waitBefore: the wait before the next look is the
// schedule's, or shorter so that one last look comes lastLook before the
// deadline; a Retry-After is kept to whatever the deadline.
func TestPollSchedule_waitBefore(t *testing.T) {
	schedule := pollSchedule{initial: time.Minute, max: time.Minute, lastLook: 2 * time.Second}
	retryAfter := &client.APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: time.Minute}
	for _, tc := range []struct {
		name        string
		timeout     time.Duration // 0: no deadline
		lookFailure error
		want        time.Duration // to within a second (the deadline is real time)
	}{
		{name: "no deadline", want: time.Minute},
		{name: "deadline after the next look", timeout: time.Hour, want: time.Minute},
		{name: "next look after the deadline", timeout: 30 * time.Second, want: 28 * time.Second},
		{name: "last look already made", timeout: time.Second, want: time.Minute},
		{name: "retry-after kept", timeout: 30 * time.Second, lookFailure: retryAfter, want: time.Minute},
		// A short Retry-After leaves the last look where it was.
		{name: "short retry-after", timeout: 30 * time.Second, lookFailure: &client.APIError{StatusCode: http.StatusTooManyRequests, RetryAfter: time.Second}, want: 28 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			if got := schedule.waitBefore(ctx, time.Hour, tc.lookFailure); got > tc.want || got < tc.want-time.Second {
				t.Errorf("waitBefore = %s, want %s", got, tc.want)
			}
		})
	}
	if got := (pollSchedule{initial: time.Minute, max: time.Minute}).waitBefore(context.Background(), 0, nil); got != time.Minute {
		t.Errorf("without lastLook: %s, want the schedule's minute", got)
	}
}

// jobEndingBeforeTheDeadline makes a job that ends 100 ms into a wait of
// a second (ctx), after the wait's first look (and a deletion's refused
// DELETE), on a schedule whose next look would come in an hour and whose
// last comes 300 ms before the deadline.
func jobEndingBeforeTheDeadline(t *testing.T) (*client.Client, *fakeserver.Server, string, context.Context, pollSchedule) {
	t.Helper()
	clock := fakeserver.NewManualClock(time.Now())
	c, fs := testClient(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: clock})
	id := createTestJob(t, c, "https://example.com/a.wav")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	t.Cleanup(cancel)
	go func() {
		time.Sleep(100 * time.Millisecond)
		clock.Advance(2 * time.Hour)
	}()
	return c, fs, id, ctx, pollSchedule{initial: time.Hour, max: time.Hour, lastLook: 300 * time.Millisecond}
}

// TestWaitForFinalJob_looksOnceMoreBeforeTheDeadline: a job that ends
// between a look and the deadline, before the next look would come, is
// seen done by a last look: the wait used to sleep past the deadline, and
// an apply tainted the job, to be replaced and billed again.
func TestWaitForFinalJob_looksOnceMoreBeforeTheDeadline(t *testing.T) {
	c, _, id, ctx, schedule := jobEndingBeforeTheDeadline(t)
	job, err := waitForFinalJob(ctx, c, id, schedule, client.FullDetail, nil)
	if err != nil {
		t.Fatalf("err = %v, want the job seen done by the last look", err)
	}
	if job.Status != client.StatusDone {
		t.Errorf("status %s, want done", job.Status)
	}
}

// TestDeleteJob_looksOnceMoreBeforeTheDeadline: the same for a deletion
// waiting for its job to end.
func TestDeleteJob_looksOnceMoreBeforeTheDeadline(t *testing.T) {
	c, fs, id, ctx, schedule := jobEndingBeforeTheDeadline(t)
	if err := deleteJob(ctx, c, id, schedule, false, ""); err != nil {
		t.Fatalf("err = %v, want the job deleted once the last look saw it ended", err)
	}
	if _, ok := fs.Job(id); ok {
		t.Fatal("job still exists")
	}
}

// TestWaitForFinalJob_lastLookNotLostInARetrysBackoff: a look the
// service fails is retried by the client after a backoff of up to 15 s,
// which slept past the wait's deadline: a job that ended after the service
// recovered, before the deadline, was reported timed out (tainted, billed
// again). The retries leave room for the last look.
func TestWaitForFinalJob_lastLookNotLostInARetrysBackoff(t *testing.T) {
	c, id := jobOfAFailingService(t, 10*time.Second, 300*time.Millisecond, false)
	ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
	defer cancel()
	job, err := waitForFinalJob(ctx, c, id, pollSchedule{initial: 100 * time.Millisecond, max: 100 * time.Millisecond, lastLook: 500 * time.Millisecond}, client.FullDetail, nil)
	if err != nil || job.Status != client.StatusDone {
		t.Fatalf("job %+v, err = %v; want the job seen done by a retry before the deadline", job, err)
	}
}

// jobOfAFailingService makes a job (done already, or when the service
// recovers) on a fake server that answers every request 503 until it
// recovers, after recovery; the client retries 5 times, backoff apart.
func jobOfAFailingService(t *testing.T, backoff, recovery time.Duration, done bool) (*client.Client, string) {
	t.Helper()
	clock := fakeserver.NewManualClock(time.Now())
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: clock})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: 5, MinBackoff: backoff, MaxBackoff: backoff})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	if done {
		clock.Advance(2 * time.Hour)
	}
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: http.StatusServiceUnavailable})
	time.AfterFunc(recovery, func() {
		fs.SetFaults(fakeserver.Faults{})
		clock.Advance(2 * time.Hour) // the job ends, if it has not
	})
	return c, id
}

// The last look's own retries go on within the deadline: a wait shorter
// than lastLook, whose first look is its last, still retries a look the
// service failed once.
func TestWaitForFinalJob_lastLookRetries(t *testing.T) {
	c, id := jobOfAFailingService(t, 300*time.Millisecond, 100*time.Millisecond, true)
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	job, err := waitForFinalJob(ctx, c, id, pollSchedule{initial: time.Hour, max: time.Hour, lastLook: 2 * time.Second}, client.FullDetail, nil)
	if err != nil || job.Status != client.StatusDone {
		t.Fatalf("job %+v, err = %v; want the job seen done by the look's retry", job, err)
	}
}

func TestWaitForFinalJob_stopsAtDeadline(t *testing.T) {
	c, _ := testClient(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: fakeserver.NewManualClock(time.Now())})
	id := createTestJob(t, c, "https://example.com/a.wav")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	job, err := waitForFinalJob(ctx, c, id, testPollSchedule, client.FullDetail, nil)
	if !errors.Is(err, errJobNotFinal) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want errJobNotFinal and DeadlineExceeded", err)
	}
	if job == nil || job.Status != client.StatusQueued {
		t.Errorf("last record %+v, want the queued job", job)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("stopped after %s", elapsed)
	}
}

// TestWaitForFinalJob_ridesOutTransientFailures: looks the service fails
// (a 5xx past the client's retries: 503, and those such as 507 or a CDN's
// 529 that a wait once ended on) do not end the wait, which would taint a
// job the service is still processing, billed again by the next apply.
func TestWaitForFinalJob_ridesOutTransientFailures(t *testing.T) {
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusInsufficientStorage, 529} {
		t.Run(strconv.Itoa(status), func(t *testing.T) { testWaitRidesOut(t, status) })
	}
}

func testWaitRidesOut(t *testing.T, status int) {
	c, fs := testClient(t, fakeserver.Options{ProcessingTime: 200 * time.Millisecond})
	id := createTestJob(t, c, "https://example.com/a.wav")
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: status})
	recovered := time.AfterFunc(100*time.Millisecond, func() { fs.SetFaults(fakeserver.Faults{}) })
	defer recovered.Stop()
	var logged bytes.Buffer
	job, err := waitForFinalJob(tflogtest.RootLogger(boundedContext(t), &logged), c, id, testPollSchedule, client.FullDetail, nil)
	if err != nil {
		t.Fatalf("the wait ended on a transient failure: %v", err)
	}
	if job.Status != client.StatusDone {
		t.Errorf("status %s, want done", job.Status)
	}
	failed := 0
	for _, rec := range fs.Requests() {
		if rec.Status == status {
			failed++
		}
	}
	if failed < 2 {
		t.Errorf("%d looks failed, want the wait to have looked again after a failure", failed)
	}
	// Each failed look is a warning (TF_LOG=WARN shows a service failing
	// while the apply waits), naming the job.
	entries, err := tflogtest.MultilineJSONDecode(&logged)
	if err != nil {
		t.Fatal(err)
	}
	warned := 0
	for _, e := range entries {
		if e["@level"] == "warn" && strings.Contains(fmt.Sprint(e["@message"]), "failed a look at the job") && e["id"] == id {
			warned++
		}
	}
	if warned != failed {
		t.Errorf("%d warnings of a failed look naming the job, want one per failed look (%d)", warned, failed)
	}
}

// TestWaitForFinalJob_deadlineWhileFailing: a wait that runs out while the
// service fails says so, with the service's last answer.
func TestWaitForFinalJob_deadlineWhileFailing(t *testing.T) {
	c, fs := testClient(t, fakeserver.Options{ProcessingTime: time.Hour})
	id := createTestJob(t, c, "https://example.com/a.wav")
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := waitForFinalJob(ctx, c, id, testPollSchedule, client.FullDetail, nil)
	var failing *serviceFailingError
	if !errors.Is(err, errJobNotFinal) || !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &failing) || !client.IsStatus(failing, http.StatusServiceUnavailable) {
		t.Fatalf("err = %v, want errJobNotFinal, DeadlineExceeded and the service's 503", err)
	}
}

// TestWaitForFinalJob_deadlineWhileClientRetries: a wait that runs out while
// the client is between retries of its first look (so no look has completed)
// still quotes the failure being retried.
func TestWaitForFinalJob_deadlineWhileClientRetries(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: 5, MinBackoff: time.Minute, MaxBackoff: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = waitForFinalJob(ctx, c, id, testPollSchedule, client.FullDetail, nil)
	var failing *serviceFailingError
	if !errors.Is(err, errJobNotFinal) || !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &failing) || !client.IsStatus(failing, http.StatusServiceUnavailable) {
		t.Fatalf("err = %v, want errJobNotFinal, DeadlineExceeded and the 503 the client was retrying", err)
	}
}

// TestWaitForFinalJob_failureRecoveredBeforeTheEnd: a look the service
// failed, followed by one it answered, is not reported as the service
// failing when the wait ends (an interrupt here): the failure was over.
func TestWaitForFinalJob_failureRecoveredBeforeTheEnd(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: time.Hour})
	t.Cleanup(fs.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var looks atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			switch looks.Add(1) {
			case 1: // the service fails the first look
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"statusCode":503,"message":"unavailable","request_id":"r-503"}`))
				return
			case 3: // answers the second; Terraform is interrupted at the third
				cancel()
			}
		}
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	last, err := waitForFinalJob(ctx, c, id, testPollSchedule, client.FullDetail, nil)
	if !errors.Is(err, errJobNotFinal) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want errJobNotFinal and Canceled", err)
	}
	if last == nil || looks.Load() < 3 {
		t.Fatalf("last record %v after %d looks, want the second look's", last, looks.Load())
	}
	if failing := (*serviceFailingError)(nil); errors.As(err, &failing) {
		t.Errorf("err = %v, which says the service was failing, though its last answer was a success", err)
	}
}

// TestWaitForFinalJob_tellsEveryLook: onLook (the action's progress
// messages) is told the status of every look, in order.
func TestWaitForFinalJob_tellsEveryLook(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: time.Hour, Clock: clock})
	t.Cleanup(fs.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.ServeHTTP(w, r)
		if r.Method == http.MethodGet {
			clock.Advance(20 * time.Minute) // of a 1-hour job: queued, processing, processing, done
		}
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	var told []string
	job, err := waitForFinalJob(boundedContext(t), c, id, testPollSchedule, client.FullDetail, func(status string) { told = append(told, status) })
	if err != nil || job.Status != client.StatusDone {
		t.Fatalf("wait: %v", err)
	}
	if want := []string{client.StatusQueued, client.StatusProcessing, client.StatusProcessing, client.StatusDone}; !slices.Equal(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}
}

// TestWaitForFinalJob_missingJob: a job the service never answers for is
// taken as gone after maxNotFoundLooks looks, not waited for until the
// deadline; the data source's wait, for a job read by its id, takes the
// first 404 (a wrong id).
func TestWaitForFinalJob_missingJob(t *testing.T) {
	c, fs := testClient(t, fakeserver.Options{})
	const missing = "00000000-0000-0000-0000-000000000000"
	for _, tc := range []struct {
		name           string
		unansweredEnds bool
		looks          int
	}{{"created", false, maxNotFoundLooks}, {"read by its id", true, 1}} {
		before := len(fs.Requests())
		if _, err := waitUntilFinal(boundedContext(t), c, missing, testPollSchedule, client.FullDetail, nil, tc.unansweredEnds); !client.IsNotFound(err) || errors.Is(err, errJobNotFinal) {
			t.Fatalf("%s: err = %v, want the 404, not a wait to the deadline", tc.name, err)
		}
		if looks := len(fs.Requests()) - before; looks != tc.looks {
			t.Errorf("%s: %d looks, want %d", tc.name, looks, tc.looks)
		}
	}
}

// TestWaitUntilFinal_looksAgainAfterAnAnswerItCannotRead: a look answered
// with a page that is not the service's JSON (a proxy's), or 404 while a
// job just created is not yet readable, is looked at again: either ended
// the wait, and tainted a job that went on to finish, replaced and billed
// again by the next apply. The data source's wait (unansweredEnds) does
// so once a request of the run has succeeded (here the job's create).
func TestWaitUntilFinal_looksAgainAfterAnAnswerItCannotRead(t *testing.T) {
	page := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><title>Gateway</title></html>"))
	}
	notFound := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"statusCode":404,"message":"job not found"}`))
	}
	for _, tc := range []struct {
		name           string
		unansweredEnds bool
		firstLooks     []func(http.ResponseWriter)
	}{
		{"created", false, []func(http.ResponseWriter){page, notFound}},
		{"read by its id after a success", true, []func(http.ResponseWriter){page}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: 20 * time.Millisecond})
			t.Cleanup(fs.Close)
			var looks atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					if n := int(looks.Add(1)); n <= len(tc.firstLooks) {
						tc.firstLooks[n-1](w)
						return
					}
				}
				fs.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			id := createTestJob(t, c, "https://example.com/a.wav")
			job, err := waitUntilFinal(boundedContext(t), c, id, testPollSchedule, client.FullDetail, nil, tc.unansweredEnds)
			if err != nil || job.Status != client.StatusDone {
				t.Fatalf("wait: %v (after %d looks), want the job done", err, looks.Load())
			}
		})
	}
}

// TestWaitForFinalJob_lastingUnreadableAnswerEndsTheWait: JSON the client
// cannot read look after look (a result past its size limit) ends the
// wait after maxUnreadableLooks, where it was looked at until the
// deadline (an hour by default) with advice to wait longer.
func TestWaitForFinalJob_lastingUnreadableAnswerEndsTheWait(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, MaxRetries: -1, MaxResponseBytes: 600})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	before := len(fs.Requests())
	_, err = waitForFinalJob(boundedContext(t), c, id, testPollSchedule, client.FullDetail, nil)
	if !errors.As(err, new(*client.DecodeError)) || errors.Is(err, errJobNotFinal) {
		t.Fatalf("err = %v, want the answer's error, not a wait to the deadline", err)
	}
	if looks := len(fs.Requests()) - before; looks != maxUnreadableLooks {
		t.Errorf("%d looks, want %d", looks, maxUnreadableLooks)
	}
}

// TestWaitUntilFinal_outageAfterASuccessIsWaitedOut: the data source's
// wait rides out a service that stopped answering at all once a call of
// the run has succeeded (the create of the job it reads, in the same
// apply): it ended after the client's retries, whatever timeouts.read said.
func TestWaitUntilFinal_outageAfterASuccessIsWaitedOut(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: 200 * time.Millisecond})
	t.Cleanup(fs.Close)
	l, err := fakeserver.Serve("127.0.0.1:0", fs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	c, err := client.New(client.Config{BaseURL: l.URL(), APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	if err := l.Down(); err != nil {
		t.Fatal(err)
	}
	back := time.AfterFunc(150*time.Millisecond, func() { _ = l.Up() })
	defer back.Stop()
	job, err := waitUntilFinal(boundedContext(t), c, id, testPollSchedule, client.FullDetail, nil, true)
	if err != nil || job.Status != client.StatusDone {
		t.Fatalf("wait: %v, want the job done after the outage", err)
	}
}

func TestDeleteJob(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	c, fs := testClient(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: clock})
	running := createTestJob(t, c, "https://example.com/a.wav")

	// A running job is deleted once it ends.
	go func() {
		time.Sleep(50 * time.Millisecond)
		clock.Advance(2 * time.Hour)
	}()
	if err := deleteJob(boundedContext(t), c, running, testPollSchedule, false, ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := fs.Job(running); ok {
		t.Fatal("job still exists")
	}
	// ... watched by its status meanwhile, with one DELETE refused before
	// and one after: a DELETE each round doubled the requests of a wait.
	if got := acctest.DeleteAnswers(fs, running); len(got) != 2 || got[0] != http.StatusForbidden || got[1] != http.StatusAccepted {
		t.Fatalf("DELETE answers %v, want [403 202]", got)
	}
	// A job the service no longer has counts as deleted.
	if err := deleteJob(boundedContext(t), c, running, testPollSchedule, false, ""); err != nil {
		t.Fatalf("deleting a missing job: %v", err)
	}
	// Under zero data retention (no GET), the DELETE is retried until the deadline.
	stuck := createTestJob(t, c, "https://example.com/b.wav")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	err := deleteJob(ctx, c, stuck, testPollSchedule, true, "")
	if !errors.Is(err, errJobNotFinal) || !errors.Is(err, context.DeadlineExceeded) || !client.IsStatus(err, http.StatusForbidden) {
		t.Fatalf("err = %v, want a timeout carrying the last 403", err)
	}
}

// A job that ends between the service's refusal (403) and the look that
// follows is deleted, not reported as refused: the race that made
// TestAccJob_deleteRunning fail when the job ended at that moment.
func TestDeleteJob_endsAfterRefusal(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: time.Hour, Clock: clock})
	t.Cleanup(fs.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		fs.ServeHTTP(rec, r)
		if r.Method == http.MethodDelete && rec.Code == http.StatusForbidden {
			clock.Advance(2 * time.Hour) // the job ends before the client reads the refusal
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	id := createTestJob(t, c, "https://example.com/a.wav")
	err = deleteJob(boundedContext(t), c, id, waitlessSchedule, false, "")
	if got := acctest.DeleteAnswers(fs, id); err != nil || len(got) != 2 || got[0] != http.StatusForbidden || got[1] != http.StatusAccepted {
		t.Fatalf("deleteJob: %v; DELETE answers %v, want [403 202] with no wait between them", err, got)
	}
	if _, ok := fs.Job(id); ok {
		t.Fatal("job still exists")
	}
}

// waitlessSchedule waits an hour between looks: a test that passes with it
// made no wait.
var waitlessSchedule = pollSchedule{initial: time.Hour, max: time.Hour}

// A 403 to a DELETE ends without a wait when the look at the job explains
// it: a job already ended is refused for good after one more DELETE (it may
// have ended between the two), and a job the service no longer has counts
// as deleted.
func TestDeleteJob_forbiddenThenLooked(t *testing.T) {
	for _, tc := range []struct {
		name    string
		look    func(http.ResponseWriter) // the answer to GET /v2/pre-recorded/j
		deletes int32
		check   func(error) bool
	}{
		{"job ended", func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"id":"j","status":"done"}`)) }, 2,
			func(err error) bool {
				return client.IsStatus(err, http.StatusForbidden) && !errors.Is(err, errJobNotFinal)
			}},
		{"job gone", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"not found","request_id":"r2","statusCode":404}`))
		}, 1, func(err error) bool { return err == nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var deletes atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch {
				case r.Method == http.MethodDelete:
					deletes.Add(1)
					w.WriteHeader(http.StatusForbidden)
					_, _ = w.Write([]byte(`{"message":"forbidden","request_id":"r1","statusCode":403}`))
				case r.URL.Path == "/v2/pre-recorded": // the listing confirming a 404 (confirmJobGone)
					_, _ = w.Write([]byte(`{"first":"x","current":"x","next":null,"items":[]}`))
				default:
					tc.look(w)
				}
			}))
			defer srv.Close()
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			if err := deleteJob(boundedContext(t), c, "j", waitlessSchedule, false, ""); !tc.check(err) {
				t.Fatalf("err = %v, want the answer without a wait", err)
			}
			if n := deletes.Load(); n != tc.deletes {
				t.Fatalf("%d DELETEs, want %d", n, tc.deletes)
			}
		})
	}
}

// TestDeleteJob_looksThatFailSendTheDeleteAgain: while the look at the job
// fails (a 403 from an account with zero data retention the provider was
// not told of, a 5xx), the DELETE is sent again on the schedule, as before
// the job was watched: a destroy that only looked waited out
// timeouts.delete and said the job was still running, though it had ended.
func TestDeleteJob_looksThatFailSendTheDeleteAgain(t *testing.T) {
	for _, lookStatus := range []int{http.StatusForbidden, http.StatusBadGateway} {
		var deletes atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			switch {
			case r.Method == http.MethodDelete && deletes.Add(1) > 1: // the job has ended
				w.WriteHeader(http.StatusAccepted)
			case r.Method == http.MethodDelete:
				w.WriteHeader(http.StatusForbidden)
				_, _ = w.Write([]byte(`{"message":"not deletable yet","request_id":"r1","statusCode":403}`))
			default:
				w.WriteHeader(lookStatus)
				_, _ = fmt.Fprintf(w, `{"message":"no","request_id":"r2","statusCode":%d}`, lookStatus)
			}
		}))
		c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		err = deleteJob(boundedContext(t), c, "j", testPollSchedule, false, "")
		srv.Close()
		if err != nil || deletes.Load() != 2 {
			t.Errorf("looks answered %d: err %v after %d DELETEs, want the second DELETE to succeed", lookStatus, err, deletes.Load())
		}
	}
}

func TestJobFailureDetail(t *testing.T) {
	code := int64(500)
	job := &client.PreRecordedJob{JobCommon: client.JobCommon{
		ID: "j1", RequestID: "req-9", Status: client.StatusError, ErrorCode: &code,
		Result: &client.Result{
			Summarization: &client.AddonResult[*string]{Error: &client.AddonError{StatusCode: 502, Exception: "UpstreamError", Message: "LLM unavailable"}},
			Translation:   &client.AddonResult[[]client.TranslationItem]{Results: []client.TranslationItem{{}, {Error: &client.AddonError{StatusCode: 400, Message: "unsupported"}}}},
		},
	}}
	got := jobFailureDetail(job)
	for _, want := range []string{`status "error"`, "error_code 500 (Internal Server Error)", "summarization: status_code 502, UpstreamError: LLM unavailable", "translation.results[1]: status_code 400: unsupported", "request_id: req-9"} {
		if !strings.Contains(got, want) {
			t.Errorf("detail lacks %q:\n%s", want, got)
		}
	}
}

// An error_code that is no HTTP status is shown without a meaning, where
// the detail said "error_code 599 ()".
func TestJobFailureDetail_errorCodes(t *testing.T) {
	for code, want := range map[int64]string{404: "error_code 404 (Not Found).", 599: "error_code 599.", 1001: "error_code 1001."} {
		job := &client.PreRecordedJob{JobCommon: client.JobCommon{ID: "j1", Status: client.StatusError, ErrorCode: &code}}
		if got := jobFailureDetail(job); !strings.Contains(got, want) || strings.Contains(got, "()") {
			t.Errorf("error_code %d: detail %q, want %q", code, got, want)
		}
	}
}

// Each add-on that failed gets its line, under its own name, and only
// those: an add-on left out would fail unexplained.
func TestAddonFailures_eachAddonByName(t *testing.T) {
	failed := &client.AddonError{StatusCode: 503, Exception: "Unavailable", Message: "try later"}
	for name, result := range map[string]*client.Result{
		"translation":              {Translation: &client.AddonResult[[]client.TranslationItem]{Error: failed}},
		"translation.results[1]":   {Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, Results: []client.TranslationItem{{}, {Error: failed}}}},
		"summarization":            {Summarization: &client.AddonResult[*string]{Error: failed}},
		"named_entity_recognition": {NamedEntityRecognition: &client.AddonResult[[]client.NamedEntity]{Error: failed}},
		"sentiment_analysis":       {SentimentAnalysis: &client.AddonResult[string]{Error: failed}},
		"audio_to_llm":             {AudioToLLM: &client.AddonResult[[]client.AudioToLLMResult]{Error: failed}},
		"sentences":                {Sentences: &client.AddonResult[[]string]{Error: failed}},
		// A part failed while the add-on did not.
		"audio_to_llm.results[1]":    {AudioToLLM: &client.AddonResult[[]client.AudioToLLMResult]{Success: true, Results: []client.AudioToLLMResult{{Success: true}, {Error: failed}}}},
		"transcription.sentences[1]": {Transcription: &client.Transcription{Sentences: []client.AddonResult[[]string]{{Success: true}, {Error: failed}}}},
		"translation.results[0].sentences[0]": {Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, Results: []client.TranslationItem{
			{Sentences: []client.AddonResult[[]string]{{Error: failed}}}}}},
	} {
		want := "  - " + name + ": status_code 503, Unavailable: try later"
		if got := addonFailures(result, nil); len(got) != 1 || got[0] != want {
			t.Errorf("%s failed: lines %q, want [%q]", name, got, want)
		}
	}
	succeeded := &client.Result{
		Summarization:     &client.AddonResult[*string]{Success: true},
		SentimentAnalysis: &client.AddonResult[string]{Success: true},
		Transcription:     &client.Transcription{Sentences: []client.AddonResult[[]string]{{Success: true}}},
		AudioToLLM:        &client.AddonResult[[]client.AudioToLLMResult]{Success: true, Results: []client.AudioToLLMResult{{Success: true}}},
	}
	if got := addonFailures(succeeded, nil); len(got) != 0 {
		t.Errorf("add-ons that succeeded: lines %q, want none", got)
	}
	// A failed translation is named with its target language: its own,
	// else the request's in its place.
	translated := &client.Result{Translation: &client.AddonResult[[]client.TranslationItem]{Success: true, Results: []client.TranslationItem{{Languages: []string{"fr"}}, {Error: failed}}}}
	if got, want := addonFailures(translated, []string{"fr", "de"}), "  - translation.results[1] (de): status_code 503, Unavailable: try later"; len(got) != 1 || got[0] != want {
		t.Errorf("a failed translation: lines %q, want [%q]", got, want)
	}
	// success false with no error is a failure all the same.
	silent := &client.Result{Summarization: &client.AddonResult[*string]{Success: false}}
	if got, want := addonFailures(silent, nil), "  - summarization: failed, the service gave no error"; len(got) != 1 || got[0] != want {
		t.Errorf("a failure without an error: lines %q, want [%q]", got, want)
	}
}

// What a job record says of a failed add-on reaches diagnostics as the
// service's error answers do: one printable, bounded line per add-on, where
// an exception's trace, with its newlines and terminal escapes, was shown
// whole.
func TestAddonFailures_printableAndBounded(t *testing.T) {
	trace := "Traceback (most recent call last):\n" + strings.Repeat("  File \"/srv/llm/worker.py\", line 42, in run\n", 200) + "\x1b[2J\x1b[31mRuntimeError\u202e"
	code := int64(500)
	job := &client.PreRecordedJob{JobCommon: client.JobCommon{
		ID: "j1", RequestID: "req-9\x1b[2J", Status: client.StatusError, ErrorCode: &code,
		Result: &client.Result{
			AudioToLLM:    &client.AddonResult[[]client.AudioToLLMResult]{Error: &client.AddonError{StatusCode: 500, Exception: trace, Message: "model\nfailed"}},
			Summarization: &client.AddonResult[*string]{Error: &client.AddonError{StatusCode: 502, Exception: "UpstreamError", Message: "LLM unavailable"}},
		},
	}}
	failures := addonFailures(job.Result, nil)
	if len(failures) != 2 {
		t.Fatalf("%d lines, want one per failed add-on: %q", len(failures), failures)
	}
	for _, line := range failures {
		if len(line) > 1200 {
			t.Errorf("a line of %d bytes: %.200q…", len(line), line)
		}
	}
	for _, text := range append(failures, jobFailureDetail(job)) {
		for _, r := range strings.ReplaceAll(text, "\n", "") {
			if !unicode.IsPrint(r) {
				t.Errorf("%U in %.300q", r, text)
				break
			}
		}
	}
	if line := failures[1]; !strings.HasPrefix(line, "  - audio_to_llm: status_code 500, Traceback (most recent call last): ") || !strings.HasSuffix(line, "…: model failed") {
		t.Errorf("the add-on's line lost what it said: %q", line)
	}
}

// TestJobDelete_timeoutWhileServiceFails: timeouts.delete running out while
// the client waits to send the DELETE again (the service answering 503
// with a Retry-After beyond it) is a timeout, named as such with the
// setting to raise: it said the operation was interrupted, as if by the
// user.
func TestJobDelete_timeoutWhileServiceFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		writeErrorBody(w, r, http.StatusServiceUnavailable, "req-1", "overloaded")
	}))
	t.Cleanup(srv.Close)
	resp := deleteJobWithin(context.Background(), t, client.Config{BaseURL: srv.URL}, "200ms")
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
	}
	e := resp.Diagnostics.Errors()[0]
	text := e.Summary() + "\n" + e.Detail()
	// A destroy's errors have no resource address: the job is named by its
	// id and audio_url, and raising the timeout is said to need an apply.
	for _, want := range []string{"Timed out deleting the transcription job 3fa85f64-5717-4562-b3fc-2c963f66afa6", "(audio_url https://media.example.com/calls/a.wav?…)",
		"200ms (timeouts.delete)", "503", "overloaded", "apply that change alone first", "terraform apply -refresh=false"} {
		if !strings.Contains(text, want) {
			t.Errorf("the error lacks %q:\n%s", want, text)
		}
	}
	for _, unwanted := range []string{"interrupted", "s3cr3t", "pa55"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("the error holds %q:\n%s", unwanted, text)
		}
	}
}

// TestJobDelete_interruptedWhileServiceFails: Ctrl-C while the client
// waits to send the failed DELETE again is an interrupt, not a timeout of
// timeouts.delete, which has not run out.
func TestJobDelete_interruptedWhileServiceFails(t *testing.T) {
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		writeErrorBody(w, r, http.StatusServiceUnavailable, "req-1", "overloaded")
		interrupt() // the user gives up while the client waits to try again
	}))
	t.Cleanup(srv.Close)
	resp := deleteJobWithin(ctx, t, client.Config{BaseURL: srv.URL}, "10m")
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
	}
	e := resp.Diagnostics.Errors()[0]
	text := e.Summary() + "\n" + e.Detail()
	if !strings.Contains(text, "interrupted") || strings.Contains(text, "timeouts.delete") || strings.Contains(text, "Timed out") {
		t.Errorf("the error does not say the deletion was interrupted, or blames timeouts.delete:\n%s", text)
	}
}

// TestJobDelete_deletedWhenTheAnswerIsCutShort: a DELETE the service
// answered 202 deleted the job, even when timeouts.delete runs out while
// the rest of the answer is on its way. The destroy failed, saying the job
// was not deleted and stayed in state, and the next one found it gone.
func TestJobDelete_deletedWhenTheAnswerIsCutShort(t *testing.T) {
	release := make(chan struct{})
	var deletes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deletes.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"id":`)
		w.(http.Flusher).Flush()
		<-release // the rest of the answer never comes before the deadline
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	var logged bytes.Buffer
	resp := deleteJobWithin(tflogtest.RootLogger(context.Background(), &logged), t, client.Config{BaseURL: srv.URL}, "200ms")
	if resp.Diagnostics.HasError() {
		t.Errorf("the job the service answered 202 for is reported not deleted: %v", resp.Diagnostics)
	}
	if n := deletes.Load(); n != 1 {
		t.Errorf("%d DELETE requests, want 1", n)
	}
	// The destroy's log says so, naming the job.
	entries, err := tflogtest.MultilineJSONDecode(&logged)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(entries, func(e map[string]any) bool {
		return e["@message"] == "deleted transcription job" && e["job_id"] == "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	}) {
		t.Errorf("no log line says the job was deleted, naming it: %v", entries)
	}
}

// TestJobDelete_connectTimeoutIsNotTheDeleteTimeout: a DELETE whose
// connection cannot be opened in time fails with an error that is also a
// context.DeadlineExceeded (net's timeouts are), long before
// timeouts.delete. It was reported as "could not be deleted within 10m
// (timeouts.delete)", advising to raise a limit that had not been reached.
func TestJobDelete_connectTimeoutIsNotTheDeleteTimeout(t *testing.T) {
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	// A deadline already past when the dial starts: the dial fails with
	// net's timeout at once, as one to an unreachable host would after the
	// connect timeout.
	resp := deleteJobWithin(context.Background(), t, client.Config{BaseURL: url, ConnectTimeout: time.Nanosecond, MaxRetries: -1}, "10m")
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
	}
	e := resp.Diagnostics.Errors()[0]
	text := e.Summary() + "\n" + e.Detail()
	if strings.Contains(text, "timeouts.delete") || strings.Contains(text, "Timed out deleting") {
		t.Errorf("a connection that timed out is reported as timeouts.delete running out:\n%s", text)
	}
	for _, want := range []string{"Cannot delete the transcription job", "cannot reach the transcription service", "i/o timeout"} {
		if !strings.Contains(text, want) {
			t.Errorf("the error lacks %q:\n%s", want, text)
		}
	}
}

// deleteJobWithin runs the job resource's Delete of a job in state, through
// a client of cfg (with the test API key), with timeouts.delete at
// deleteTimeout.
// deletedJobAudioURL is the audio_url of deleteJobWithin's job: its errors
// name the job by it, its credentials left out.
const deletedJobAudioURL = "https://user:pa55@media.example.com/calls/a.wav?sig=s3cr3t"

func deleteJobWithin(ctx context.Context, t *testing.T, cfg client.Config, deleteTimeout string) resource.DeleteResponse {
	t.Helper()
	cfg.APIKey = acctest.APIKey
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &jobResource{data: &ProviderData{Client: c}, poll: testPollSchedule}
	s := jobSchema(ctx)
	stateType, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the job's schema is not an object")
	}
	timeoutsType, ok := stateType.AttributeTypes["timeouts"].(tftypes.Object)
	if !ok {
		t.Fatal("timeouts is not an object")
	}
	state := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
		"id":        frameworktest.String("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
		"audio_url": frameworktest.String(deletedJobAudioURL),
		"timeouts": tftypes.NewValue(timeoutsType, map[string]tftypes.Value{
			"create": tftypes.NewValue(tftypes.String, nil),
			"read":   tftypes.NewValue(tftypes.String, nil),
			"delete": frameworktest.String(deleteTimeout),
		}),
	})}
	var resp resource.DeleteResponse
	r.Delete(ctx, resource.DeleteRequest{State: state}, &resp)
	return resp
}

// TestJobDelete_zeroDataRetentionDoesNotLook: a destroy under zero data
// retention that the service refuses while the job runs waits and deletes
// again, without looking at the job: the service lets no one read it.
func TestJobDelete_zeroDataRetentionDoesNotLook(t *testing.T) {
	clock := fakeserver.NewManualClock(time.Now())
	fs, url := acctest.FakeServer(t, fakeserver.Options{ZeroDataRetention: true, ProcessingTime: time.Hour, Clock: clock})
	server, schemas := startConfiguredProvider(t, url, map[string]tftypes.Value{"zero_data_retention": tftypes.NewValue(tftypes.Bool, true)})
	h := &protoHarness{tb: t, server: server, schemas: schemas, fake: fs, url: url}
	typ := h.resourceType(jobResourceTypeName)
	config := dynamicValue(t, typ, objectValue(typ, map[string]tftypes.Value{
		"audio_url": tftypes.NewValue(tftypes.String, shortAudio),
		"callback":  tftypes.NewValue(tftypes.Bool, true),
		"callback_config": objectValue(typ.AttributeTypes["callback_config"].(tftypes.Object), map[string]tftypes.Value{
			"url": tftypes.NewValue(tftypes.String, "https://hooks.example.com/x"),
		}),
	}))
	null := dynamicValue(t, typ, tftypes.NewValue(typ, nil))
	state := h.applyChange(jobResourceTypeName, &null, h.planChange(jobResourceTypeName, &null, &config, &config).PlannedState, &config).NewState
	var id string
	if err := objectAttributes(t, typ, state)["id"].As(&id); err != nil {
		t.Fatal(err)
	}
	refused := func() bool { return slices.Contains(acctest.DeleteAnswers(fs, id), http.StatusForbidden) }
	acctest.WhenTrue(t, refused, func() { clock.Advance(2 * time.Hour) })

	h.applyChange(jobResourceTypeName, state, &null, &null)
	if got := acctest.DeleteAnswers(fs, id); len(got) < 2 || got[0] != http.StatusForbidden || got[len(got)-1] != http.StatusAccepted {
		t.Errorf("DELETE answers %v, want a 403 while the job ran, then 202", got)
	}
	for _, r := range fs.Requests() {
		if r.Method == http.MethodGet {
			t.Errorf("the destroy looked at the job (%s %s) under zero data retention", r.Method, r.Path)
		}
	}
}

// A destroy interrupted while its DELETE awaits the answer says that the
// service may have deleted the job, and that the next destroy settles it,
// where it showed the bare "context canceled".
func TestJobDelete_interruptedInFlight(t *testing.T) {
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			interrupt() // the service has the request; its answer is not read
			time.Sleep(200 * time.Millisecond)
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(srv.Close)
	resp := deleteJobWithin(ctx, t, client.Config{BaseURL: srv.URL, MaxRetries: -1}, "1m")
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
	}
	if d := resp.Diagnostics.Errors()[0]; !strings.HasPrefix(d.Summary(), "Interrupted while deleting the transcription job") || !strings.Contains(d.Detail(), "may have deleted the job") || !strings.Contains(d.Detail(), "next terraform destroy") {
		t.Errorf("got %q: %q", d.Summary(), d.Detail())
	}
}

// A destroy interrupted between tries of its DELETE says what the last try
// may have done: a 502 may have deleted the job, a 503 (turned away) has not.
func TestJobDelete_interruptedBetweenTries(t *testing.T) {
	for status, want := range map[int]string{
		http.StatusBadGateway:         "may have deleted the job",
		http.StatusServiceUnavailable: "the job is not deleted",
	} {
		ctx, interrupt := context.WithCancel(context.Background())
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodDelete {
				time.AfterFunc(100*time.Millisecond, interrupt) // during the wait before the next try
				writeErrorBody(w, r, status, "req-1", "failed")
			}
		}))
		resp := deleteJobWithin(ctx, t, client.Config{BaseURL: srv.URL, MaxRetries: 3}, "1m")
		srv.Close()
		interrupt()
		if resp.Diagnostics.ErrorsCount() != 1 || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), want) {
			t.Errorf("DELETE answered %d, then interrupted: %v, want an error saying %q", status, resp.Diagnostics, want)
		}
	}
}

// TestJobRefresh_timeoutWhileServiceFails: a refresh is bounded by
// timeouts.read, named in the error with what becomes of the job, also the
// look that checks an ended job still exists; it was bounded only by the
// retries of one request (with Retry-After up to 5 minutes each, 40 minutes
// at the default max_retries).
func TestJobRefresh_timeoutWhileServiceFails(t *testing.T) {
	ctx := context.Background()
	c := overloadedServiceClient(t)
	for _, tc := range []struct {
		name, audioURL, status, kept string
	}{
		{"refresh", "https://example.com/standup.wav", client.StatusProcessing, "The job stays in state as last read."},
		{"import", "", client.StatusProcessing, "Nothing is imported."},
		// An ended job is only checked for existence, also within the bound.
		{"ended job", "https://example.com/standup.wav", client.StatusDone, "The job stays in state as last read."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			audioURL := tftypes.NewValue(tftypes.String, nil)
			if tc.audioURL != "" {
				audioURL = frameworktest.String(tc.audioURL)
			}
			resp := readJobState(ctx, t, &ProviderData{Client: c}, map[string]tftypes.Value{
				"id":        frameworktest.String("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
				"audio_url": audioURL,
				"status":    frameworktest.String(tc.status),
				"retained":  frameworktest.Bool(true),
				"timeouts":  objectValue(jobTimeoutsType(ctx), map[string]tftypes.Value{"read": frameworktest.String("200ms")}),
			})
			if resp.Diagnostics.ErrorsCount() != 1 {
				t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
			}
			e := resp.Diagnostics.Errors()[0]
			text := e.Summary() + "\n" + e.Detail()
			for _, want := range []string{"Timed out reading the transcription job", "200ms (timeouts.read)", "503", "overloaded", tc.kept} {
				if !strings.Contains(text, want) {
					t.Errorf("the error lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// readJobState runs the job resource's Read, with data, of a state holding
// values (every other attribute null).
func readJobState(ctx context.Context, t *testing.T, data *ProviderData, values map[string]tftypes.Value) resource.ReadResponse {
	t.Helper()
	r := &jobResource{data: data, poll: testPollSchedule}
	s := jobSchema(ctx)
	var idResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &idResp)
	state := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), values)}
	resp := resource.ReadResponse{
		State:    state,
		Identity: &tfsdk.ResourceIdentity{Schema: idResp.IdentitySchema, Raw: tftypes.NewValue(idResp.IdentitySchema.Type().TerraformType(ctx), nil)},
	}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	return resp
}

// jobTimeoutsType is the Terraform type of the job resource's timeouts.
func jobTimeoutsType(ctx context.Context) tftypes.Object {
	return jobSchema(ctx).Type().TerraformType(ctx).(tftypes.Object).AttributeTypes["timeouts"].(tftypes.Object)
}

// TestJobRefresh_stoppedProvider: a refresh ends when the provider is
// stopped by a signal (ProviderData.untilStopped), that of an ended job
// too, which went on retrying on Terraform 1.8 and OpenTofu, whose apply
// sends no stop while it plans.
func TestJobRefresh_stoppedProvider(t *testing.T) {
	ctx := context.Background()
	c := overloadedServiceClient(t)
	stopped, stop := context.WithCancel(ctx)
	stop()
	for _, status := range []string{client.StatusProcessing, client.StatusDone} {
		t.Run(status, func(t *testing.T) {
			done := make(chan resource.ReadResponse, 1)
			go func() {
				done <- readJobState(ctx, t, &ProviderData{Client: c, stopped: stopped}, map[string]tftypes.Value{
					"id":        frameworktest.String("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
					"audio_url": frameworktest.String("https://example.com/standup.wav"),
					"status":    frameworktest.String(status),
					"retained":  frameworktest.Bool(true),
				})
			}()
			select {
			case resp := <-done:
				if !resp.Diagnostics.HasError() {
					t.Errorf("a stopped refresh succeeded: %v", resp.Diagnostics)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the refresh still ran 10 s after the provider was stopped")
			}
		})
	}
}

// overloadedServiceClient is a client of a service that answers every
// request 503 with Retry-After: 3600, which the client would wait out
// (5 minutes a try, its cap) through all its retries.
func overloadedServiceClient(t *testing.T) *client.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		writeErrorBody(w, r, http.StatusServiceUnavailable, "req-1", "overloaded")
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestJobUpdate_readBoundedByTimeoutsRead: an update that reads a running
// job again (its computed values planned unknown) is bounded by the
// timeouts.read it applies, as a refresh is by the one in state: the way
// out of a refresh that timed out (apply a higher value with -refresh=false)
// read without any bound.
func TestJobUpdate_readBoundedByTimeoutsRead(t *testing.T) {
	ctx := context.Background()
	c := overloadedServiceClient(t)
	r := &jobResource{data: &ProviderData{Client: c}, poll: testPollSchedule}
	s := jobSchema(ctx)
	var idResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &idResp)
	job := func(status tftypes.Value, read string) tftypes.Value {
		return frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
			"id":        frameworktest.String("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
			"audio_url": frameworktest.String("https://example.com/standup.wav"),
			"status":    status,
			"retained":  frameworktest.Bool(true),
			"timeouts":  objectValue(jobTimeoutsType(ctx), map[string]tftypes.Value{"read": frameworktest.String(read)}),
		})
	}
	state := tfsdk.State{Schema: s, Raw: job(frameworktest.String(client.StatusProcessing), "1h")}
	plan := tfsdk.Plan{Schema: s, Raw: job(tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "200ms")}
	resp := resource.UpdateResponse{
		State:    state,
		Identity: &tfsdk.ResourceIdentity{Schema: idResp.IdentitySchema, Raw: tftypes.NewValue(idResp.IdentitySchema.Type().TerraformType(ctx), nil)},
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Update(ctx, resource.UpdateRequest{Plan: plan, State: state, Config: tfsdk.Config{Schema: s, Raw: plan.Raw}}, &resp)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the update's read still ran 10 s later, past the 200ms of timeouts.read")
	}
	if text := fmt.Sprint(resp.Diagnostics); !strings.Contains(text, "200ms (timeouts.read)") {
		t.Errorf("diagnostics %s, want the timeout of timeouts.read", text)
	}
}

// TestJobCreateAndDelete_stoppedProvider: a create's wait, and a destroy's
// wait for a running job, end when the provider is stopped by a signal
// (ProviderData.untilStopped), the created job's id kept in state: a
// terminal's Ctrl-C reaches the provider with the CLI, whose StopProvider
// does not reach a create it sends after it (the CLI printed "Creating..."
// when interrupted), which waited on for timeouts.create, an hour.
func TestJobCreateAndDelete_stoppedProvider(t *testing.T) {
	ctx := context.Background()
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	polled := func() bool {
		return slices.ContainsFunc(fs.Requests(), func(r fakeserver.RecordedRequest) bool {
			return r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v2/pre-recorded/")
		})
	}
	stopped, stop := context.WithCancel(ctx)
	acctest.WhenTrue(t, polled, stop)
	r := &jobResource{data: &ProviderData{Client: c, stopped: stopped}, poll: testPollSchedule}
	var resp resource.CreateResponse
	within(t, "the create", func() {
		resp = createJobInProcess(t, r, func(tftypes.Object) map[string]tftypes.Value {
			return map[string]tftypes.Value{
				"audio_url":           frameworktest.String("https://example.com/standup.wav"),
				"wait_for_completion": tftypes.NewValue(tftypes.Bool, true),
			}
		})
	})
	if !resp.Diagnostics.HasError() || resp.Diagnostics.Errors()[0].Summary() != "Interrupted while waiting for the transcription job" {
		t.Fatalf("diagnostics %v, want the wait's interruption", resp.Diagnostics)
	}
	var id types.String
	resp.State.GetAttribute(ctx, path.Root("id"), &id)
	if _, ok := fs.Job(id.ValueString()); !ok {
		t.Fatalf("state holds id %s, not the service's job", id)
	}

	// The destroy of that running job waits for it to become deletable.
	r.data.stopped, stop = context.WithCancel(ctx)
	fs.ResetRequests()
	deleted := func() bool {
		return slices.ContainsFunc(fs.Requests(), func(r fakeserver.RecordedRequest) bool { return r.Method == http.MethodDelete })
	}
	acctest.WhenTrue(t, deleted, stop)
	delResp := resource.DeleteResponse{State: resp.State}
	within(t, "the destroy", func() { r.Delete(ctx, resource.DeleteRequest{State: resp.State}, &delResp) })
	if !delResp.Diagnostics.HasError() {
		t.Errorf("a stopped destroy of a running job succeeded: %v", delResp.Diagnostics)
	}
	if _, ok := fs.Job(id.ValueString()); !ok {
		t.Error("the running job is gone from the service")
	}
}

// createJobInProcess runs r's Create, as the framework would, for the
// configuration set gives (from the job's type) and returns its response.
func createJobInProcess(t *testing.T, r *jobResource, set func(typ tftypes.Object) map[string]tftypes.Value) resource.CreateResponse {
	t.Helper()
	ctx := context.Background()
	s := jobSchema(ctx)
	var idResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &idResp)
	typ := s.Type().TerraformType(ctx).(tftypes.Object)
	raw := frameworktest.Object(t, s.Type(), set(typ))
	resp := resource.CreateResponse{
		State:    tfsdk.State{Schema: s, Raw: tftypes.NewValue(typ, nil)},
		Identity: &tfsdk.ResourceIdentity{Schema: idResp.IdentitySchema, Raw: tftypes.NewValue(idResp.IdentitySchema.Type().TerraformType(ctx), nil)},
	}
	r.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan{Schema: s, Raw: raw}, Config: tfsdk.Config{Schema: s, Raw: raw}}, &resp)
	return resp
}

// within runs f, failing the test if it still runs 10 s on.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s still ran 10 s after the provider was stopped", what)
	}
}

// TestJobUpdate_firstSeesTheJob: an update whose plan was made before the
// job ended (a saved plan, -refresh=false) and that reads it is the read
// that first sees it done, and warns of its failed add-ons as a refresh
// would; and a job whose create could not read it (retained and status
// null) is read, not taken for gone ("Result not available").
func TestJobUpdate_firstSeesTheJob(t *testing.T) {
	ctx := context.Background()
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/addon-error-500.wav", Summarization: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	fs.SettleJobs()
	r := &jobResource{data: &ProviderData{Client: c}, poll: testPollSchedule}
	s := jobSchema(ctx)
	var idResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &idResp)
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	for name, prior := range map[string]map[string]tftypes.Value{
		"last seen processing": {"status": frameworktest.String(client.StatusProcessing), "retained": frameworktest.Bool(true)},
		"never read":           {},
	} {
		t.Run(name, func(t *testing.T) {
			values := func(more map[string]tftypes.Value) tftypes.Value {
				v := map[string]tftypes.Value{
					"id":            frameworktest.String(created.ID),
					"audio_url":     frameworktest.String("https://example.com/addon-error-500.wav"),
					"summarization": frameworktest.Bool(true),
				}
				maps.Copy(v, more)
				return frameworktest.Object(t, s.Type(), v)
			}
			state := tfsdk.State{Schema: s, Raw: values(prior)}
			plan := tfsdk.Plan{Schema: s, Raw: values(map[string]tftypes.Value{"status": unknown, "include_transcript": frameworktest.Bool(true)})}
			resp := resource.UpdateResponse{
				State:    state,
				Identity: &tfsdk.ResourceIdentity{Schema: idResp.IdentitySchema, Raw: tftypes.NewValue(idResp.IdentitySchema.Type().TerraformType(ctx), nil)},
			}
			r.Update(ctx, resource.UpdateRequest{Plan: plan, State: state, Config: tfsdk.Config{Schema: s, Raw: plan.Raw}}, &resp)
			summaries := fmt.Sprint(resp.Diagnostics)
			if resp.Diagnostics.HasError() || !strings.Contains(summaries, "Some add-ons of the transcription job failed") || strings.Contains(summaries, "Result not available") {
				t.Errorf("diagnostics %s, want only the warning of the failed add-ons", summaries)
			}
			var status types.String
			resp.State.GetAttribute(ctx, path.Root("status"), &status)
			if status.ValueString() != client.StatusDone {
				t.Errorf("status %s in state, want done: the job was not read", status)
			}
		})
	}
}

// rateLimitedOnce serves fs, answering the first look at a job (a GET of
// /v2/pre-recorded/{id}) 429 with a Retry-After of 1 s, and records when
// each request came.
type rateLimitedOnce struct {
	fs      *fakeserver.Server
	limited atomic.Bool
	mu      sync.Mutex
	came    []time.Time // when each request came
	at      int         // the index in came of the 429's request
}

func (h *rateLimitedOnce) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.came = append(h.came, time.Now())
	i := len(h.came) - 1
	h.mu.Unlock()
	if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") && h.limited.CompareAndSwap(false, true) {
		h.mu.Lock()
		h.at = i
		h.mu.Unlock()
		w.Header().Set("Retry-After", "1")
		writeErrorBody(w, r, http.StatusTooManyRequests, "limited-1", "too many requests")
		return
	}
	h.fs.ServeHTTP(w, r)
}

// gapAfterLimit is the time between the 429 and the request after it.
func (h *rateLimitedOnce) gapAfterLimit(t *testing.T) time.Duration {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.limited.Load() || h.at+1 >= len(h.came) {
		t.Fatalf("no request after the 429 (%d requests)", len(h.came))
	}
	return h.came[h.at+1].Sub(h.came[h.at])
}

func rateLimitedOnceClient(t *testing.T, processing time.Duration) (*client.Client, *rateLimitedOnce) {
	t.Helper()
	h := &rateLimitedOnce{fs: fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: processing})}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.fs.Close() })
	// No retries of the client's own (max_retries = 0): the 429 reaches
	// the wait at once.
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c, h
}

// TestWaitForFinalJob_keepsToRetryAfter: a look answered 429 once the
// client's retries are spent is followed by the next one no sooner than
// its Retry-After asked, not on the wait's schedule (5 ms here; 250 ms
// by default), for every job of a batch.
func TestWaitForFinalJob_keepsToRetryAfter(t *testing.T) {
	c, h := rateLimitedOnceClient(t, 100*time.Millisecond)
	id := createTestJob(t, c, "https://example.com/a.wav")
	if _, err := waitForFinalJob(boundedContext(t), c, id, testPollSchedule, client.FullDetail, nil); err != nil {
		t.Fatal(err)
	}
	if gap := h.gapAfterLimit(t); gap < time.Second {
		t.Errorf("the next look came %s after a 429 asking for 1s", gap)
	}
}

// TestDeleteJob_keepsToRetryAfterOfALook: the same for the looks of a
// deletion waiting for its job to end.
func TestDeleteJob_keepsToRetryAfterOfALook(t *testing.T) {
	c, h := rateLimitedOnceClient(t, 300*time.Millisecond)
	id := createTestJob(t, c, "https://example.com/a.wav")
	if err := deleteJob(boundedContext(t), c, id, testPollSchedule, false, ""); err != nil {
		t.Fatal(err)
	}
	if gap := h.gapAfterLimit(t); gap < time.Second {
		t.Errorf("the next request came %s after a 429 asking for 1s", gap)
	}
}

// A job with every add-on on, all of them succeeding, is read with no
// failure named (addonFailures counts a success false without an error as
// a failure: the fake server must write success as the service does), and
// with none of them failed, its translations named by their languages.
func TestAddonFailures_noneForAJobWithEveryAddon(t *testing.T) {
	c, _ := testClient(t, fakeserver.Options{ProcessingTime: time.Nanosecond})
	ctx := boundedContext(t)
	on := func() *bool { b := true; return &b }
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{
		AudioURL:               "https://example.com/every-addon.wav",
		Subtitles:              on(),
		Translation:            on(),
		TranslationConfig:      &client.TranslationConfig{TargetLanguages: []string{"fr", "ja"}},
		Summarization:          on(),
		NamedEntityRecognition: on(),
		SentimentAnalysis:      on(),
		AudioToLLM:             on(),
		AudioToLLMConfig:       &client.AudioToLLMConfig{Prompts: []string{"What is said?", "List the action items."}},
		Sentences:              on(),
		Diarization:            on(),
	})
	if err != nil {
		t.Fatal(err)
	}
	var job *client.PreRecordedJob
	for job == nil || job.Status != client.StatusDone {
		time.Sleep(10 * time.Millisecond)
		if job, err = c.GetPreRecorded(ctx, created.ID, client.WithRawResult); err != nil {
			t.Fatal(err)
		}
	}
	r := job.Result
	if r == nil || r.Transcription == nil || len(r.Transcription.Sentences) == 0 || r.AudioToLLM == nil || len(r.AudioToLLM.Results) != 2 || r.Translation == nil || len(r.Translation.Results) != 2 {
		t.Fatalf("a result without every add-on: %s", job.Result.JSON)
	}
	if lines := addonFailures(r, nil); len(lines) != 0 {
		t.Errorf("add-ons that succeeded named as failed: %q", lines)
	}
}
