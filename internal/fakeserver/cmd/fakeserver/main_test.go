package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
	"github.com/transcription-service/terraform-provider-transcription/internal/wav"
)

var listeningLine = regexp.MustCompile(`^fakeserver listening on (https?://127\.0\.0\.1:\d+)$`)

// start runs the command and returns its base URL, its stderr and a stop
// function that returns run's error.
func start(t *testing.T, args []string, env map[string]string) (string, *testutil.SyncBuffer, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	stderr := &testutil.SyncBuffer{}
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
	base, stderr, stop := start(t, []string{"-addr", "127.0.0.1:0", "-api-key", "cli-key", "-live-jobs", "7", "-pre-recorded-jobs", "5", "-processing-time", "0s"}, nil)

	status, body := get(t, base+"/v2/live?limit=100", "cli-key")
	var page client.LivePage
	if err := json.Unmarshal(body, &page); status != http.StatusOK || err != nil || len(page.Items) != 7 {
		t.Fatalf("GET /v2/live: %d, %d items, %v", status, len(page.Items), err)
	}
	status, body = get(t, base+"/v2/pre-recorded?limit=100", "cli-key")
	var jobs client.PreRecordedPage
	if err := json.Unmarshal(body, &jobs); status != http.StatusOK || err != nil || len(jobs.Items) != 5 {
		t.Fatalf("GET /v2/pre-recorded: %d, %d items, %v", status, len(jobs.Items), err)
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
	// Which key applies is said, never the key: a shell exporting
	// TRANSCRIPTION_API_KEY gets that one, not test-key.
	if !strings.Contains(logs, "API key (x-service-key): -api-key") {
		t.Fatalf("the log does not say where the key came from: %s", logs)
	}
}

// TestRunShutsDownPromptlyUnderLatency: an interrupt while requests wait
// out an injected latency answers them at once, and run exits cleanly,
// rather than waiting out the shutdown grace and cutting them off.
func TestRunShutsDownPromptlyUnderLatency(t *testing.T) {
	base, _, stop := start(t, []string{"-addr", "127.0.0.1:0", "-api-key", "k", "-latency", "1h", "-quiet"}, nil)

	answered := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, base+"/v2/pre-recorded", nil)
		req.Header.Set(client.ServiceKeyHeader, "k")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	// The request is in the log, unanswered, once it waits out the latency.
	awaitOneInFlight(t, base, "k")
	if err := stop(); err != nil {
		t.Fatalf("run: %v", err)
	}
	if status := <-answered; status != http.StatusOK {
		t.Fatalf("the request in flight got %d (0: no answer), want 200", status)
	}
}

