package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A base URL given with the interface's /v2 prefix, with or without a
// trailing slash, reaches the same paths as one without it.
func TestBaseURLWithVersionPrefix(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"6f1c1a2e-0000-4000-8000-000000000001","request_id":"r","version":2,"status":"done","created_at":"2025-01-01T00:00:00Z","kind":"pre-recorded"}`))
	}))
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/v2", srv.URL + "/v2/", srv.URL + "/gateway/v2"} {
		c, err := New(Config{BaseURL: base, APIKey: "k"})
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		if _, err := c.GetPreRecorded(context.Background(), "6f1c1a2e-0000-4000-8000-000000000001"); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		want := "/v2/pre-recorded/6f1c1a2e-0000-4000-8000-000000000001"
		if base == srv.URL+"/gateway/v2" {
			want = "/gateway" + want
		}
		if got := paths[len(paths)-1]; got != want {
			t.Errorf("base %q: requested %q, want %q", base, got, want)
		}
		if got := c.ResultURL("x"); strings.Contains(got, "/v2/v2/") || !strings.HasSuffix(got, "/v2/transcription/x") {
			t.Errorf("base %q: result URL %q", base, got)
		}
	}
}

// A base URL is refused, named without any credential it holds (a user's
// password, a query or fragment, where keys and signatures go), when it is
// not an absolute http(s) URL without query, fragment or credentials.
func TestParseBaseURL_refuses(t *testing.T) {
	for raw, want := range map[string]string{
		"ftp://api.example.com": "must be an absolute http or https URL",
		"/v2":                   "has no scheme: start it with http:// or https://",
		// No scheme: the parser's reasons ("first path segment in URL
		// cannot contain colon", or the scheme "localhost") say nothing of it.
		"127.0.0.1:8080":                 "start it with http:// or https://",
		"localhost:8080":                 "start it with http:// or https://",
		"api.example.com/v2":             "start it with http:// or https://",
		"https:user:s3cr3t@api.example":  "has no // after its scheme",
		"HTTPS:api.example.com":          "has no // after its scheme",
		"https://":                       "has no host",
		"https:///v2":                    "has no host",
		"https://gw.example/speech/./":   `must not hold a "." path segment`,
		"https://gw.example/a/../speech": `must not hold a ".." path segment`,
		"https://gw.example/a/%2E%2E/b":  `must not hold a ".." path segment`,
		// A port without a host name: Go would dial this machine.
		"http://:18931":                             "must be an absolute http or https URL",
		"https://api.example.com?x=1":               "must not have a query or fragment",
		"https://api.example.com/v2?api_key=s3cr3t": `base URL "https://api.example.com/v2?…" must not have a query or fragment`,
		"https://api.example.com/#s3cr3t":           `base URL "https://api.example.com/?…" must not have a query or fragment`,
		"ftp://api.example.com/?token=s3cr3t":       `base URL "ftp://api.example.com/?…" must be an absolute http or https URL`,
		"https://user:s3cr3t@api.example.com":       "must not hold credentials",
		"https://token-s3cr3t@api.example.com/":     "must not hold credentials",
		// The parser's reason quotes part of it: "invalid port \":s3cr3t\"".
		"https://svc:s3cr3t/more@api.example.com":       "must not hold credentials",
		"https://user:s3cr3t@api.example.com/?t=s3cr3t": "must not have a query or fragment",
		"https://user:s3cr3t@[::1":                      "is not a URL",
		// White space, which no URL holds, would reach every request's path.
		"http://127.0.0.1:18931/ ":     "must not hold white space",
		"http://127.0.0.1:18931/v2 ":   "must not hold white space",
		" https://api.example.com":     "must not hold white space",
		"https://api.example.com/\t":   "must not hold white space",
		"https://api.example.com/\x7f": "must not hold a control character",
		// An empty query or fragment is one all the same, and would keep the
		// /v2 prefix from being recognized.
		"http://127.0.0.1:18931/v2/?": "must not have a query or fragment",
		"http://127.0.0.1:18931/v2/#": "must not have a query or fragment",
		// A port no client can dial.
		"http://127.0.0.1:99999": "port 99999 is not one from 1 to 65535",
		"http://127.0.0.1:0/":    "port 0 is not one from 1 to 65535",
	} {
		_, err := ParseBaseURL(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", raw, err, want)
		} else if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error shows the credentials: %v", raw, err)
		}
	}
}

// OnServiceHost tells the files uploaded to the service (on the base URL's
// host) from external ones.
func TestOnServiceHost(t *testing.T) {
	c, err := New(Config{BaseURL: "https://API.example.com:8443/v2", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]bool{
		"https://api.example.com:8443/file/abc":           true,
		"http://api.example.com:8443/file/abc":            true,
		"https://api.example.com/file/abc":                false, // another port
		"https://cdn.example.com/a.wav":                   false,
		"https://example.com/a.wav":                       false,
		"http://[::1/a.wav":                               false,
		"HTTPS://API.EXAMPLE.COM:8443/file/x":             true,
		"https://example.com/api.example.com:8443/file/x": false,
		"":  false,
		"%": false,
	} {
		if got := c.OnServiceHost(raw); got != want {
			t.Errorf("OnServiceHost(%q) = %v, want %v", raw, got, want)
		}
	}

	// A port that is its scheme's default is the same as none, on either side.
	for base, cases := range map[string]map[string]bool{
		"https://api.example.com": {
			"https://api.example.com:443/file/abc": true,
			"http://api.example.com:80/file/abc":   true,
			"http://api.example.com/file/abc":      true,
			"https://api.example.com:80/file/abc":  false,
			"http://api.example.com:443/file/abc":  false,
		},
		"https://api.example.com:443/v2": {
			"https://api.example.com/file/abc":    true,
			"https://api.example.com:8443/file/x": false,
		},
	} {
		c, err := New(Config{BaseURL: base, APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		for raw, want := range cases {
			if got := c.OnServiceHost(raw); got != want {
				t.Errorf("base %s: OnServiceHost(%q) = %v, want %v", base, raw, got, want)
			}
		}
	}
}

// RedactedURL keeps what locates a file and drops what may be a credential,
// whether or not the text parses as a URL.
func TestRedactedURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://bucket.example.com/calls/a.wav":                                  "https://bucket.example.com/calls/a.wav",
		"https://bucket.example.com/a.wav?X-Amz-Signature=s3cr3t&X-Amz-Expires=9": "https://bucket.example.com/a.wav?…",
		"https://user:s3cr3t@example.com/a.wav":                                   "https://example.com/a.wav",
		"https://example.com/a.wav#s3cr3t":                                        "https://example.com/a.wav?…",
		"https:user:s3cr3t@example.com/a.wav":                                     "https:…",
		"https://exa mple.com/a.wav?sig=s3cr3t":                                   "https://exa mple.com/a.wav?…",
		"http://user:s3cr3t@[::1/a.wav":                                           "[::1/a.wav",
		"http://user:s3@cr3t@[::1/a.wav":                                          "[::1/a.wav",
		"https://exa mple.com/a.wav#s3cr3t":                                       "https://exa mple.com/a.wav?…",
		"https://example.com/a.wav?":                                              "https://example.com/a.wav?…",
		"https://svc:s3cr3t#2@bucket.example.com/a.wav":                           "https://…",
		"https://admin:1234#s3cr3t@bucket.example.com/a.wav":                      "https://…",
		"https://admin:1234?s3cr3t@bucket.example.com/a.wav":                      "https://…",
		"https://bucket.example.com/a.wav?owner=s3cr3t@example.com":               "https://…",
		"https://svc:s3cr3t?2@bucket.example.com/a.wav":                           "https://…",
		"ftp://svc:s3cr3t#2@bucket.example.com/a.wav":                             "ftp://…",
		"https://exa mple.com/a.wav?sig=s3@cr3t":                                  "https://…",
		"svc:s3cr3t#2@bucket.example.com/a.wav":                                   "…",
		"":                                                                        "",
	} {
		got := RedactedURL(raw)
		if got != want {
			t.Errorf("RedactedURL(%q) = %q, want %q", raw, got, want)
		}
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("RedactedURL(%q) shows the secret: %q", raw, got)
		}
	}
}

// Paths are escaped once: an id with characters a path must escape reaches
// the service as one segment, and a base URL's escaped path prefix stays
// as written.
func TestPathsAreEscapedOnce(t *testing.T) {
	var uris []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uris = append(uris, r.RequestURI)
		http.Error(w, `{"message":"no such job"}`, http.StatusNotFound)
	}))
	defer srv.Close()
	for _, c := range []struct{ base, id, want string }{
		{srv.URL, "a b/c", "/v2/pre-recorded/a%20b%2Fc"},
		{srv.URL, "ü%", "/v2/pre-recorded/%C3%BC%25"},
		{srv.URL + "/tenant%2Fone/v2", "x", "/tenant%2Fone/v2/pre-recorded/x"},
		{srv.URL + "/a%20b/", "x", "/a%20b/v2/pre-recorded/x"},
	} {
		cl, err := New(Config{BaseURL: c.base, APIKey: "k", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = cl.GetPreRecorded(context.Background(), c.id)
		if got := uris[len(uris)-1]; got != c.want {
			t.Errorf("base %q, id %q: requested %q, want %q", c.base, c.id, got, c.want)
		}
		wantResult := srv.URL + strings.Replace(c.want, "/v2/pre-recorded/", "/v2/transcription/", 1)
		if got := cl.ResultURL(c.id); got != wantResult {
			t.Errorf("base %q, id %q: result URL %q, want %q", c.base, c.id, got, wantResult)
		}
	}
}
