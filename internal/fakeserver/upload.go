package fakeserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// multipartOverheadBytes is what a multipart body may hold besides the file:
// boundaries, part headers, small fields.
const multipartOverheadBytes = 1 << 20

// upload is a file received by POST /v2/upload, kept in memory.
type upload struct {
	id          string
	extension   string
	data        []byte
	contentType string // what GET serves it as
	audio       Audio
}

// uploadedAudio describes an uploaded file. A WAV file (RIFF/WAVE) is read
// for its real duration and channels, and refused when its header cannot be
// read. Any other format that may be audio or video (MP3, M4A, MP4, FLAC,
// ...: client.SniffMedia) is accepted, as the service accepts audio and
// video files, but this server decodes none of them: it describes them as
// it does external audio (derivedAudio), 5 to 60 seconds from a hash of the
// content, one channel, and serves them as their bytes sniff. An empty
// file, and one whose bytes are surely no recording (text, a web page, a
// PDF, an archive, an image, a font: client.SniffMedia), are refused: a
// pipeline that sends one would fail on the service.
func uploadedAudio(filename string, data []byte) (audio Audio, contentType string, err error) {
	switch {
	case len(data) == 0:
		return Audio{}, "", errors.New("the file is empty")
	case isWAV(data):
		info, err := parseWAV(data)
		if err != nil {
			return Audio{}, "", err
		}
		return Audio{Duration: info.Duration(), Channels: int64(info.Channels), Filename: filename}, wavContentType, nil
	}
	contentType, media := client.SniffMedia(data)
	if !media {
		return Audio{}, "", fmt.Errorf("the file is not audio or video: its content is %s", contentType)
	}
	return Audio{Duration: hashedDuration(data), Channels: 1, Filename: filename}, contentType, nil
}

// sniffedExtensions are the extensions of the media types
// http.DetectContentType recognises in audio and video files.
var sniffedExtensions = map[string]string{
	wavContentType:    "wav",
	"audio/mpeg":      "mp3",
	"audio/aiff":      "aiff",
	"audio/midi":      "mid",
	"application/ogg": "ogg",
	"video/avi":       "avi",
	"video/mp4":       "mp4",
	"video/webm":      "webm",
}

// errUploadTooLarge marks a file past Options.MaxUploadBytes.
var errUploadTooLarge = errors.New("upload too large")

