package fakeserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
)

func TestUploadThenTranscribe(t *testing.T) {
	h := newHarness(t, Options{})
	wav := testutil.SilentWAV(3, 2, 16000)
	body, ct := multipartFile(t, "audio", "Standup Recording.WAV", wav)
	resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil)
	if resp.status != http.StatusOK || resp.header.Get("Content-Type") != "application/json" {
		t.Fatalf("upload: %d %s", resp.status, resp.body)
	}
	var up client.UploadResponse
	decodeInto(t, resp.body, &up)
	m := up.AudioMetadata
	if _, err := uuid.Parse(m.ID); err != nil || up.AudioURL != h.url+"/file/"+m.ID {
		t.Fatalf("audio_url %q, id %q", up.AudioURL, m.ID)
	}
	want := client.AudioMetadata{ID: m.ID, Filename: "Standup Recording.WAV", Extension: "wav", Size: int64(len(wav)), AudioDuration: 3, NumberOfChannels: 2}
	if *m != want {
		t.Fatalf("audio_metadata %+v, want %+v", m, want)
	}

	// The file is served back, with the key only.
	path := strings.TrimPrefix(up.AudioURL, h.url)
	got := h.get(path)
	if got.status != http.StatusOK || !bytes.Equal(got.body, wav) || got.header.Get("Content-Type") != "audio/wav" {
		t.Fatalf("GET file: %d, %d bytes, %q", got.status, len(got.body), got.header.Get("Content-Type"))
	}
	// ... under the name it was uploaded with, as a job's file is.
	if name := attachmentName(t, got); name != "Standup Recording.WAV" {
		t.Fatalf("GET file: named %q, want the uploaded file's name", name)
	}
	unknown := "/file/" + uuid.NewString()
	requireError(t, h.get(unknown), http.StatusNotFound, unknown)

	// A job on the uploaded file reports the file's real audio.
	job := h.job(h.create(`{"audio_url":"` + up.AudioURL + `"}`).ID)
	f := job.File
	if job.Status != client.StatusDone || f == nil || f.ID != m.ID || *f.Filename != "Standup Recording.WAV" ||
		*f.AudioDuration != 3 || *f.NumberOfChannels != 2 || *f.Source != up.AudioURL {
		t.Fatalf("status %q, file %+v", job.Status, f)
	}
}

// An upload keeps about its own size in memory: the fake server keeps the
// file, in a buffer that grew by doubling as the file came, which took a
// 600 MB upload to 2.1 GB (a 40 MB one kept a 64 MB buffer). Measured as
// the capacity of what the server keeps (total allocations would count
// twice under the race detector, whose build allocates bytes.Buffer's
// growth twice).
func TestUploadKeepsAboutItsSize(t *testing.T) {
	h := newHarness(t, Options{})
	// Not powers of two, which doubling overshoots; below, just past and
	// well past the 8 MiB the server takes before making room for the rest.
	for _, size := range []int{5 << 20, 9 << 20, 12 << 20, 40 << 20} {
		wav := testutil.SilentWAV(0, 1, 8000)
		wav = append(wav, make([]byte, size-len(wav))...)
		up := h.upload("big.wav", wav)
		h.srv.mu.Lock()
		kept := h.srv.uploads[up.AudioMetadata.ID]
		h.srv.mu.Unlock()
		if kept == nil || len(kept.data) != size {
			t.Fatalf("the server keeps %v, want the %d-byte file", kept, size)
		}
		if c := cap(kept.data); c > size+size/10 {
			t.Errorf("the server keeps a %d-byte file in a buffer of %d bytes, want under 1.1 times the file", size, c)
		}
	}
}

func TestTranscribingAMissingUploadFails(t *testing.T) {
	h := newHarness(t, Options{})
	job := h.job(h.create(`{"audio_url":"` + h.url + `/file/` + uuid.NewString() + `"}`).ID)
	if job.Status != client.StatusError || *job.ErrorCode != http.StatusNotFound {
		t.Fatalf("status %q, error_code %v", job.Status, job.ErrorCode)
	}
}

