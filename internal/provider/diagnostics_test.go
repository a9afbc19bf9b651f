package provider

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

func TestAddAPIError(t *testing.T) {
	for name, c := range map[string]struct {
		err       error
		want, not []string
	}{
		"api error": {
			err: fmt.Errorf("wrapped: %w", &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 400, Message: "invalid body", RequestID: "req-42",
				ValidationErrors: []string{"model must be one of model-1, model-3", "audio_url is required"}}),
			want: []string{"POST /v2/pre-recorded", "status 400 (Bad Request): invalid body.", "  - model must be one of model-1, model-3", "  - audio_url is required", "request_id: req-42"},
		},
		// A failure after retries says how often the request went: no
		// passing failure, and max_retries is what bounds them.
		"after retries": {
			err:  &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 503, Message: "down", Tries: 3},
			want: []string{"status 503", "The provider tried the request 3 times."},
		},
		"one try": {
			err: &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 503, Message: "down", Tries: 1},
			not: []string{"tried the request"},
		},
		"no answer after retries": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: errors.New("connection refused"), Tries: 4},
			want: []string{"Check base_url and the network, then try again.", "The provider tried the request 4 times."},
		},
		// With max_retries = 0 nothing was retried: no "after every retry".
		"rate limited once": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 429, Message: "slow down", Tries: 1},
			want: []string{"did not send the request again (max_retries = 0)"},
			not:  []string{"after every retry"},
		},
		"create turned away once": {
			err:  &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 429, Message: "slow down", Tries: 1},
			want: []string{"The service turned the job away, and the provider did not send it again (max_retries = 0)", "No job was created"},
			not:  []string{"after every retry"},
		},
		"unauthorized": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 401, Message: "bad key", RequestID: "r"},
			want: []string{"status 401", "bad key", "api_key", EnvAPIKey, "request_id: r"},
		},
		"read refused": {
			err:  &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 403, Message: "forbidden", RequestID: "r"},
			want: []string{"status 403 (Forbidden): forbidden.", "zero_data_retention = true", "request_id: r"},
		},
		"upload refused": {
			err:  &client.APIError{Op: "POST /v2/upload", StatusCode: 403, Message: "forbidden", RequestID: "r"},
			want: []string{"status 403 (Forbidden): forbidden.", "zero_data_retention = true"},
		},
		// Zero data retention refuses uploads and reads, not creates: a 403
		// to one (a firewall's page, a key without the right) is not it.
		"create refused": {
			err:  &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 403, Message: "Attention Required!"},
			want: []string{"status 403 (Forbidden): Attention Required!."},
			not:  []string{"zero data retention", "zero_data_retention"},
		},
		// Answers that are not the service's: plain HTTP to a TLS port, a
		// proxy asking for its credentials.
		"plain HTTP to HTTPS": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 400, Message: "unexpected error response: Client sent an HTTP request to an HTTPS server."},
			want: []string{"status 400 (Bad Request)", "base_url says http://, and the server at that address speaks HTTPS: use https://."},
		},
		"plain HTTP to nginx's HTTPS port": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 400, Message: "unexpected error response: <html><center>The plain HTTP request was sent to HTTPS port</center></html>"},
			want: []string{"use https://."},
		},
		"the service's own 400": {
			err: &client.APIError{Op: "GET /v2/live", StatusCode: 400, Message: "an HTTP request sent to an HTTPS port?", ServiceBody: true},
			not: []string{"use https://"},
		},
		"proxy asking for credentials": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 407},
			want: []string{"status 407 (Proxy Authentication Required)", "HTTP_PROXY or HTTPS_PROXY", "NO_PROXY"},
		},
		"plain-HTTP proxy refusing the credentials its URL gives": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 407, ProxyCredentialsSent: true},
			want: []string{"status 407 (Proxy Authentication Required)", "refused the credentials its URL gives: correct them"},
			not:  []string{"give them in its URL"},
		},
		"certificate not trusted": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: &tls.CertificateVerificationError{Err: errors.New("x509: certificate signed by unknown authority")}},
			want: []string{"certificate signed by unknown authority", "The certificate of the server at base_url is not trusted here", "SSL_CERT_FILE", "SSL_CERT_DIR"},
			not:  []string{"try again"},
		},
		"https to plain HTTP": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: http.ErrSchemeMismatch},
			want: []string{"base_url says https://, and the server at that address speaks plain HTTP"},
			not:  []string{"try again"},
		},
		"proxy refusing the credentials given": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: &client.ProxyRefusedError{Proxy: "http://proxy.example:3128", StatusCode: 407, CredentialsSent: true}},
			want: []string{"refused the credentials its URL gives"},
			not:  []string{"give them in its URL", "try again"},
		},
		"proxy refusing the tunnel": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: &client.ProxyRefusedError{Proxy: "http://proxy.example:3128", StatusCode: 407}},
			want: []string{"the HTTP proxy http://proxy.example:3128 refused to connect to the service: 407", "give them in its URL"},
			not:  []string{"try again"},
		},
		// A write is not redirected (Go would re-send it as a GET).
		"create redirected": {
			err:  &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 301},
			want: []string{"status 301 (Moved Permanently).", "follows only for a read", "set base_url to the address the service answers at now"},
			not:  []string{"It redirects to"},
		},
		"read redirected elsewhere": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 302, Location: "https://api.example.net/v2/live?…"},
			want: []string{"status 302 (Found).", "set base_url to the address the service answers at now. It redirects to: https://api.example.net/v2/live?…"},
		},
		// Followed within base_url's origin: where the answer came from.
		"read answered after a redirect": {
			err:  &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 500, Message: "internal error", URL: "https://api.example.com/moved/v2/pre-recorded/j1", Redirected: true},
			want: []string{"answered GET /v2/pre-recorded/j1, redirected to https://api.example.com/moved/v2/pre-recorded/j1, with status 500 (Internal Server Error): internal error."},
		},
		// A 403 to a DELETE is a job the service will not delete (not one
		// refused to an account with zero data retention).
		"delete refused": {
			err:  &client.APIError{Op: "DELETE /v2/pre-recorded/j1", StatusCode: 403, Message: "job cannot be deleted", RequestID: "r"},
			want: []string{"status 403 (Forbidden): job cannot be deleted.", "request_id: r"},
		},
		// A path the service answers whatever the job: its 404 is not the
		// service's (a path prefix mistyped in base_url).
		"create not found": {
			err:  &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 404},
			want: []string{"status 404 (Not Found).", "Check base_url"},
		},
		"listing not found": {
			err:  &client.APIError{Op: "GET /v2/pre-recorded?limit=1", StatusCode: 404, URL: "https://gw.example/speeech/v2/pre-recorded?…"},
			want: []string{"status 404", "Check base_url, or the " + EnvBaseURL + " environment variable", "The request went to https://gw.example/speeech/v2/pre-recorded?…."},
		},
		"upload not found": {
			err:  &client.APIError{Op: "POST /v2/upload", StatusCode: 404},
			want: []string{"status 404", "Check base_url"},
		},
		// A web server that is not the service, answering a POST.
		"create refused by a web server": {
			err:  &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 405, Message: "unexpected error response: HTML page: 405 Not Allowed"},
			want: []string{"status 405 (Method Not Allowed)", "a web server that is not the service", "Check base_url"},
		},
		"upload not implemented by a web server": {
			err:  &client.APIError{Op: "POST /v2/upload", StatusCode: 501, Message: "unexpected error response: HTML page: Error response"},
			want: []string{"status 501 (Not Implemented)", "Check base_url"},
			not:  []string{"try again"},
		},
		"server error": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 503},
			want: []string{"status 503 (Service Unavailable).", "try again later"},
		},
		// The first status of a failure of the service's.
		"internal server error": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 500},
			want: []string{"status 500 (Internal Server Error).", "The service failed; try again later."},
		},
		// An account's limit of jobs at once turns a batch's creates away
		// until its jobs end: what to do is to send fewer at once or to
		// retry longer, not only to try again later.
		"create rate-limited": {
			err:  &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 429, Message: "too many jobs queued or processing", RequestID: "r"},
			want: []string{"status 429 (Too Many Requests): too many jobs queued or processing.", "No job was created", "-parallelism", "max_retries", "request_id: r"},
		},
		"read rate-limited": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 429},
			want: []string{"status 429", "max_retries", "try again later"},
		},
		"transport": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: errors.New("connection refused")},
			want: []string{"cannot reach the transcription service: connection refused", "Check base_url"},
		},
		"decode": {
			err:  &client.DecodeError{Op: "GET /v2/live", Reason: "invalid JSON"},
			want: []string{"unexpected response", "invalid JSON", "base_url"},
		},
		"cancelled": {
			err:  context.Canceled,
			want: []string{"interrupted", "context canceled"},
		},
		// No try was answered yet: there is no last answer to show.
		"interrupted before sending": {
			err:  &client.InterruptedError{Op: "GET /v2/live", Err: context.Canceled},
			want: []string{"The operation was interrupted before GET /v2/live was sent (context canceled)."},
			not:  []string{"answer was received"},
		},
		"deadline in flight": {
			err:  fmt.Errorf("GET /v2/live: %w", context.DeadlineExceeded),
			want: []string{"The operation's time limit ran out before the service's answer was received: GET /v2/live: context deadline exceeded"},
		},
		"timed out": {
			err:  &client.InterruptedError{Op: "DELETE /v2/pre-recorded/j1", Last: &client.APIError{Op: "DELETE /v2/pre-recorded/j1", StatusCode: 503}, Err: context.DeadlineExceeded},
			want: []string{"time limit ran out (context deadline exceeded) before DELETE /v2/pre-recorded/j1 was sent again; the service's last answer was", "503"},
		},
		// A connection never made is no answer of the service's.
		"timed out without an answer": {
			err:  &client.InterruptedError{Op: "POST /v2/upload", Last: &client.TransportError{Op: "POST /v2/upload", Err: errors.New("connect: connection refused")}, Err: context.DeadlineExceeded},
			want: []string{"before POST /v2/upload was sent again; the last try failed: ", "connection refused"},
			not:  []string{"answer was"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			addAPIError(&diags, "Cannot do it", c.err)
			if diags.ErrorsCount() != 1 || diags.Errors()[0].Summary() != "Cannot do it" {
				t.Fatalf("got %v", diags)
			}
			detail := diags.Errors()[0].Detail()
			expectDetail(t, detail, c.want, c.not)
			if name == "server error" && strings.Contains(detail, "request_id") {
				t.Errorf("no request_id was given, detail %q mentions one", detail)
			}
			if name == "delete refused" && strings.Contains(detail, "zero_data_retention") {
				t.Errorf("a refused delete is explained as zero data retention: %q", detail)
			}
		})
	}
}

