package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// ErrUploadSizeChanged marks an upload whose source yielded more or fewer
// bytes than the size given to Upload (a file written to while it was
// uploaded). The upload stops before its body is complete.
var ErrUploadSizeChanged = errors.New("the file's size changed while it was uploaded")

// multipartBody streams the file from open as the multipart field "audio",
// so a large recording is never held in memory whole. The part's headers and
// the closing boundary are built first: with the file's size they give the
// body's exact length.
func multipartBody(filename string, size int64, open func() (io.ReadCloser, error)) (requestBody, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="audio"; filename="`+escapeQuotes(filepath.Base(filename))+`"`)
	h.Set("Content-Type", "application/octet-stream")
	if _, err := mw.CreatePart(h); err != nil {
		return requestBody{}, err
	}
	head := bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := mw.Close(); err != nil {
		return requestBody{}, err
	}
	tail := bytes.Clone(buf.Bytes())

	src, err := open()
	if err != nil {
		return requestBody{}, err
	}
	var file io.Reader = src
	length := int64(-1)
	if size >= 0 {
		file = &exactReader{r: src, size: size, left: size}
		length = int64(len(head)) + size + int64(len(tail))
	}
	return requestBody{
		r:           io.MultiReader(bytes.NewReader(head), file, bytes.NewReader(tail)),
		close:       src.Close,
		length:      length,
		contentType: mw.FormDataContentType(),
	}, nil
}

// exactReader yields exactly size bytes of r, and fails with
// ErrUploadSizeChanged when r ends sooner or holds more. Past its size it
// reads r once more, so that r sees its own end (and can check it).
type exactReader struct {
	r          io.Reader
	size, left int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.left == 0 {
		var one [1]byte
		for range 100 {
			n, err := e.r.Read(one[:])
			switch {
			case n > 0:
				return 0, fmt.Errorf("%w: it has more than the %d bytes announced", ErrUploadSizeChanged, e.size)
			case errors.Is(err, io.EOF):
				return 0, io.EOF
			case err != nil:
				return 0, err
			}
		}
		return 0, io.ErrNoProgress
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	if errors.Is(err, io.EOF) {
		if e.left > 0 {
			return n, fmt.Errorf("%w: it ended after %d of the %d bytes announced", ErrUploadSizeChanged, e.size-e.left, e.size)
		}
		err = nil // the next read checks that r ends here
	}
	return n, err
}

// quoteEscaper escapes a file name in a quoted header parameter as Go's
// mime/multipart does for a line break, which raw would end the header,
// and percent-encodes every other control character too, which a server's
// header parser refuses (Go's: "malformed MIME header line").
var quoteEscaper = func() *strings.Replacer {
	pairs := []string{"\\", "\\\\", `"`, "\\\""}
	for c := byte(0); c < 0x20; c++ {
		pairs = append(pairs, string(rune(c)), fmt.Sprintf("%%%02X", c))
	}
	return strings.NewReplacer(append(pairs, "\x7f", "%7F")...)
}()

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }

// SniffMedia returns the media type of a file whose first bytes are head
// (only the first 512 count, as http.DetectContentType reads), and whether
// it may be audio or video, which is all the service takes. Only what is
// surely something else is not: the types recognised by a signature no
// recording starts with (web pages, XML, PDF and PostScript, zip, gzip and
// rar archives, PNG, JPEG, GIF and WebP images, web fonts), and UTF-8 text
// with white space in it, unless it starts as a recording with a text
// header does (NIST SPHERE, AMR). The weaker matches (a UTF-16 byte order
// mark, which an MPEG audio frame with CRC starts with; the 4 bytes of an
// icon or a TrueType font, or the 2 of a BMP, which raw samples can start
// with; "text" that is a run of samples such as A-law silence) are no
// proof, and bytes no rule recognises (FLAC, AAC, AMR and many other
// recordings) may be audio.
func SniffMedia(head []byte) (contentType string, media bool) {
	head = head[:min(len(head), SniffLen)]
	contentType = http.DetectContentType(head)
	switch mediaType, _, _ := strings.Cut(contentType, ";"); mediaType {
	case "text/plain":
		text := !strings.Contains(contentType, "utf-16") && utf8.Valid(trimPartialRune(head)) &&
			bytes.ContainsAny(head, " \t\r\n") && !hasTextHeadedAudioSignature(head)
		return contentType, !text
	case "text/html", "text/xml", "application/pdf", "application/postscript",
		"application/zip", "application/x-gzip", "application/x-rar-compressed", "application/wasm",
		"image/png", "image/jpeg", "image/gif", "image/webp",
		"font/woff", "font/woff2", "font/otf", "font/collection":
		return contentType, false
	}
	return contentType, true
}

// SniffLen is how much of a file http.DetectContentType, and so
// SniffMedia, reads.
const SniffLen = 512

// hasTextHeadedAudioSignature reports whether head starts as a recording
// whose header is text: NIST SPHERE (speech corpora), AMR and AMR-WB
// storage files (#!AMR, #!AMR-WB), Skype's SILK.
func hasTextHeadedAudioSignature(head []byte) bool {
	for _, magic := range []string{"NIST_1A\n", "#!AMR", "#!SILK_V3"} {
		if bytes.HasPrefix(head, []byte(magic)) {
			return true
		}
	}
	return false
}

// trimPartialRune drops the bytes of a rune cut off at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}
