package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listeningLine = regexp.MustCompile(`^fakeserver listening on (http://127\.0\.0\.1:\d+)$`)

// start runs the command and returns its base URL, its stderr and a stop
// function that returns run's error.
func start(t *testing.T, args []string, env map[string]string) (string, *syncBuffer, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	stderr := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, stdoutW, stderr, func(k string) string { return env[k] })
		stdoutW.Close()
	}()
	lines := bufio.NewScanner(stdoutR)
	if !lines.Scan() {
		cancel()
		t.Fatalf("no listening line; stderr: %s; err: %v", stderr, <-done)
	}
	m := listeningLine.FindStringSubmatch(lines.Text())
	if m == nil {
		cancel()
		t.Fatalf("first stdout line %q", lines.Text())
	}
	rest := make(chan string, 1)
	go func() {
		var more []string
		for lines.Scan() {
			more = append(more, lines.Text())
		}
		rest <- strings.Join(more, "\n")
	}()
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			if extra := <-rest; extra != "" {
				t.Errorf("more stdout after the listening line: %q", extra)
			}
			return err
		case <-time.After(15 * time.Second):
			t.Fatal("run did not return after cancellation")
			return nil
		}
	}
	return m[1], stderr, stop
}

func get(t *testing.T, url, key string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if key != "" {
		req.Header.Set(client.ServiceKeyHeader, key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

func TestRunServesAndShutsDown(t *testing.T) {
	base, stderr, stop := start(t, []string{"-addr", "127.0.0.1:0", "-api-key", "cli-key", "-live-jobs", "7", "-processing-time", "0s"}, nil)

	status, body := get(t, base+"/v2/live?limit=100", "cli-key")
	var page client.LivePage
	if err := json.Unmarshal(body, &page); status != http.StatusOK || err != nil || len(page.Items) != 7 {
		t.Fatalf("GET /v2/live: %d, %d items, %v", status, len(page.Items), err)
	}
	if status, _ := get(t, base+"/v2/live", "wrong"); status != http.StatusUnauthorized {
		t.Fatalf("wrong key: %d", status)
	}
	if err := stop(); err != nil {
		t.Fatalf("run: %v", err)
	}
	logs := stderr.String()
	if !strings.Contains(logs, "GET /v2/live?limit=100 200") || !strings.Contains(logs, "GET /v2/live 401") {
		t.Fatalf("request log: %s", logs)
	}
	if strings.Contains(logs, "cli-key") || strings.Contains(logs, "wrong") {
		t.Fatalf("the key reached the log: %s", logs)
	}
}

func TestRunTakesTheKeyFromTheEnvironment(t *testing.T) {
	base, _, stop := start(t, []string{"-addr", "127.0.0.1:0"}, map[string]string{"TRANSCRIPTION_API_KEY": "env-key"})
	defer func() { _ = stop() }()
	if status, _ := get(t, base+"/v2/live", "env-key"); status != http.StatusOK {
		t.Fatalf("env key: %d", status)
	}
	if status, _ := get(t, base+"/v2/live", "test-key"); status != http.StatusUnauthorized {
		t.Fatalf("default key accepted though the environment sets one: %d", status)
	}
}

func TestRunDefaultsToTestKeyAndZDRFlag(t *testing.T) {
	base, _, stop := start(t, []string{"-addr", "127.0.0.1:0", "-zero-data-retention"}, nil)
	defer func() { _ = stop() }()
	if status, _ := get(t, base+"/v2/pre-recorded/x", "test-key"); status != http.StatusForbidden {
		t.Fatalf("zero data retention GET: %d", status)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-live-jobs", "-1"},
		{"-processing-time", "-1s"},
		{"-max-upload-mb", "0"},
		{"-api-key", ""},
		{"-nope"},
		{"extra"},
		{"-addr", "256.0.0.1:99999"},
	} {
		var stdout, stderr syncBuffer
		if err := run(context.Background(), args, &stdout, &stderr, func(string) string { return "" }); err == nil {
			t.Fatalf("%v: no error", args)
		}
		if stdout.String() != "" {
			t.Fatalf("%v: printed %q", args, stdout.String())
		}
	}
}

func TestRunMaxUploadFlag(t *testing.T) {
	base, _, stop := start(t, []string{"-addr", "127.0.0.1:0", "-max-upload-mb", "1"}, nil)
	defer func() { _ = stop() }()
	for _, c := range []struct {
		bytes  int
		status int
	}{
		{1<<20 - 1000, http.StatusOK},
		{1<<20 + 1000, http.StatusRequestEntityTooLarge},
	} {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("audio", "a.wav")
		_, _ = part.Write(silentWAV(c.bytes))
		_ = mw.Close()
		req, _ := http.NewRequest(http.MethodPost, base+"/v2/upload", &body)
		req.Header.Set(client.ServiceKeyHeader, "test-key")
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("upload of %d bytes under -max-upload-mb 1: %d, want %d", c.bytes, resp.StatusCode, c.status)
		}
	}
}

// silentWAV is a mono 8 kHz 16-bit WAV file of size bytes.
func silentWAV(size int) []byte {
	b := make([]byte, size)
	data := uint32(size - 44)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], data+36)
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1)
	binary.LittleEndian.PutUint16(b[22:], 1)
	binary.LittleEndian.PutUint32(b[24:], 8000)
	binary.LittleEndian.PutUint32(b[28:], 16000)
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], data)
	return b
}