// A wait that the service's failure ends says, as one a timeout or an
// interrupt ends, what becomes of the job; not when the job is gone.
func TestAddWaitError_saysWhatBecomesOfTheJob(t *testing.T) {
	const aftermath = "The job stays in state, tainted."
	last := &client.PreRecordedJob{JobCommon: client.JobCommon{ID: "j1", Status: client.StatusProcessing}}
	for name, c := range map[string]struct {
		err          error
		want         []string
		sayAftermath bool
	}{
		"timeout":     {err: fmt.Errorf("%w: %w", errJobNotFinal, context.DeadlineExceeded), want: []string{"still processing after 1m (timeouts.create)"}, sayAftermath: true},
		"interrupted": {err: fmt.Errorf("%w: %w", errJobNotFinal, context.Canceled), want: []string{"was processing when Terraform was interrupted"}, sayAftermath: true},
		"timeout while the service failed": {
			err:  jobNotFinal(context.DeadlineExceeded, &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 503, Message: "overloaded"}),
			want: []string{"was processing when last seen; no look at it succeeded after that, and the wait ended after 1m (timeouts.create)", "The service was failing when the wait ended", "status 503", "overloaded", "longer outage"}, sayAftermath: true,
		},
		"interrupted while the service failed": {
			err:  jobNotFinal(context.Canceled, &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 503, Message: "overloaded"}),
			want: []string{"was processing when last seen; no look at it succeeded after that before Terraform was interrupted", "The service was failing when the wait ended", "status 503"}, sayAftermath: true,
		},
		"unreachable": {err: &client.TransportError{Op: "GET /v2/pre-recorded/j1", Sent: true, Err: errors.New("connection refused")}, want: []string{"connection refused"}, sayAftermath: true},
		"unavailable": {err: &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 503}, want: []string{"status 503"}, sayAftermath: true},
		"gone":        {err: &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 404, Message: "no pre-recorded job with id j1"}, want: []string{"The service no longer has job j1 (processing when last seen): it was deleted while it was waited for", "Deleted aftermath.", "status 404", "no pre-recorded job"}},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			addWaitError(&diags, "j1", last, time.Minute, c.err, "timeouts.create", waitAftermath{running: aftermath, deleted: "Deleted aftermath."})
			if diags.ErrorsCount() != 1 {
				t.Fatalf("got %v", diags)
			}
			detail := diags.Errors()[0].Detail()
			expectDetail(t, detail, c.want, nil)
			if got := strings.Contains(detail, aftermath); got != c.sayAftermath {
				t.Errorf("detail %q: says what becomes of the job %t, want %t", detail, got, c.sayAftermath)
			}
			if strings.Contains(name, "failed") && strings.Contains(detail, "still processing") {
				t.Errorf("detail %q states the status at the end of a wait that could not see it", detail)
			}
		})
	}
}

