package fakeserver

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// failCodePattern finds the status a URL asks a job to fail with.
var failCodePattern = regexp.MustCompile(`fail-(\d+)`)

// failureFor reads the failure an audio_url asks for: any URL containing
// "fail" fails with 500, "fail-NNN" with NNN when it is from 400 to 599.
func failureFor(audioURL string) *jobFailure {
	if !strings.Contains(audioURL, "fail") {
		return nil
	}
	code := askedStatus(failCodePattern.FindStringSubmatch(audioURL))
	return &jobFailure{
		code:    code,
		message: fmt.Sprintf("transcription failed: %s (failure asked for by the audio_url)", http.StatusText(int(code))),
	}
}

// askedStatus is the status an audio_url asks a failure for: the digits a
// pattern's match captured when they are from 400 to 599, else 500.
func askedStatus(match []string) int64 {
	if len(match) > 1 {
		if n, err := strconv.ParseInt(match[1], 10, 64); err == nil && n >= 400 && n <= 599 {
			return n
		}
	}
	return http.StatusInternalServerError
}

// addonErrorPattern finds the status a URL asks a job's add-ons to fail
// with; "addon-error" has no "fail" in it, so the job itself is done.
var addonErrorPattern = regexp.MustCompile(`addon-error(?:-(\d+))?`)

// addonFailureFor reads the add-on failure an audio_url asks for: a URL
// containing "addon-error" makes every add-on of the job fail with
// status_code 500, "addon-error-NNN" with NNN when it is from 400 to 599.
func addonFailureFor(audioURL string) *client.AddonError {
	m := addonErrorPattern.FindStringSubmatch(audioURL)
	if m == nil {
		return nil
	}
	code := askedStatus(m)
	return &client.AddonError{
		StatusCode: code,
		Exception:  "AddonError",
		Message:    fmt.Sprintf("add-on failed: %s (failure asked for by the audio_url)", http.StatusText(int(code))),
	}
}

// onOwnHost reports whether audioURL is on this server's host (the host
// the request was sent to): under zero data retention the spec wants an
// external URL, not only one naming no upload.
func onOwnHost(audioURL, host string) bool {
	u, err := url.Parse(audioURL)
	return err == nil && onHost(u, host)
}

// onHost reports whether u is on host (host[:port], as a request's Host
// header gives it), as HTTP compares hosts: without case, and a port that is
// u's scheme's default the same as none.
func onHost(u *url.URL, host string) bool {
	return client.NormalHost(u) == client.NormalHost(&url.URL{Scheme: u.Scheme, Host: host})
}

// uploadID is the id of the upload that u, a URL of this server, names (its
// path /file/{id}: on host, or on a host and behind a gateway's path prefix
// an upload's URL was given under: a server reached by several names knows
// its uploads by each); ok is false for any other URL. Callers hold s.mu.
func (s *Server) uploadID(u *url.URL, host string) (id string, ok bool) {
	prefix, id, found := cutLast(u.EscapedPath(), "/file/")
	if !found {
		return "", false
	}
	// Decoded: u parsed, its escapes are whole; a prefix is kept decoded
	// , as its encoding may have been normalized since.
	id, _ = url.PathUnescape(id)
	prefix, _ = url.PathUnescape(prefix)
	id = idKey(id)
	_, issued := s.uploadHosts[client.NormalHost(u)][prefix]
	return id, issued || (prefix == "" && onHost(u, host))
}

// cutLast is strings.Cut at the last sep in s.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// resolveAudio finds what is known of the audio at audioURL: a file uploaded
// to this server (host is the host the caller reached this server by;
// uploaded is then true), or audio described by the URL itself. A URL of this
// server naming no upload (never made, or expired) yields a failure. Callers
// hold s.mu.
func (s *Server) resolveAudio(audioURL, host string) (audio Audio, fileID string, uploaded bool, failure *jobFailure) {
	u, err := url.Parse(audioURL)
	if err != nil {
		return Audio{Filename: "audio"}, "", false, &jobFailure{code: http.StatusBadRequest, message: "the audio_url cannot be parsed"}
	}
	if id, ok := s.uploadID(u, host); ok {
		if up, ok := s.uploads[id]; ok {
			return up.audio, up.id, true, nil
		}
		return Audio{Filename: path.Base(u.Path)}, "", false, &jobFailure{code: http.StatusNotFound, message: "the uploaded file named by audio_url does not exist"}
	}
	return derivedAudio(u, audioURL), uuid.NewSHA1(uuid.NameSpaceURL, []byte(audioURL)).String(), false, nil
}

// MaxAudioDuration bounds the duration an audio_url's duration parameter
// sets, in seconds (about 31 years): every figure derived from it, such as
// billing_time with 64 channels, stays a number JSON can carry.
const MaxAudioDuration = 1e9

// hashedDuration is the duration this server gives audio it does not decode:
// 5 to 60 whole seconds, the same for the same identifying bytes.
func hashedDuration(identity []byte) float64 {
	h := fnv.New32a()
	h.Write(identity)
	return float64(5 + h.Sum32()%56)
}

// derivedAudio describes external audio deterministically from its URL:
// duration=SECONDS and channels=N query parameters when given, otherwise 5
// to 60 seconds from a hash of the URL and one channel.
func derivedAudio(u *url.URL, raw string) Audio {
	audio := Audio{Duration: hashedDuration([]byte(raw)), Channels: 1, Filename: path.Base(u.Path)}
	q := u.Query()
	if d, err := strconv.ParseFloat(q.Get("duration"), 64); err == nil && d > 0 && d <= MaxAudioDuration {
		audio.Duration = d
	}
	if n, err := strconv.ParseInt(q.Get("channels"), 10, 64); err == nil && n >= 1 && n <= 64 {
		audio.Channels = n
	}
	if audio.Filename == "." || audio.Filename == "/" {
		audio.Filename = "audio"
	}
	return audio
}
