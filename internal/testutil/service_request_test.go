package testutil

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

func TestServiceRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte(r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get(client.ServiceKeyHeader) + " " + r.Header.Get("Content-Type") + " " + string(body)))
	}))
	defer srv.Close()
	status, data := ServiceRequest(t, srv.URL, "k1", http.MethodPost, "/v2/x?a=1", "application/json", []byte(`{}`))
	if want := "POST /v2/x?a=1 k1 application/json {}"; status != http.StatusTeapot || string(data) != want {
		t.Fatalf("%d %q, want 418 %q", status, data, want)
	}
	if _, data := ServiceRequest(t, srv.URL, "k2", http.MethodGet, "/y", "", nil); string(data) != "GET /y k2  " {
		t.Fatalf("without a content type: %q", data)
	}
}
