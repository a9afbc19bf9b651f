package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/numtypes"
)

// The service misbehaving: rate limits and 5xx under load, an ambiguous
// create, an outage when an apply starts and one while jobs are waited on.
// The fake server counts every job it creates, so each test checks that no
// fault leads to a duplicate (billed) job or to a job Terraform lost track of.

// accListener serves a fake server for one acceptance test through a
// fakeserver.Listener, which the test can take down and bring back on the
// same address. middleware, when given, wraps the fake server.
func accListener(t *testing.T, opts fakeserver.Options, middleware ...func(http.Handler) http.Handler) (*fakeserver.Server, *fakeserver.Listener) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = acctest.APIKey
	}
	fs := fakeserver.New(opts)
	var h http.Handler = fs
	for _, m := range middleware {
		h = m(h)
	}
	l, err := fakeserver.Serve("127.0.0.1:0", h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close(); fs.Close() })
	return fs, l
}

// countedJobs is count jobs of one resource, each with its own recording.
func countedJobs(name string, count int) string {
	return acctest.JobConfig(name, fmt.Sprintf("count = %d\naudio_url = \"https://example.com/%s-${count.index}.wav\"", count, name))
}

// stateJobIDs returns the ids of every transcription_job instance in state,
// by address, and whether each is tainted.
func stateJobIDs(s *terraform.State) (ids map[string]string, tainted map[string]bool) {
	ids, tainted = map[string]string{}, map[string]bool{}
	for addr, rs := range s.RootModule().Resources {
		if rs.Type == "transcription_job" && rs.Primary != nil {
			ids[addr] = rs.Primary.ID
			tainted[addr] = rs.Primary.Tainted
		}
	}
	return ids, tainted
}

// checkOneJobPerResource checks that state and service agree: want
// transcription_job instances in state, each with its own id, each id a job
// the service has, and no other job on the service.
func checkOneJobPerResource(fs *fakeserver.Server, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ids, _ := stateJobIDs(s)
		if len(ids) != want {
			return fmt.Errorf("%d jobs in state, want %d", len(ids), want)
		}
		owner := map[string]string{}
		for addr, id := range ids {
			if other, dup := owner[id]; dup {
				return fmt.Errorf("%s and %s have the same job %s", addr, other, id)
			}
			owner[id] = addr
			if _, ok := fs.Job(id); !ok {
				return fmt.Errorf("%s has job %s, which the service does not have", addr, id)
			}
		}
		if n := fs.JobCount(); n != want {
			return fmt.Errorf("the service has %d jobs, want %d: some are not in state", n, want)
		}
		return nil
	}
}

// createdAudioURLs counts the accepted creates per audio_url.
func createdAudioURLs(fs *fakeserver.Server) map[string]int {
	counts := map[string]int{}
	for _, body := range fs.CreateBodies() {
		var req struct {
			AudioURL string `json:"audio_url"`
		}
		_ = json.Unmarshal(body, &req)
		counts[req.AudioURL]++
	}
	return counts
}

// duplicates lists the recordings the service created more than one job for.
func duplicates(counts map[string]int) []string {
	var dups []string
	for url, n := range counts {
		if n > 1 {
			dups = append(dups, fmt.Sprintf("%s ×%d", url, n))
		}
	}
	sort.Strings(dups)
	return dups
}

// answers counts the recorded answers by method, path class and status,
// e.g. "POST /v2/pre-recorded 429".
func answers(fs *fakeserver.Server) map[string]int {
	counts := map[string]int{}
	for _, r := range fs.Requests() {
		path := r.Path
		if strings.HasPrefix(path, "/v2/pre-recorded/") {
			path = "/v2/pre-recorded/{id}"
		}
		counts[fmt.Sprintf("%s %s %d", r.Method, path, r.Status)]++
	}
	return counts
}

func logAnswers(t *testing.T, counts map[string]int) {
	t.Helper()
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %-36s %5d", k, counts[k])
	}
}

// failCreates answers 500, before the fake server sees it, the first create
// whose body contains marker: a failure after which the client cannot know
// whether the job exists. It records how many such creates arrived.
type failCreates struct {
	marker string
	mu     sync.Mutex
	armed  bool
	seen   int
}

func (f *failCreates) arm() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.armed = true
}

func (f *failCreates) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen
}

