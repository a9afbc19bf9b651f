package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// APIError is an error answer of the service, carrying the error body's
// fields so diagnostics can show them.
type APIError struct {
	Op               string // e.g. "POST /v2/pre-recorded"
	StatusCode       int
	Message          string
	RequestID        string
	Path             string
	Timestamp        string
	ValidationErrors []string
	RetryAfter       time.Duration
	// Location is a redirect's target (RedactedURL: no credential), empty
	// for other answers.
	Location string
	// URL is where the request went (RedactedURL: no credential, no query).
	URL string
	// Redirected: a redirect within base_url's origin led the request to
	// URL, which answered.
	Redirected bool
	// ProxyCredentialsSent: a 407 from the proxy the request went through,
	// to which the client sent the credentials its URL holds.
	ProxyCredentialsSent bool
	// ServiceBody: the answer's body is the service's error body, which
	// every error of the service's own carries: request_id, path,
	// timestamp and statusCode (the answer's) all there. Another body (a
	// gateway's or proxy's page) is no word of the service's on what it did.
	ServiceBody bool
	// Tries is how many times the request was sent, this answer's try
	// included.
	Tries int
}

// MayHaveBeenHandled reports whether the request this answers may have been
// carried out before the failure (MayHaveBeenHandled of its status). A 503
// says the service turned the request away only in the service's own
// error body: a gateway answers 503 also when the service took the request
// and the connection to it was lost before the answer (Envoy's "upstream
// connect error or disconnect/reset before headers").
func (e *APIError) MayHaveBeenHandled() bool {
	return MayHaveBeenHandled(e.StatusCode) || e.StatusCode == http.StatusServiceUnavailable && !e.ServiceBody
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d %s", e.Op, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if len(e.ValidationErrors) > 0 {
		b.WriteString(" (" + strings.Join(e.ValidationErrors, "; ") + ")")
	}
	if e.RequestID != "" {
		b.WriteString(" [request_id " + e.RequestID + "]")
	}
	return b.String()
}

// IsStatus reports whether err is an APIError with the given HTTP status.
func IsStatus(err error, status int) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode == status
}

// IsNotFound reports whether err is a 404 from the service.
func IsNotFound(err error) bool { return IsStatus(err, http.StatusNotFound) }

// newAPIError reads an error answer; what it quotes of data is without
// hide, masked before it is cut short.
func newAPIError(op string, resp *http.Response, data []byte, hide secrets) *APIError {
	e := &APIError{
		Op:         op,
		StatusCode: resp.StatusCode,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
	}
	if resp.Request != nil && resp.Request.URL != nil {
		e.URL = printable(hide.mask(redacted(resp.Request.URL)), maxMessageBytes)
		e.Redirected = redirected(resp)
	}
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		// Whole, as base_url would need it: a relative target resolved.
		if target, err := url.Parse(loc); err == nil && resp.Request != nil && resp.Request.URL != nil {
			loc = resp.Request.URL.ResolveReference(target).String()
		}
		e.Location = printable(hide.mask(RedactedURL(loc)), maxIdentBytes)
	}
	var body ErrorBody
	if err := json.Unmarshal(data, &body); err == nil && (body.Message != "" || body.RequestID != "") {
		// The fields go into diagnostics as they are: keep them printable
		// and short whatever the server sent.
		e.Message = printable(hide.maskQuoted(body.Message), maxMessageBytes)
		e.RequestID = printable(hide.mask(body.RequestID), maxIdentBytes)
		e.Path = printable(hide.mask(body.Path), maxIdentBytes)
		e.Timestamp = printable(hide.mask(body.Timestamp), maxIdentBytes)
		e.ValidationErrors = boundedList(body.ValidationErrors, hide)
		// The spec's required fields, its status the answer's: a gateway's
		// JSON ({"message": ...}, Kong's) has not all of them.
		e.ServiceBody = body.RequestID != "" && body.Path != "" && body.Timestamp != "" && body.StatusCode == resp.StatusCode
		return e
	}
	// Not the service's error body (a proxy's HTML page, say): show a bounded,
	// printable snippet so the cause stays visible. A redirect's page only
	// links its target, which Location gives redacted.
	if len(data) > 0 && e.Location == "" {
		e.Message = "unexpected error response: " + snippet(data, hide)
	}
	return e
}

// TransportError is a failure to get any answer, or a whole one, from the
// service.
type TransportError struct {
	Op string
	// At is the service address the request went to (base_url, as the
	// client writes it), which the error names: base_url is often set
	// from the environment.
	At   string
	Sent bool // whether the request may have reached the service
	// Written: the request went out whole, body included, and no whole
	// answer came back (none in time, the connection lost, or the answer
	// cut short): the service was reached, and may have acted on it.
	Written bool
	Err     error
	// AnswerTimeout is the limit for an answer to begin once the request
	// is sent (Config.ResponseHeaderTimeout), named when it ran out.
	AnswerTimeout time.Duration
	// Tries is how many times the request was sent, this failure's try
	// included.
	Tries int
	hide  secrets // masked in the text of Err
}