// A wait during which no look at the job succeeded says so, where it said
// the job "was still not yet seen", as if that were a status.
func TestAddWaitError_jobNeverRead(t *testing.T) {
	failing := &client.TransportError{Op: "GET /v2/pre-recorded/j1", Sent: true, Err: errors.New("connection refused")}
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"timeout":     {err: jobNotFinal(context.DeadlineExceeded, failing), want: "No look at job j1 succeeded in 3s (timeouts.create)."},
		"interrupted": {err: jobNotFinal(context.Canceled, failing), want: "Job j1 had not been read yet when Terraform was interrupted."},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			addWaitError(&diags, "j1", nil, 3*time.Second, c.err, "timeouts.create", waitAftermath{running: "The job stays in state, tainted."})
			detail := diags.Errors()[0].Detail()
			if !strings.Contains(detail, c.want) || strings.Contains(detail, "not yet seen") || !strings.Contains(detail, "connection refused") {
				t.Errorf("detail %q, want %q and the service's failure", detail, c.want)
			}
			if strings.Contains(detail, "For long recordings") {
				t.Errorf("detail %q blames the recording's length for an outage", detail)
			}
		})
	}
}

// A wait ended by an interrupt or its timeout while the service was failing
// shows the service's last answer as a fact, without the advice meant for a
// call that failed for good: the wait goes on past such failures (the
// client was perhaps between two retries), and the user interrupted it or
// its timeout ran out, so neither "try again later" nor "after every retry
// (max_retries)" holds.
func TestAddWaitError_serviceFailureWithoutAdvice(t *testing.T) {
	last := &client.PreRecordedJob{JobCommon: client.JobCommon{ID: "j1", Status: client.StatusQueued}}
	for name, c := range map[string]struct {
		failing error
		shows   string
	}{
		"503":         {&client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 503, Message: "overloaded"}, "status 503"},
		"429":         {&client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 429, Message: "slow down"}, "status 429"},
		"unreachable": {&client.TransportError{Op: "GET /v2/pre-recorded/j1", Err: errors.New("connection refused")}, "connection refused. Check base_url and the network."},
	} {
		for _, ended := range []error{context.Canceled, context.DeadlineExceeded} {
			t.Run(name+" "+ended.Error(), func(t *testing.T) {
				var diags diag.Diagnostics
				addWaitError(&diags, "j1", last, time.Minute, jobNotFinal(ended, c.failing), "timeouts.create", waitAftermath{running: "The job stays in state, tainted."})
				detail := diags.Errors()[0].Detail()
				if !strings.Contains(detail, "The service was failing when the wait ended") || !strings.Contains(detail, c.shows) {
					t.Errorf("detail %q does not show the service's last answer", detail)
				}
				for _, advice := range []string{"try again", "after every retry"} {
					if strings.Contains(detail, advice) {
						t.Errorf("detail %q advises %q", detail, advice)
					}
				}
			})
		}
	}
}

