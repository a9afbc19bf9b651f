package fakeserver

import (
	"bufio"
	"crypto/sha1" //nolint:gosec // RFC 6455 §4.2.2 names SHA-1 for the handshake; nothing secret depends on it.
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"strings"
)

// liveSessionsNotEmulatedCode closes a WebSocket the official client opens
// to a live session (connectSession). The client tries again on close codes
// 1002 to 4399 and 4500 up, so one of 4400 to 4499 ends the session at
// once, with the reason in its "ended" event.
const liveSessionsNotEmulatedCode = 4405

// liveSessionsNotEmulatedReason fits a close frame's 123 bytes of reason.
const liveSessionsNotEmulatedReason = "live sessions are not emulated: the fake server lists, reads and deletes live jobs"

// webSocketGUID is the key suffix of RFC 6455 §1.3.
const webSocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// isWebSocketUpgrade reports whether r asks to open a WebSocket.
func isWebSocketUpgrade(r *http.Request) bool {
	return r.Method == http.MethodGet &&
		strings.EqualFold(r.Header.Get("Upgrade"), "websocket") &&
		headerHasToken(r.Header, "Connection", "upgrade")
}

// headerHasToken reports whether a comma-separated header holds token.
func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// refuseWebSocket answers a WebSocket the official client opens to a live
// session (it sends no key: the session's URL carries its own token): the
// handshake completes and the socket is closed at once with
// liveSessionsNotEmulatedCode and a reason saying why. Refusing the
// handshake (the key check's 401) reached the client's user only as
// "WebSocket connection error", after five tries. finish records the
// status answered, before the socket closes.
func (s *Server) refuseWebSocket(w http.ResponseWriter, r *http.Request, finish func(status int)) {
	key := r.Header.Get("Sec-WebSocket-Key")
	var conn net.Conn
	var buf *bufio.ReadWriter
	err := errors.New("no Sec-WebSocket-Key")
	if key != "" {
		conn, buf, err = http.NewResponseController(w).Hijack()
	}
	if err != nil { // HTTP/2, or a malformed handshake
		s.writeError(w, r, http.StatusNotImplemented, liveSessionsNotEmulatedReason)
		finish(http.StatusNotImplemented)
		return
	}
	finish(http.StatusSwitchingProtocols)
	defer conn.Close()
	sum := sha1.Sum([]byte(key + webSocketGUID)) //nolint:gosec // the handshake's digest (RFC 6455 §4.2.2)
	_, _ = buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(sum[:]) + "\r\n\r\n")
	payload := binary.BigEndian.AppendUint16(nil, liveSessionsNotEmulatedCode)
	payload = append(payload, liveSessionsNotEmulatedReason...)
	// A close frame (FIN, opcode 8), unmasked as a server's frames are.
	_, _ = buf.Write(append([]byte{0x88, byte(len(payload))}, payload...))
	_ = buf.Flush()
}
