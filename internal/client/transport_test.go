package client_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

// framing is how a request's body was delimited on the wire.
type framing struct {
	path             string
	contentLength    int64
	transferEncoding []string
	bodyBytes        int64
}

// framingRecorder serves next and records each request's body framing.
type framingRecorder struct {
	next http.Handler
	mu   sync.Mutex
	seen []framing
}

func (f *framingRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Recorded before the answer, so a test reading it after its call sees it.
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.seen = append(f.seen, framing{path: r.URL.Path, contentLength: r.ContentLength, transferEncoding: r.TransferEncoding, bodyBytes: int64(len(body))})
	f.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	f.next.ServeHTTP(w, r)
}

func (f *framingRecorder) last() framing {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[len(f.seen)-1]
}

// Every body of known size goes out with Content-Length, never chunked: some
// gateways answer 411 to chunked requests and HTTP/1.0 proxies cannot carry
// them. Only a source of unknown size is sent chunked.
func TestRequests_declareContentLength(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: testKey})
	rec := &framingRecorder{next: fs}
	srv := httptest.NewServer(rec)
	t.Cleanup(func() { srv.Close(); fs.Close() })
	c := newClient(t, srv.URL, testKey)
	ctx := context.Background()
	wav := testutil.SilentWAV(1.5, 1, 8000)
	openWAV := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil } //nolint:unparam // the signature Upload takes
	var jobID string

	cases := []struct {
		name    string
		call    func() error
		chunked bool // only for a source of unknown size
	}{
		{"create", func() error {
			created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav", CustomMetadata: map[string]any{"team": "media"}})
			if err == nil {
				jobID = created.ID
			}
			return err
		}, false},
		{"upload of known size", func() error { _, err := c.Upload(ctx, "a.wav", int64(len(wav)), openWAV); return err }, false},
		{"upload of unknown size", func() error { _, err := c.Upload(ctx, "a.wav", -1, openWAV); return err }, true},
		{"upload of an empty file", func() error {
			_, err := c.Upload(ctx, "empty.wav", 0, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("")), nil })
			if client.IsStatus(err, http.StatusUnprocessableEntity) {
				return nil // the service read the file whole and refused it as audio
			}
			return err
		}, false},
		{"get", func() error { _, err := c.GetPreRecorded(ctx, jobID); return err }, false},
		{"delete", func() error { return c.DeletePreRecorded(ctx, jobID) }, false},
		{"list", func() error { _, err := c.ListLive(ctx, client.ListOptions{}); return err }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err != nil {
				t.Fatal(err)
			}
			got := rec.last()
			switch {
			case tc.chunked:
				if got.contentLength != -1 || len(got.transferEncoding) != 1 || got.transferEncoding[0] != "chunked" {
					t.Errorf("%s: Content-Length %d, Transfer-Encoding %v; want chunked", got.path, got.contentLength, got.transferEncoding)
				}
			case len(got.transferEncoding) > 0 || got.contentLength != got.bodyBytes:
				t.Errorf("%s: Content-Length %d, Transfer-Encoding %v for a body of %d bytes; want Content-Length and no Transfer-Encoding",
					got.path, got.contentLength, got.transferEncoding, got.bodyBytes)
			}
		})
	}
}

// A source yielding more or fewer bytes than announced fails the upload
// before its body is complete: the service never stores a file.
func TestUpload_sizeChangedStopsTheUpload(t *testing.T) {
	fs, c, _ := newFake(t, fakeserver.Options{})
	wav := testutil.SilentWAV(1, 1, 8000)
	for _, tc := range []struct {
		name     string
		announce int64
		want     string
	}{
		{"grew", int64(len(wav)) - 100, fmt.Sprintf("it has more than the %d bytes announced", len(wav)-100)},
		{"shrank", int64(len(wav)) + 100, fmt.Sprintf("it ended after %d of the %d bytes announced", len(wav), len(wav)+100)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Upload(context.Background(), "a.wav", tc.announce, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil })
			if !errors.Is(err, client.ErrUploadSizeChanged) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrUploadSizeChanged saying %q", err, tc.want)
			}
		})
	}
	for _, r := range fs.Requests() {
		if r.Status == http.StatusOK {
			t.Errorf("the service stored an upload whose size changed: %+v", r)
		}
	}
}