func (f *failCreates) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v2/pre-recorded" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(f.marker)) {
				f.mu.Lock()
				f.seen++
				fail := f.armed
				f.armed = false
				f.mu.Unlock()
				if fail {
					writeErrorBody(w, r, http.StatusInternalServerError, "ambiguous-1", "upstream connection reset")
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// TestAccFaults_loadWithRateLimitsAndUnavailability applies 50 jobs at the
// CLI's default parallelism while a fifth of all requests are answered 429
// (Retry-After: 1) or 503: every call rides the faults out, and the service
// ends with exactly one job per resource, the one in state.
func TestAccFaults_loadWithRateLimitsAndUnavailability(t *testing.T) {
	const jobs = 50
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	faults := fakeserver.Faults{RateLimitRatio: 0.1, RetryAfter: 1, ServerErrorRatio: 0.1, ServerErrorStatus: http.StatusServiceUnavailable, Seed: 6}
	var start time.Time
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				fs.SetFaults(faults)
				start = time.Now()
			},
			Config: acctest.ProviderConfig(url) + countedJobs("load", jobs),
			Check: resource.ComposeTestCheckFunc(
				checkOneJobPerResource(fs, jobs),
				func(*terraform.State) error {
					st, byAnswer, created := fs.Stats(), answers(fs), createdAudioURLs(fs)
					t.Logf("%d jobs under faults (429 ratio %.2f with Retry-After %ds, 503 ratio %.2f), applied in %s:",
						jobs, faults.RateLimitRatio, faults.RetryAfter, faults.ServerErrorRatio, time.Since(start).Round(time.Millisecond))
					t.Logf("  requests %d, injected 429 %d, injected 503 %d, jobs created %d, jobs on the service %d, recordings %d, duplicates %d",
						st.Requests, st.RateLimited, st.ServerErrors, st.JobsCreated, fs.JobCount(), len(created), len(duplicates(created)))
					logAnswers(t, byAnswer)
					if dups := duplicates(created); len(dups) > 0 || len(created) != jobs {
						return fmt.Errorf("%d recordings created, want %d; duplicates: %v", len(created), jobs, dups)
					}
					if st.JobsCreated != jobs {
						return fmt.Errorf("%d jobs created, want %d", st.JobsCreated, jobs)
					}
					// Both kinds of fault, and some on creates, or the test
					// proves nothing about them. (Which requests fault
					// depends on their order; no fault at all on 50 creates
					// has a chance of 0.8^50, about 1e-5.)
					if byAnswer["POST /v2/pre-recorded 429"]+byAnswer["POST /v2/pre-recorded 503"] == 0 {
						return errors.New("no create was answered 429 or 503: the faults did not reach creates")
					}
					if st.RateLimited == 0 || st.ServerErrors == 0 {
						return fmt.Errorf("%d 429s and %d 503s injected, want some of each", st.RateLimited, st.ServerErrors)
					}
					return nil
				},
			),
		}},
	})
}

