package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
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

func newAPIError(op string, resp *http.Response, data []byte) *APIError {
	e := &APIError{
		Op:         op,
		StatusCode: resp.StatusCode,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
	}
	var body ErrorBody
	if err := json.Unmarshal(data, &body); err == nil && (body.Message != "" || body.RequestID != "") {
		e.Message = body.Message
		e.RequestID = body.RequestID
		e.Path = body.Path
		e.Timestamp = body.Timestamp
		e.ValidationErrors = body.ValidationErrors
		return e
	}
	// Not the service's error body (a proxy's HTML page, say): show a bounded,
	// printable snippet so the cause stays visible.
	if len(data) > 0 {
		e.Message = "unexpected error response: " + snippet(data)
	}
	return e
}

// TransportError is a failure to get any answer from the service.
type TransportError struct {
	Op   string
	Sent bool // whether the request may have reached the service
	Err  error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("%s: cannot reach the transcription service: %v", e.Op, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// DecodeError is a 2xx answer the client cannot understand.
type DecodeError struct {
	Op     string
	Reason string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: unexpected response from the transcription service: %s", e.Op, e.Reason)
}

// snippet returns at most 200 printable characters of data.
func snippet(data []byte) string {
	const limit = 200
	s := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, string(data))
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}