func (e *TransportError) Error() string {
	what := "cannot reach the transcription service"
	switch {
	case e.Written && isTimeout(e.Err):
		what = "the transcription service took the request and sent no answer in time"
		// net/http's words for ResponseHeaderTimeout: its error is not exported.
		if e.AnswerTimeout > 0 && strings.Contains(e.Err.Error(), "timeout awaiting response headers") {
			what += fmt.Sprintf(" (none began within %s, the provider's limit for an answer to begin, apart from the operation's timeouts)", FormatDuration(e.AnswerTimeout))
		}
	case e.Written:
		what = "the transcription service took the request, and the connection failed before its whole answer came"
	case e.Sent:
		// Connected, and cut off before the body went out whole (an
		// upload's): reached, and not holding the request.
		what = "the connection to the transcription service failed while the request was being sent"
	}
	// net/http's *url.Error repeats the method and URL that Op and At
	// name.
	op, cause := e.Op, e.Err
	if urlErr := (*url.Error)(nil); errors.As(cause, &urlErr) {
		cause = urlErr.Err
	}
	if e.At != "" {
		op += " at " + e.At
	}
	// net/http quotes parts of a malformed answer in its errors: bound them.
	return fmt.Sprintf("%s: %s: %s", op, what, printable(maskTransportText(e.hide.mask(fmt.Sprint(cause))), maxMessageBytes))
}

func (e *TransportError) Unwrap() error { return e.Err }

// InterruptedError is a call whose context ended while no try of it was in
// flight: between two tries, waiting to send it again after Last, or
// before a try's request was sent. A call retried only when the service
// cannot have accepted it (a create) therefore carried nothing out.
type InterruptedError struct {
	Op   string
	Last error // the failure of the last try, to be retried; nil when none
	Err  error // the context's error
}

func (e *InterruptedError) Error() string {
	if e.Last == nil {
		return fmt.Sprintf("%s: %s before the request was sent: %s", e.Op, contextEnded(e.Err), e.Err)
	}
	return fmt.Sprintf("%s: %s before the request was sent again after %s: %s", e.Op, contextEnded(e.Err), e.Last, e.Err)
}

// contextEnded says how a call's context ended: "timed out" when its
// deadline passed (a time limit such as a timeouts setting), "interrupted"
// otherwise (a cancellation: Ctrl-C, a cancelled run).
func contextEnded(ctxErr error) string {
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return "timed out"
	}
	return "interrupted"
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// DecodeError is a 2xx answer the client cannot understand.
type DecodeError struct {
	Op     string
	Reason string
	// NotJSON: the answer was not labeled JSON (a proxy's or a
	// maintenance page, say): not the service's answer at all.
	NotJSON bool
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: unexpected response from the transcription service: %s", e.Op, printable(e.Reason, maxMessageBytes))
}

// Bounds of the texts taken from a response into an error.
const (
	maxMessageBytes          = 512
	maxIdentBytes            = 128
	maxValidationErrorBytes  = 256
	maxValidationErrorsBytes = 2048
)

// Printable returns a text of the service's that is not an error answer
// (such as an add-on's error in a job record) fit for a diagnostic, as the
// messages of error answers are: printable and at most 512 bytes.
func Printable(s string) string { return printable(s, maxMessageBytes) }

// Unescaped returns a text of the service's meant to be shown whole (a
// summary) fit for a terminal: each unprintable rune (control and format
// characters such as escape sequences, line breaks, bidirectional
// overrides, invalid UTF-8) replaced by a space.
func Unescaped(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, s)
}

// printable returns s Unescaped, cut on a rune boundary to at most limit
// bytes plus "…".
func printable(s string, limit int) string { return truncate(Unescaped(s), limit) }

// truncate cuts s to at most limit bytes on a rune boundary, marking a cut with "…".
func truncate(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// boundedList makes each validation error printable and short, without
// hide, and keeps as many as fit in maxValidationErrorsBytes, saying how
// many were left out.
func boundedList(items []string, hide secrets) []string {
	var out []string
	used := 0
	for i, item := range items {
		item = printable(hide.maskQuoted(item), maxValidationErrorBytes)
		if used+len(item) > maxValidationErrorsBytes {
			return append(out, fmt.Sprintf("… and %d more", len(items)-i))
		}
		used += len(item)
		out = append(out, item)
	}
	return out
}

// snippet returns at most 200 printable characters of data, masked
// (secrets.maskQuoted). Of an HTML page (a proxy's or a gateway's error
// page, a login page) it gives the title, or else the text: its first 200
// bytes are markup, styles and scripts that say nothing to a user.
func snippet(data []byte, hide secrets) string {
	const limit = 200
	text, prefix := string(data), ""
	if page, ok := htmlPageText(data); ok {
		text, prefix = page, "HTML page: "
	}
	s := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, hide.maskQuoted(text))
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "" && prefix != "":
		return "HTML page without text"
	case s == "":
		return "(empty body)"
	}
	return truncate(prefix+s, limit)
}

var (
	htmlTitle  = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title\s*>`)
	htmlUnseen = regexp.MustCompile(`(?is)<script\b.*?</script\s*>|<style\b.*?</style\s*>|<!--.*?-->|<head\b.*?</head\s*>`)
	htmlTag    = regexp.MustCompile(`(?s)<[^>]*>`)
)

// htmlPageText returns the title of an HTML page, or its text without
// markup when it has none; ok is false when data is not an HTML page.
func htmlPageText(data []byte) (text string, ok bool) {
	head := strings.ToLower(strings.TrimSpace(string(data[:min(len(data), 1024)])))
	if !strings.HasPrefix(head, "<!doctype html") && !strings.Contains(head, "<html") {
		return "", false
	}
	if m := htmlTitle.FindSubmatch(data); m != nil && strings.TrimSpace(string(m[1])) != "" {
		return html.UnescapeString(string(htmlTag.ReplaceAll(m[1], nil))), true
	}
	return html.UnescapeString(string(htmlTag.ReplaceAll(htmlUnseen.ReplaceAll(data, []byte(" ")), []byte(" ")))), true
}