// TestAccFaults_ambiguousCreate: a create answered 500 may or may not have
// made a job. The client does not retry it; the apply fails naming the
// status and saying the job may exist, nothing is saved for it, the other
// jobs are created; the next apply creates it exactly once.
func TestAccFaults_ambiguousCreate(t *testing.T) {
	const steady = 3
	ambiguous := &failCreates{marker: "ambiguous.wav"}
	ambiguous.arm()
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: testAccProcessingTime}, ambiguous.wrap)
	config := acctest.ProviderConfig(l.URL()) + countedJobs("steady", steady) + acctest.JobConfig("ambiguous", `audio_url = "https://example.com/ambiguous.wav"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: acctest.ExpectError(`(?s)Cannot create the transcription job.*POST /v2/pre-recorded with status 500 \(Internal Server Error\): upstream connection reset.*may have created the job before this failure.*does not send the request again`),
			},
			{
				// Nothing was saved for it: the plan creates it; the others,
				// created by the failed apply, stay.
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.ambiguous", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction("transcription_job.steady[0]", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("transcription_job.steady[2]", plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(
					checkOneJobPerResource(fs, steady+1),
					func(*terraform.State) error {
						if n := ambiguous.count(); n != 2 {
							return fmt.Errorf("%d creates of the ambiguous job arrived, want 2: the one answered 500 (never retried) and the next apply's", n)
						}
						created := createdAudioURLs(fs)
						if n := created["https://example.com/ambiguous.wav"]; n != 1 {
							return fmt.Errorf("the service created the ambiguous job %d times, want 1", n)
						}
						t.Logf("ambiguous create: answered 500 once, not retried, created once by the next apply; %d jobs on the service, duplicates %d",
							fs.JobCount(), len(duplicates(created)))
						return nil
					},
				),
			},
		},
	})
}

// failFirstRead answers 503, before the fake server sees it, the first
// GET of a pre-recorded job's record.
type failFirstRead struct {
	mu     sync.Mutex
	failed bool
}

func (f *failFirstRead) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") {
			f.mu.Lock()
			fail := !f.failed
			f.failed = true
			f.mu.Unlock()
			if fail {
				writeErrorBody(w, r, http.StatusServiceUnavailable, "unavailable-1", "the service is temporarily unable to handle the request")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// TestAccFaults_readFailsAfterSubmitWithoutWaiting: a job submitted with
// wait_for_completion = false whose first read fails is submitted all the
// same: the apply succeeds with a warning and the job stays in state, not
// tainted (a replacement would bill it again); the next refresh reads it.
func TestAccFaults_readFailsAfterSubmitWithoutWaiting(t *testing.T) {
	const addr = "transcription_job.unwaited"
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: testAccProcessingTime}, (&failFirstRead{}).wrap)
	config := acctest.ProviderConfig(l.URL(), "max_retries = 0") + acctest.JobConfig("unwaited", `audio_url = "https://example.com/unwaited.wav"
wait_for_completion = false`)
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", acctest.CaptureTo(&id)),
					func(s *terraform.State) error {
						if _, tainted := stateJobIDs(s); tainted[addr] {
							return fmt.Errorf("%s is tainted: the next apply would replace it", addr)
						}
						return nil
					},
					acctest.JobsCreated(fs, 1),
				),
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
						if v != id {
							return fmt.Errorf("id %q, want the submitted job %q", v, id)
						}
						return nil
					}),
					resource.TestCheckResourceAttrSet(addr, "status"),
					acctest.JobsCreated(fs, 1),
				),
			},
		},
	})
}

// TestAccFaults_readsFailAfterABatchSubmittedWithoutWaiting: when the
// service fails the first read of every job of a batch submitted without
// waiting, the CLI shows one warning and counts the others, as it does for
// warnings of one summary; the summary named each job's id, so a batch of
// 200 jobs printed 200 warnings.
func TestAccFaults_readsFailAfterABatchSubmittedWithoutWaiting(t *testing.T) {
	const jobs = 3
	failReads := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") {
				writeErrorBody(w, r, http.StatusServiceUnavailable, "unavailable-1", "the service is temporarily unable to handle the request")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: testAccProcessingTime}, failReads)
	w := newCLIWorkspace(t, acctest.ProviderConfig(l.URL(), "max_retries = 0")+
		acctest.JobConfig("batch", fmt.Sprintf("count = %d\naudio_url = \"https://example.com/batch-${count.index}.wav\"\nwait_for_completion = false", jobs)))
	stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("apply: %v\n%s%s", err, stdout, stderr)
	}
	output := stdout + stderr
	if n := strings.Count(output, "Warning: Cannot read the submitted transcription job"); n != 1 {
		t.Errorf("%d warnings about the failed reads, want 1 for the batch:\n%s", n, output)
	}
	if !strings.Contains(output, fmt.Sprintf("(and %d more similar warnings elsewhere)", jobs-1)) {
		t.Errorf("the warning does not count the other jobs:\n%s", output)
	}
	ids, _ := w.stateJobs()
	if len(ids) != jobs || fs.JobCount() != jobs {
		t.Errorf("%d jobs in state, %d on the service, want %d", len(ids), fs.JobCount(), jobs)
	}
	for _, id := range ids {
		if strings.Contains(output, "Job "+id+" is submitted and saved in state") {
			return // the warning shown names its job
		}
	}
	t.Errorf("the warning names none of the jobs in state %v:\n%s", ids, output)
}

// TestAccFaults_serviceDownAtStart: with the service unreachable when the
// apply starts, creates fail with an error saying so and nothing enters
// state; once the service is back on the same address, the next apply
// creates every job once.
func TestAccFaults_serviceDownAtStart(t *testing.T) {
	const jobs = 3
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: testAccProcessingTime})
	config := acctest.ProviderConfig(l.URL(), "max_retries = 2") + countedJobs("outage", jobs)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { mustDo(t, l.Down) },
				Config:      config,
				ExpectError: acctest.ExpectError(`(?s)Cannot create the transcription job.*POST /v2/pre-recorded at http://127.0.0.1:[0-9]+: cannot reach the transcription service.*connection refused.*Check base_url`),
			},
			{
				PreConfig: func() {
					if n := len(fs.Requests()); n != 0 {
						t.Errorf("the service received %d requests while down", n)
					}
					mustDo(t, l.Up)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.outage[0]", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction("transcription_job.outage[1]", plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction("transcription_job.outage[2]", plancheck.ResourceActionCreate),
				}},
				Check: resource.ComposeTestCheckFunc(
					checkOneJobPerResource(fs, jobs),
					func(*terraform.State) error {
						if n := fs.Stats().JobsCreated; n != jobs {
							return fmt.Errorf("%d jobs created, want %d", n, jobs)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccFaults_serviceFailsWhileWaiting: the service fails every request
// (503) once every job is created and being waited on, for longer than one
// request's retries, then recovers. The waits ride the failures out: the
// apply succeeds with each job created once, none tainted or replaced.
func TestAccFaults_serviceFailsWhileWaiting(t *testing.T) {
	const jobs, retries = 3, 1
	clock := fakeserver.NewManualClock(time.Now())
	// The clock stands still until the recovery: jobs stay queued meanwhile.
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: clock})
	failedLooks := func() int {
		n := 0
		for _, r := range fs.Requests() {
			if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v2/pre-recorded/") && r.Status == http.StatusServiceUnavailable {
				n++
			}
		}
		return n
	}
	// More failed looks than the tries of one look at each job: waits went
	// on past a look that failed for good.
	const outlasting = jobs*(1+retries) + jobs
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				acctest.WhenTrue(t, func() bool { return len(polledJobs(fs)) == jobs }, func() {
					fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1})
					acctest.WhenTrue(t, func() bool { return failedLooks() >= outlasting }, func() {
						fs.SetFaults(fakeserver.Faults{})
						clock.Advance(2 * time.Hour)
					})
				})
			},
			Config: acctest.ProviderConfig(url, fmt.Sprintf("max_retries = %d", retries)) + countedJobs("waiting", jobs),
			Check: resource.ComposeTestCheckFunc(
				checkOneJobPerResource(fs, jobs),
				resource.TestCheckResourceAttr("transcription_job.waiting.0", "status", client.StatusDone),
				func(s *terraform.State) error {
					if _, tainted := stateJobIDs(s); tainted["transcription_job.waiting.0"] {
						return errors.New("a job is tainted")
					}
					if n := fs.Stats().JobsCreated; n != jobs {
						return fmt.Errorf("%d jobs created, want %d", n, jobs)
					}
					if n := failedLooks(); n < outlasting {
						return fmt.Errorf("%d looks failed, want at least %d", n, outlasting)
					}
					return nil
				},
			),
		}},
	})
}