// TestAddNotGone_unconfirmedSaysCheckBaseURLOnce: a 404 for a job whose
// listing failed too says to check base_url once: the listing's own 404
// says it already, where the message said it twice; a listing that failed
// otherwise (a 503) gets the advice from the wrapper.
func TestAddNotGone_unconfirmedSaysCheckBaseURLOnce(t *testing.T) {
	notFound := &client.APIError{Op: "GET /v2/pre-recorded/j1", StatusCode: 404, Message: "no such endpoint", RequestID: "r1"}
	for name, listing := range map[string]error{
		"listing not found":   &client.APIError{Op: "GET /v2/pre-recorded", StatusCode: 404, Message: "no such endpoint", RequestID: "r2"},
		"listing unavailable": &client.APIError{Op: "GET /v2/pre-recorded", StatusCode: 503, Message: "down", RequestID: "r2"},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			if !addNotGone(&diags, &unconfirmedNotFoundError{id: "j1", notFound: notFound, listing: listing}, jobKeptInState) || len(diags) != 1 {
				t.Fatalf("diagnostics %v, want one error", diags)
			}
			detail := diags[0].Detail()
			if n := strings.Count(detail, "Check base_url"); n != 1 {
				t.Errorf("detail says Check base_url %d times, want once:\n%s", n, detail)
			}
			if !strings.Contains(detail, strings.TrimSpace(jobKeptInState)) {
				t.Errorf("detail does not say the job is kept:\n%s", detail)
			}
		})
	}
}

// expectDetail checks that a diagnostic's detail holds every text of want
// and none of not.
func expectDetail(t *testing.T, detail string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(detail, w) {
			t.Errorf("detail %q lacks %q", detail, w)
		}
	}
	for _, w := range not {
		if strings.Contains(detail, w) {
			t.Errorf("detail %q holds %q", detail, w)
		}
	}
}