// TestRunCutsOffWhatOutlastsTheGrace: a request still in flight when the
// shutdown's grace ends (an upload still coming) is cut off, said in the
// log, and run ends cleanly: the server stopped as asked.
func TestRunCutsOffWhatOutlastsTheGrace(t *testing.T) {
	grace := shutdownGrace
	shutdownGrace = 200 * time.Millisecond
	t.Cleanup(func() { shutdownGrace = grace })
	base, stderr, stop := start(t, []string{"-addr", "127.0.0.1:0", "-api-key", "k", "-quiet"}, nil)

	body, uploading := io.Pipe()
	t.Cleanup(func() { uploading.Close() })
	sent := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, base+"/v2/upload", body)
		req.Header.Set(client.ServiceKeyHeader, "k")
		req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		sent <- err
	}()
	if _, err := uploading.Write([]byte("--x\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	awaitOneInFlight(t, base, "k")
	err := stop()
	uploading.Close()
	if err != nil {
		t.Fatalf("run: %v, want a clean end", err)
	}
	if logs := stderr.String(); !strings.Contains(logs, "requests still in flight after 200ms were cut off") {
		t.Errorf("the log does not say what was cut off: %s", logs)
	}
	if err := <-sent; err == nil {
		t.Error("the upload in flight was answered, want it cut off")
	}
}

// awaitOneInFlight waits until the server's request log holds one request,
// unanswered.
func awaitOneInFlight(t *testing.T, base, key string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for inFlight := false; !inFlight; {
		if time.Now().After(deadline) {
			t.Fatal("the request never showed in flight")
		}
		time.Sleep(10 * time.Millisecond)
		_, body := get(t, base+fakeserver.ControlPrefix+"/requests", key)
		var page struct {
			Requests []struct{ Status int } `json:"requests"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatalf("request listing %s: %v", body, err)
		}
		inFlight = len(page.Requests) == 1 && page.Requests[0].Status == 0
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
		{"-live-jobs", "1000001"},
		{"-pre-recorded-jobs", "-1"},
		{"-pre-recorded-jobs", "10001"},
		{"-processing-time", "-1s"},
		{"-max-upload-mb", "0"},
		{"-api-key", ""},
		{"-nope"},
		{"extra"},
		{"-addr", "256.0.0.1:99999"},
	} {
		var stdout, stderr testutil.SyncBuffer
		if err := run(context.Background(), args, &stdout, &stderr, func(string) string { return "" }); err == nil {
			t.Fatalf("%v: no error", args)
		}
		if stdout.String() != "" {
			t.Fatalf("%v: printed %q", args, stdout.String())
		}
	}
}

// TestRunOnABusyPort: the error names the address and how to get a free
// port, and says "fakeserver:" once (main adds it).
func TestRunOnABusyPort(t *testing.T) {
	squatter, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer squatter.Close()
	var stdout, stderr testutil.SyncBuffer
	err = run(context.Background(), []string{"-addr", squatter.Addr().String()}, &stdout, &stderr, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), squatter.Addr().String()) || !strings.Contains(err.Error(), "-addr 127.0.0.1:0, or FAKESERVER_ADDR=127.0.0.1:0, picks a free port") || strings.Contains(err.Error(), "fakeserver:") {
		t.Fatalf("run on a busy port: %v, want its address, the hint, and no prefix of its own", err)
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
	return append(wav.Header(1, 8000, 16, uint32(size-wav.HeaderSize)), make([]byte, size-wav.HeaderSize)...)
}

func TestParseConfigEnvironmentAndFlags(t *testing.T) {
	every := map[string]string{
		"FAKESERVER_ADDR":                "127.0.0.1:9999",
		"FAKESERVER_API_KEY":             "env-key",
		"FAKESERVER_LIVE_JOBS":           "12",
		"FAKESERVER_PRE_RECORDED_JOBS":   "7",
		"FAKESERVER_PROCESSING_TIME":     "5s-30s",
		"FAKESERVER_ZERO_DATA_RETENTION": "true",
		"FAKESERVER_MAX_UPLOAD_MB":       "1000",
		"FAKESERVER_MAX_CONCURRENT_JOBS": "300",
		"FAKESERVER_MAX_PROCESSING_JOBS": "25",
		"FAKESERVER_RETENTION":           "10m",
		"FAKESERVER_LATENCY":             "150ms",
		"FAKESERVER_RATE_LIMIT_RATIO":    "0.2",
		"FAKESERVER_RETRY_AFTER":         "3",
		"FAKESERVER_SERVER_ERROR_RATIO":  "0.1",
		"FAKESERVER_SERVER_ERROR_STATUS": "502",
		"FAKESERVER_FAULT_SEED":          "42",
		"FAKESERVER_REQUEST_LOG":         "500",
		"FAKESERVER_QUIET":               "1",
	}
	fromEnv := config{
		addr: "127.0.0.1:9999", apiKey: "env-key", apiKeySource: "FAKESERVER_API_KEY", liveJobs: 12, preRecordedJobs: 7,
		processing: processingRange{5 * time.Second, 30 * time.Second}, zdr: true, maxUploadMB: 1000,
		maxConcurrentJobs: 300, maxProcessingJobs: 25, retention: 10 * time.Minute,
		faults:     fakeserver.Faults{Latency: 150 * time.Millisecond, RateLimitRatio: 0.2, RetryAfter: 3, ServerErrorRatio: 0.1, ServerErrorStatus: 502, Seed: 42},
		requestLog: 500, quiet: true,
	}
	defaults := config{
		addr: "127.0.0.1:8080", apiKey: "test-key", apiKeySource: "the default, test-key", processing: processingRange{2 * time.Second, 2 * time.Second},
		maxUploadMB: 100, faults: fakeserver.Faults{RetryAfter: 1, ServerErrorStatus: 503}, requestLog: 10000,
	}
	withFlags := fromEnv
	withFlags.processing = processingRange{time.Second, time.Second}
	withFlags.maxConcurrentJobs = 3
	withFlags.apiKey, withFlags.apiKeySource = "flag-key", "-api-key"
	withFlags.quiet = false

	cases := []struct {
		name string
		env  map[string]string
		args []string
		want config
	}{
		{"defaults", nil, nil, defaults},
		{"every variable", every, nil, fromEnv},
		{"flags win over variables", every, []string{"-processing-time", "1s", "-max-concurrent-jobs", "3", "-api-key", "flag-key", "-quiet=false"}, withFlags},
		{"TRANSCRIPTION_API_KEY when no FAKESERVER_API_KEY", map[string]string{"TRANSCRIPTION_API_KEY": "tr-key"}, nil,
			func() config { c := defaults; c.apiKey, c.apiKeySource = "tr-key", "TRANSCRIPTION_API_KEY"; return c }()},
		{"FAKESERVER_API_KEY over TRANSCRIPTION_API_KEY", map[string]string{"TRANSCRIPTION_API_KEY": "tr-key", "FAKESERVER_API_KEY": "fs-key"}, nil,
			func() config { c := defaults; c.apiKey, c.apiKeySource = "fs-key", "FAKESERVER_API_KEY"; return c }()},
		{"FAKESERVER_VERSION is not a flag's", map[string]string{"FAKESERVER_VERSION": "1.2.3"}, nil, defaults},
		// The same key both ways comes from the flag, which wins.
		{"-api-key equal to FAKESERVER_API_KEY", map[string]string{"FAKESERVER_API_KEY": "k"}, []string{"-api-key", "k"},
			func() config { c := defaults; c.apiKey, c.apiKeySource = "k", "-api-key"; return c }()},
		// A variable a flag overrides is not read: its bad value is no error.
		{"a bad variable a flag overrides", map[string]string{"FAKESERVER_PROCESSING_TIME": "soon"}, []string{"-processing-time", "1s"},
			func() config { c := defaults; c.processing = processingRange{time.Second, time.Second}; return c }()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stderr testutil.SyncBuffer
			got, err := parseConfig(c.args, &stderr, func(k string) string { return c.env[k] })
			if err != nil {
				t.Fatalf("parseConfig: %v (%s)", err, stderr.String())
			}
			if got != c.want {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseConfigRejects(t *testing.T) {
	cases := []struct {
		env  map[string]string
		args []string
		says string
	}{
		{map[string]string{"FAKESERVER_LIVE_JOBS": "many"}, nil, "FAKESERVER_LIVE_JOBS"},
		{map[string]string{"FAKESERVER_QUIET": "yes"}, nil, `FAKESERVER_QUIET="yes": parse error: want true or false`},
		{map[string]string{"FAKESERVER_RETENTION": "1d"}, nil, "want a Go duration such as 30s, 10m or 504h"},
		{map[string]string{"FAKESERVER_PROCESSING_TIME": "30s-5s"}, nil, "ends before it starts"},
		{nil, []string{"-processing-time", "-1s"}, "negative"},
		{nil, []string{"-processing-time", "5s-x"}, "invalid"},
		{nil, []string{"-max-concurrent-jobs", "-1"}, "-max-concurrent-jobs"},
		{nil, []string{"-max-processing-jobs", "-1"}, "-max-processing-jobs"},
		{nil, []string{"-retention", "-1m"}, "-retention"},
		{nil, []string{"-request-log", "-1"}, "-request-log"},
		{nil, []string{"-retry-after", "-1"}, "-retry-after must not be negative"}, // 0 is the default, 1, as in PUT /_emulator/faults
		{nil, []string{"-rate-limit-ratio", "1.5"}, "from 0 to 1"},
		{nil, []string{"-rate-limit-ratio", "0.6", "-server-error-ratio", "0.6"}, "add up"},
		{nil, []string{"-server-error-status", "404"}, "500 to 599"},
		{nil, []string{"-latency", "-1s"}, "latency"},
		{map[string]string{"FAKESERVER_API_KEY": "k"}, []string{"-api-key", ""}, "-api-key"},
		// A key no client can send: HTTP trims a header value's spaces.
		{nil, []string{"-api-key", "s3cret-key\n"}, "the API key from -api-key cannot be used: the API key begins or ends with white space"},
		{map[string]string{"FAKESERVER_API_KEY": " s3cret-key"}, nil, "the API key from FAKESERVER_API_KEY cannot be used"},
		// Sent as it is, but no client's key would match it: not ASCII.
		{map[string]string{"FAKESERVER_API_KEY": "\ufeffs3cret-key"}, nil, "the API key from FAKESERVER_API_KEY cannot be used: the API key begins with a byte-order mark"},
		{map[string]string{"TRANSCRIPTION_API_KEY": "s3cret\x00key"}, nil, "the API key from TRANSCRIPTION_API_KEY cannot be used: the API key holds a control character"},
		// A boolean flag given a separate value ends the flags there.
		{nil, []string{"-quiet", "true", "-api-key", "s3cret-key"}, "3 unexpected arguments after the flags (not shown, as they may hold the key): flags end at the first argument that is not one: a boolean flag takes no separate value; write -quiet=true"},
		{nil, []string{"-addr", "127.0.0.1:0", "s3cret-key"}, "an unexpected argument after the flags"},
		// A value beginning with "-" before a stray boolean is not a flag.
		{nil, []string{"-api-key", "-s3cret", "true"}, "an unexpected argument after the flags (not shown, as they may hold the key): flags end at the first argument that is not one"},
	}
	for _, c := range cases {
		var stderr testutil.SyncBuffer
		_, err := parseConfig(c.args, &stderr, func(k string) string { return c.env[k] })
		if err == nil || !strings.Contains(err.Error()+stderr.String(), c.says) {
			t.Errorf("env %v args %v: error %v (stderr %q), want one saying %q", c.env, c.args, err, stderr.String(), c.says)
		}
		if err != nil && strings.Contains(err.Error()+stderr.String(), "s3cret") {
			t.Errorf("args %v: the error quotes the key: %v (stderr %q)", c.args, err, stderr.String())
		}
	}
}

func TestRunHelpShowsVariablesAndControlButNoKey(t *testing.T) {
	var stdout, stderr testutil.SyncBuffer
	if err := run(context.Background(), []string{"-help"}, &stdout, &stderr, func(k string) string {
		return map[string]string{"TRANSCRIPTION_API_KEY": "s3cret-from-env"}[k]
	}); err != nil {
		t.Fatal(err)
	}
	help := stderr.String()
	for _, want := range []string{"$FAKESERVER_PROCESSING_TIME", "$FAKESERVER_MAX_CONCURRENT_JOBS", "$FAKESERVER_RETENTION", "/_emulator/faults", "/_emulator/down", "/_emulator/requests", "/_emulator/jobs/{id}"} {
		if !strings.Contains(help, want) {
			t.Errorf("-help does not mention %s", want)
		}
	}
	if strings.Contains(help, "s3cret-from-env") {
		t.Error("-help printed the key from the environment")
	}
}

func TestRunVersion(t *testing.T) {
	var stdout, stderr testutil.SyncBuffer
	if err := run(context.Background(), []string{"-version"}, &stdout, &stderr, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "fakeserver ") {
		t.Fatalf("-version printed %q", stdout.String())
	}
}

// send sends a request with the rehearsal's key.
func send(t *testing.T, method, url, body string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set(client.ServiceKeyHeader, "ci-key")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

// TestRunRehearsal drives the command as a CI job would: settings from
// the environment, a concurrency limit, retention, faults changed and an
// outage through the control interface, the requests listed.
func TestRunRehearsal(t *testing.T) {
	env := map[string]string{
		"FAKESERVER_API_KEY":             "ci-key",
		"FAKESERVER_PROCESSING_TIME":     "300ms",
		"FAKESERVER_MAX_CONCURRENT_JOBS": "1",
		"FAKESERVER_RETENTION":           "400ms",
		"FAKESERVER_QUIET":               "true",
	}
	base, stderr, stop := start(t, []string{"-addr", "127.0.0.1:0"}, env)
	stopped := false
	defer func() {
		if !stopped {
			_ = stop()
		}
	}()
	const create = `{"audio_url":"https://media.example.com/a.wav","callback_url":"https://hooks.example.com/x?token=t0k3n"}`

	status, _, body := send(t, http.MethodPost, base+"/v2/pre-recorded", create)
	var job client.InitResponse
	if err := json.Unmarshal(body, &job); status != http.StatusCreated || err != nil {
		t.Fatalf("create: %d %s", status, body)
	}
	status, header, _ := send(t, http.MethodPost, base+"/v2/pre-recorded", create)
	if status != http.StatusTooManyRequests || header.Get("Retry-After") != "1" {
		t.Fatalf("second create under -max-concurrent-jobs 1: %d, Retry-After %q", status, header.Get("Retry-After"))
	}
	// Done after 300 ms, gone 400 ms later.
	deadline := time.Now().Add(5 * time.Second)
	sawDone := false
	for time.Now().Before(deadline) {
		status, _ := get(t, base+"/v2/pre-recorded/"+job.ID, "ci-key")
		if status == http.StatusNotFound {
			break
		}
		sawDone = sawDone || status == http.StatusOK
		time.Sleep(50 * time.Millisecond)
	}
	if status, _ := get(t, base+"/v2/pre-recorded/"+job.ID, "ci-key"); status != http.StatusNotFound || !sawDone {
		t.Fatalf("job after its retention: %d (seen before: %v)", status, sawDone)
	}

	status, _, body = send(t, http.MethodPut, base+"/_emulator/faults", `{"server_error_ratio":1,"server_error_status":502}`)
	if status != http.StatusOK {
		t.Fatalf("PUT faults: %d %s", status, body)
	}
	if status, _ := get(t, base+"/v2/live", "ci-key"); status != http.StatusBadGateway {
		t.Fatalf("GET under 100%% 502s: %d", status)
	}
	if status, _, _ := send(t, http.MethodDelete, base+"/_emulator/faults", ""); status != http.StatusOK {
		t.Fatalf("DELETE faults: %d", status)
	}

	status, body = get(t, base+"/_emulator/requests", "ci-key")
	if status != http.StatusOK || !strings.Contains(string(body), "token=REDACTED") || strings.Contains(string(body), "t0k3n") || strings.Contains(string(body), "ci-key") {
		t.Fatalf("requests listing: %d %s", status, body)
	}
	if status, _ := get(t, base+"/_emulator/stats", "wrong"); status != http.StatusUnauthorized {
		t.Fatalf("control with a wrong key: %d", status)
	}

	status, _, body = send(t, http.MethodPost, base+"/_emulator/down", `{"duration":"700ms"}`)
	if status != http.StatusAccepted {
		t.Fatalf("POST down: %d %s", status, body)
	}
	refused, back := false, false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !back; time.Sleep(20 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, base+"/v2/live", nil)
		req.Header.Set(client.ServiceKeyHeader, "ci-key")
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
		if err != nil {
			refused = refused || strings.Contains(err.Error(), "refused")
			continue
		}
		resp.Body.Close()
		back = refused && resp.StatusCode == http.StatusOK
	}
	if !refused || !back {
		t.Fatalf("outage: refused %v, back %v", refused, back)
	}
	stopped = true
	if err := stop(); err != nil {
		t.Fatalf("run: %v", err)
	}
	if logs := stderr.String(); strings.Contains(logs, "/v2/") {
		t.Fatalf("requests logged despite FAKESERVER_QUIET: %s", logs)
	}
}

// The log shows a request's query as the request listing does: a
// session's ?token= is not written out.
func TestLogRequestsRedactsQuery(t *testing.T) {
	var out strings.Builder
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) })
	logRequests(log.New(&out, "", 0), handler).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/live?limit=5&token=s3cret-session", nil))
	if got := out.String(); strings.Contains(got, "s3cret") || !strings.Contains(got, "GET /v2/live?limit=5&token=REDACTED 401") {
		t.Errorf("logged %q, want the token redacted and the limit kept", got)
	}
}

// The log says why a request was refused (the message, validation_errors
// and request_id of the error body, a URL quoted there without its query),
// that an injected fault chose an answer, and which job a create made.
func TestLogRequestsSaysWhy(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{APIKey: "k"})
	defer fake.Close()
	var out strings.Builder
	handler := logRequests(log.New(&out, "", 0), fake)
	post := func(body string) string {
		out.Reset()
		r := httptest.NewRequest(http.MethodPost, "/v2/pre-recorded", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set(client.ServiceKeyHeader, "k")
		handler.ServeHTTP(httptest.NewRecorder(), r)
		return out.String()
	}

	// Callback URLs refused in every form a token may take: in the query,
	// in the path, without a scheme.
	for _, callback := range []string{"https://hooks.example.com/x y?token=s3cret", "ftp://hooks.example.com/services/T0/B0/s3cret", "hooks.example.com/services/s3cret?token=s3cret"} {
		got := post(`{"audio_url":"https://example.com/a.wav","callback":true,"callback_config":{"url":"` + callback + `"},"model":"model-9"}`)
		for _, want := range []string{" 422: ", "(validation_errors: ", `model must be one of: model-1, model-3, model-fusion (got "model-9")`, "callback_config.url", "[request_id "} {
			if !strings.Contains(got, want) {
				t.Errorf("logged %q, want %q in it", got, want)
			}
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("logged %q: the callback URL's token", got)
		}
	}

	got := post(`{"audio_url":"https://example.com/a.wav"}`)
	if !regexp.MustCompile(`POST /v2/pre-recorded 201 job [0-9a-f-]{36} `).MatchString(got) {
		t.Errorf("logged %q, want the created job's id", got)
	}

	fake.SetFaults(fakeserver.Faults{RateLimitRatio: 1, RetryAfter: 1})
	if got := post(`{"audio_url":"https://example.com/a.wav"}`); !strings.Contains(got, " 429: too many requests") || !strings.Contains(got, "(injected: rate_limit_ratio)") {
		t.Errorf("logged %q, want the injected 429 said so", got)
	}
}

// An answer lost by fault injection is logged with what the client never
// received (a create's job, billed, to be found by its id), and listed as
// lost; a WebSocket closed at once is logged with why, not as a bare 101.
func TestLogRequestsSaysWhatWasLostOrClosed(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{APIKey: "k"})
	defer fake.Close()
	var out bytes.Buffer
	var mu sync.Mutex
	srv := httptest.NewServer(logRequests(log.New(lockedWriter{&mu, &out}, "", 0), fake))
	defer srv.Close()
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	logged := func() string {
		mu.Lock()
		defer mu.Unlock()
		return out.String()
	}

	fake.SetFaults(fakeserver.Faults{LostAnswerRatio: 1})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v2/pre-recorded", strings.NewReader(`{"audio_url":"https://example.com/a.wav"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(client.ServiceKeyHeader, "k")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the create was answered %s, want its answer lost", resp.Status)
	}
	fake.SetFaults(fakeserver.Faults{})
	line := regexp.MustCompile(`POST /v2/pre-recorded 201 job ([0-9a-f-]{36}), answer lost \(-lost-answer-ratio\) `).FindStringSubmatch(logged())
	if line == nil {
		t.Fatalf("logged %q, want the lost answer's job", logged())
	}
	if got := fake.JobCount(); got != 1 {
		t.Errorf("%d jobs stored, want the one made", got)
	}
	reqs := fake.Requests()
	if last := reqs[len(reqs)-1]; last.Status != http.StatusCreated || !last.AnswerLost {
		t.Errorf("listed %d, lost %v; want 201, lost", last.Status, last.AnswerLost)
	}

	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /v2/live/3fa85f64-5717-4562-b3fc-2c963f66afa6?token=t HTTP/1.1\r\nHost: x\r\n"+
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _ = io.ReadAll(conn) // the server closes it after its closing handshake's wait
	want := regexp.MustCompile(`GET /v2/live/\S+ 101, closed at once with 4405 \(live sessions are not emulated`)
	deadline := time.Now().Add(5 * time.Second)
	for !want.MatchString(logged()) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !want.MatchString(logged()) {
		t.Errorf("logged %q, want the socket's close and why", logged())
	}
}

// lockedWriter serializes writes to w, which the test reads as the server
// writes.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// The log gives the status a request was answered with, 200 for a body
// written without one, and says when it was answered nothing (a client
// that gave up while a latency fault held it), where it said 200.
func TestLogRequestsStatus(t *testing.T) {
	for want, handler := range map[string]http.HandlerFunc{
		" 404 ":       func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) },
		" 200 ":       func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("{}")) },
		" no answer ": func(http.ResponseWriter, *http.Request) {},
	} {
		var out strings.Builder
		logRequests(log.New(&out, "", 0), handler).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v2/live", nil))
		if !strings.Contains(out.String(), "GET /v2/live"+want) {
			t.Errorf("logged %q, want %q", out.String(), want)
		}
	}
}