func TestUploadLimits(t *testing.T) {
	h := newHarness(t, Options{MaxUploadBytes: 4000})
	exact := testutil.SilentWAV(0, 1, 8000)
	exact = append(exact, make([]byte, 4000-len(exact))...) // trailing bytes after the data chunk
	body, ct := multipartFile(t, "audio", "a.wav", exact)
	if resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil); resp.status != http.StatusOK {
		t.Fatalf("a file of exactly the limit: %d %s", resp.status, resp.body)
	}
	body, ct = multipartFile(t, "audio", "a.wav", append(exact, 0))
	requireError(t, h.do(http.MethodPost, "/v2/upload", ct, body, nil), http.StatusRequestEntityTooLarge, "/v2/upload")

	// Bytes outside the audio part count towards the body bound too.
	big := bytes.Repeat([]byte("x"), 2<<20)
	body, ct = multipartFile(t, "other", "b.bin", big)
	requireError(t, h.do(http.MethodPost, "/v2/upload", ct, body, nil), http.StatusRequestEntityTooLarge, "/v2/upload")
}

func TestUploadRejectsBadRequests(t *testing.T) {
	h := newHarness(t, Options{})
	noAudio, ct := multipartFile(t, "file", "a.wav", testutil.SilentWAV(1, 1, 8000))
	body := requireError(t, h.do(http.MethodPost, "/v2/upload", ct, noAudio, nil), http.StatusBadRequest, "/v2/upload")
	if !strings.Contains(body.Message, `"audio"`) {
		t.Fatalf("message %q", body.Message)
	}
	requireError(t, h.do(http.MethodPost, "/v2/upload", "application/json", []byte(`{}`), nil), http.StatusBadRequest, "/v2/upload")
	// A multipart body of another subtype (which Go's multipart reader would
	// read all the same) is refused for its Content-Type: the form is required.
	form, formCT := multipartFile(t, "audio", "a.wav", testutil.SilentWAV(1, 1, 8000))
	mixed := requireError(t, h.do(http.MethodPost, "/v2/upload", strings.Replace(formCT, "multipart/form-data", "multipart/mixed", 1), form, nil), http.StatusBadRequest, "/v2/upload")
	if !strings.Contains(mixed.Message, "multipart/form-data") {
		t.Fatalf("message %q", mixed.Message)
	}
	requireError(t, h.do(http.MethodPost, "/v2/upload", "multipart/form-data; boundary=xyz", []byte("garbage"), nil), http.StatusBadRequest, "/v2/upload")

	// An "audio" text field, not a file (Node's FormData given a Buffer
	// sends one, its bytes text-encoded): refused, saying so; a file part
	// after it is taken.
	var text bytes.Buffer
	mw := multipart.NewWriter(&text)
	if err := mw.WriteField("audio", string(testutil.SilentWAV(1, 1, 8000))); err != nil {
		t.Fatal(err)
	}
	textOnly := append([]byte(nil), text.Bytes()...)
	textOnly = append(textOnly, "\r\n--"+mw.Boundary()+"--\r\n"...)
	body = requireError(t, h.do(http.MethodPost, "/v2/upload", mw.FormDataContentType(), textOnly, nil), http.StatusBadRequest, "/v2/upload")
	if !strings.Contains(body.Message, `the multipart field "audio" must be a file (a part with a filename), not a text field`) {
		t.Fatalf("message %q", body.Message)
	}
	part, err := mw.CreateFormFile("audio", "a.wav")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(testutil.SilentWAV(1, 1, 8000)); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	var up client.UploadResponse
	decodeInto(t, h.do(http.MethodPost, "/v2/upload", mw.FormDataContentType(), text.Bytes(), nil).body, &up)
	if up.AudioMetadata.Filename != "a.wav" || up.AudioMetadata.AudioDuration != 1 {
		t.Errorf("the file part after a text field: metadata %+v", up.AudioMetadata)
	}
	// A file part whose filename is empty (a File named "") is a file.
	unnamed, unnamedCT := multipartFile(t, "audio", "", testutil.SilentWAV(1, 1, 8000))
	if !bytes.Contains(unnamed, []byte(`filename=""`)) {
		t.Fatalf("the part has no empty filename: %.200q", unnamed)
	}
	decodeInto(t, h.do(http.MethodPost, "/v2/upload", unnamedCT, unnamed, nil).body, &up)
	if up.AudioMetadata.Filename != "audio" || up.AudioMetadata.AudioDuration != 1 {
		t.Errorf("a file part named \"\": metadata %+v", up.AudioMetadata)
	}

	// A file that says it is WAV but whose header cannot be read, and an
	// empty file, are refused.
	broken, ct := multipartFile(t, "audio", "broken.wav", []byte("RIFF\x04\x00\x00\x00WAVE"))
	body = requireError(t, h.do(http.MethodPost, "/v2/upload", ct, broken, nil), http.StatusUnprocessableEntity, "/v2/upload")
	if !strings.Contains(body.Message, "unsupported audio file") {
		t.Fatalf("message %q", body.Message)
	}
	empty, ct := multipartFile(t, "audio", "empty.wav", nil)
	requireError(t, h.do(http.MethodPost, "/v2/upload", ct, empty, nil), http.StatusUnprocessableEntity, "/v2/upload")

	// A file whose bytes are no audio or video, whatever its name says.
	for name, content := range map[string]string{
		"notes.wav":  "just some text, not audio\n",
		"page.mp3":   "<!DOCTYPE html><html><body>Not found</body></html>",
		"cover.m4a":  "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64),
		"report.mp4": "%PDF-1.7\n" + strings.Repeat("\x00", 64),
		"bundle.ogg": "PK\x03\x04" + strings.Repeat("\x00", 64),
	} {
		file, ct := multipartFile(t, "audio", name, []byte(content))
		body := requireError(t, h.do(http.MethodPost, "/v2/upload", ct, file, nil), http.StatusUnprocessableEntity, "/v2/upload")
		if !strings.Contains(body.Message, "unsupported audio file: the file is not audio or video: its content is ") {
			t.Errorf("%s: message %q", name, body.Message)
		}
	}
}