// TestAccFaults_serviceDownWhenTheWaitEnds: the service goes down once
// every job is created and being waited on, and is still down when
// timeouts.create runs out. The apply fails saying so and quoting the
// service's last failure; every job is in state, tainted. Once the service
// is back, the next apply replaces them: each old job is deleted on the
// service and exactly one new job per resource remains.
func TestAccFaults_serviceDownWhenTheWaitEnds(t *testing.T) {
	const jobs = 3
	clock := fakeserver.NewManualClock(time.Now())
	// The clock stands still until the recovery: jobs stay queued, so the
	// wait can only end by its timeout.
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: time.Hour, Clock: clock})
	jobsConfig := func(timeout string) string {
		return acctest.ProviderConfig(l.URL(), "max_retries = 1") + acctest.JobConfig("waiting",
			fmt.Sprintf("count = %d\naudio_url = \"https://example.com/waiting-${count.index}.wav\"\ntimeouts = { create = %q }", jobs, timeout))
	}
	var firstIDs map[string]string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// Terraform 1.16 crashes now and then (2 runs in 30 here) when
		// several creates fail at once with a partial state: saving the
		// state, it finds a failed instance with no status ("has status
		// ObjectStatus(0), which cannot be saved in state"). Where 1.8
		// taints the object apply returned before writing it, 1.16 writes
		// a tainted copy and then that object, whose status apply copied
		// from the object it started from (empty for a create). Terraform
		// 1.8 and OpenTofu run this test.
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{
			tfversion.SkipBetween(version.Must(version.NewVersion("1.16.0")), version.Must(version.NewVersion("1.17.0"))),
		},
		Steps: []resource.TestStep{
			{
				// Down once the provider has read every job: it then holds
				// each id, and each create has been answered.
				PreConfig: func() {
					acctest.WhenTrue(t, func() bool { return len(polledJobs(fs)) == jobs }, func() { mustDo(t, l.Down) })
				},
				Config:      jobsConfig("3s"),
				ExpectError: acctest.ExpectError(`(?s)Timed out waiting for the transcription job.*was queued when last seen; no look at it succeeded after that, and the wait ended after 3s.*The service was failing when the wait ended.*cannot reach the transcription service.*connection refused`),
			},
			{
				PreConfig:          func() { mustDo(t, l.Up) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					ids, tainted := stateJobIDs(s)
					for addr := range ids {
						if !tainted[addr] {
							return fmt.Errorf("%s is in state but not tainted", addr)
						}
					}
					firstIDs = ids
					return checkOneJobPerResource(fs, jobs)(s)
				},
			},
			{
				PreConfig: func() { advanceClockUntilCleanup(t, clock) },
				Config:    jobsConfig("1h"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.waiting[0]", plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction("transcription_job.waiting[1]", plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction("transcription_job.waiting[2]", plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(
					checkOneJobPerResource(fs, jobs),
					resource.TestCheckResourceAttr("transcription_job.waiting.0", "status", client.StatusDone),
					func(*terraform.State) error {
						for addr, id := range firstIDs {
							if !acctest.Deleted(fs, id) {
								return fmt.Errorf("the tainted job %s of %s was not deleted on the service", id, addr)
							}
						}
						if n := fs.Stats().JobsCreated; n != 2*jobs {
							return fmt.Errorf("%d jobs created, want %d: one per resource, then one replacement each", n, 2*jobs)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccFaults_maxRetries: max_retries bounds the tries of one call
// against a service that always answers 503, and is validated at plan time.
func TestAccFaults_maxRetries(t *testing.T) {
	for _, retries := range []int{0, 2} {
		t.Run(fmt.Sprintf("max_retries=%d", retries), func(t *testing.T) {
			fs, url := acctest.FakeServer(t, fakeserver.Options{})
			fs.SetFaults(fakeserver.Faults{ServerErrorRatio: 1, ServerErrorStatus: http.StatusServiceUnavailable})
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      acctest.ProviderConfig(url, fmt.Sprintf("max_retries = %d", retries)) + testAccAnyDataSource,
					PlanOnly:    true,
					ExpectError: acctest.ExpectError(`(?s)GET /v2/live with status 503 \(Service Unavailable\)`),
				}},
			})
			// The CLI reads the data source once per plan: 1 + max_retries tries.
			if n := len(fs.Requests()); n != retries+1 {
				t.Errorf("%d requests, want %d", n, retries+1)
			}
		})
	}
	t.Run("out of range", func(t *testing.T) {
		_, url := acctest.FakeServer(t, fakeserver.Options{})
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      acctest.ProviderConfig(url, "max_retries = 51") + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`(?s)max_retries value must be between 0 and 50, got: 51`),
			}, {
				Config:      acctest.ProviderConfig(url, "max_retries = 2.5") + testAccAnyDataSource,
				PlanOnly:    true,
				ExpectError: acctest.ExpectError(`(?s)Invalid Whole Number.*Attribute max_retries must be a whole number, got: 2.5`),
			}},
		})
	})
}

