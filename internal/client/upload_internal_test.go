package client

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// stallingReader answers (0, nil) stalls times before each read of r, or
// forever when stalls is negative.
type stallingReader struct {
	r      io.Reader
	stalls int
	left   int
}

func (s *stallingReader) Read(p []byte) (int, error) {
	if s.stalls < 0 {
		return 0, nil
	}
	if s.left > 0 {
		s.left--
		return 0, nil
	}
	s.left = s.stalls
	return s.r.Read(p)
}

// Past its size, exactReader reads its source until the source ends: a
// source that reads empty a few times (as io.Reader allows) still ends the
// upload, and one that never ends fails with io.ErrNoProgress instead of
// hanging it.
func TestExactReader_sourceReadingEmpty(t *testing.T) {
	data := []byte("0123456789")
	got, err := io.ReadAll(&exactReader{r: &stallingReader{r: bytes.NewReader(data), stalls: 3}, size: 10, left: 10})
	if err != nil || !bytes.Equal(got, data) {
		t.Errorf("a source reading empty at times: %q, %v; want the whole source", got, err)
	}
	e := &exactReader{r: &stallingReader{stalls: -1}, size: 0, left: 0}
	if _, err := e.Read(make([]byte, 4)); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("a source never ending: %v, want io.ErrNoProgress", err)
	}
	// A source that refuses its own end (the provider's checks the file's
	// digest there) fails the upload with its error.
	refused := errors.New("digest differs")
	e = &exactReader{r: io.MultiReader(bytes.NewReader(data), iotest.ErrReader(refused)), size: 10, left: 10}
	if _, err := io.ReadAll(e); !errors.Is(err, refused) {
		t.Errorf("a source failing at its end: %v, want its error", err)
	}
}
