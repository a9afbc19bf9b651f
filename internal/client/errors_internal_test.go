package client

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// An error answer's fields are read from the service's error body (one
// with a message or a request id), each masked and bounded; any other body
// is quoted as a snippet, and no body gives no message.
func TestNewAPIError_fields(t *testing.T) {
	hide := newSecrets("s3cr3t-k3y")
	long := strings.Repeat("r", 200)
	cases := []struct {
		name string
		body string
		want APIError
	}{
		{"every field", `{"message":"bad","request_id":"r-1","path":"/v2/x?k=s3cr3t-k3y","timestamp":"2026-01-02T03:04:05Z","validation_errors":["a s3cr3t-k3y","b"]}`,
			APIError{Message: "bad", RequestID: "r-1", Path: "/v2/x?k=***", Timestamp: "2026-01-02T03:04:05Z", ValidationErrors: []string{"a ***", "b"}}},
		{"request id only", `{"request_id":"r-2","timestamp":"t"}`, APIError{RequestID: "r-2", Timestamp: "t"}},
		// Only the spec's whole body, its status the answer's, is the
		// service's own; a gateway's JSON may have a message alone.
		{"the service's own", `{"message":"m","request_id":"r-3","path":"/v2/x","timestamp":"t","statusCode":502}`,
			APIError{Message: "m", RequestID: "r-3", Path: "/v2/x", Timestamp: "t", ServiceBody: true}},
		{"another status in the body", `{"message":"m","request_id":"r-4","path":"/v2/x","timestamp":"t","statusCode":503}`,
			APIError{Message: "m", RequestID: "r-4", Path: "/v2/x", Timestamp: "t"}},
		{"a gateway's JSON", `{"message":"upstream connect error or disconnect/reset before headers"}`,
			APIError{Message: "upstream connect error or disconnect/reset before headers"}},
		// A gateway may put what it was sent anywhere in its error body.
		{"a secret in every field", `{"message":"m s3cr3t-k3y","request_id":"r-s3cr3t-k3y","path":"/v2/s3cr3t-k3y","timestamp":"t s3cr3t-k3y"}`,
			APIError{Message: "m ***", RequestID: "r-***", Path: "/v2/***", Timestamp: "t ***"}},
		{"identifiers cut at 128 bytes", `{"message":"m","request_id":"` + long + `","path":"` + long + `","timestamp":"` + long + `"}`,
			APIError{Message: "m", RequestID: long[:128] + "…", Path: long[:128] + "…", Timestamp: long[:128] + "…"}},
		{"neither message nor request id", `{"path":"/v2/x"}`, APIError{Message: `unexpected error response: {"path":"/v2/x"}`}},
		{"not JSON", "Bad Gateway", APIError{Message: "unexpected error response: Bad Gateway"}},
		{"no body", "", APIError{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := newAPIError("GET /v2/x", &http.Response{StatusCode: 502, Header: http.Header{}}, []byte(tc.body), hide)
			want := tc.want
			want.Op, want.StatusCode = "GET /v2/x", 502
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("newAPIError(%q) =\n%#v\nwant\n%#v", tc.body, *got, want)
			}
		})
	}
}