func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request, _ string) {
	if s.zdrRefuses(w, r, "zero data retention is enabled for this account: uploads are disabled; pass an external audio_url instead") {
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "multipart/form-data" {
		s.writeError(w, r, http.StatusBadRequest, `Content-Type must be multipart/form-data with the file in the field "audio"`)
		return
	}
	watched := &bodyWatch{ReadCloser: r.Body}
	r.Body = http.MaxBytesReader(w, watched, s.opts.MaxUploadBytes+multipartOverheadBytes)
	filename, data, found, err := s.readAudioPart(r)
	switch {
	case errors.Is(err, errAudioNotAFile):
		// A text field: what a client makes of bytes it was not told are a
		// file (Node's FormData given a Buffer), text-encoded on the way.
		s.writeError(w, r, http.StatusBadRequest, `the multipart field "audio" must be a file (a part with a filename), not a text field`)
		return
	case errors.Is(err, errUploadTooLarge):
		s.writeError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the audio file exceeds the upload limit of %d bytes", s.opts.MaxUploadBytes))
		return
	case err != nil && clientGone(r, watched):
		answerClientGone(w)
		return
	case err != nil:
		s.writeError(w, r, http.StatusBadRequest, "the multipart body cannot be read: "+err.Error())
		return
	case !found:
		s.writeError(w, r, http.StatusBadRequest, `the multipart field "audio" holding the audio file is required`)
		return
	}
	audio, contentType, err := uploadedAudio(filename, data)
	if err != nil {
		s.writeError(w, r, http.StatusUnprocessableEntity, "unsupported audio file: "+err.Error())
		return
	}

	up := &upload{
		id:          uuid.NewString(),
		extension:   strings.ToLower(strings.TrimPrefix(path.Ext(filename), ".")),
		data:        data,
		contentType: contentType,
		audio:       audio,
	}
	if up.extension == "" {
		// A file sent without one in its name (a browser's Blob is named
		// "blob"): the extension its content sniffs as, as the service
		// detects it.
		up.extension = sniffedExtensions[contentType]
	}
	s.mu.Lock()
	now := s.tick()
	s.uploads[up.id] = up
	host := client.NormalHost(&url.URL{Scheme: requestScheme(r), Host: requestHost(r)})
	if s.uploadHosts[host] == nil {
		s.uploadHosts[host] = map[string]struct{}{}
	}
	prefix, _ := url.PathUnescape(requestPrefix(r)) // checked: its escapes are whole
	s.uploadHosts[host][prefix] = struct{}{}
	if s.opts.Retention > 0 {
		s.expiries.add(now.Add(s.opts.Retention), expiringUpload, up.id)
	}
	s.mu.Unlock()

	writeJSON(w, http.StatusOK, client.UploadResponse{
		AudioURL: baseURL(r) + "/file/" + up.id,
		AudioMetadata: &client.AudioMetadata{
			ID:               up.id,
			Filename:         filename,
			Extension:        up.extension,
			Size:             int64(len(data)),
			AudioDuration:    up.audio.Duration,
			NumberOfChannels: up.audio.Channels,
		},
	})
}

// errAudioNotAFile is readAudioPart's error for an "audio" field that is
// no file, when none is.
var errAudioNotAFile = errors.New(`the "audio" field is not a file`)

// readAudioPart streams the multipart body and returns the first "audio"
// part that is a file, read up to the upload limit. Other parts are skipped
// without being kept.
func (s *Server) readAudioPart(r *http.Request) (filename string, data []byte, found bool, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, false, err
	}
	textField := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			if !found && textField {
				return "", nil, false, errAudioNotAFile
			}
			return filename, data, found, nil
		}
		if err != nil {
			return "", nil, false, tooLargeOr(err)
		}
		isFile := isFilePart(part)
		if part.FormName() == "audio" && !isFile {
			textField = true
		}
		if part.FormName() != "audio" || !isFile || found {
			if _, err := io.Copy(io.Discard, part); err != nil {
				return "", nil, false, tooLargeOr(err)
			}
			continue
		}
		// The file is most of the body: room for it at once, rather than
		// doubling as it comes (twice its size at the end, and as much
		// again in the copies on the way, for a recording of hundreds of MB).
		// But only once its first uploadGrowStep bytes have come: a client
		// that announces a large body and stalls would hold it otherwise
		// (20 such held 2 GB).
		body := io.LimitReader(part, s.opts.MaxUploadBytes+1)
		// With room for the read that finds the end, which bytes.Buffer
		// makes only with MinRead bytes free (doubling otherwise).
		room := func(n int64) int { return int(min(n, s.opts.MaxUploadBytes+1)) + bytes.MinRead }
		buf := new(bytes.Buffer)
		if r.ContentLength > 0 {
			buf = bytes.NewBuffer(make([]byte, 0, room(min(r.ContentLength, uploadGrowStep))))
		}
		first, err := io.Copy(buf, io.LimitReader(body, uploadGrowStep))
		if err == nil && first == uploadGrowStep {
			if r.ContentLength > 0 {
				// Exactly: Grow would make at least twice the room there is.
				whole := make([]byte, buf.Len(), room(r.ContentLength))
				copy(whole, buf.Bytes())
				buf = bytes.NewBuffer(whole)
			}
			_, err = io.Copy(buf, body)
		}
		if err != nil {
			return "", nil, false, tooLargeOr(err)
		}
		if int64(buf.Len()) > s.opts.MaxUploadBytes {
			return "", nil, false, errUploadTooLarge
		}
		data, found = buf.Bytes(), true
		if cap(data) > len(data)+len(data)/8+bytes.MinRead {
			// Room made for a Content-Length the file was far from (a
			// lying client, or a large field after the file): the file
			// alone is kept, for as long as the upload is.
			data = bytes.Clone(data)
		}
		filename = part.FileName()
		if filename == "" {
			filename = "audio" // filename="", as a File named "" sends it
		}
	}
}

// isFilePart reports whether part is a file: its Content-Disposition has a
// filename parameter, empty or not (part.FileName cannot tell an empty one
// from none).
func isFilePart(part *multipart.Part) bool {
	_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if err != nil {
		return false
	}
	_, ok := params["filename"]
	return ok
}

// uploadGrowStep is how much of an upload must have come before room is
// made for the whole body its Content-Length announces.
const uploadGrowStep = 8 << 20

func tooLargeOr(err error) error {
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return errUploadTooLarge
	}
	return err
}

// handleGetFile serves an uploaded file's bytes.
func (s *Server) handleGetFile(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	s.tick()
	up, ok := s.uploads[id]
	s.mu.Unlock()
	if !ok {
		s.writeError(w, r, http.StatusNotFound, "no uploaded file with id "+id)
		return
	}
	s.serveAudio(w, r, up.audio.Filename, up.contentType, bytes.NewReader(up.data))
}
