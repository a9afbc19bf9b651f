package fakeserver

import (
	"bufio"
	"crypto/sha1" //nolint:gosec // RFC 6455 §4.2.2 names SHA-1 for the handshake; nothing secret depends on it.
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
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

// closingHandshakeWait bounds the wait for the client's close frame.
const closingHandshakeWait = time.Second

// isLiveSessionSocket reports whether r asks to open a WebSocket to a live
// session (/v2/live, where the service's session URLs lead). Elsewhere the
// request takes the usual route: 401 without the key, 404 for no endpoint.
func isLiveSessionSocket(r *http.Request) bool {
	return r.Method == http.MethodGet &&
		(r.URL.Path == "/v2/live" || strings.HasPrefix(r.URL.Path, "/v2/live/")) &&
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
// handshake completes, and the socket is closed at once with
// liveSessionsNotEmulatedCode and a reason saying why. Refusing the
// handshake (the key check's 401) reached the client's user only as
// "WebSocket connection error", after five tries. A handshake RFC 6455
// §4.2.1 refuses is refused: 426 for another version, 400 without a valid
// key. finish records the status answered, before the socket closes.
func (s *Server) refuseWebSocket(w http.ResponseWriter, r *http.Request, finish func(status int, answerLost bool)) {
	key := r.Header.Get("Sec-WebSocket-Key")
	if decoded, err := base64.StdEncoding.DecodeString(key); err != nil || len(decoded) != 16 {
		s.writeError(w, r, http.StatusBadRequest, "a WebSocket handshake needs a Sec-WebSocket-Key of 16 bytes in base64 (RFC 6455 §4.2.1)")
		finish(http.StatusBadRequest, false)
		return
	}
	if r.Header.Get("Sec-WebSocket-Version") != "13" {
		w.Header().Set("Sec-WebSocket-Version", "13")
		s.writeError(w, r, http.StatusUpgradeRequired, "only WebSocket version 13 is spoken (RFC 6455 §4.4)")
		finish(http.StatusUpgradeRequired, false)
		return
	}
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil { // a writer that cannot hand its connection over
		s.writeError(w, r, http.StatusNotImplemented, liveSessionsNotEmulatedReason)
		finish(http.StatusNotImplemented, false)
		return
	}
	defer conn.Close()
	finish(http.StatusSwitchingProtocols, false)
	sum := sha1.Sum([]byte(key + webSocketGUID)) //nolint:gosec // the handshake's digest (RFC 6455 §4.2.2)
	_, _ = buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Accept: " + base64.StdEncoding.EncodeToString(sum[:]) + "\r\n\r\n")
	payload := binary.BigEndian.AppendUint16(nil, liveSessionsNotEmulatedCode)
	payload = append(payload, liveSessionsNotEmulatedReason...)
	// A close frame (FIN, opcode 8), unmasked as a server's frames are.
	_, _ = buf.Write(append([]byte{0x88, byte(len(payload))}, payload...))
	if buf.Flush() != nil {
		return
	}
	// The log's line comes once the closing handshake below has ended.
	if note := noteOf(r); note != nil {
		note.Closed = fmt.Sprintf("closed at once with %d (%s), then waited for the client's close", liveSessionsNotEmulatedCode, liveSessionsNotEmulatedReason)
	}
	// The closing handshake (RFC 6455 §5.5.1): the client's own close
	// frame, data it sent first read past, so that closing the connection
	// with unread data does not reset it (an unclean close).
	_ = conn.SetReadDeadline(time.Now().Add(closingHandshakeWait))
	awaitCloseFrame(buf.Reader)
}

// awaitCloseFrame reads a client's frames until its close frame, an error
// or the connection's deadline.
func awaitCloseFrame(r *bufio.Reader) {
	for {
		var head [2]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		length := uint64(head[1] & 0x7f)
		switch length {
		case 126:
			var ext [2]byte
			if _, err := io.ReadFull(r, ext[:]); err != nil {
				return
			}
			length = uint64(binary.BigEndian.Uint16(ext[:]))
		case 127:
			var ext [8]byte
			if _, err := io.ReadFull(r, ext[:]); err != nil {
				return
			}
			length = binary.BigEndian.Uint64(ext[:])
		}
		if head[1]&0x80 != 0 {
			length += 4 // the client's masking key
		}
		if _, err := io.CopyN(io.Discard, r, int64(min(length, 1<<62))); err != nil || head[0]&0x0f == 0x8 {
			return
		}
	}
}