// TestAccFaults_timeoutsCreateBoundsTheCreatesTries: timeouts.create bounds
// the whole creation, the tries of a create the service refuses (429 with
// Retry-After) included, not only the wait that follows: with max_retries
// = 50 the apply ends when the limit runs out, saying that no job was
// created and which limit ended it.
func TestAccFaults_timeoutsCreateBoundsTheCreatesTries(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	fs.SetFaults(fakeserver.Faults{RateLimitRatio: 1, RetryAfter: 1})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.ProviderConfig(url, "max_retries = 50") + `
resource "transcription_job" "test" {
  audio_url = "https://example.com/a.wav"
  timeouts  = { create = "2s" }
}`,
			ExpectError: acctest.ExpectError(`(?s)429 Too Many Requests.*No job was created: timeouts.create \(2s\) ran out with no try of the request in flight.*raise timeouts.create`),
		}},
	})
	// About two tries a second apart, where the retries alone allow 51.
	if n := fs.Stats().RateLimited; n > 5 {
		t.Errorf("%d tries of the create, past timeouts.create", n)
	}
	if n := fs.Stats().JobsCreated; n != 0 {
		t.Errorf("%d jobs created", n)
	}
}

// TestAccFaults_createAnsweredAfterTimeoutsCreate: a create the service
// answers after timeouts.create has run out made the job, which is in state
// (tainted, as after any timeout of the wait); the error says that the
// create's answer took the limit, not that the job was looked at in vain
// or that the recording is long.
func TestAccFaults_createAnsweredAfterTimeoutsCreate(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	fs.SetFaults(fakeserver.Faults{Latency: 3 * time.Second})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.ProviderConfig(url) + `
resource "transcription_job" "test" {
  audio_url = "https://example.com/a.wav"
  timeouts  = { create = "2s" }
}`,
			ExpectError: acctest.ExpectError(`(?s)Timed out waiting for the transcription job.*was created, but the service answered its create after timeouts.create \(2s\) had run out, leaving no time to wait for it.*stays in state, tainted`),
		}},
	})
	if n := fs.Stats().JobsCreated; n != 1 {
		t.Errorf("%d jobs created, want 1", n)
	}
}

