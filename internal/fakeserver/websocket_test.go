package fakeserver

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
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
	head := make([]byte, 2)
	if _, err := io.ReadFull(r, head); err != nil {
		t.Fatal(err)
	}
	if head[0] != 0x88 || head[1]&0x80 != 0 || head[1] < 2 || head[1] > 125 {
		t.Fatalf("frame header % x, want an unmasked close frame", head)
	}
	frame := make([]byte, 2+int(head[1]))
	copy(frame, head)
	if _, err := io.ReadFull(r, frame[2:]); err != nil {
		t.Fatal(err)
	}
	// The client's close frame, masked (RFC 6455 §5.3), ends the closing
	// handshake: the server then closes the connection.
	if _, err := conn.Write([]byte{0x88, 0x82, 1, 2, 3, 4, 0x0f ^ 1, 0xa0 ^ 2}); err != nil {
		t.Fatal(err)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) != 0 {
		t.Fatalf("after the closing handshake: % x, %v; want the connection closed", rest, err)
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

// A handshake RFC 6455 refuses is refused, and one elsewhere than a live
// session's URL takes the usual route; faults apply to handshakes as to
// any request.
func TestWebSocketHandshakesRefused(t *testing.T) {
	for _, tc := range []struct {
		name, path, key, version string
		withKey                  bool
		faults                   *Faults
		status                   int
		says                     string
	}{
		{name: "no key", path: "/v2/live", version: "13", status: http.StatusBadRequest, says: "Sec-WebSocket-Key"},
		{name: "key not 16 bytes", path: "/v2/live", key: "bm90LWJhc2U2NA==", version: "13", status: http.StatusBadRequest, says: "Sec-WebSocket-Key"},
		{name: "another version", path: "/v2/live", key: "dGhlIHNhbXBsZSBub25jZQ==", version: "8", status: http.StatusUpgradeRequired, says: "version 13"},
		{name: "no such endpoint", path: "/nope", key: "dGhlIHNhbXBsZSBub25jZQ==", version: "13", withKey: true, status: http.StatusNotFound},
		{name: "not a live session, no key", path: "/v2/pre-recorded", key: "dGhlIHNhbXBsZSBub25jZQ==", version: "13", status: http.StatusUnauthorized},
		{name: "during an outage", path: "/v2/live", key: "dGhlIHNhbXBsZSBub25jZQ==", version: "13", faults: &Faults{ServerErrorRatio: 1, ServerErrorStatus: http.StatusServiceUnavailable}, status: http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			if tc.faults != nil {
				h.srv.SetFaults(*tc.faults)
			}
			req, err := http.NewRequest(http.MethodGet, h.url+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Sec-WebSocket-Version", tc.version)
			if tc.key != "" {
				req.Header.Set("Sec-WebSocket-Key", tc.key)
			}
			if tc.withKey {
				req.Header.Set(client.ServiceKeyHeader, testKey)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.says) {
				t.Errorf("answered %d %s, want %d saying %q", resp.StatusCode, body, tc.status, tc.says)
			}
			if tc.status == http.StatusUpgradeRequired && resp.Header.Get("Sec-WebSocket-Version") != "13" {
				t.Errorf("426 without Sec-WebSocket-Version: 13")
			}
		})
	}
}
