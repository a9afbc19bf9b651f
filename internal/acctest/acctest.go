// Package acctest holds what the provider's acceptance tests build on,
// written once: a fake server per test, the configuration blocks that point
// at it, and checks of what the service received. It knows nothing of the
// provider's code, only of its configuration language and the fake server,
// so any package's tests can use it.
package acctest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// APIKey is the API key the acceptance tests' fake servers accept.
const APIKey = "acc-test-key-9f8e7d6c5b4a"

// FakeServer starts a fake server for one test and returns it with its base
// URL. A nil Clock means real time; tests set ProcessingTime small.
func FakeServer(t *testing.T, opts fakeserver.Options) (*fakeserver.Server, string) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = APIKey
	}
	fs := fakeserver.New(opts)
	srv := httptest.NewServer(fs)
	t.Cleanup(func() { srv.Close(); fs.Close() })
	return fs, srv.URL
}

// ProviderConfig is the provider block pointing at a fake server; each of
// extra is one more line of it.
func ProviderConfig(baseURL string, extra ...string) string {
	cfg := fmt.Sprintf("provider \"transcription\" {\n  base_url = %q\n  api_key  = %q\n", baseURL, APIKey)
	for _, e := range extra {
		cfg += "  " + e + "\n"
	}
	return cfg + "}\n"
}

// JobConfig is one transcription_job resource block.
func JobConfig(name, body string) string {
	return fmt.Sprintf("resource \"transcription_job\" %q {\n%s\n}\n", name, body)
}

// ExpectError compiles an error pattern whose spaces match any run of
// white space: the CLI wraps diagnostics at its terminal width.
func ExpectError(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// JobsCreated checks how many jobs the service has received.
func JobsCreated(fs *fakeserver.Server, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := fs.Stats().JobsCreated; n != want {
			return fmt.Errorf("%d jobs created, want %d", n, want)
		}
		return nil
	}
}

// ExpireJob ends the service's retention of a job now.
func ExpireJob(t *testing.T, fs *fakeserver.Server, id string) {
	t.Helper()
	if !fs.ExpireJob(id) {
		t.Fatalf("job %q to expire does not exist", id)
	}
}

// Deleted reports whether the service accepted a DELETE of the job.
func Deleted(fs *fakeserver.Server, id string) bool {
	for _, r := range fs.Requests() {
		if r.Method == http.MethodDelete && r.Path == "/v2/pre-recorded/"+id && r.Status == http.StatusAccepted {
			return true
		}
	}
	return false
}

// DeleteAnswers lists the statuses of the DELETEs of a job, in order.
func DeleteAnswers(fs *fakeserver.Server, id string) []int {
	var statuses []int
	for _, r := range fs.Requests() {
		if r.Method == http.MethodDelete && r.Path == "/v2/pre-recorded/"+id {
			statuses = append(statuses, r.Status)
		}
	}
	return statuses
}

// CaptureTo returns an attribute check that stores the attribute's value.
func CaptureTo(dst *string) func(string) error {
	return func(v string) error {
		*dst = v
		return nil
	}
}

// QuotedList writes values as an HCL list's elements: "a", "b".
func QuotedList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(quoted, ", ")
}

// CompactJSON is s without insignificant white space, or s when it is not
// JSON.
func CompactJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Eventually waits until cond holds, or fails after timeout.
func Eventually(timeout time.Duration, cond func() bool) error {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %s", timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// StringList checks a list of exactly values.
func StringList(values []string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = knownvalue.StringExact(v)
	}
	return knownvalue.ListExact(checks)
}

// NonEmptyString checks a string that is not empty or blank.
func NonEmptyString() knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("empty string")
		}
		return nil
	})
}

// StringMatching checks a string matching pattern.
func StringMatching(pattern string) knownvalue.Check {
	return knownvalue.StringRegexp(regexp.MustCompile(pattern))
}

// StringContaining checks a string containing sub.
func StringContaining(sub string) knownvalue.Check {
	return knownvalue.StringFunc(func(v string) error {
		if !strings.Contains(v, sub) {
			return fmt.Errorf("%q does not contain %q", v, sub)
		}
		return nil
	})
}

// HeldFakeServer is FakeServer whose jobs keep running (they take an hour)
// on a clock that moves only when the test moves it.
//
// Once the test has failed, the clock is let go (moved past the jobs'
// hour): terraform-plugin-testing then destroys what the steps created,
// and the service deletes a job only once it has ended, so the destroy
// would wait out timeouts.delete (20 minutes) for a held job, hiding the
// failure behind a timeout.
func HeldFakeServer(t *testing.T) (*fakeserver.Server, string, *fakeserver.ManualClock) {
	t.Helper()
	const processing = time.Hour
	clock := fakeserver.NewManualClock(time.Now())
	fs, url := FakeServer(t, fakeserver.Options{ProcessingTime: processing, Clock: clock})
	WhenTrue(t, t.Failed, func() { clock.Advance(2 * processing) })
	return fs, url, clock
}

// WhenTrue runs action once cond holds, checking every 10 ms in the
// background until the test ends.
func WhenTrue(t *testing.T, cond func() bool, action func()) {
	t.Helper()
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if cond() {
					action()
					return
				}
			}
		}
	}()
}

// Tainted checks that the resource at addr is in state, tainted.
func Tainted(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs := s.RootModule().Resources[addr]
		if rs == nil || !rs.Primary.Tainted {
			return fmt.Errorf("%s is not in state tainted", addr)
		}
		return nil
	}
}
