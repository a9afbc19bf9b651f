package client

import (
	"io"
	"mime/multipart"
	"net/textproto"
	"path/filepath"
	"strings"
)

// multipartBody streams the file from open as the multipart field "audio"
// through a pipe, so a large recording is never held in memory whole.
func multipartBody(filename string, open func() (io.ReadCloser, error)) (io.ReadCloser, string, error) {
	src, err := open()
	if err != nil {
		return nil, "", err
	}
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		defer src.Close()
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", `form-data; name="audio"; filename="`+escapeQuotes(filepath.Base(filename))+`"`)
		h.Set("Content-Type", "application/octet-stream")
		part, err := mw.CreatePart(h)
		if err == nil {
			_, err = io.Copy(part, src)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr, mw.FormDataContentType(), nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

func escapeQuotes(s string) string { return quoteEscaper.Replace(s) }
