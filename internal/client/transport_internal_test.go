package client

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// sameOriginRedirects follows a redirect only within the first request's
// origin (scheme, host and port: an https service redirecting to http on
// its own host would send the key in clear), at most maxRedirects times
// (the last redirect is then the answer), and then asks the client's own
// policy when it has one.
func TestSameOriginRedirects(t *testing.T) {
	request := func(raw string) *http.Request {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Request{URL: u}
	}
	chain := func(n int) []*http.Request {
		via := make([]*http.Request, n)
		for i := range via {
			via[i] = request("https://api.example.com/v2/live")
		}
		return via
	}
	for _, method := range []string{http.MethodPost, http.MethodDelete, http.MethodPut} {
		via := chain(1)
		via[0].Method = method
		if err := sameOriginRedirects(nil)(request("https://api.example.com/v2/live"), via); !errors.Is(err, http.ErrUseLastResponse) {
			t.Errorf("a %s redirected within its origin: %v, want it not followed", method, err)
		}
	}
	errOwnPolicy := errors.New("the client's own policy")
	for _, tc := range []struct {
		name string
		to   string
		via  int
		own  func(*http.Request, []*http.Request) error
		want error // nil: followed
	}{
		{name: "same origin", to: "https://api.example.com/v2/live?offset=3", via: 1},
		{name: "another path", to: "https://api.example.com/other", via: 1},
		{name: "another scheme on the same host", to: "http://api.example.com/v2/live", via: 1, want: http.ErrUseLastResponse},
		{name: "another host", to: "https://evil.example.com/v2/live", via: 1, want: http.ErrUseLastResponse},
		{name: "another port", to: "https://api.example.com:8443/v2/live", via: 1, want: http.ErrUseLastResponse},
		{name: "the tenth redirect", to: "https://api.example.com/v2/live", via: maxRedirects - 1},
		{name: "the eleventh redirect", to: "https://api.example.com/v2/live", via: maxRedirects, want: http.ErrUseLastResponse},
		{name: "the client's own policy", to: "https://api.example.com/v2/live", via: 1, own: func(*http.Request, []*http.Request) error { return errOwnPolicy }, want: errOwnPolicy},
		{name: "the client's own policy, elsewhere", to: "https://evil.example.com/", via: 1, own: func(*http.Request, []*http.Request) error { return nil }, want: http.ErrUseLastResponse},
	} {
		err := sameOriginRedirects(tc.own)(request(tc.to), chain(tc.via))
		if !errors.Is(err, tc.want) && (tc.want != nil || err != nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// The default transport bounds the stages Config names, each as
// configured (the TLS handshake, which no test can stall without timing
// it, and the wait for an answer's headers), and keeps a connection per
// parallel call.
func TestNewTransport_boundsStagesAsConfigured(t *testing.T) {
	tr := newTransport(Config{TLSHandshakeTimeout: 5 * time.Second, ResponseHeaderTimeout: 7 * time.Second})
	if tr.TLSHandshakeTimeout != 5*time.Second || tr.ResponseHeaderTimeout != 7*time.Second {
		t.Errorf("TLS handshake bound %s, header bound %s, want 5s and 7s", tr.TLSHandshakeTimeout, tr.ResponseHeaderTimeout)
	}
	if tr.MaxIdleConnsPerHost != maxIdleConns {
		t.Errorf("%d idle connections kept per host, want %d", tr.MaxIdleConnsPerHost, maxIdleConns)
	}
}
