package provider

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// addAPIError adds an error diagnostic for a failed call to the service.
// summary says what was being done ("Cannot list live jobs"); the detail
// carries what the service said: status, message, validation errors and the
// request_id its support needs.
func addAPIError(diags *diag.Diagnostics, summary string, err error) {
	diags.AddError(summary, apiErrorDetail(err))
}

// apiErrorDetail renders err for a diagnostic's detail.
func apiErrorDetail(err error) string { return errorDetail(err, true) }

// serviceFailureDetail renders the service's failure of a look at a job
// whose wait went on past it, until an interrupt or its timeout ended it:
// as apiErrorDetail, without the advice meant for a call that failed for
// good ("try again later", "after every retry"), which does not hold there.
func serviceFailureDetail(err error) string { return errorDetail(err, false) }

// errorDetail renders err; advice adds what to do about it.
func errorDetail(err error, advice bool) string {
	var apiErr *client.APIError
	var transportErr *client.TransportError
	var decodeErr *client.DecodeError
	var interrupted *client.InterruptedError
	switch {
	case errors.As(err, &apiErr):
		var b strings.Builder
		fmt.Fprintf(&b, "The transcription service answered %s", apiErr.Op)
		if apiErr.Redirected {
			fmt.Fprintf(&b, ", redirected to %s,", apiErr.URL)
		}
		fmt.Fprintf(&b, " with status %d (%s)", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
		if apiErr.Message != "" {
			fmt.Fprintf(&b, ": %s", apiErr.Message)
		}
		if !strings.HasSuffix(apiErr.Message, ".") {
			b.WriteString(".")
		}
		if len(apiErr.ValidationErrors) > 0 {
			b.WriteString("\n\nValidation errors:")
			for _, v := range apiErr.ValidationErrors {
				b.WriteString("\n  - " + v)
			}
		}
		if hint := statusHint(apiErr); hint != "" && advice {
			if apiErr.Location != "" {
				hint += " It redirects to: " + apiErr.Location
			}
			b.WriteString("\n\n" + hint)
		}
		if advice {
			b.WriteString(triesNote(apiErr.Tries))
		}
		if apiErr.RequestID != "" {
			fmt.Fprintf(&b, "\n\nrequest_id: %s (quote it when asking the service's support)", apiErr.RequestID)
		}
		return b.String()
	case errors.As(err, &transportErr) && settledHint(err) != "":
		// Not tried again by the client, nor mended by trying later.
		return transportErr.Error() + ". " + settledHint(err)
	case errors.As(err, &transportErr) && transportErr.Written:
		return transportErr.Error() + ". The service was reached: it may be overloaded, or the network to it unreliable." + triesNote(transportErr.Tries)
	case errors.As(err, &transportErr) && !advice:
		return transportErr.Error() + ". Check base_url and the network."
	case errors.As(err, &transportErr):
		return transportErr.Error() + ". Check base_url and the network, then try again." + triesNote(transportErr.Tries)
	case errors.As(err, &decodeErr):
		return decodeErr.Error() + ". Check that base_url points at the transcription service."
	case errors.As(err, &interrupted) && interrupted.Last != nil && errors.As(interrupted.Last, new(*client.APIError)):
		return fmt.Sprintf("%s (%s) before %s was sent again; the service's last answer was %s.", endedBy(err), interrupted.Err, interrupted.Op, interrupted.Last)
	case errors.As(err, &interrupted) && interrupted.Last != nil:
		// No answer: the last try did not reach the service.
		return fmt.Sprintf("%s (%s) before %s was sent again; the last try failed: %s.", endedBy(err), interrupted.Err, interrupted.Op, interrupted.Last)
	case errors.As(err, &interrupted):
		return fmt.Sprintf("%s before %s was sent (%s).", endedBy(err), interrupted.Op, interrupted.Err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		// In flight, or while the answer's body was being received.
		return endedBy(err) + " before the service's answer was received: " + err.Error()
	}
	return err.Error()
}

// triesNote says how often the provider tried a request that failed for
// good, when more than once: a failure after retries is no passing one.
// (Tried: a try that could not connect sent nothing.) Empty for one try.
func triesNote(tries int) string {
	if tries < 2 {
		return ""
	}
	return fmt.Sprintf("\n\nThe provider tried the request %d times.", tries)
}

// plainHTTPToHTTPS matches what servers answer to plain HTTP sent to their
// TLS port (Go's "Client sent an HTTP request to an HTTPS server", nginx's
// "The plain HTTP request was sent to HTTPS port").
var plainHTTPToHTTPS = regexp.MustCompile(`(?i)HTTP request (was sent )?to (an )?HTTPS`)

// settledHint says what to do about a failure to reach the service that
// trying again does not mend (the client tries a certificate, a scheme
// mismatch and a proxy asking for credentials once), "" for another.
func settledHint(err error) string {
	var certErr *tls.CertificateVerificationError
	var proxyErr *client.ProxyRefusedError
	switch {
	case errors.As(err, &certErr):
		return "The certificate of the server at base_url is not trusted here, or names another host. When the service is reached through a proxy that inspects TLS, " +
			"or its certificate is of a private authority, add that authority to the system's trusted certificates: on Linux and other Unix systems, " +
			"the SSL_CERT_FILE environment variable names a file of them, and SSL_CERT_DIR a directory, for the process that runs Terraform."
	case errors.Is(err, http.ErrSchemeMismatch):
		return "base_url says https://, and the server at that address speaks plain HTTP: use http://, or the port where it speaks HTTPS."
	case errors.As(err, &proxyErr) && proxyErr.StatusCode == http.StatusProxyAuthRequired && proxyErr.CredentialsSent:
		return proxyRefusedCredentials
	case errors.As(err, &proxyErr) && proxyErr.StatusCode == http.StatusProxyAuthRequired:
		return "The proxy is the one the HTTPS_PROXY or HTTP_PROXY environment variable names, and asks for its credentials: " +
			"give them in its URL (http://user:password@proxy:port), or list the service's host in NO_PROXY to reach it directly."
	case errors.As(err, &proxyErr):
		return "The proxy is the one the HTTPS_PROXY or HTTP_PROXY environment variable names: it could not, or would not, reach the service's host. " +
			"Check base_url, and the proxy's rules; NO_PROXY lists hosts reached directly."
	}
	return ""
}

// endedBy says what ended an operation whose context ended: its time limit
// (a timeouts setting), or an interrupt (Ctrl-C, a cancelled run).
func endedBy(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "The operation's time limit ran out"
	}
	return "The operation was interrupted"
}

// timeLimit is a time limit as messages name it: its setting and its
// duration.
type timeLimit struct {
	setting  string // "timeouts.create"
	duration time.Duration
}

func (l timeLimit) String() string {
	return fmt.Sprintf("%s (%s)", l.setting, client.FormatDuration(l.duration))
}

// createCaller says, in a failed create's error, what follows for its
// caller (nextTry) and where a job the service may have created all the
// same is found (findJob): the action keeps nothing in state, so no next
// apply submits its job again, and it runs only on engines with
// `terraform query`.
type createCaller struct{ nextTry, findJob string }

var (
	resourceCreate = createCaller{
		nextTry: "Nothing is saved in state, so the next apply submits the job again",
		findJob: "a job the service did create is not tracked by Terraform: " +
			"`terraform query` (Terraform 1.14 and later) with the transcription_job list resource finds it (newest first) to import or delete; " +
			"with an older Terraform or OpenTofu, the transcription_jobs data source (or the service's listing, `GET /v2/pre-recorded`) lists them newest first, to import by id.",
	}
	actionCreate = createCaller{
		nextTry: "The action keeps nothing and does not run again by itself: invoking it again submits another job",
		findJob: "`terraform query` with the transcription_job list resource finds a job the service did create (newest first), to import or delete.",
	}
)

// addCreateJobError adds the error diagnostic of a failed job creation,
// worded for its caller. When the request may have been
// carried out all the same (APIError.MayHaveBeenHandled: a 500, 502, 504 or
// another 5xx but 501, and a 503 not in the service's error body, a
// gateway's; a connection lost after
// sending, a success answer that could not be read), it says so: the
// client does not retry such a failure. An interrupt, or the end of limit,
// while no try was in flight created nothing; one while a try is in flight
// does not end it (client.CreatePreRecorded waits for the answer).
//
// The service may quote the request in its answer: the client has masked
// the request's callback URLs and audio_url's credentials in err
// (client.CreatePreRecorded).
func addCreateJobError(diags *diag.Diagnostics, err error, caller createCaller, limit timeLimit) {
	// A create that may have made the job gets no advice to try again:
	// what follows says why a second try may make a second job.
	detail := errorDetail(err, !createMayHaveSucceeded(err))
	var interrupted *client.InterruptedError
	if errors.As(err, &interrupted) {
		ended, advice := "it was interrupted", ""
		switch {
		case errors.Is(err, context.DeadlineExceeded) && interrupted.Last != nil:
			ended = limit.String() + " ran out"
			advice = " To wait out the service's refusals longer, raise " + limit.setting + "."
		case errors.Is(err, context.DeadlineExceeded):
			ended = limit.String() + " ran out"
			advice = " Raise " + limit.setting + "."
		}
		why := " with no try of the request in flight, and a create is sent again only after a try the service did not take (an answer saying so, or no connection made). "
		if interrupted.Last == nil {
			why = " before the request was sent. "
		}
		detail += "\n\nNo job was created: " + ended + why + caller.nextTry + "." + advice
	}
	if client.IsStatus(err, http.StatusTooManyRequests) {
		// Turned away for good: what follows depends on the caller (the
		// action has no next apply to submit it).
		detail += "\n\n" + caller.nextTry + "."
	}
	if createMayHaveSucceeded(err) {
		detail += "\n\nThe service may have created the job before this failure. " +
			"The provider does not send the request again: the service has no idempotency key, so a second try could create a second job, billed too. " +
			caller.nextTry + "; " + caller.findJob
	}
	diags.AddError("Cannot create the transcription job", detail)
}

// createMayHaveSucceeded reports whether the service may have created a job
// although the create failed. An answer of success that could not be read
// (cut short, not JSON, without an id) may come from the service having
// created the job, or from something else at base_url.
func createMayHaveSucceeded(err error) bool {
	var apiErr *client.APIError
	var transportErr *client.TransportError
	var decodeErr *client.DecodeError
	var interrupted *client.InterruptedError
	switch {
	case errors.As(err, &interrupted):
		// No try was in flight, and a create is sent again only when the
		// service cannot have accepted the one before.
		return false
	case errors.As(err, &decodeErr):
		return true
	case errors.As(err, &apiErr):
		return apiErr.MayHaveBeenHandled()
	case errors.As(err, &transportErr):
		return transportErr.Written
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// namesNoJob reports whether a request's op ("POST /v2/pre-recorded", "GET
// /v2/live?limit=1") is to a path that names no job: a create, an upload, a
// listing.
func namesNoJob(op string) bool {
	_, target, _ := strings.Cut(op, " ")
	target, _, _ = strings.Cut(target, "?")
	return target == "/v2/pre-recorded" || target == "/v2/live" || target == "/v2/upload"
}

// proxyRefusedCredentials is the advice on a proxy that refused the
// credentials its URL gives.
const proxyRefusedCredentials = "The proxy is the one the HTTPS_PROXY or HTTP_PROXY environment variable names, and refused the credentials its URL gives: " +
	"correct them (percent-encode reserved characters in them), or list the service's host in NO_PROXY to reach it directly."

// statusHint suggests what to do about the statuses a user can act on; op
// is the request answered ("GET /v2/live").
func statusHint(apiErr *client.APIError) string {
	op, status := apiErr.Op, apiErr.StatusCode
	switch {
	case status == http.StatusBadRequest && !apiErr.ServiceBody && plainHTTPToHTTPS.MatchString(apiErr.Message):
		// Go's, nginx's and others' answer to plain HTTP on a TLS port.
		return "base_url says http://, and the server at that address speaks HTTPS: use https://."
	case status == http.StatusProxyAuthRequired && apiErr.ProxyCredentialsSent:
		return proxyRefusedCredentials
	case status == http.StatusProxyAuthRequired:
		return "An HTTP proxy answered (the one the HTTP_PROXY or HTTPS_PROXY environment variable names), asking for its credentials: " +
			"give them in its URL (http://user:password@proxy:port), or list the service's host in NO_PROXY to reach it directly."
	case status == http.StatusUnauthorized:
		return "Check the provider's api_key (or the " + EnvAPIKey + " environment variable)."
	case status == http.StatusForbidden && (strings.HasPrefix(op, http.MethodGet+" ") || op == http.MethodPost+" /v2/upload"):
		// Zero data retention refuses reads and uploads (a 403 to a DELETE
		// is a job not deletable yet; to a create, not this).
		return "The service refuses this request to accounts with zero data retention. If the account has it, set zero_data_retention = true in the provider configuration: " +
			"the provider then refuses at plan time what the service would refuse, and never reads jobs."
	case status == http.StatusTooManyRequests && op == http.MethodPost+" /v2/pre-recorded":
		// An account's limit of jobs running at once turns a batch's creates
		// away until its jobs end, for longer than the retries may last.
		turnedAway := "The service kept turning the job away after every retry (the provider's max_retries)"
		if apiErr.Tries == 1 {
			turnedAway = "The service turned the job away, and the provider did not send it again (max_retries = 0)"
		}
		return turnedAway + ": the account is at its limit of requests, or of jobs running at once. " +
			"No job was created, so none is lost or billed. For more jobs than the account may run at once, " +
			"apply with -parallelism at most that limit, or raise max_retries so that each create waits for a job to end."
	case status == http.StatusTooManyRequests && apiErr.Tries == 1:
		return "The service limited the request rate, and the provider did not send the request again (max_retries = 0); try again later, or raise max_retries."
	case status == http.StatusTooManyRequests:
		return "The service kept limiting the request rate after every retry (the provider's max_retries); try again later."
	case status >= 300 && status < 400:
		// The client follows a redirect only for a read, within base_url's
		// origin (sameOriginRedirects).
		return "base_url answers with a redirect (HTTP 3xx), which the provider follows only for a read, to the same scheme, host and port: set base_url to the address the service answers at now."
	case (status == http.StatusNotFound || status == http.StatusMethodNotAllowed || status == http.StatusNotImplemented) && namesNoJob(op):
		// The service takes this method at this path whatever the job: a
		// 404, or a web server's 405 or 501 to a POST, is not its answer
		// (and no retry mends it).
		hint := "The service answers this request whatever the job, so base_url does not lead to it (a path prefix mistyped, another host, a web server that is not the service). " +
			"Check base_url, or the " + EnvBaseURL + " environment variable when the provider configuration leaves base_url out."
		if apiErr.URL != "" {
			hint += " The request went to " + apiErr.URL + "."
		}
		return hint
	}
	if status >= 500 {
		return "The service failed; try again later."
	}
	return ""
}