// throttledReader reads at most rate bytes per second from r.
type throttledReader struct {
	r     io.Reader
	rate  float64
	start time.Time
	n     int64
}

func (t *throttledReader) Read(p []byte) (int, error) {
	if t.start.IsZero() {
		t.start = time.Now()
	}
	p = p[:min(len(p), 32<<10)]
	n, err := t.r.Read(p)
	t.n += int64(n)
	if due := t.start.Add(time.Duration(float64(t.n) / t.rate * float64(time.Second))); time.Until(due) > 0 {
		time.Sleep(time.Until(due))
	}
	return n, err
}

// Each stage of a request is bounded, not the whole: an upload that takes
// several times every bound finishes as long as it makes progress, and a
// stalled transfer or a missing answer fails soon after its own bound.
func TestTimeouts_boundStagesNotTransfers(t *testing.T) {
	// The stall bound must exceed the gaps in a throttled upload's progress:
	// the kernel wakes a writer blocked on a full send buffer (up to 4 MB
	// here) once a third of it has drained, 0.55 s at 2.4 MB/s. The header
	// bound must exceed the time the service takes to read what the send
	// buffer still held when the last byte left the client (1.7 s). Both
	// keep a margin for a loaded machine.
	const (
		stall   = 1500 * time.Millisecond
		headers = 3 * time.Second
	)
	bigWAV := testutil.SilentWAV(400, 1, 16000) // 12.8 MB
	smallWAV := testutil.SilentWAV(1, 1, 8000)
	cases := []struct {
		name string
		// serve wraps the fake server; release unblocks handlers that hang.
		serve   func(fs http.Handler, release <-chan struct{}) http.HandlerFunc
		call    func(ctx context.Context, c *client.Client) error
		wantErr func(error) bool // nil: the call succeeds
		atLeast time.Duration    // the call takes at least this long
		atMost  time.Duration
	}{
		{
			name: "throttled upload longer than every bound finishes",
			serve: func(fs http.Handler, _ <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					r.Body = struct {
						io.Reader
						io.Closer
					}{&throttledReader{r: r.Body, rate: 2.4e6}, r.Body}
					fs.ServeHTTP(w, r)
				}
			},
			call: func(ctx context.Context, c *client.Client) error {
				_, err := c.Upload(ctx, "big.wav", int64(len(bigWAV)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(bigWAV)), nil })
				return err
			},
			atLeast: 5 * time.Second, // 5.3 s at 2.4 MB/s
			atMost:  20 * time.Second,
		},
		{
			name: "upload the service stops reading fails as stalled",
			serve: func(_ http.Handler, release <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					_, _ = io.CopyN(io.Discard, r.Body, 64<<10)
					<-release
				}
			},
			call: func(ctx context.Context, c *client.Client) error {
				_, err := c.Upload(ctx, "big.wav", int64(len(bigWAV)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(bigWAV)), nil })
				return err
			},
			wantErr: isStall,
			atMost:  stall + 3*time.Second,
		},
		{
			name: "answer that never comes fails after the header timeout",
			serve: func(_ http.Handler, release <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					_, _ = io.Copy(io.Discard, r.Body)
					<-release
				}
			},
			call: func(ctx context.Context, c *client.Client) error {
				_, err := c.Upload(ctx, "a.wav", int64(len(smallWAV)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(smallWAV)), nil })
				return err
			},
			wantErr: func(err error) bool { return strings.Contains(err.Error(), "timeout awaiting response headers") },
			atLeast: headers,
			atMost:  headers + 3*time.Second,
		},
		{
			name: "slow answer that keeps coming is read whole",
			serve: func(_ http.Handler, _ <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					body := `{"id":"x","status":"done","request_id":"` + strings.Repeat("a", 3<<20) + `"}`
					for chunk := range chunks(body, 64<<10) {
						_, _ = io.WriteString(w, chunk)
						w.(http.Flusher).Flush()
						time.Sleep(50 * time.Millisecond) // 1.3 MB/s: about 2.5 s
					}
				}
			},
			call: func(ctx context.Context, c *client.Client) error {
				_, err := c.GetPreRecorded(ctx, "x")
				return err
			},
			atLeast: 2 * time.Second,
			atMost:  20 * time.Second,
		},
		{
			name: "answer whose body stalls fails as stalled",
			serve: func(_ http.Handler, release <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					_, _ = io.WriteString(w, `{"id":"x","status":"do`)
					w.(http.Flusher).Flush()
					<-release
				}
			},
			call: func(ctx context.Context, c *client.Client) error {
				_, err := c.GetPreRecorded(ctx, "x")
				return err
			},
			wantErr: isStall,
			atLeast: stall,
			atMost:  stall + 3*time.Second,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeserver.New(fakeserver.Options{APIKey: testKey})
			release := make(chan struct{})
			srv := httptest.NewUnstartedServer(tc.serve(fs, release))
			srv.Listener.Close()
			srv.Listener = listenSmallReceiveBuffer(t)
			srv.Start()
			t.Cleanup(func() { srv.Close(); fs.Close() })
			t.Cleanup(func() { close(release) }) // runs first: unblocks hanging handlers
			c, err := client.New(client.Config{
				BaseURL: srv.URL, APIKey: testKey, MaxRetries: -1,
				ConnectTimeout: stall, TLSHandshakeTimeout: stall, ResponseHeaderTimeout: headers, StallTimeout: stall,
			})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = tc.call(context.Background(), c)
			took := time.Since(start)
			t.Logf("took %v: %v", took.Round(time.Millisecond), err)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("failed after %v: %v", took, err)
			case tc.wantErr != nil && (err == nil || !tc.wantErr(err)):
				t.Fatalf("got %v after %v, want another error", err, took)
			}
			if took < tc.atLeast || took > tc.atMost {
				t.Errorf("took %v, want %v to %v", took, tc.atLeast, tc.atMost)
			}
		})
	}
}