// An error answer reads as its operation, status, message, validation
// errors and request id, each part only when there is one.
func TestAPIError_Error(t *testing.T) {
	for _, tc := range []struct {
		err  APIError
		want string
	}{
		{APIError{Op: "GET /v2/live", StatusCode: 404}, "GET /v2/live: 404 Not Found"},
		{APIError{Op: "GET /v2/live", StatusCode: 404, RequestID: "r-1"}, "GET /v2/live: 404 Not Found [request_id r-1]"},
		{APIError{Op: "POST /v2/pre-recorded", StatusCode: 422, Message: "invalid", ValidationErrors: []string{"a", "b"}, RequestID: "r-2"},
			"POST /v2/pre-recorded: 422 Unprocessable Entity: invalid (a; b) [request_id r-2]"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// IsStatus holds for an APIError of that status only.
func TestIsStatus(t *testing.T) {
	err := fmt.Errorf("reading: %w", &APIError{StatusCode: http.StatusForbidden})
	if !IsStatus(err, http.StatusForbidden) || IsStatus(err, http.StatusNotFound) || IsNotFound(err) || IsStatus(errors.New("403"), http.StatusForbidden) {
		t.Error("IsStatus does not tell the status of an APIError")
	}
}

// A text at its bound is kept whole; a longer one is cut on a rune
// boundary and marked.
func TestPrintable_bound(t *testing.T) {
	for _, tc := range []struct {
		s     string
		limit int
		want  string
	}{
		{strings.Repeat("a", 8), 8, strings.Repeat("a", 8)},
		{strings.Repeat("a", 9), 8, strings.Repeat("a", 8) + "…"},
		{"aaaaaaaé", 8, "aaaaaaa…"}, // é is 2 bytes: cut before it
		{"a\u202eb\x00c", 8, "a b c"},
	} {
		if got := printable(tc.s, tc.limit); got != tc.want {
			t.Errorf("printable(%q, %d) = %q, want %q", tc.s, tc.limit, got, tc.want)
		}
	}
}

// Validation errors are kept while they fit in 2048 bytes in all, the
// rest counted.
func TestBoundedList(t *testing.T) {
	item := strings.Repeat("v", maxValidationErrorBytes)
	fill := make([]string, maxValidationErrorsBytes/maxValidationErrorBytes)
	for i := range fill {
		fill[i] = item
	}
	if got := boundedList(fill, nil); !reflect.DeepEqual(got, fill) {
		t.Errorf("%d errors that fill the bound exactly: kept %d", len(fill), len(got))
	}
	over := append(append([]string{}, fill...), "x", "y", "z")
	got := boundedList(over, nil)
	if want := append(append([]string{}, fill...), "… and 3 more"); !reflect.DeepEqual(got, want) {
		t.Errorf("3 errors past the bound: got %q, want the first %d and %q", got[len(got)-1], len(fill), want[len(want)-1])
	}
}

// A transport failure's text does not quote a secret.
func TestTransportError_masks(t *testing.T) {
	e := &TransportError{Op: "GET /v2/live", Err: errors.New(`malformed answer "x-service-key: s3cr3t-k3y"`), hide: newSecrets("s3cr3t-k3y")}
	if got := e.Error(); strings.Contains(got, "s3cr3t") || !strings.Contains(got, "***") {
		t.Errorf("Error() = %q", got)
	}
}

// A body that is not the service's error body is quoted with its white
// space collapsed; an HTML page by its title, or its visible text without
// its head, the whole snippet (its "HTML page: " included) at most 200
// bytes.
func TestSnippet(t *testing.T) {
	longTitle := strings.Repeat("t", 300)
	for _, tc := range []struct{ body, want string }{
		{" bad \r\n\t gateway  ", "bad gateway"},
		{"", "(empty body)"},
		{"<html><body> <p></p> </body></html>", "HTML page without text"},
		// HTML5 lets a page leave out its <html> tag: its doctype tells it.
		{"<!DOCTYPE html>\n<title>Down for maintenance</title><p>Back soon", "HTML page: Down for maintenance"},
		// The page is told by its start, as far as 1 KiB in.
		{"<!-- " + strings.Repeat("c", 100) + " -->\n<html><body>Down</body></html>", "HTML page: Down"},
		// A blank title says nothing: the text is shown, without the head's.
		{"<html><head><title> </title><noscript>HeadText</noscript></head><body>Down for maintenance</body></html>", "HTML page: Down for maintenance"},
		{"<html><head><title>" + longTitle + "</title></head></html>", "HTML page: " + longTitle[:200-len("HTML page: ")] + "…"},
	} {
		if got := snippet([]byte(tc.body), nil); got != tc.want {
			t.Errorf("snippet(%.60q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

// The reason of an answer the client cannot understand, which may quote
// it, is printable and bounded.
func TestDecodeError_boundsItsReason(t *testing.T) {
	e := &DecodeError{Op: "GET /v2/live", Reason: "bad \x1b[31m" + strings.Repeat("r", 600)}
	want := "GET /v2/live: unexpected response from the transcription service: bad  [31m" + strings.Repeat("r", maxMessageBytes-len("bad  [31m")) + "…"
	if got := e.Error(); got != want || strings.Contains(got, "\x1b") {
		t.Errorf("Error() = %q", got)
	}
}
