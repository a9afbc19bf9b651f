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
// mime/multipart does: a line break, raw, would end the header.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A")

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }

// SniffMedia returns the media type of a file whose first bytes are head
// (http.DetectContentType reads at most 512), and whether it may be audio
// or video, which is all the service takes: an audio or video type, Ogg,
// or bytes no rule recognises (FLAC, AAC, AMR and many other recordings).
// Text, images, documents, fonts and archives are not.
func SniffMedia(head []byte) (contentType string, media bool) {
	contentType = http.DetectContentType(head)
	mediaType, _, _ := strings.Cut(contentType, ";")
	switch {
	case strings.HasPrefix(mediaType, "audio/"), strings.HasPrefix(mediaType, "video/"):
		return contentType, true
	}
	return contentType, mediaType == "application/ogg" || mediaType == "application/octet-stream"
}