// With -tls-cert and -tls-key it serves HTTPS, says so in its listening
// line, and gives https URLs (an upload's audio_url), which a client
// trusting the certificate uses. Only one of the two flags is refused.
func TestRunServesHTTPS(t *testing.T) {
	certFile, keyFile, pool := selfSignedCertificate(t)
	base, _, stop := start(t, []string{"-addr", "127.0.0.1:0", "-api-key", "k", "-quiet", "-tls-cert", certFile, "-tls-key", keyFile}, nil)
	defer func() {
		if err := stop(); err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("listening on %s, want https", base)
	}
	c, err := client.New(client.Config{BaseURL: base, APIKey: "k", HTTPClient: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}})
	if err != nil {
		t.Fatal(err)
	}
	recording := testutil.SilentWAV(1, 1, 8000)
	up, err := c.Upload(context.Background(), "a.wav", int64(len(recording)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(recording)), nil })
	if err != nil {
		t.Fatalf("upload over https: %v", err)
	}
	if !strings.HasPrefix(up.AudioURL, base+"/file/") {
		t.Errorf("audio_url %q, want one under %s", up.AudioURL, base)
	}

	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-tls-cert", certFile}, io.Discard, &stderr, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "-tls-cert and -tls-key go together") {
		t.Errorf("-tls-cert alone: %v, want refused", err)
	}
}

