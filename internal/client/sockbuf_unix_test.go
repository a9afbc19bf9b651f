//go:build unix

package client_test

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// listenSmallReceiveBuffer listens on loopback with a 128 KiB receive buffer
// (no autotuning), so that a slow reader is felt by the sender as on a slow
// link rather than hidden behind megabytes of kernel buffers.
func listenSmallReceiveBuffer(t *testing.T) net.Listener {
	t.Helper()
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 128<<10)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
