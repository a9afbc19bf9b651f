package fakeserver

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// A WebSocket the official client opens to a live session (connectSession,
// with no key: the session's URL carries its own token) completes its
// handshake and is closed at once with a code the client does not retry
// and a reason saying live sessions are not emulated, where the key check
// answered 401 and the client's user saw only "WebSocket connection error"
// after five tries. The request is listed, its token redacted.
func TestWebSocketToLiveSessionIsClosedWithReason(t *testing.T) {
	h := newHarness(t, Options{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The handshake of RFC 6455 §1.3, whose answer it gives.
	_, err = io.WriteString(conn, "GET /v2/live/3fa85f64-5717-4562-b3fc-2c963f66afa6?token=s3cret-session HTTP/1.1\r\nHost: x\r\n"+
		"Upgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("handshake answered %s, Sec-WebSocket-Accept %q", resp.Status, resp.Header.Get("Sec-WebSocket-Accept"))
	}
	frame, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(frame) < 4 || frame[0] != 0x88 || int(frame[1]) != len(frame)-2 {
		t.Fatalf("got % x, want one unmasked close frame", frame)
	}
	if code := binary.BigEndian.Uint16(frame[2:4]); code < 4400 || code > 4499 {
		t.Errorf("close code %d, want one of 4400-4499, which the official client does not retry", code)
	}
	if reason := string(frame[4:]); !strings.Contains(reason, "live sessions are not emulated") {
		t.Errorf("close reason %q does not say live sessions are not emulated", reason)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 1 || reqs[0].Status != http.StatusSwitchingProtocols {
		t.Fatalf("recorded %+v, want the handshake answered 101", reqs)
	}
	if wire := requestToWire(reqs[0]); strings.Contains(wire.Query, "s3cret") {
		t.Errorf("the request listing shows the session's token: %q", wire.Query)
	}
}

// A handshake without its key is answered with the error body, saying why.
func TestWebSocketWithoutKeyIsRefused(t *testing.T) {
	h := newHarness(t, Options{})
	req, err := http.NewRequest(http.MethodGet, h.url+"/v2/live", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Connection", "Upgrade")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusNotImplemented || !strings.Contains(string(body), "live sessions are not emulated") {
		t.Errorf("answered %d %s, want 501 saying live sessions are not emulated", resp.StatusCode, body)
	}
}