// selfSignedCertificate writes a certificate for 127.0.0.1 and its key to
// PEM files, and returns them with a pool that trusts the certificate.
func selfSignedCertificate(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fakeserver test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestRunStoppedWhileSeedingSaysNothingReady: a signal during startup (the
// seeding of many jobs takes seconds) ends run without the "listening"
// line, which a script waits for to take the server as ready.
func TestRunStoppedWhileSeedingSaysNothingReady(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"-addr", "127.0.0.1:0", "-api-key", "k", "-quiet"}, &stdout, &stderr, func(string) string { return "" }); err != nil {
		t.Fatalf("run: %v", err)
	}
	if strings.Contains(stdout.String(), "listening") {
		t.Errorf("stopped before listening, it said: %s", stdout.String())
	}
}

// TestRunNamesTheFlagOfAFaultOutOfRange: an error names the flag (or the
// variable) and says what it takes, on the command line and in the
// environment alike.
func TestRunNamesTheFlagOfAFaultOutOfRange(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{args: []string{"-latency", "2h"}, want: "-latency must be from 0 to 1h, not 2h"},
		{env: map[string]string{"FAKESERVER_LATENCY": "2h"}, want: "FAKESERVER_LATENCY (-latency) must be from 0 to 1h, not 2h"},
		{env: map[string]string{"FAKESERVER_LIVE_JOBS": "-1"}, want: "FAKESERVER_LIVE_JOBS (-live-jobs) must be from 0 to 1000000"},
		{env: map[string]string{"FAKESERVER_MAX_UPLOAD_MB": "0"}, want: "FAKESERVER_MAX_UPLOAD_MB (-max-upload-mb) must be from 1"},
		{env: map[string]string{"FAKESERVER_TLS_CERT": "c.pem"}, want: "FAKESERVER_TLS_CERT (-tls-cert) and -tls-key go together"},
		{env: map[string]string{"FAKESERVER_TLS_CERT": "missing-cert.pem", "FAKESERVER_TLS_KEY": "missing-key.pem"}, want: "FAKESERVER_TLS_CERT (-tls-cert) and FAKESERVER_TLS_KEY (-tls-key): open missing-cert.pem"},
		// The command line wins, and is named.
		{args: []string{"-live-jobs", "-2"}, env: map[string]string{"FAKESERVER_LIVE_JOBS": "3"}, want: "-live-jobs must be from 0"},
		{env: map[string]string{"FAKESERVER_RATE_LIMIT_RATIO": "0.7"}, args: []string{"-server-error-ratio", "0.6"}, want: "FAKESERVER_RATE_LIMIT_RATIO (-rate-limit-ratio), -server-error-ratio and -lost-answer-ratio add up to 1.3"},
		{args: []string{"-server-error-status", "404"}, want: "-server-error-status must be from 500 to 599, not 404"},
		{args: []string{"-rate-limit-ratio", "1.5"}, want: "-rate-limit-ratio must be from 0 to 1"},
		{args: []string{"-rate-limit-ratio", "0.6", "-server-error-ratio", "0.6"}, want: "add up to 1.2"},
		{args: []string{"-rate-limit-ratio", "0.7", "-server-error-ratio", "0.6"}, want: "add up to 1.3, more than 1"}, // not 1.2999999999999998
		{args: []string{"-lost-answer-ratio", "1.5"}, want: "-lost-answer-ratio must be from 0 to 1, not 1.5"},
		{args: []string{"-rate-limit-ratio", "0.5", "-lost-answer-ratio", "0.75"}, want: "-rate-limit-ratio, -server-error-ratio and -lost-answer-ratio add up to 1.25, more than 1"},
		{args: []string{"-retention", "3w"}, want: `invalid value "3w" for flag -retention: want a Go duration such as 30s, 10m or 504h (no days)`},
		{env: map[string]string{"FAKESERVER_RETENTION": "3w"}, want: `FAKESERVER_RETENTION="3w": want a Go duration`},
		// Its usage quoted without -help's quotes around the value's name.
		{env: map[string]string{"FAKESERVER_LATENCY": "5"}, want: "(-latency: duration added to every request"},
	} {
		var stdout, stderr testutil.SyncBuffer
		err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0"}, c.args...), &stdout, &stderr, func(name string) string { return c.env[name] })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v, want %q", c.args, c.env, err, c.want)
		}
	}
}

// Fault ratios that add up to 1 in decimals are taken, whatever floats make
// of their sum (0.34 + 0.56 + 0.1 is 1.0000000000000002).
func TestParseConfigTakesRatiosAddingUpToOne(t *testing.T) {
	args := []string{"-rate-limit-ratio", "0.34", "-server-error-ratio", "0.56", "-lost-answer-ratio", "0.1"}
	if _, err := parseConfig(args, io.Discard, func(string) string { return "" }); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// A go-installed build prints its version as a release does: 0.1.0.
func TestModuleVersion(t *testing.T) {
	for _, tc := range []struct{ recorded, want string }{
		{"v0.1.0", "0.1.0"},
		{"v0.2.0-rc.1", "0.2.0-rc.1"},
		{"(devel)", "devel"},
		{"", "devel"},
	} {
		if got := moduleVersion(&debug.BuildInfo{Main: debug.Module{Version: tc.recorded}}); got != tc.want {
			t.Errorf("recorded %q: %q, want %q", tc.recorded, got, tc.want)
		}
	}
	if got := moduleVersion(nil); got != "devel" {
		t.Errorf("no build information: %q", got)
	}
}
