package client

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
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
		{name: "the host in other letter case", to: "https://API.Example.com/v2/live", via: 1},
		{name: "the default port written out", to: "https://api.example.com:443/v2/live", via: 1},
		{name: "another scheme's default port", to: "https://api.example.com:80/v2/live", via: 1, want: http.ErrUseLastResponse},
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

// A failure that every try would meet alike is not tried again: a server
// certificate not trusted here, https:// to a server speaking plain HTTP,
// a proxy refusing the tunnel for want of credentials. A connection that
// cannot be opened in time is tried twice, not max_retries + 1 times.
func TestRoundTrip_settledFailuresAreTriedOnce(t *testing.T) {
	quick := Config{APIKey: "k", MaxRetries: 4, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
	newConns := func(srv *httptest.Server) *atomic.Int32 {
		var n atomic.Int32
		srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				n.Add(1)
			}
		}
		return &n
	}
	list := func(cfg Config) error {
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListPreRecorded(context.Background(), ListOptions{})
		return err
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"first":"","current":"","next":null,"items":[]}`)
	})

	t.Run("certificate not trusted", func(t *testing.T) {
		srv := httptest.NewUnstartedServer(ok)
		conns := newConns(srv)
		srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake refused, expected
		srv.StartTLS()
		defer srv.Close()
		cfg := quick
		cfg.BaseURL = srv.URL
		var certErr *tls.CertificateVerificationError
		if err := list(cfg); !errors.As(err, &certErr) {
			t.Fatalf("error %v, want the certificate's verification", err)
		}
		if n := conns.Load(); n != 1 {
			t.Errorf("%d connections, want 1", n)
		}
	})
	t.Run("https to plain HTTP", func(t *testing.T) {
		srv := httptest.NewUnstartedServer(ok)
		conns := newConns(srv)
		srv.Start()
		defer srv.Close()
		cfg := quick
		cfg.BaseURL = strings.Replace(srv.URL, "http://", "https://", 1)
		if err := list(cfg); !errors.Is(err, http.ErrSchemeMismatch) {
			t.Fatalf("error %v, want the scheme mismatch", err)
		}
		if n := conns.Load(); n != 1 {
			t.Errorf("%d connections, want 1", n)
		}
	})
	t.Run("proxy asking for credentials", func(t *testing.T) {
		var connects atomic.Int32
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodConnect {
				connects.Add(1)
			}
			w.WriteHeader(http.StatusProxyAuthRequired)
		}))
		defer proxy.Close()
		proxyURL, err := url.Parse(proxy.URL)
		if err != nil {
			t.Fatal(err)
		}
		proxyURL.User = url.UserPassword("puser", "psecret")
		cfg := quick
		cfg.BaseURL = "https://service.example"
		tr := newTransport(cfg)
		tr.Proxy = http.ProxyURL(proxyURL)
		cfg.HTTPClient = &http.Client{Transport: tr}
		err = list(cfg)
		var refused *ProxyRefusedError
		if !errors.As(err, &refused) || refused.StatusCode != http.StatusProxyAuthRequired || !refused.CredentialsSent || !strings.Contains(err.Error(), proxy.URL) || strings.Contains(err.Error(), "psecret") {
			t.Fatalf("error %v, want the proxy's refusal naming it without its password", err)
		}
		if n := connects.Load(); n != 1 {
			t.Errorf("%d CONNECTs, want 1", n)
		}
	})
	t.Run("proxy silent after the connection", func(t *testing.T) {
		var connects atomic.Int32
		silent, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer silent.Close()
		go func() {
			for {
				conn, err := silent.Accept()
				if err != nil {
					return
				}
				connects.Add(1)
				defer conn.Close() // read nothing, answer nothing
			}
		}()
		cfg := quick
		cfg.BaseURL = "https://service.example"
		cfg.StallTimeout = 100 * time.Millisecond
		tr := newTransport(cfg)
		tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: silent.Addr().String()})
		cfg.HTTPClient = &http.Client{Transport: tr}
		var stall *StallError
		if err := list(cfg); !errors.As(err, &stall) {
			t.Fatalf("error %v, want the stall", err)
		}
		if n := connects.Load(); n != 2 {
			t.Errorf("%d connections to the proxy, want 2", n)
		}
	})
	t.Run("connection not opened in time", func(t *testing.T) {
		var dials atomic.Int32
		cfg := quick
		cfg.BaseURL = "http://service.example"
		cfg.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
			dials.Add(1)
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: dialTimedOut{}}
		}}}
		if err := list(cfg); !isTimeout(err) {
			t.Fatalf("error %v, want the dial's timeout", err)
		}
		if n := dials.Load(); n != 2 {
			t.Errorf("%d dials, want 2", n)
		}
	})
}

// dialTimedOut is a dial's timeout, as the net package reports it.
type dialTimedOut struct{}

func (dialTimedOut) Error() string   { return "i/o timeout" }
func (dialTimedOut) Timeout() bool   { return true }
func (dialTimedOut) Temporary() bool { return true }

// A plain-HTTP request through a proxy whose URL holds credentials, which
// refuses them with a 407 quoting the request's headers: the answer is an
// APIError saying the credentials were sent, and neither it nor the log
// quotes them, as written or as the Proxy-Authorization header Go makes.
func TestRoundTrip_plainHTTPProxyRefusingItsCredentials(t *testing.T) {
	const password = "proxyPwSecret9"
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusProxyAuthRequired)
		_, _ = io.WriteString(w, "credentials refused: Proxy-Authorization: "+r.Header.Get("Proxy-Authorization")+" for "+r.URL.String())
	}))
	defer proxy.Close()
	proxyURL, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, withCredentials := range []bool{true, false} {
		if withCredentials {
			proxyURL.User = url.UserPassword("proxyUser", password)
		} else {
			proxyURL.User = nil
		}
		cfg := Config{BaseURL: "http://service.example", APIKey: "k", MaxRetries: -1}
		tr := newTransport(cfg)
		tr.Proxy = http.ProxyURL(proxyURL)
		cfg.HTTPClient = &http.Client{Transport: tr}
		var logs recordingLines
		cfg.Logger = &logs
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, listErr := c.ListPreRecorded(context.Background(), ListOptions{})
		// A call with secrets of its own (a presigned audio_url) masks the
		// proxy's too.
		_, createErr := c.CreatePreRecorded(context.Background(), &InitTranscriptionRequest{AudioURL: "https://bucket.example/a.wav?X-Amz-Signature=abcdef123456"})
		basic := base64.StdEncoding.EncodeToString([]byte("proxyUser:" + password))
		logged := strings.Join(logs, "\n")
		for _, err := range []error{listErr, createErr} {
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusProxyAuthRequired || apiErr.ProxyCredentialsSent != withCredentials {
				t.Fatalf("credentials %t: error %v, want a 407 saying whether they were sent", withCredentials, err)
			}
			for _, secret := range []string{password, basic} {
				if strings.Contains(err.Error(), secret) || strings.Contains(logged, secret) {
					t.Errorf("the error or the log quotes the proxy's credentials (%s):\n%v\n%s", secret, err, logged)
				}
			}
		}
		if !strings.Contains(logged, "credentials refused") {
			t.Errorf("the answer was not logged:\n%s", logged)
		}
	}
}

// recordingLines records what the client logs, fields included.
type recordingLines []string

func (r *recordingLines) Debug(_ context.Context, msg string, fields map[string]any) {
	*r = append(*r, fmt.Sprint(msg, fields))
}

func (r *recordingLines) Trace(_ context.Context, msg string, fields map[string]any) {
	*r = append(*r, fmt.Sprint(msg, fields))
}