// A stalled transfer fails as stalled over HTTP/2 too, where a cancelled
// stream's reads and writes fail with context.Canceled rather than with the
// cause the watchdog gave (as HTTP/1.1's do): the client names the stall
// itself.
func TestStall_namedOverHTTP2(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor != 2 {
			http.Error(w, "HTTP/2 only", http.StatusHTTPVersionNotSupported)
			return
		}
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"x","status":"do`)
			w.(http.Flusher).Flush()
		}
		<-release // an upload's body is never read: its flow-control window fills
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: unblocks the handlers
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client(), MaxRetries: -1, StallTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	wav := testutil.SilentWAV(100, 1, 16000) // 3.2 MB: more than the server's windows hold
	for _, tc := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"answer whose body stalls", func(ctx context.Context) error { _, err := c.GetPreRecorded(ctx, "x"); return err }},
		{"upload the service stops reading", func(ctx context.Context) error {
			_, err := c.Upload(ctx, "a.wav", int64(len(wav)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(wav)), nil })
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The deadline only keeps a failure from hanging the test.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := tc.call(ctx); err == nil || !isStall(err) {
				t.Fatalf("got %v, want a StallError", err)
			}
		})
	}
}

func isStall(err error) bool {
	var stall *client.StallError
	return errors.As(err, &stall) && strings.Contains(err.Error(), "no progress")
}

func chunks(s string, size int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			n := min(size, len(s))
			if !yield(s[:n]) {
				return
			}
			s = s[n:]
		}
	}
}