// TestUploadOfAnotherFormat: the service takes audio and video files of any
// format; this server decodes WAV only, and describes any other file as it
// does external audio (a duration from a hash of its content, one channel),
// serving it back as its bytes sniff.
func TestUploadOfAnotherFormat(t *testing.T) {
	h := newHarness(t, Options{})
	mp3 := append([]byte("ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64"), bytes.Repeat([]byte{0x55}, 4000)...)
	up := func(name string, data []byte) client.UploadResponse {
		t.Helper()
		body, ct := multipartFile(t, "audio", name, data)
		resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil)
		if resp.status != http.StatusOK {
			t.Fatalf("upload of %s: %d %s", name, resp.status, resp.body)
		}
		var out client.UploadResponse
		decodeInto(t, resp.body, &out)
		return out
	}
	first := up("Song.MP3", mp3)
	m := first.AudioMetadata
	if m.Filename != "Song.MP3" || m.Extension != "mp3" || m.Size != int64(len(mp3)) || m.NumberOfChannels != 1 ||
		m.AudioDuration < 5 || m.AudioDuration > 60 || m.AudioDuration != float64(int(m.AudioDuration)) {
		t.Fatalf("audio_metadata %+v", m)
	}
	// The same content gives the same duration, whatever its name, and
	// the extension it sniffs as when its name has none.
	if again := up("other-name", mp3).AudioMetadata; again.AudioDuration != m.AudioDuration || again.Extension != "mp3" {
		t.Fatalf("the same file again: %+v, first %+v", again, m)
	}

	got := h.get(strings.TrimPrefix(first.AudioURL, h.url))
	if got.status != http.StatusOK || !bytes.Equal(got.body, mp3) || got.header.Get("Content-Type") != "audio/mpeg" {
		t.Fatalf("GET file: %d, %d bytes, %q", got.status, len(got.body), got.header.Get("Content-Type"))
	}
	job := h.job(h.create(`{"audio_url":"` + first.AudioURL + `"}`).ID)
	if job.Status != client.StatusDone || job.File == nil || *job.File.AudioDuration != m.AudioDuration || *job.File.Filename != "Song.MP3" {
		t.Fatalf("job on the upload: status %q, file %+v", job.Status, job.File)
	}
	file := h.get("/v2/pre-recorded/" + job.ID + "/file")
	if file.status != http.StatusOK || !bytes.Equal(file.body, mp3) || file.header.Get("Content-Type") != "audio/mpeg" {
		t.Fatalf("GET the job's file: %d, %d bytes, %q", file.status, len(file.body), file.header.Get("Content-Type"))
	}
}

