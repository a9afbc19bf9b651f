//go:build !unix

package client_test

import (
	"net"
	"testing"
)

func listenSmallReceiveBuffer(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