// relabelCreates answers every create with the fake server's answer
// relabeled text/plain, as a proxy rewriting Content-Types would.
func relabelCreates(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v2/pre-recorded" {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// TestAccFaults_createAnswerRelabeled: a create answered with the service's
// body under another Content-Type made the job, which is in state and
// waited for like any other: nothing is created twice, nothing lost.
func TestAccFaults_createAnswerRelabeled(t *testing.T) {
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: testAccProcessingTime}, relabelCreates)
	config := acctest.ProviderConfig(l.URL()) + acctest.JobConfig("relabeled", `audio_url = "https://example.com/a.wav"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					checkOneJobPerResource(fs, 1),
					resource.TestCheckResourceAttr("transcription_job.relabeled", "status", "done"),
				),
			},
			{
				Config:   config,
				PlanOnly: true,
			},
		},
	})
	if n := fs.Stats().JobsCreated; n != 1 {
		t.Errorf("%d jobs created, want 1", n)
	}
}

// The job whose create's answer was relabeled is kept, with a warning that
// says how the answer was labeled.
func TestSubmitJob_warnsOfARelabeledAnswer(t *testing.T) {
	_, l := accListener(t, fakeserver.Options{}, relabelCreates)
	c, err := client.New(client.Config{BaseURL: l.URL(), APIKey: acctest.APIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	request := jobRequestModel{AudioURL: types.StringValue("https://example.com/a.wav")}
	var diags diag.Diagnostics
	_, created := submitJob(context.Background(), c, request, resourceCreate, time.Now(), anyCreateLimit, &diags)
	if created == nil || diags.HasError() {
		t.Fatalf("the create failed: %v", diags)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), created.ID) || !strings.Contains(diags[0].Detail(), `Content-Type "text/plain; charset=utf-8"`) {
		t.Errorf("diagnostics %v, want one warning naming job %s and the answer's Content-Type", diags, created.ID)
	}
}

func TestClientMaxRetries(t *testing.T) {
	for _, c := range []struct {
		in   numtypes.Int64
		want int
	}{
		{numtypes.NewInt64Null(), client.DefaultMaxRetries},
		{numtypes.NewInt64Value(0), -1}, // the client reads a negative value as no retry
		{numtypes.NewInt64Value(3), 3},
		{numtypes.NewInt64Value(maxMaxRetries), maxMaxRetries},
	} {
		if got := clientMaxRetries(c.in); got != c.want {
			t.Errorf("clientMaxRetries(%s) = %d, want %d", c.in, got, c.want)
		}
	}
}

// anyCreateLimit is the limit of the creates whose errors the tests below
// explain, where no limit ran out.
var anyCreateLimit = timeLimit{setting: "timeouts.create", duration: time.Hour}

func TestAddCreateJobError(t *testing.T) {
	ambiguity := regexp.MustCompile(`may have created the job`)
	for name, c := range map[string]struct {
		err       error
		ambiguous bool
	}{
		"500":                   {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 500}, true},
		"502":                   {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 502}, true},
		"504":                   {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 504}, true},
		"507":                   {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 507}, true},
		"a CDN's 524 (timeout)": {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 524}, true},
		"501":                   {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 501}, false},
		"503 after every retry": {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 503, ServiceBody: true}, false},
		// Not the service's error body: a gateway's, which may have passed
		// the request on before its connection to the service failed.
		"a gateway's 503":       {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 503}, true},
		"429 after every retry": {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 429}, false},
		"422":                   {&client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 422}, false},
		"connection lost, sent": {&client.TransportError{Op: "POST /v2/pre-recorded", Sent: true, Written: true, Err: errors.New("EOF")}, true},
		// Cut off before the body went out whole: the service has not all
		// of the request, and cannot have acted on it.
		"connection lost, sending": {&client.TransportError{Op: "POST /v2/pre-recorded", Sent: true, Err: errors.New("EOF")}, false},
		"connection refused":       {&client.TransportError{Op: "POST /v2/pre-recorded", Err: errors.New("connection refused")}, false},
		"interrupted":              {fmt.Errorf("wrapped: %w", errInterrupted), true},
		"time limit in flight":     {fmt.Errorf("POST /v2/pre-recorded: %w", context.DeadlineExceeded), true},
		"unreadable answer (2xx)":  {&client.DecodeError{Op: "POST /v2/pre-recorded", Reason: "no id"}, true},
		"answer cut (2xx)":         {&client.DecodeError{Op: "POST /v2/pre-recorded", Reason: "reading response body: connection reset by peer"}, true},
		"wrapped 500 is ambiguous": {fmt.Errorf("creating: %w", &client.APIError{StatusCode: 500}), true},
	} {
		var diags diag.Diagnostics
		addCreateJobError(&diags, c.err, resourceCreate, anyCreateLimit)
		if diags.ErrorsCount() != 1 || diags.Errors()[0].Summary() != "Cannot create the transcription job" {
			t.Fatalf("%s: got %v", name, diags)
		}
		if got := ambiguity.MatchString(diags.Errors()[0].Detail()); got != c.ambiguous {
			t.Errorf("%s: says the job may exist: %v, want %v\n%s", name, got, c.ambiguous, diags.Errors()[0].Detail())
		}
		// How to find such a job, on every engine: terraform query is
		// Terraform 1.14's.
		if detail := diags.Errors()[0].Detail(); c.ambiguous && (!strings.Contains(detail, "`terraform query` (Terraform 1.14 and later)") || !strings.Contains(detail, "GET /v2/pre-recorded")) {
			t.Errorf("%s: does not say how to find the job on every engine:\n%s", name, detail)
		}
	}
}

// A create's time limit that ran out before any try was sent advises
// raising it; one that ran out between tries the service turned away, to
// wait out its refusals longer.
func TestAddCreateJobError_timeLimitAdvice(t *testing.T) {
	limit := timeLimit{setting: "timeouts.create", duration: time.Nanosecond}
	for name, c := range map[string]struct {
		err       error
		want, not string
	}{
		"before the first try": {&client.InterruptedError{Op: "POST /v2/pre-recorded", Err: context.DeadlineExceeded},
			"No job was created: timeouts.create (1ns) ran out before the request was sent.", "refusals"},
		"between refused tries": {&client.InterruptedError{Op: "POST /v2/pre-recorded", Last: &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 429}, Err: context.DeadlineExceeded},
			"To wait out the service's refusals longer, raise timeouts.create.", "answer was received"},
	} {
		var diags diag.Diagnostics
		addCreateJobError(&diags, c.err, resourceCreate, limit)
		detail := diags.Errors()[0].Detail()
		if !strings.Contains(detail, c.want) || strings.Contains(detail, c.not) || strings.Contains(detail, "answer was received") {
			t.Errorf("%s: detail\n%s\nwant %q, and neither %q nor an answer awaited", name, detail, c.want, c.not)
		}
	}
}

// What follows an ambiguous failure, or a create turned away for good, is
// said for the caller: the action keeps nothing in state, so no next apply
// submits its job again; and it runs only on engines with terraform query,
// so where to find a job it may have created names no older one.
func TestAddCreateJobError_saysWhatFollows(t *testing.T) {
	for _, status := range []int{http.StatusBadGateway, http.StatusTooManyRequests} {
		err := &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: status}
		for name, tc := range map[string]struct {
			caller createCaller
			unsaid []string
		}{
			"resource": {resourceCreate, []string{"invoking it again"}},
			"action":   {actionCreate, []string{"next apply", "apply again", "older Terraform", "OpenTofu", "transcription_jobs"}},
		} {
			var diags diag.Diagnostics
			addCreateJobError(&diags, err, tc.caller, anyCreateLimit)
			detail := diags.Errors()[0].Detail()
			if !strings.Contains(detail, tc.caller.nextTry) {
				t.Errorf("%s, status %d: detail %q lacks %q", name, status, detail, tc.caller.nextTry)
			}
			if mayHave := client.MayHaveBeenHandled(status); strings.Contains(detail, tc.caller.findJob) != mayHave {
				t.Errorf("%s, status %d: detail %q: says where to find a job the service may have created: %v, want %v", name, status, detail, !mayHave, mayHave)
			}
			for _, u := range tc.unsaid {
				if strings.Contains(detail, u) {
					t.Errorf("%s, status %d: detail %q says %q", name, status, detail, u)
				}
			}
		}
	}
}

// The service may quote the request in an error: the request's callback
// URLs never reach the diagnostic (the client masks them in the errors of
// the create that sent them).
func TestAddCreateJobError_masksCallbackURLs(t *testing.T) {
	const hook = "https://hooks.example.com/x?token=cbtok_s3cr3t"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_ = json.NewEncoder(w).Encode(client.ErrorBody{Path: r.URL.Path, RequestID: "req-1", StatusCode: http.StatusUnprocessableEntity,
			Message: `callback_url is not reachable (got "` + hook + `")`, ValidationErrors: []string{"callback_config.url " + hook + " refused"}})
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreatePreRecorded(t.Context(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav",
		CallbackConfig: &client.CallbackConfig{URL: hook}})
	if err == nil {
		t.Fatal("the create succeeded")
	}
	var diags diag.Diagnostics
	addCreateJobError(&diags, err, resourceCreate, anyCreateLimit)
	if detail := diags.Errors()[0].Detail(); strings.Contains(detail, "cbtok_s3cr3t") || !strings.Contains(detail, "callback_url is not reachable") || !strings.Contains(detail, "refused") {
		t.Errorf("the detail shows the callback URL, or lost the message:\n%s", detail)
	}
}

// A 201 whose body is cut (or is not the service's JSON) created a job the
// provider never learns the id of: the diagnostic must say a job may exist.
func TestAddCreateJobError_successAnswerUnread(t *testing.T) {
	for name, answer := range map[string]func(w http.ResponseWriter){
		"cut": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "200")
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"id":"1b2c`) // the handler returns: the connection closes short
		},
		"not json": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"id":"abc","result_url":`)
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				answer(w)
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
			if err == nil {
				t.Fatal("the create succeeded")
			}
			var diags diag.Diagnostics
			addCreateJobError(&diags, err, resourceCreate, anyCreateLimit)
			if detail := diags.Errors()[0].Detail(); !strings.Contains(detail, "may have created the job") {
				t.Errorf("no warning that a job may exist:\n%s", detail)
			}
		})
	}
}

// A create the service failed with a status after which it may have made
// the job does not advise trying again later, beside the warning that
// doing so may create a second job; one it turned away unhandled (503)
// does.
func TestAddCreateJobError_mayHaveCreatedGivesNoRetryAdvice(t *testing.T) {
	for status, wantAdvice := range map[int]bool{500: false, 502: false, 504: false, 503: true} {
		err := &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: status, ServiceBody: true}
		var diags diag.Diagnostics
		addCreateJobError(&diags, err, resourceCreate, anyCreateLimit)
		detail := diags.Errors()[0].Detail()
		if got := strings.Contains(detail, "try again later"); got != wantAdvice {
			t.Errorf("%d: advises trying again later: %t, want %t:\n%s", status, got, wantAdvice, detail)
		}
		if mayExist := strings.Contains(detail, "may have created the job"); mayExist == wantAdvice {
			t.Errorf("%d: says a job may exist: %t:\n%s", status, mayExist, detail)
		}
	}
}

// A create interrupted while it waits to try again after a 429 (Retry-After)
// has no request in flight, and the service made no job for the ones it
// turned away: the diagnostic must not send the user looking for a job
// that may exist, as an interrupted batch under a rate limit did for every
// resource still waiting.
func TestAddCreateJobError_interruptedBetweenTries(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{})
	fs.SetFaults(fakeserver.Faults{RateLimitRatio: 1, RetryAfter: 3600})
	c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acctest.WhenTrue(t, func() bool { return fs.Stats().RateLimited > 0 }, cancel) // an interrupt while the client waits out the 429
	_, err = c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the create ended with %v, want an interrupt", err)
	}
	var diags diag.Diagnostics
	addCreateJobError(&diags, err, resourceCreate, anyCreateLimit)
	detail := diags.Errors()[0].Detail()
	if strings.Contains(detail, "may have created the job") {
		t.Errorf("says a job may exist, though the only answer was 429:\n%s", detail)
	}
	if !strings.Contains(detail, "interrupted") || !strings.Contains(detail, "429") {
		t.Errorf("does not say the create was interrupted after a 429:\n%s", detail)
	}
	if !strings.Contains(detail, "No job was created") || !strings.Contains(detail, resourceCreate.nextTry) {
		t.Errorf("does not say that no job was created, and what follows:\n%s", detail)
	}
	if n := fs.Stats().JobsCreated; n != 0 {
		t.Errorf("%d jobs created", n)
	}
}

// errInterrupted is what a create cut short by an interrupt returns.
var errInterrupted = fmt.Errorf("POST: %w", context.Canceled)

// polledJobs returns the ids of the jobs the service has answered a GET for:
// jobs whose create the provider has received the answer of.
func polledJobs(fs *fakeserver.Server) map[string]bool {
	ids := map[string]bool{}
	for _, r := range fs.Requests() {
		if id, ok := strings.CutPrefix(r.Path, "/v2/pre-recorded/"); ok && r.Method == http.MethodGet && r.Status == http.StatusOK {
			ids[id] = true
		}
	}
	return ids
}

// advanceClockUntilCleanup makes time fly on a ManualClock: an hour every
// 20 ms, so every job ends within moments of its creation.
func advanceClockUntilCleanup(t *testing.T, clock *fakeserver.ManualClock) {
	t.Helper()
	clock.Advance(24 * time.Hour)
	acctest.WhenTrue(t, func() bool { clock.Advance(time.Hour); return false }, func() {})
}

// writeErrorBody answers as the service does when it fails: status, with
// the spec's error body.
func writeErrorBody(w http.ResponseWriter, r *http.Request, status int, requestID, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(client.ErrorBody{Path: r.URL.Path, RequestID: requestID, StatusCode: status,
		Message: message, Timestamp: time.Now().UTC().Format(time.RFC3339)})
}

// mustDo calls f and fails the test if it fails.
func mustDo(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Error(err)
	}
}

// TestAccFaults_submittedWithoutWaitingReturnsAtOnce: a job created without
// waiting is in state as soon as the service has answered its create, as
// the docs promise: the look that follows for its status is cut short
// (submittedLookLimit) rather than ride out a 429's Retry-After for each of
// max_retries (here 8 × 6 s) with the id not yet in state.
func TestAccFaults_submittedWithoutWaitingReturnsAtOnce(t *testing.T) {
	var limited atomic.Int32
	limitLooks := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/pre-recorded/") {
				limited.Add(1)
				w.Header().Set("Retry-After", "6")
				writeErrorBody(w, r, http.StatusTooManyRequests, "limited-1", "too many requests")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	fs, l := accListener(t, fakeserver.Options{ProcessingTime: testAccProcessingTime}, limitLooks)
	w := newCLIWorkspace(t, acctest.ProviderConfig(l.URL())+
		acctest.JobConfig("submitted", "audio_url = \"https://example.com/submitted.wav\"\nwait_for_completion = false"))
	stdout, stderr, err := w.run(nil, "apply", "-auto-approve", "-input=false", "-refresh=false", "-no-color")
	if err != nil {
		t.Fatalf("apply: %v\n%s%s", err, stdout, stderr)
	}
	output := stdout + stderr
	if n := limited.Load(); n != 1 {
		t.Errorf("%d looks at the submitted job, want 1: the next would come after the 6 s its 429 asked", n)
	}
	// The warning names the look's own limit, not timeouts.create.
	if !acctest.ExpectError(`(?s)Warning: Cannot read the submitted transcription job.*given 5s so that a create without waiting \(wait_for_completion = false\) does not wait, ended first.*429`).MatchString(output) {
		t.Errorf("no warning of the look that failed naming its limit:\n%s", output)
	}
	if ids, _ := w.stateJobs(); len(ids) != 1 || fs.JobCount() != 1 {
		t.Errorf("%d jobs in state, %d on the service, want 1", len(ids), fs.JobCount())
	}
	// With less of timeouts.create left than the look's 5 s, the warning
	// names timeouts.create, which raising would then help.
	short := newCLIWorkspace(t, acctest.ProviderConfig(l.URL())+
		acctest.JobConfig("short", "audio_url = \"https://example.com/short.wav\"\nwait_for_completion = false\ntimeouts = { create = \"2s\" }"))
	stdout, stderr, err = short.run(nil, "apply", "-auto-approve", "-input=false", "-refresh=false", "-no-color")
	if err != nil {
		t.Fatalf("apply: %v\n%s%s", err, stdout, stderr)
	}
	if !acctest.ExpectError(`(?s)Warning: Cannot read the submitted transcription job.*ran out of what was left of timeouts.create \(2s\)`).MatchString(stdout + stderr) {
		t.Errorf("the warning does not name timeouts.create:\n%s%s", stdout, stderr)
	}
}

// TestAccFaults_createAnswerLost rehearses, with the fake server's lost-answer
// fault, a create the service carried out whose answer never arrived: the
// apply fails saying the job may exist and how to find it, the create is
// not sent again (it would bill a second job), and nothing is in state, so
// the next apply submits the job again.
func TestAccFaults_createAnswerLost(t *testing.T) {
	fs, url := acctest.FakeServer(t, fakeserver.Options{ProcessingTime: testAccProcessingTime, Faults: fakeserver.Faults{LostAnswerRatio: 1}})
	config := acctest.ProviderConfig(url) + acctest.JobConfig("lost", `audio_url = "https://example.com/lost.wav"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: acctest.ExpectError(`(?s)Cannot create the transcription job.*the connection failed before its whole answer came.*may have created the job before this failure.*does not send the request again.*transcription_job list resource finds it`),
			},
			{
				PreConfig: func() {
					if st := fs.Stats(); st.AnswersLost != 1 || st.JobsCreated != 1 {
						t.Errorf("after the failed apply: %d answers lost, %d jobs created; want the one create, handled, its answer lost", st.AnswersLost, st.JobsCreated)
					}
					fs.SetFaults(fakeserver.Faults{})
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("transcription_job.lost", plancheck.ResourceActionCreate),
				}},
				Check: acctest.JobsCreated(fs, 2),
			},
		},
	})
}