func TestUploadWithoutFilenameOrExtension(t *testing.T) {
	h := newHarness(t, Options{})
	body, ct := multipartFile(t, "audio", "recording", testutil.SilentWAV(2, 1, 8000))
	resp := h.do(http.MethodPost, "/v2/upload", ct, body, nil)
	var up client.UploadResponse
	decodeInto(t, resp.body, &up)
	if up.AudioMetadata.Filename != "recording" || up.AudioMetadata.Extension != "wav" || up.AudioMetadata.AudioDuration != 2 {
		t.Fatalf("metadata %+v", up.AudioMetadata)
	}
	// Another format, as a browser's Blob sends it: the extension its
	// content sniffs as; none for content that is no known media.
	for content, want := range map[string]string{
		"ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64" + strings.Repeat("U", 400): "mp3",
		"OggS\x00\x02" + strings.Repeat("\x00", 400):                                 "ogg",
		"fLaC\x00\x00\x00\x22" + strings.Repeat("\x00", 400):                         "",
	} {
		body, ct := multipartFile(t, "audio", "blob", []byte(content))
		decodeInto(t, h.do(http.MethodPost, "/v2/upload", ct, body, nil).body, &up)
		if up.AudioMetadata.Extension != want {
			t.Errorf("a blob of %.8q: extension %q, want %q", content, up.AudioMetadata.Extension, want)
		}
	}
}

