package provider

// Reading the local file of a transcription_upload: hashing it at plan time
// and streaming it at apply time, both without holding it in memory.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// openSourceFile opens a regular file for reading. Anything else (a
// directory, a named pipe, a device) is refused before it is opened: a pipe
// would block the plan, a device could be endless.
func openSourceFile(name string) (*os.File, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		kind := "not a regular file"
		if info.IsDir() {
			kind = "a directory"
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: &notRegularFileError{kind: kind}}
	}
	return os.Open(name)
}

// notRegularFileError is openSourceFile's refusal of what is not a regular
// file.
type notRegularFileError struct{ kind string }

func (e *notRegularFileError) Error() string { return "is " + e.kind }

// sameSourceFile reports whether two paths name the same file under the
// same name: the same file on disk, or, where neither can be read, the same
// path once made absolute. The text alone does not decide while the files
// can be compared: the system resolves ".." after a linked directory from
// the link's target, not as the text reads.
func sameSourceFile(a, b string) bool {
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	infoA, errA := os.Stat(a)
	infoB, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return infoA.Mode().IsRegular() && os.SameFile(infoA, infoB)
	case errA == nil || errB == nil:
		return false
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// sourceFileStart returns the size of a regular file it could open and
// read, and its first bytes (up to 512, what sniffing its type reads):
// what a new upload's plan needs, whose digest is known only once uploaded
// (hashing a recording of several hundred MB took seconds, at every plan,
// for a value thrown away).
func sourceFileStart(name string) (int64, []byte, error) {
	f, err := openSourceFile(name)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	// Opened is not readable: a read of a directory's entry point or of a
	// file on a failing disk fails only here.
	head := make([]byte, client.SniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	return info.Size(), head[:n], nil
}

// fileSHA256 streams the file through SHA-256 and returns the hex digest
// and the number of bytes hashed. It stops with ctx's error once ctx ends:
// hashing a recording of several GB takes seconds, which an interrupt
// (Ctrl-C, a cancelled CI job) must not wait for.
func fileSHA256(ctx context.Context, name string) (string, int64, error) {
	f, err := openSourceFile(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, contextReader{ctx: ctx, r: f})
	switch {
	case ctx.Err() != nil:
		return "", 0, ctx.Err()
	case err != nil:
		return "", 0, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// contextReader reads r until ctx ends.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// sourceChangedError reports a file whose content is no longer the one
// planned (hashed) when it is uploaded.
type sourceChangedError struct {
	path      string
	want, got string
}

func (e *sourceChangedError) Error() string {
	return fmt.Sprintf("%s changed while it was being uploaded: its SHA-256 was %s and is now %s", e.path, e.want, e.got)
}

// verifyingReader hashes what it reads and, at the end of the file, fails
// instead of reporting EOF when the digest is not want. The upload then ends
// in an error before its last byte is sent, so the service never receives a
// complete file other than the one the plan showed. readWhole, unless nil,
// says whether this try has read the file to its end: until it has, the
// body sent is incomplete, and the service cannot keep the file. (A try
// before it is one the service did not take: the client sends an upload
// again only then.)
type verifyingReader struct {
	f         *os.File
	h         hash.Hash
	want      string
	readWhole *atomic.Bool
}

// openVerified opens name for a try of an upload whose content must hash
// to want, setting readWhole (unless nil) once it has all been read.
func openVerified(name, want string, readWhole *atomic.Bool) (io.ReadCloser, error) {
	if readWhole != nil {
		readWhole.Store(false)
	}
	f, err := openSourceFile(name)
	if err != nil {
		return nil, err
	}
	return &verifyingReader{f: f, h: sha256.New(), want: want, readWhole: readWhole}, nil
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	n, err := v.f.Read(p)
	v.h.Write(p[:n])
	if errors.Is(err, io.EOF) {
		if got := hex.EncodeToString(v.h.Sum(nil)); got != v.want {
			return n, &sourceChangedError{path: v.f.Name(), want: v.want, got: got}
		}
		if v.readWhole != nil {
			v.readWhole.Store(true)
		}
	}
	return n, err
}

func (v *verifyingReader) Close() error { return v.f.Close() }

// unwrapPathError returns the cause of a *fs.PathError (such as "no such
// file or directory"), so a diagnostic can name the path once.
func unwrapPathError(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}
