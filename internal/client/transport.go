package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// maxIdleConns is how many connections the default transport keeps open
// between calls. A client talks to one host, so all of them may be that
// host's: Go's default of 2 per host closed, after each round of Terraform's
// ten parallel operations (-parallelism), eight connections that the next
// round opened again (and their TLS handshakes, and sockets left in
// TIME_WAIT).
const maxIdleConns = 100

// newTransport is the default transport: http.DefaultTransport's settings
// (proxy from the environment, keep-alives, HTTP/2) with the stages of a
// request bounded by cfg, no bound on a whole request, and a connection
// kept for each call made at once (up to maxIdleConns).
func newTransport(cfg Config) *http.Transport {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok { // replaced by the program: start from Go's defaults
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true, MaxIdleConns: maxIdleConns, IdleConnTimeout: 90 * time.Second, ExpectContinueTimeout: time.Second}
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = maxIdleConns
	t.DialContext = (&net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = cfg.TLSHandshakeTimeout
	t.ResponseHeaderTimeout = cfg.ResponseHeaderTimeout
	// Go's own error for a CONNECT refused is the status text alone: typed,
	// it names the proxy, and one refused for good is not tried again.
	t.OnProxyConnectResponse = func(_ context.Context, proxyURL *url.URL, _ *http.Request, resp *http.Response) error {
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return nil
		}
		return &ProxyRefusedError{Proxy: redacted(proxyURL), StatusCode: resp.StatusCode, CredentialsSent: proxyURL.User != nil}
	}
	return t
}

// ProxyRefusedError is an HTTP proxy's refusal to open a tunnel (CONNECT)
// to the service.
type ProxyRefusedError struct {
	Proxy      string // its URL without credentials
	StatusCode int
	// CredentialsSent: the proxy's URL held credentials, which Go sends.
	CredentialsSent bool
}

func (e *ProxyRefusedError) Error() string {
	return fmt.Sprintf("the HTTP proxy %s refused to connect to the service: %d %s", e.Proxy, e.StatusCode, http.StatusText(e.StatusCode))
}

// settled reports whether a failure to reach the service would meet every
// try again: the server's certificate not trusted here, https:// to a
// server that speaks plain HTTP, or a proxy refusing the tunnel for want of
// credentials or by its rules. (Go's http.Client, and go-retryablehttp, do
// not retry a certificate that fails verification either.)
func settled(err error) bool {
	var certErr *tls.CertificateVerificationError
	var proxyErr *ProxyRefusedError
	return errors.As(err, &certErr) || errors.Is(err, http.ErrSchemeMismatch) ||
		errors.As(err, &proxyErr) && (proxyErr.StatusCode == http.StatusProxyAuthRequired || proxyErr.StatusCode == http.StatusForbidden)
}

// connectionTimedOut reports whether err, of a try that sent nothing, is a
// connection to the service that could not be opened in time: its dial,
// its TLS handshake, or a proxy's tunnel to it (a CONNECT unanswered, which
// stalls).
func connectionTimedOut(err error, sent bool) bool {
	var stall *StallError
	return !sent && (isTimeout(err) || errors.As(err, &stall))
}

// maxRedirects is how many redirects a request follows, as Go's client
// does by default.
const maxRedirects = 10

// sameOriginRedirects wraps a client's redirect policy (nil: Go's default)
// so that only a read (GET, HEAD) is redirected, and only within its origin
// (scheme, host and port). To another origin Go's client would send every
// header it does not know to be a credential, the API key among them; and it
// re-sends a POST or DELETE answered 301, 302 or 303 as a GET, which a
// DELETE would take for its success (the job left on the service) and a
// create for an unreadable answer. The redirect is then the answer, an
// error.
func sameOriginRedirects(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if method := via[0].Method; method != "" && method != http.MethodGet && method != http.MethodHead { // "": GET
			return http.ErrUseLastResponse
		}
		// The origin as NormalHost reads it: a host's letter case or its
		// scheme's default port written out changes nothing.
		if first := via[0].URL; req.URL.Scheme != first.Scheme || NormalHost(req.URL) != NormalHost(first) {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			// A loop: its last redirect is the answer, an APIError naming
			// its target redacted, not retried. An error here came back as
			// a lost connection quoting that target whole, retried.
			return http.ErrUseLastResponse
		}
		return nil
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// StallError is a request or response body that made no progress for the
// client's StallTimeout: the transfer was abandoned.
type StallError struct {
	Timeout time.Duration
}

func (e *StallError) Error() string {
	return fmt.Sprintf("the transfer made no progress for %s", FormatDuration(e.Timeout))
}

// watchdog cancels one try of a request when its transfer stalls. It is
// armed while the request body is sent and while the response body is read,
// and each read of either (progress) restarts it; while the service prepares
// its answer it sleeps (the transport's ResponseHeaderTimeout bounds that).
type watchdog struct {
	timeout time.Duration
	cancel  context.CancelCauseFunc

	mu    sync.Mutex
	armed bool
	// answered: the response arrived. The transport reports the request
	// written from its own goroutine, after the last byte went out, so that
	// report can come after the answer; it must not then put the watchdog to
	// sleep while the response body is read.
	answered bool
	timer    *time.Timer
}

// watch returns the context of one try and its watchdog, armed.
func watch(ctx context.Context, timeout time.Duration) (context.Context, *watchdog) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{timeout: timeout, cancel: cancel, armed: true}
	w.timer = time.AfterFunc(timeout, func() { cancel(&StallError{Timeout: timeout}) })
	return ctx, w
}

// progress restarts the countdown when the watchdog is armed.
func (w *watchdog) progress() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.armed {
		w.timer.Reset(w.timeout)
	}
}

// requestWritten stops the countdown while the service prepares its
// answer, unless the answer already came.
func (w *watchdog) requestWritten() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.answered {
		w.armed = false
		w.timer.Stop()
	}
}

// answer starts the countdown again, for the response body.
func (w *watchdog) answer() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.answered = true
	w.armed = true
	w.timer.Reset(w.timeout)
}

// release stops the watchdog and ends the try's context.
func (w *watchdog) release() {
	w.mu.Lock()
	w.armed = false
	w.timer.Stop()
	w.mu.Unlock()
	w.cancel(nil)
}

// stallCause returns the StallError that ended ctx, or nil.
func stallCause(ctx context.Context) error {
	var stall *StallError
	if errors.As(context.Cause(ctx), &stall) {
		return stall
	}
	return nil
}

// watchedBody is a request or response body whose reads feed a watchdog. A
// read that fails because the watchdog ended the try says so.
type watchedBody struct {
	rc  io.ReadCloser
	ctx context.Context
	w   *watchdog
	// request: a request's body, read from this machine (a file being
	// uploaded): a failure to read it is a localError, never retried.
	// Otherwise a response's, which releases the try when closed.
	request bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.progress()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		if stall := stallCause(b.ctx); stall != nil {
			err = stall
		} else if b.request {
			err = &localError{err}
		}
	}
	return n, err
}

func (b *watchedBody) Close() error {
	err := b.rc.Close()
	if b.request {
		// net/http reports a request body's close error as the write's
		// (httptrace's WroteRequest), though every byte went out: a create
		// or upload would then be taken as not sent whole, and sent again.
		return nil
	}
	b.w.release()
	return err
}
