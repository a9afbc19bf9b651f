package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// maxDrainBytes is the most of a body left unread that finishBody reads to
// keep an HTTP/1.1 connection for the next request. Past it, closing costs
// less than receiving the rest: a new connection, or on HTTP/2 nothing but
// the stream.
const maxDrainBytes = 64 << 10

// readLeadingStrings returns the string members names of the JSON object r
// holds, reading the object only as far as the last of them to come: what
// follows is neither decoded nor read. A name the object lacks (or holds
// as null) is absent from the map, and then the whole object is read. head
// is the text read, up to maxLoggedBodyBytes, for the log; size counts the
// bytes read.
func readLeadingStrings(r io.Reader, limit int64, names ...string) (members map[string]string, head []byte, size int64, err error) {
	rec := &headRecorder{r: io.LimitReader(r, limit+1)}
	members, err = decodeLeadingStrings(json.NewDecoder(rec), names)
	if err != nil {
		err = leadingError(err, rec, limit)
	}
	return members, rec.head, rec.n, err
}

func decodeLeadingStrings(dec *json.Decoder, names []string) (map[string]string, error) {
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("%w, got %v", errNotAnObject, tok)
	}
	members := make(map[string]string, len(names))
	var skipped json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // inside an object, Token returns keys as strings
		name, ok := memberName(names, key)
		if !ok {
			if err := dec.Decode(&skipped); err != nil {
				return nil, err
			}
			continue
		}
		var value *string
		if err := dec.Decode(&value); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if value != nil {
			members[name] = *value
		}
		if len(members) == len(names) {
			return members, nil
		}
	}
	_, err := dec.Token() // the closing brace, or the error of a truncated object
	return members, err
}

// memberName is the name of names that key stands for, matched as
// encoding/json matches keys to fields (the same name, else the same up to
// case folding), so that this read and the whole record's agree.
func memberName(names []string, key string) (string, bool) {
	if slices.Contains(names, key) {
		return key, true
	}
	for _, name := range names {
		if strings.EqualFold(name, key) {
			return name, true
		}
	}
	return "", false
}

var errNotAnObject = errors.New("expected a JSON object")

// leadingError is the error of a read that stopped at err: the limit when
// the body went past it, else invalid JSON or a failed read.
func leadingError(err error, rec *headRecorder, limit int64) error {
	var syntax *json.SyntaxError
	var wrongType *json.UnmarshalTypeError
	switch {
	case rec.n > limit:
		return fmt.Errorf("response body exceeds %d bytes", limit)
	case rec.err != nil: // the body cut short, whatever the JSON made of it
		return &bodyCutError{rec.err}
	case errors.As(err, &syntax), errors.As(err, &wrongType), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, errNotAnObject):
		return fmt.Errorf("invalid JSON in response: %w", err)
	}
	return fmt.Errorf("reading response body: %w", err)
}

// headRecorder counts what is read through it and keeps its first
// maxLoggedBodyBytes.
type headRecorder struct {
	r    io.Reader
	head []byte
	n    int64
	err  error // the first failure of r other than its end
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if err != nil && err != io.EOF && h.err == nil {
		h.err = err
	}
	if len(h.head) < maxLoggedBodyBytes {
		h.head = append(h.head, p[:min(n, maxLoggedBodyBytes-len(h.head))]...)
	}
	h.n += int64(n)
	return n, err
}

// finishBody closes a response body read only in part and returns the
// number of bytes of its rest that it read, and whether that was all of it.
// A rest of at most maxDrainBytes is read first, so that the connection
// serves the next request; a longer one is not worth receiving.
func finishBody(body io.ReadCloser) (n int64, whole bool) {
	n, err := io.CopyN(io.Discard, body, maxDrainBytes+1)
	_ = body.Close()
	return n, errors.Is(err, io.EOF) // not a body cut short (io.ErrUnexpectedEOF)
}