// TestUploadKeepsTheFirstAudioPart: a body with two "audio" parts stores the
// first one, as readAudioPart says; the second is read past, not kept.
func TestUploadKeepsTheFirstAudioPart(t *testing.T) {
	h := newHarness(t, Options{})
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range []struct {
		name    string
		seconds float64
	}{{"first.wav", 1}, {"second.wav", 2}} {
		part, err := mw.CreateFormFile("audio", f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := part.Write(testutil.SilentWAV(f.seconds, 1, 8000)); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	resp := h.do(http.MethodPost, "/v2/upload", mw.FormDataContentType(), b.Bytes(), nil)
	if resp.status != http.StatusOK {
		t.Fatalf("upload: %d %s", resp.status, resp.body)
	}
	var up client.UploadResponse
	decodeInto(t, resp.body, &up)
	if m := up.AudioMetadata; m.Filename != "first.wav" || m.AudioDuration != 1 {
		t.Fatalf("metadata %+v, want the first part's", m)
	}
}

// Behind a proxy that ends TLS, the server gives URLs with the scheme and
// host the proxy says the caller used (X-Forwarded-Proto and -Host, or
// RFC 7239's Forwarded), and takes them back: a job on such an upload URL
// transcribes the uploaded file. A host that is no plain host[:port] is
// not taken from the header.
func TestUploadBehindAProxyGivesTheCallersURLs(t *testing.T) {
	h := newHarness(t, Options{})
	wav := testutil.SilentWAV(3, 1, 16000)
	for _, tc := range []struct {
		name    string
		headers http.Header
		want    string // the audio_url's base
	}{
		{"X-Forwarded", http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"gw.example:8443"}}, "https://gw.example:8443"},
		{"Forwarded", http.Header{"Forwarded": {`for=192.0.2.1;proto=https;host="gw.example", for=10.0.0.1;proto=http`}}, "https://gw.example"},
		{"a proto only", http.Header{"X-Forwarded-Proto": {"HTTPS"}}, "https://" + strings.TrimPrefix(h.url, "http://")},
		{"a host that is no host", http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"evil.example/x?"}}, "https://" + strings.TrimPrefix(h.url, "http://")},
		{"an unknown proto", http.Header{"X-Forwarded-Proto": {"gopher"}}, h.url},
		{"a port out of range", http.Header{"X-Forwarded-Host": {"gw.example:99999"}}, h.url},
		{"port 0", http.Header{"X-Forwarded-Host": {"gw.example:0"}}, h.url},
		{"an empty port", http.Header{"X-Forwarded-Host": {"gw.example:"}}, h.url},
		{"a quoted comma", http.Header{"Forwarded": {`for="_a,b";host=gw.example;proto=https`}}, "https://gw.example"},
		// A gateway that strips a path prefix, and says which.
		{"a path prefix", http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"/speech/"}}, "https://gw.example/speech"},
		{"a prefix that is no path", http.Header{"X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"speech?x=1"}}, "http://gw.example"},
		{"a prefix with dot segments", http.Header{"X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"/a/../b"}}, "http://gw.example"},
		{"a prefix with encoded dot segments", http.Header{"X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"/a/%2E%2E/b"}}, "http://gw.example"},
		{"a prefix with what a path does not hold", http.Header{"X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"/<x> y"}}, "http://gw.example"},
		{"a prefix not encoded", http.Header{"X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"/café"}}, "http://gw.example"},
		{"an encoded prefix", http.Header{"X-Forwarded-Host": {"gw2.example"}, "X-Forwarded-Prefix": {"/%7Euser/caf%C3%A9"}}, "http://gw2.example/%7Euser/caf%C3%A9"},
		{"a prefix too long", http.Header{"X-Forwarded-Host": {"gw.example"}, "X-Forwarded-Prefix": {"/" + strings.Repeat("a", 300)}}, "http://gw.example"},
	} {
		body, ct := multipartFile(t, "audio", "a.wav", wav)
		resp := h.do(http.MethodPost, "/v2/upload", ct, body, tc.headers)
		var up client.UploadResponse
		decodeInto(t, resp.body, &up)
		if want := tc.want + "/file/" + up.AudioMetadata.ID; up.AudioURL != want {
			t.Errorf("%s: audio_url %q, want %q", tc.name, up.AudioURL, want)
			continue
		}
		created := h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(`{"audio_url":"`+up.AudioURL+`"}`), tc.headers)
		var init client.InitResponse
		decodeInto(t, created.body, &init)
		if job := h.job(init.ID); job.Status != client.StatusDone || job.File == nil || *job.File.AudioDuration != 3 || init.ResultURL != tc.want+"/v2/transcription/"+init.ID {
			t.Errorf("%s: the job on the upload: status %q, file %+v, result_url %q", tc.name, job.Status, job.File, init.ResultURL)
		}
		var page client.PreRecordedPage
		decodeInto(t, h.do(http.MethodGet, "/v2/pre-recorded?limit=1", "", nil, tc.headers).body, &page)
		if !strings.HasPrefix(page.First, tc.want+"/v2/") {
			t.Errorf("%s: the listing's first link %q, want it under %s", tc.name, page.First, tc.want)
		}
	}

	// An upload's URL is known under the prefix it was given under, not
	// under another, nor a file of the same name elsewhere on its host.
	prefixed := http.Header{"X-Forwarded-Host": {"gw3.example"}, "X-Forwarded-Prefix": {"/speech"}}
	body, ct := multipartFile(t, "audio", "a.wav", wav)
	var up client.UploadResponse
	decodeInto(t, h.do(http.MethodPost, "/v2/upload", ct, body, prefixed).body, &up)
	for url, wantUpload := range map[string]bool{
		"http://gw3.example/speech/file/" + up.AudioMetadata.ID: true,
		"http://gw3.example/other/file/" + up.AudioMetadata.ID:  false,
		"http://gw3.example/file/" + up.AudioMetadata.ID:        false,
		"http://gw3.example/speech/podcasts/file/ep1.wav":       false,
	} {
		var init client.InitResponse
		decodeInto(t, h.do(http.MethodPost, "/v2/pre-recorded", "application/json", []byte(`{"audio_url":"`+url+`"}`), nil).body, &init)
		job := h.job(init.ID)
		if isUpload := job.File != nil && job.File.ID == up.AudioMetadata.ID; isUpload != wantUpload {
			t.Errorf("%s: taken as the upload: %t, want %t (file %+v, status %s)", url, isUpload, wantUpload, job.File, job.Status)
		}
	}
}

// TestUploadAnnouncedLargeHoldsLittleUntilItComes: an upload whose
// Content-Length announces 200 MB and whose client then stalls holds
// about uploadGrowStep, not the whole body: twenty such clients held 2 GB.
func TestUploadAnnouncedLargeHoldsLittleUntilItComes(t *testing.T) {
	h := newHarness(t, Options{MaxUploadBytes: 1 << 30})
	const announced = 200 << 20
	head, ct := multipartFile(t, "audio", "big.wav", testutil.SilentWAV(1, 1, 8000))
	// The file's part begun, its end never sent.
	start := bytes.Index(head, []byte(`filename="big.wav"`))
	head = head[:start+bytes.Index(head[start:], []byte("\r\n\r\n"))+4+100]
	body, stall := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, h.url+"/v2/upload", body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = announced
	req.Header.Set("Content-Type", ct)
	req.Header.Set(client.ServiceKeyHeader, testKey)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	if _, err := stall.Write(head); err != nil {
		t.Fatal(err)
	}
	// The server has read what was sent (the pipe took it) and waits for
	// more: what it holds now is what any stalled client makes it hold.
	time.Sleep(200 * time.Millisecond)
	var during runtime.MemStats
	runtime.ReadMemStats(&during)
	_ = stall.CloseWithError(errors.New("the client went away"))
	<-done
	if grew := int64(during.HeapAlloc) - int64(before.HeapAlloc); grew > announced/4 {
		t.Errorf("the heap grew by %d MB for an upload that announced %d MB and sent %d bytes", grew>>20, announced>>20, len(head))
	}
}

// TestUploadOverstatedLengthKeepsTheFileAlone: a file of 9 MiB whose
// request announced 200 MB (the body ends at its closing boundary, the
// client then stops sending) is kept in a buffer of its own size, not in
// the room made for the 200 MB, for as long as the upload is.
func TestUploadOverstatedLengthKeepsTheFileAlone(t *testing.T) {
	h := newHarness(t, Options{MaxUploadBytes: 1 << 30})
	const size = 9 << 20
	wav := testutil.SilentWAV(0, 1, 8000)
	wav = append(wav, make([]byte, size-len(wav))...)
	body, ct := multipartFile(t, "audio", "big.wav", wav)
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v2/upload HTTP/1.1\r\nHost: fake\r\n%s: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", client.ServiceKeyHeader, testKey, ct, 200<<20)
	if _, err := conn.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil { // nothing more comes
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	var up client.UploadResponse
	err = json.NewDecoder(resp.Body).Decode(&up)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("upload: %d, %v", resp.StatusCode, err)
	}
	h.srv.mu.Lock()
	kept := h.srv.uploads[up.AudioMetadata.ID]
	h.srv.mu.Unlock()
	if kept == nil || len(kept.data) != size || cap(kept.data) > size+size/8+bytes.MinRead {
		t.Errorf("a %d-byte file announced as 200 MB is kept in a buffer of %d bytes", size, cap(kept.data))
	}
}

// A request whose client went away before sending its whole body is
// recorded as 499 (its client gone), as the request listing documents, not
// as a bad request: an upload and a create cut off mid-body both were 400.
func TestBodyCutOffIsRecordedAsClientGone(t *testing.T) {
	for _, tc := range []struct{ path, contentType, body string }{
		{"/v2/upload", "multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\n" + strings.Repeat("a", 100_000)},
		{"/v2/pre-recorded", "application/json", `{"audio_url":"https://media.example.com/a.wav",`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			h := newHarness(t, Options{})
			conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%s: %s\r\nContent-Type: %s\r\nContent-Length: 5000000\r\n\r\n%s",
				tc.path, client.ServiceKeyHeader, testKey, tc.contentType, tc.body)
			conn.Close()
			var page controlPage
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				decodeInto(t, h.control(http.MethodGet, "/requests", "").body, &page)
				if len(page.Requests) == 1 && page.Requests[0].Status != 0 || time.Now().After(deadline) {
					break
				}
			}
			if len(page.Requests) != 1 || page.Requests[0].Status != statusClientGone {
				t.Fatalf("%+v, want the request cut off recorded with %d", page, statusClientGone)
			}
		})
	}
}

// A body the client sends whole but malformed in its framing (a chunk
// length that is no number) is the client's error, told with a 400 and
// the error body, not taken for a client gone (499 without a body).
func TestMalformedChunkedBodyIsABadRequest(t *testing.T) {
	for _, tc := range []struct{ path, contentType, chunk string }{
		{"/v2/pre-recorded", "application/json", `{"aud`},
		{"/v2/upload", "multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\n\r\nRIFF"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			h := newHarness(t, Options{})
			conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%s: %s\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\nZZ\r\n",
				tc.path, client.ServiceKeyHeader, testKey, tc.contentType, len(tc.chunk), tc.chunk)
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"statusCode":400`) {
				t.Fatalf("status %d %s, want 400 with the error body", resp.StatusCode, body)
			}
		})
	}
}