// The provider's calls share one client: Terraform runs ten operations at
// once by default (-parallelism), each polling its job. Connections are
// kept for the next call, as many as are used at once, instead of being
// closed after each round of calls and opened again.
func TestTransport_keepsAConnectionPerParallelCall(t *testing.T) {
	const parallel, rounds = 10, 5
	var connections atomic.Int64
	var round atomic.Pointer[sync.WaitGroup]
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		// Every call of a round is answered once all are in flight, so
		// that each round uses parallel connections at once.
		wg := round.Load()
		wg.Done()
		wg.Wait()
		w.WriteHeader(http.StatusAccepted)
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			connections.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	for range rounds {
		wg := &sync.WaitGroup{}
		wg.Add(parallel)
		round.Store(wg)
		errs := make(chan error, parallel)
		for i := range parallel {
			go func() { errs <- c.DeletePreRecorded(context.Background(), fmt.Sprint(i)) }()
		}
		for range parallel {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := connections.Load(); got > parallel {
		t.Errorf("%d connections opened for %d rounds of %d calls at once, want at most %d: connections were closed between rounds", got, rounds, parallel, parallel)
	}
}

// The transport reports a request written from its own goroutine, after the
// last byte went out; the answer can come first (a quick service, a busy
// machine). A stalled response body is still found stalled then: the late
// report does not put the watchdog to sleep while the body is read.
func TestStall_namedWhenTheWriteIsReportedAfterTheAnswer(t *testing.T) {
	reported := make(chan struct{})
	late := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		reading := make(chan struct{})
		go func() {
			<-reading // the answer was handed back and its body is being read
			httptrace.ContextClientTrace(r.Context()).WroteRequest(httptrace.WroteRequestInfo{})
			close(reported)
		}()
		body := &stalledBody{ctx: r.Context(), reading: reading, reported: reported}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: body, Request: r}, nil
	})
	c, err := client.New(client.Config{BaseURL: "https://api.example.com", APIKey: testKey, HTTPClient: &http.Client{Transport: late}, MaxRetries: -1, StallTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The deadline only keeps a failure from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.GetPreRecorded(ctx, "x"); err == nil || !isStall(err) {
		t.Fatalf("got %v, want a StallError", err)
	}
}

// stalledBody is a response body that never yields a byte: its first read
// waits for the request's late "written" report, then for the end of the
// request's context.
type stalledBody struct {
	ctx      context.Context
	once     sync.Once
	reading  chan struct{}
	reported <-chan struct{}
}

func (b *stalledBody) Read([]byte) (int, error) {
	b.once.Do(func() { close(b.reading) })
	<-b.reported
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

func (b *stalledBody) Close() error { return nil }

// A read that the service takes and never begins to answer (past
// ResponseHeaderTimeout) is not sent again: each try would wait as long,
// max_retries times over. A read answered 503 quickly still is.
func TestHeaderTimeout_notRetried(t *testing.T) {
	var tries atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		<-release
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 3, ResponseHeaderTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(context.Background(), "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) || !client.IsTransient(err) {
		t.Fatalf("got %v, want a transient transport error", err)
	}
	// The service was reached: not "cannot reach", which sent users to
	// check base_url and the network.
	// It names the limit, which is not the operation's timeouts.
	if !transportErr.Written || !strings.Contains(err.Error(), "the transcription service took the request and sent no answer in time (none began within 200ms, the provider's limit for an answer to begin") {
		t.Errorf("error %q, want it to say the service took the request and did not answer", err)
	}
	if n := tries.Load(); n != 1 {
		t.Errorf("the read was sent %d times, want once", n)
	}

	var unavailable atomic.Int32
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		unavailable.Add(1)
		w.Header().Set("Retry-After", "0")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	t.Cleanup(busy.Close)
	c, err = client.New(client.Config{BaseURL: busy.URL, APIKey: testKey, MaxRetries: 2, ResponseHeaderTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPreRecorded(context.Background(), "3fa85f64-5717-4562-b3fc-2c963f66afa6"); !client.IsStatus(err, http.StatusServiceUnavailable) || unavailable.Load() != 3 {
		t.Errorf("a read answered 503: %v after %d tries, want 3 tries", err, unavailable.Load())
	}
}

// TestUpload_connectionLostWhileSending: a connection lost while an
// upload's body went out says so, where it said "cannot reach the
// transcription service", which sent users to check base_url.
func TestUpload_connectionLostWhileSending(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.CopyN(io.Discard, r.Body, 1024)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			if tcp, ok := conn.(*net.TCPConn); ok {
				_ = tcp.SetLinger(0) // a reset, not an orderly close
			}
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	const size = 32 << 20 // more than the connection's buffers take
	_, err = c.Upload(context.Background(), "long.wav", size, func() (io.ReadCloser, error) {
		return io.NopCloser(io.LimitReader(zeros{}, size)), nil
	})
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) || !transportErr.Sent || transportErr.Written {
		t.Fatalf("got %v, want a transport error of a request sent in part", err)
	}
	if msg := err.Error(); strings.Contains(msg, "cannot reach") || !strings.Contains(msg, "failed while the request was being sent") {
		t.Errorf("error %q, want it to say the connection failed while sending", msg)
	}
}

// TestUpload_resentAfterConnectionLostWhileSending: an upload cut off
// before its body went out whole cannot have been stored, so it is sent
// again (a reset once failed the apply); each try reopens the file.
func TestUpload_resentAfterConnectionLostWhileSending(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tries.Add(1) == 1 {
			_, _ = io.CopyN(io.Discard, r.Body, 1024)
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				if tcp, ok := conn.(*net.TCPConn); ok {
					_ = tcp.SetLinger(0)
				}
				conn.Close()
			}
			return
		}
		n, _ := io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"audio_url":"http://files.example/%d","audio_metadata":{"id":"f1"}}`, n)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	const size = 32 << 20
	var opened atomic.Int32
	up, err := c.Upload(context.Background(), "long.wav", size, func() (io.ReadCloser, error) {
		opened.Add(1)
		return io.NopCloser(io.LimitReader(zeros{}, size)), nil
	})
	if err != nil {
		t.Fatalf("upload: %v, want it sent again after the reset", err)
	}
	if tries.Load() != 2 || opened.Load() != 2 {
		t.Errorf("%d tries, the file opened %d times; want 2 and 2", tries.Load(), opened.Load())
	}
	if !strings.HasPrefix(up.AudioURL, "http://files.example/") || up.AudioURL == "http://files.example/0" {
		t.Errorf("audio_url %q: want the second try's whole body received", up.AudioURL)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestTransport_refusedAfterAKeptAliveConnectionIsUnsent: a request sent on
// a kept-alive connection the service then closed, which the transport sends
// again on a new one that is refused, did not reach the service: it said
// "took the request", from the first connection's write. The server
// answers one request, stops listening, reads the next on the same
// connection and closes it unanswered.
func TestTransport_refusedAfterAKeptAliveConnectionIsUnsent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		conn, err := ln.Accept()
		ln.Close()
		if err != nil {
			return
		}
		defer conn.Close()
		r := bufio.NewReader(conn)
		if _, err := http.ReadRequest(r); err != nil {
			return
		}
		_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
		_, _ = http.ReadRequest(r)
	}()
	c, err := client.New(client.Config{BaseURL: "http://" + ln.Addr().String(), APIKey: testKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	// The first request, answered on the connection kept alive (its
	// empty listing is refused, which does not matter here).
	_ = c.ServiceAnswers(context.Background())
	_, err = c.GetPreRecorded(context.Background(), "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) || transportErr.Sent || transportErr.Written || !strings.Contains(err.Error(), "cannot reach") {
		t.Fatalf("got %v, want a transport error of a request that never reached the service", err)
	}
}

// TestUpload_closeErrorAfterTheWholeFileIsNotAResend: a file whose close
// fails after every byte went out was taken as not sent whole (net/http
// reports the close error as the write's), and an upload the service had
// received was sent again.
func TestUpload_closeErrorAfterTheWholeFileIsNotAResend(t *testing.T) {
	var tries atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries.Add(1)
		_, _ = io.Copy(io.Discard, r.Body) // all of it, and no answer
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 20
	_, err = c.Upload(context.Background(), "a.wav", size, func() (io.ReadCloser, error) {
		return failingClose{io.LimitReader(zeros{}, size)}, nil
	})
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) || !transportErr.Written || tries.Load() != 1 {
		t.Fatalf("got %v after %d tries, want one try, reported as sent whole", err, tries.Load())
	}
}

type failingClose struct{ io.Reader }

func (failingClose) Close() error { return errors.New("close failed") }

// refusedThenStalled is a transport whose first try cannot connect and
// whose next ones hang until their request's context ends.
type refusedThenStalled struct{ tries atomic.Int32 }

func (rt *refusedThenStalled) RoundTrip(req *http.Request) (*http.Response, error) {
	if rt.tries.Add(1) == 1 {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	}
	<-req.Context().Done()
	return nil, req.Context().Err()
}

// A call whose time limit runs out while a try is connecting carries the
// failure of the try before (the service unreachable), which the limit's
// error would otherwise hide: "timed out before the request was sent".
func TestInterrupted_keepsTheLastFailure(t *testing.T) {
	rt := &refusedThenStalled{}
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:1", APIKey: testKey, HTTPClient: &http.Client{Transport: rt}, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = c.GetPreRecorded(ctx, "3fa85f64-5717-4562-b3fc-2c963f66afa6")
	var interrupted *client.InterruptedError
	if !errors.As(err, &interrupted) || interrupted.Last == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("err %v, want an InterruptedError carrying the refused connection", err)
	}
	if n := rt.tries.Load(); n != 2 {
		t.Errorf("%d tries, want 2", n)
	}
}
