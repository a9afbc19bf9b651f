package fakeserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// serveForTest serves a fresh Server on a free loopback port.
func serveForTest(t *testing.T) (*Server, *Listener) {
	t.Helper()
	fake := New(Options{APIKey: testKey})
	t.Cleanup(fake.Close)
	l, err := Serve("127.0.0.1:0", fake)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return fake, l
}

// noRetryClient is a client of the Listener that reports the first failure.
// Without keep-alive, each request dials: a request made while the Listener
// is down fails before anything is sent.
func noRetryClient(t *testing.T, l *Listener) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: l.URL(), APIKey: testKey, MaxRetries: -1,
		HTTPClient: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func requireRefused(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("got %v, want the connection refused", err)
	}
}

func TestServe_downAndUpKeepAddressAndJobs(t *testing.T) {
	fake, l := serveForTest(t)
	url := l.URL()
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(url, ":0") {
		t.Fatalf("URL %q: want the resolved loopback port", url)
	}
	c := noRetryClient(t, l)
	ctx := context.Background()
	created, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
	if err != nil {
		t.Fatal(err)
	}

	for range 2 { // twice: Down and Up are idempotent and repeatable
		if err := l.Down(); err != nil {
			t.Fatal(err)
		}
		if err := l.Down(); err != nil {
			t.Fatalf("second Down: %v", err)
		}
		if l.IsUp() || l.URL() != url {
			t.Fatalf("down: IsUp %v, URL %q; want false, %q", l.IsUp(), l.URL(), url)
		}
		_, err := c.GetPreRecorded(ctx, created.ID)
		requireRefused(t, err)
		var transportErr *client.TransportError
		if !errors.As(err, &transportErr) || transportErr.Sent {
			t.Fatalf("got %#v, want a TransportError with nothing sent", err)
		}

		if err := l.Up(); err != nil {
			t.Fatal(err)
		}
		if err := l.Up(); err != nil {
			t.Fatalf("second Up: %v", err)
		}
		if !l.IsUp() || l.URL() != url {
			t.Fatalf("up: IsUp %v, URL %q; want true, %q", l.IsUp(), l.URL(), url)
		}
		job, err := c.GetPreRecorded(ctx, created.ID)
		if err != nil || job.ID != created.ID {
			t.Fatalf("after Up: job %+v, %v; want job %s kept", job, err, created.ID)
		}
	}
	if n := fake.JobCount(); n != 1 {
		t.Fatalf("%d jobs, want 1", n)
	}
}

func TestServe_downCutsRequestsInFlight(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	l, err := Serve("127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		close(entered)
		<-release
		w.WriteHeader(http.StatusOK)
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	answered := make(chan error, 1)
	go func() {
		resp, err := (&http.Client{Transport: &http.Transport{}}).Get(l.URL() + "/slow")
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	<-entered
	if err := l.Down(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-answered:
		if err == nil {
			t.Fatal("the request in flight got an answer after Down")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the request in flight was not cut off by Down")
	}
}

func TestServe_close(t *testing.T) {
	_, l := serveForTest(t)
	c := noRetryClient(t, l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := l.Up(); !errors.Is(err, ErrListenerClosed) {
		t.Fatalf("Up after Close: %v, want ErrListenerClosed", err)
	}
	_, err := c.GetPreRecorded(context.Background(), "any")
	requireRefused(t, err)
}

func TestServe_upFailsWhenAddressTaken(t *testing.T) {
	_, l := serveForTest(t)
	if err := l.Down(); err != nil {
		t.Fatal(err)
	}
	squatter, err := net.Listen("tcp", l.Addr())
	if err != nil {
		t.Skipf("cannot take the address over: %v", err)
	}
	defer squatter.Close()
	if err := l.Up(); err == nil || !strings.Contains(err.Error(), l.Addr()) {
		t.Fatalf("Up on a taken address: %v, want an error naming %s", err, l.Addr())
	}
	if l.IsUp() {
		t.Fatal("IsUp after a failed Up")
	}
}

// TestServe_urlOfEveryInterface: a Listener on every interface gives
// clients the loopback address, which they can send requests to.
func TestServe_urlOfEveryInterface(t *testing.T) {
	for _, addr := range []string{":0", "0.0.0.0:0", "[::]:0"} {
		fake := New(Options{APIKey: testKey})
		defer fake.Close()
		l, err := Serve(addr, fake)
		if err != nil {
			t.Skipf("cannot listen on %s: %v", addr, err)
		}
		defer l.Close()
		if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(l.URL()) {
			t.Errorf("Serve(%q).URL() = %q, want http://127.0.0.1:PORT", addr, l.URL())
			continue
		}
		if _, err := noRetryClient(t, l).GetPreRecorded(context.Background(), "any"); !client.IsNotFound(err) {
			t.Errorf("a request to %s: %v, want the server's 404", l.URL(), err)
		}
	}
}

func TestServe_badArguments(t *testing.T) {
	if _, err := Serve("127.0.0.1:0", nil); err == nil {
		t.Error("Serve with a nil handler: no error")
	}
	if _, err := Serve("not an address", New(Options{})); err == nil {
		t.Error("Serve on an invalid address: no error")
	}
}

func TestServe_shutdownLetsRequestsFinish(t *testing.T) {
	fake, l := serveForTest(t)
	fake.SetFaults(Faults{Latency: 300 * time.Millisecond})
	c := noRetryClient(t, l)
	answered := make(chan error, 1)
	go func() {
		_, err := c.ListLive(context.Background(), client.ListOptions{})
		answered <- err
	}()
	time.Sleep(100 * time.Millisecond) // the request is in its latency
	if err := l.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-answered; err != nil {
		t.Fatalf("the request in flight was cut off: %v", err)
	}
	if l.IsUp() {
		t.Fatal("still up after Shutdown")
	}
	if err := l.Up(); !errors.Is(err, ErrListenerClosed) {
		t.Fatalf("Up after Shutdown: %v", err)
	}
	_, err := c.ListLive(context.Background(), client.ListOptions{})
	requireRefused(t, err)
}

// A graceful shutdown whose context ends first cuts off the requests still
// in flight and returns the context's error, as its documentation says.
func TestServe_shutdownCutsOffWhatOutlivesItsContext(t *testing.T) {
	inFlight := make(chan struct{})
	l, err := Serve("127.0.0.1:0", http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		close(inFlight)
		<-r.Context().Done() // never answers: only cutting the connection ends it
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	answered := make(chan error, 1)
	go func() {
		resp, err := http.Get(l.URL() + "/v2/live")
		if err == nil {
			_ = resp.Body.Close()
		}
		answered <- err
	}()
	<-inFlight
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown: %v, want the context's error", err)
	}
	// A bound on the wait, so that a request left hanging fails the test
	// instead of hanging it.
	select {
	case err := <-answered:
		if err == nil {
			t.Fatal("the request in flight was answered; want it cut off")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the request in flight is still waiting after Shutdown returned")
	}
}
