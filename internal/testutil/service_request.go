package testutil

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// ServiceRequest sends one request to the service at base (the fake server,
// in tests) with key in the service's key header, and returns the answer's
// status and body. contentType may be empty, for a request without one. The
// request ends with the test.
func ServiceRequest(t testing.TB, base, key, method, path, contentType string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(client.ServiceKeyHeader, key)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return resp.StatusCode, data
}
