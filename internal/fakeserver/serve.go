package fakeserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Listener serves an http.Handler (usually a *Server) on one TCP address
// that stays the same for its whole life, and can take the service down and
// bring it back there, the way an outage looks to a client:
//
//	fake := fakeserver.New(fakeserver.Options{})
//	defer fake.Close()
//	l, err := fakeserver.Serve("127.0.0.1:0", fake)
//	if err != nil { ... }
//	defer l.Close()
//	baseURL := l.URL()  // the same after every Down and Up
//	l.Down()            // connections refused, requests in flight cut off
//	l.Up()              // listening again; the jobs are still there
//
// Down and Up touch only the network side: the handler and what it stores
// are untouched. A Listener is safe for concurrent use.
type Listener struct {
	handler http.Handler
	tls     *tls.Config // nil: plain HTTP

	mu     sync.Mutex
	addr   string // host:port, fixed by the first bind (a port 0 is resolved)
	srv    *http.Server
	served chan struct{} // closed when srv's Serve has returned
	closed bool
}

// readHeaderTimeout bounds a client that opens a connection and sends nothing.
const readHeaderTimeout = 10 * time.Second

// ErrListenerClosed is returned by Up after Close.
var ErrListenerClosed = errors.New("fakeserver: listener closed")

// Serve starts serving handler over HTTP on addr ("127.0.0.1:0" picks a free
// port, which every later Up reuses). Close the Listener when done. When
// handler is a *Server, its control interface's POST /_emulator/down takes
// this Listener down (Server.UseListener does the same for a handler that
// wraps the Server).
func Serve(addr string, handler http.Handler) (*Listener, error) {
	return ServeTLS(addr, handler, nil)
}

// ServeTLS is Serve over HTTPS with config (its certificates), to rehearse
// a pipeline that reaches the service only by https; a nil config serves
// plain HTTP.
func ServeTLS(addr string, handler http.Handler, config *tls.Config) (*Listener, error) {
	if handler == nil {
		return nil, errors.New("fakeserver: Serve needs a handler")
	}
	l := &Listener{handler: handler, addr: addr, tls: config}
	if err := l.Up(); err != nil {
		return nil, err
	}
	if s, ok := handler.(*Server); ok {
		s.UseListener(l)
	}
	return l, nil
}

// URL is the base URL to give clients: http://host:port (https:// over
// TLS), with no trailing slash. A Listener on every interface (":8080", "0.0.0.0:0") is named by
// the loopback address, which a client on this machine reaches, where "[::]"
// or "0.0.0.0" is no address to send a request to.
func (l *Listener) URL() string {
	addr := l.Addr()
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
	}
	if l.tls != nil {
		return "https://" + addr
	}
	return "http://" + addr
}

// Addr is the host:port the Listener serves on, up or down.
func (l *Listener) Addr() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addr
}

// IsUp reports whether the Listener is accepting connections.
func (l *Listener) IsUp() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.srv != nil
}

// Up starts listening again on the same address. It does nothing when the
// Listener is already up, and fails when the address has been taken by
// someone else meanwhile, or after Close.
func (l *Listener) Up() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return ErrListenerClosed
	case l.srv != nil:
		return nil
	}
	ln, err := net.Listen("tcp", l.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", l.addr, err)
	}
	l.addr = ln.Addr().String()
	if l.tls != nil {
		ln = tls.NewListener(ln, l.tls)
	}
	srv := &http.Server{Handler: l.handler, ReadHeaderTimeout: readHeaderTimeout}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ln) // returns http.ErrServerClosed once Down closes it
	}()
	l.srv, l.served = srv, served
	return nil
}

// Down takes the service off the network as a crash would: it stops
// listening, so new connections are refused, and closes every open
// connection, so requests in flight get no answer (their handlers may still
// finish, as on a real server that dies after doing the work). It returns
// once nothing is listening any more; it does nothing when already down.
func (l *Listener) Down() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.downLocked()
}

func (l *Listener) downLocked() error {
	if l.srv == nil {
		return nil
	}
	err := l.srv.Close()
	<-l.served
	l.srv, l.served = nil, nil
	return err
}

// Shutdown takes the service down for good, gracefully: it stops listening,
// then waits for the requests in flight to be answered, until ctx is done
// (then it cuts them off and returns ctx's error). Up fails afterwards.
func (l *Listener) Shutdown(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.srv == nil {
		return nil
	}
	err := l.srv.Shutdown(ctx)
	if err != nil {
		_ = l.srv.Close()
	}
	<-l.served
	l.srv, l.served = nil, nil
	return err
}

// Close takes the service down for good: Up fails afterwards. Closing the
// handler (Server.Close) is the caller's business.
func (l *Listener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	return l.downLocked()
}
