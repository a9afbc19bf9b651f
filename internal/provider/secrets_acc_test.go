package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-version"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// Secrets must not leak, even with TF_LOG=TRACE: the API key (which the
// client sends in the client.ServiceKeyHeader header) nowhere, and the
// token of a signed callback URL not in what plan and apply print.

const (
	// secretAPIKey is distinctive, so any copy of it, whole or in part, is
	// found wherever it lands.
	secretAPIKey = "sk_live_Qx7Vampire9Lantern_4e1f0c2b"
	// secretKeyPart is a piece of it that a truncated or re-encoded copy
	// still holds.
	secretKeyPart = "Vampire9Lantern"
	// callbackToken signs the callback URL.
	callbackToken = "cbtok_Marmalade7Heron"
)

// headerValue finds what follows the name of an authentication header in
// a log line, in the forms loggers write it: name=value, "name": "value",
// name: value.
var headerValue = regexp.MustCompile(`(?i)(` + regexp.QuoteMeta(client.ServiceKeyHeader) + `|authorization|api[_-]?key)["']?\s*[:=]\s*\[?["']?([^"'\s,}\]]*)`)

// captured is everything a CLI run left behind, by name.
type captured map[string]string

func (c captured) add(name, content string) { c[name] = content }

func (c captured) addFile(t *testing.T, name, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	c[name] = string(data)
}

// names returns the names in order, those matching filter only.
func (c captured) names(filter func(string) bool) []string {
	var names []string
	for n := range c {
		if filter(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// TestAccSecrets_notInOutputLogsStateOrPlan runs plan, show, apply (through
// 429s and 503s), a refreshing plan, destroy, and an apply answered 401,
// with TF_LOG=TRACE and the provider as its own process, and searches all
// they wrote (standard output and error, the TF_LOG_PATH log, the state
// files, the saved plan as show -json renders it) for the secrets.
func TestAccSecrets_notInOutputLogsStateOrPlan(t *testing.T) {
	// Jobs long enough to be read while processing: a record without its
	// result logs its request_params, callback URL included, at TRACE.
	fs, url := acctest.FakeServer(t, fakeserver.Options{APIKey: secretAPIKey, ProcessingTime: 2 * time.Second})
	// Another service, which does not know the key: every request gets 401.
	_, otherURL := acctest.FakeServer(t, fakeserver.Options{APIKey: "some-other-key"})
	rcv, hooks := newCallbackReceiver(t)
	callbackURL := hooks + "/cb?token=" + callbackToken

	// The key comes from the environment, as the documentation advises:
	// a key written in the configuration is the configuration's to protect.
	config := acctest.JobConfig("secret", fmt.Sprintf(`audio_url = "https://example.com/secret.wav"
callback = true
callback_config = { url = %q }`, callbackURL)) + `
data "transcription_live_jobs" "recent" {
  limit = 5
}
`
	w := newCLIWorkspace(t, config, EnvAPIKey+"="+secretAPIKey, EnvBaseURL+"="+url, "TF_LOG=TRACE")
	logs := t.TempDir()
	out := captured{}
	run := func(name string, wantSuccess bool, env []string, args ...string) string {
		t.Helper()
		logPath := filepath.Join(logs, name+".log")
		stdout, stderr, err := w.run(append([]string{"TF_LOG_PATH=" + logPath}, env...), args...)
		out.add(name+" stdout", stdout)
		out.add(name+" stderr", stderr)
		out.addFile(t, name+" TF_LOG_PATH", logPath)
		if (err == nil) != wantSuccess {
			t.Fatalf("%s: error %v, want success %v\nstdout:\n%s\nstderr:\n%s", name, err, wantSuccess, stdout, stderr)
		}
		return stdout + stderr
	}

	run("plan", true, nil, "plan", "-input=false", "-no-color", "-out=tfplan")
	run("show plan", true, nil, "show", "-no-color", "tfplan")
	run("show -json plan", true, nil, "show", "-json", "tfplan")

	// The apply's calls go through rate limiting and unavailability. Its
	// requests are sequential, so seed 13 answers them the same way on every
	// run: the create gets 429 then 503 before it is accepted.
	fs.SetFaults(fakeserver.Faults{RateLimitRatio: 0.3, RetryAfter: 1, ServerErrorRatio: 0.3, ServerErrorStatus: http.StatusServiceUnavailable, Seed: 13})
	run("apply", true, nil, "apply", "-input=false", "-no-color", "tfplan")
	fs.SetFaults(fakeserver.Faults{})
	stats := fs.Stats()
	if stats.RateLimited == 0 || stats.ServerErrors == 0 {
		t.Fatalf("the apply met %d 429s and %d 503s, want some of each: the retry path is not exercised", stats.RateLimited, stats.ServerErrors)
	}
	out.addFile(t, "state", filepath.Join(w.dir, "terraform.tfstate"))
	run("show state", true, nil, "show", "-no-color")
	run("show -json state", true, nil, "show", "-json")
	// The job imported, as one made elsewhere would be: Terraform before
	// 1.16 and OpenTofu log each value a refresh fills in where there was
	// none, and show callback_config.url there.
	run("state rm", true, nil, "state", "rm", "-no-color", "transcription_job.secret")
	run("import", true, nil, "import", "-input=false", "-no-color", "transcription_job.secret", createdJobID(t, fs))
	run("refresh plan", true, nil, "plan", "-input=false", "-no-color")
	run("destroy", true, nil, "destroy", "-auto-approve", "-input=false", "-no-color")
	out.addFile(t, "state after destroy", filepath.Join(w.dir, "terraform.tfstate"))
	out.addFile(t, "state backup", filepath.Join(w.dir, "terraform.tfstate.backup"))

	failed := run("apply answered 401", false, []string{EnvBaseURL + "=" + otherURL}, "apply", "-auto-approve", "-input=false", "-no-color")
	if !acctest.ExpectError(`(?s)status 401 \(Unauthorized\).*Check the provider's api_key`).MatchString(failed) {
		t.Errorf("the apply against a service that refuses the key does not report the 401:\n%s", failed)
	}

	// The secrets were used: the service received the key (or nothing would
	// have been created) and called the signed URL back.
	fs.SettleJobs()
	if got := rcv.all(); len(got) != 1 || got[0].query != "token="+callbackToken {
		t.Errorf("callbacks received: %+v, want one to the signed URL", got)
	}
	// The capture works: the job's id is in the state, and the logs hold
	// the provider's request lines, retries and the 401 included.
	jobID := createdJobID(t, fs)
	if !strings.Contains(out["state"], jobID) {
		t.Fatalf("the state captured does not hold the job %q", jobID)
	}
	allLogs := ""
	for _, n := range out.names(func(n string) bool { return strings.HasSuffix(n, "TF_LOG_PATH") }) {
		allLogs += out[n]
	}
	for _, want := range []string{
		"transcription API request",
		"transcription API response",
		"transcription API: retrying",
		"status=429", "status=503", "status=401",
		`x-service-key=<masked>`,
		"@module=sdk.framework", // TF_LOG=TRACE keeps the framework's traces (SetLogLevelsFromCLI)
	} {
		if !strings.Contains(allLogs, want) {
			t.Errorf("the logs captured lack %q: they do not hold what the provider logs", want)
		}
	}

	// The API key: nowhere.
	total := 0
	for _, name := range out.names(func(string) bool { return true }) {
		text := out[name]
		total += len(text)
		for _, secret := range []string{secretAPIKey, secretKeyPart} {
			if i := strings.Index(text, secret); i >= 0 {
				t.Errorf("%s holds the API key (%q) at byte %d: …%s…", name, secret, i, around(text, i))
			}
		}
		for _, m := range headerValue.FindAllStringSubmatchIndex(text, -1) {
			// Masked values are "<masked>" (the client) or "***" (tflog).
			if value := text[m[4]:m[5]]; value != "" && value != "<masked>" && !strings.HasPrefix(value, "*") {
				t.Errorf("%s shows a value for %s: …%s…", name, text[m[2]:m[3]], around(text, m[0]))
				break
			}
		}
	}
	// The callback URL's token: not in what the commands printed, nor in
	// the logs (it is only in the state and the JSON plan, which hold
	// sensitive values by design).
	for _, name := range out.names(func(n string) bool { return !strings.Contains(n, "-json") && !strings.HasPrefix(n, "state") }) {
		if i := strings.Index(out[name], callbackToken); i >= 0 {
			t.Errorf("%s holds the callback URL's token: …%s…", name, around(out[name], i))
		}
	}
	if !strings.Contains(out["state"], callbackToken) {
		t.Error("the state lacks the callback token: the search for it proves nothing")
	}
	t.Logf("searched %d captures (%d KiB) for the API key, authentication headers and the callback token", len(out), total/1024)
}

// createdJobID is the id of the one job created on fs.
func createdJobID(t *testing.T, fs *fakeserver.Server) string {
	t.Helper()
	for _, r := range fs.Requests() {
		if id, ok := strings.CutPrefix(r.Path, "/v2/pre-recorded/"); ok && r.Method == http.MethodGet {
			return id
		}
	}
	t.Fatal("no job was read on the fake server")
	return ""
}

// around returns the text near byte i, for an error message.
func around(text string, i int) string {
	start, end := max(i-60, 0), min(i+60, len(text))
	return strings.ReplaceAll(text[start:end], "\n", "⏎")
}

// TestAccSecrets_ephemeralAPIKey: an api_key from an ephemeral variable
// (Terraform 1.10+, OpenTofu 1.11+) configures the provider for a plan saved
// to a file, its apply (given the variable again, as ephemeral variables
// must be) and destroy, and the key is in none of what they wrote: the saved
// plan (which keeps the values of other variables), the state, the output
// and the TRACE logs.
func TestAccSecrets_ephemeralAPIKey(t *testing.T) {
	engine, v := engineVersion(t)
	if minimum := map[string]string{"Terraform": "1.10.0", "OpenTofu": "1.11.0"}[engine]; minimum == "" ||
		v.Core().LessThan(version.Must(version.NewVersion(minimum))) {
		t.Skipf("ephemeral variables need Terraform 1.10 or OpenTofu 1.11; this engine is %s %s", engine, v)
	}
	fs, url := acctest.FakeServer(t, fakeserver.Options{APIKey: secretAPIKey, ProcessingTime: testAccProcessingTime})
	config := `
variable "api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

provider "transcription" {
  api_key = var.api_key
}

` + acctest.JobConfig("ephemeral", `audio_url = "https://example.com/ephemeral.wav"`) + `
data "transcription_live_jobs" "recent" {
  limit = 5
}
`
	w := newCLIWorkspace(t, config, EnvBaseURL+"="+url, "TF_VAR_api_key="+secretAPIKey, "TF_LOG=TRACE")
	logs := t.TempDir()
	out := captured{}
	run := func(name string, args ...string) {
		t.Helper()
		logPath := filepath.Join(logs, name+".log")
		stdout, stderr, err := w.run([]string{"TF_LOG_PATH=" + logPath}, args...)
		out.add(name+" stdout", stdout)
		out.add(name+" stderr", stderr)
		out.addFile(t, name+" TF_LOG_PATH", logPath)
		if err != nil {
			t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", name, err, stdout, stderr)
		}
	}
	run("plan", "plan", "-input=false", "-no-color", "-out=tfplan")
	out.addFile(t, "saved plan", filepath.Join(w.dir, "tfplan"))
	run("show -json plan", "show", "-json", "tfplan")
	run("apply", "apply", "-input=false", "-no-color", "tfplan")
	out.addFile(t, "state", filepath.Join(w.dir, "terraform.tfstate"))
	run("destroy", "destroy", "-auto-approve", "-input=false", "-no-color")

	// The key was used: the service, which knows no other, made the job.
	if n := fs.Stats().JobsCreated; n != 1 {
		t.Fatalf("%d jobs created, want 1: the key did not reach the service", n)
	}
	for _, name := range out.names(func(string) bool { return true }) {
		for _, secret := range []string{secretAPIKey, secretKeyPart} {
			if i := strings.Index(out[name], secret); i >= 0 {
				t.Errorf("%s holds the API key (%q) at byte %d: …%s…", name, secret, i, around(out[name], i))
			}
		}
	}
}

// TestAccSecrets_keyQuotedByTheServiceNotShown: a service, or a gateway
// before it, may quote the request it refuses, the x-service-key header
// included. The key the answer quotes reaches neither the diagnostic nor
// the logs, even cut short where the provider bounds what it quotes.
func TestAccSecrets_keyQuotedByTheServiceNotShown(t *testing.T) {
	answers := map[string]string{
		// The service's error body, its message cut short after the key's part
		// (messages are bounded to 512 bytes).
		"service": fmt.Sprintf(`{"statusCode":401,"message":"%s%s","request_id":"r-echo"}`, strings.Repeat("m", 512-len(secretAPIKey)+4), secretAPIKey),
		// A gateway's page quoting the request's headers.
		"gateway": "<html><pre>POST /v2/pre-recorded\n" + client.ServiceKeyHeader + ": " + secretAPIKey + "\n</pre></html>",
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get(client.ServiceKeyHeader) != secretAPIKey {
					t.Errorf("the request did not carry the key")
				}
				if strings.HasPrefix(answer, "{") {
					w.Header().Set("Content-Type", "application/json")
				}
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = io.WriteString(w, answer)
			}))
			t.Cleanup(srv.Close)
			w := newCLIWorkspace(t, acctest.JobConfig("echo", `audio_url = "https://example.com/a.wav"`),
				EnvAPIKey+"="+secretAPIKey, EnvBaseURL+"="+srv.URL, "TF_LOG=TRACE")
			logPath := filepath.Join(t.TempDir(), "trace.log")
			stdout, stderr, err := w.run([]string{"TF_LOG_PATH=" + logPath}, "apply", "-auto-approve", "-input=false", "-no-color")
			if err == nil {
				t.Fatal("the apply succeeded against a service answering 401")
			}
			if !acctest.ExpectError(`status 401 \(Unauthorized\)`).MatchString(stderr) {
				t.Fatalf("the apply does not report the 401:\n%s", stderr)
			}
			out := captured{"stdout": stdout, "stderr": stderr}
			out.addFile(t, "TF_LOG_PATH", logPath)
			if !strings.Contains(out["TF_LOG_PATH"], "transcription API response body") {
				t.Fatal("the log lacks the answer's body: the search proves nothing")
			}
			for _, n := range out.names(func(string) bool { return true }) {
				if i := strings.Index(out[n], secretKeyPart); i >= 0 {
					t.Errorf("%s holds the API key the service quoted: …%s…", n, around(out[n], i))
				}
			}
		})
	}
}

// TestAccSecrets_callbackURLQuotedByTheServiceNotShown: a service refusing a
// create may quote the request's callback URLs. Their tokens reach neither
// the diagnostic nor the logs: not where the provider cuts a long
// validation error short (a presigned URL is hundreds of bytes), nor where
// the service's JSON escapes the URL's "&" (Go's encoder) or "/".
func TestAccSecrets_callbackURLQuotedByTheServiceNotShown(t *testing.T) {
	hook := "https://hooks.example.com/cb?token=" + callbackToken + "&expires=" + strings.Repeat("9", 300)
	// The deprecated callback_url, sent beside it: the same URL without
	// its token, which must not unmask the longer one.
	bare := "https://hooks.example.com/cb"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req client.InitTranscriptionRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.CallbackConfig == nil {
			t.Errorf("the create carries no callback_config: %v", err)
			return
		}
		got := req.CallbackConfig.URL
		body, _ := json.Marshal(client.ErrorBody{StatusCode: 422, RequestID: "r-echo",
			Message:          fmt.Sprintf("callback_config.url %q is not reachable; callback_url %q is deprecated", got, *req.CallbackURL),
			ValidationErrors: []string{"callback_config.url " + got + " must answer 2xx"}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write(bytes.ReplaceAll(body, []byte("/"), []byte(`\/`)))
	}))
	t.Cleanup(srv.Close)
	config := fmt.Sprintf(`variable "hook" {
  type      = string
  sensitive = true
}
`+acctest.JobConfig("echo", `audio_url = "https://example.com/a.wav"
callback = true
callback_config = { url = var.hook }
callback_url = %q`), bare)
	w := newCLIWorkspace(t, config, EnvAPIKey+"="+secretAPIKey, EnvBaseURL+"="+srv.URL, "TF_LOG=TRACE", "TF_VAR_hook="+hook)
	logPath := filepath.Join(t.TempDir(), "trace.log")
	stdout, stderr, err := w.run([]string{"TF_LOG_PATH=" + logPath}, "apply", "-auto-approve", "-input=false", "-no-color")
	if err == nil {
		t.Fatal("the apply succeeded against a service answering 422")
	}
	if !acctest.ExpectError(`status 422 \(Unprocessable Entity\): callback_config.url "\*\*\*" is not reachable`).MatchString(stderr) {
		t.Fatalf("the apply does not report the 422 with the callback URL masked:\n%s", stderr)
	}
	out := captured{"stdout": stdout, "stderr": stderr}
	out.addFile(t, "TF_LOG_PATH", logPath)
	if !strings.Contains(out["TF_LOG_PATH"], "transcription API response body") {
		t.Fatal("the log lacks the answer's body: the search proves nothing")
	}
	for _, n := range out.names(func(string) bool { return true }) {
		if i := strings.Index(out[n], callbackToken); i >= 0 {
			t.Errorf("%s holds the callback URL's token, quoted by the service: …%s…", n, around(out[n], i))
		}
	}
}

// TestAccSecrets_presignedAudioURLNotInLogsOrShow: an audio_url taken from a
// sensitive variable (a presigned URL, whose signature is a credential) is
// hidden by Terraform in what it prints; the provider's TRACE log, which
// quotes the job records the service sends (their request_params.audio_url
// and file.source), must not show its signature or user information either.
func TestAccSecrets_presignedAudioURLNotInLogsOrShow(t *testing.T) {
	const signature, password = "Sig7Walrus3Quill", "Pw5Otter"
	_, url := acctest.FakeServer(t, fakeserver.Options{APIKey: secretAPIKey, ProcessingTime: time.Second})
	signed := "https://reader:" + password + "@media.example.com/bucket/a.wav?X-Amz-Credential=AKIA%2F20261124&X-Amz-Signature=" + signature
	config := `variable "signed" {
  type      = string
  sensitive = true
}
` + acctest.JobConfig("presigned", `audio_url = var.signed`) + `
# The same job read as a data source: its request_params.audio_url comes
# from the service, where Terraform knows nothing of the variable.
data "transcription_job" "presigned" {
  id = transcription_job.presigned.id
}
`
	w := newCLIWorkspace(t, config, EnvAPIKey+"="+secretAPIKey, EnvBaseURL+"="+url, "TF_LOG=TRACE", "TF_VAR_signed="+signed)
	logs := t.TempDir()
	out := captured{}
	for _, step := range []struct {
		name string
		args []string
	}{
		{"apply", []string{"apply", "-auto-approve", "-input=false", "-no-color"}},
		{"refresh plan", []string{"plan", "-input=false", "-no-color"}},
		// The state as people read it: audio_url is hidden, being sensitive,
		// and file.source, which the service's record fills, must not show
		// what Terraform hides.
		{"show", []string{"show", "-no-color"}},
	} {
		logPath := filepath.Join(logs, step.name+".log")
		stdout, stderr, err := w.run([]string{"TF_LOG_PATH=" + logPath}, step.args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", step.name, err, stderr)
		}
		out.add(step.name+" stdout", stdout)
		out.add(step.name+" stderr", stderr)
		out.addFile(t, step.name+" TF_LOG_PATH", logPath)
	}
	// The records were logged, with what locates the audio.
	if log := out["refresh plan TF_LOG_PATH"]; !strings.Contains(log, "transcription API response body") || !strings.Contains(log, "media.example.com/bucket/a.wav") {
		t.Fatal("the log lacks the job's record, or the audio's address: the search proves nothing")
	}
	if n := strings.Count(out["show stdout"], `"https://media.example.com/bucket/a.wav?…"`); n != 3 {
		t.Errorf("terraform show names the audio's file %d times, want 3 (the resource's and the data source's file.source, the data source's request_params.audio_url):\n%s", n, out["show stdout"])
	}
	for _, n := range out.names(func(string) bool { return true }) {
		for _, secret := range []string{signature, password} {
			if i := strings.Index(out[n], secret); i >= 0 {
				t.Errorf("%s holds the presigned audio_url's %q: …%s…", n, secret, around(out[n], i))
			}
		}
	}
}

// TestAccSecrets_presignedAudioURLQuotedByTheServiceNotShown: a service
// refusing a create may quote its audio_url ("cannot fetch ..."). Where the
// configuration takes it from a sensitive value, Terraform hides it; the
// diagnostic and the log must not show its signature or password either,
// but may say which file it was.
func TestAccSecrets_presignedAudioURLQuotedByTheServiceNotShown(t *testing.T) {
	const signature, password = "Sig7Walrus3Quill", "Pw5Otter"
	signed := "https://reader:" + password + "@media.example.com/bucket/a.wav?X-Amz-Credential=AKIA%2F20261124&X-Amz-Signature=" + signature
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req client.InitTranscriptionRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("decoding the create: %v", err)
		}
		body, _ := json.Marshal(client.ErrorBody{StatusCode: 422, RequestID: "r-echo",
			Message:          "cannot fetch the audio at " + req.AudioURL,
			ValidationErrors: []string{"audio_url " + req.AudioURL + " answered 403"}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	config := `variable "signed" {
  type      = string
  sensitive = true
}
` + acctest.JobConfig("presigned", `audio_url = var.signed`)
	w := newCLIWorkspace(t, config, EnvAPIKey+"="+secretAPIKey, EnvBaseURL+"="+srv.URL, "TF_LOG=TRACE", "TF_VAR_signed="+signed)
	logPath := filepath.Join(t.TempDir(), "trace.log")
	stdout, stderr, err := w.run([]string{"TF_LOG_PATH=" + logPath}, "apply", "-auto-approve", "-input=false", "-no-color")
	if err == nil {
		t.Fatal("the apply succeeded against a service answering 422")
	}
	if !acctest.ExpectError(`status 422 \(Unprocessable Entity\): cannot fetch the audio at https://\S*media.example.com/bucket/a.wav`).MatchString(stderr) {
		t.Fatalf("the apply does not report the 422 naming the file:\n%s", stderr)
	}
	out := captured{"stdout": stdout, "stderr": stderr}
	out.addFile(t, "TF_LOG_PATH", logPath)
	for _, n := range out.names(func(string) bool { return true }) {
		for _, secret := range []string{signature, password} {
			if i := strings.Index(out[n], secret); i >= 0 {
				t.Errorf("%s holds the presigned audio_url's %q, quoted by the service: …%s…", n, secret, around(out[n], i))
			}
		}
	}
}

// TestAccSecrets_literalNotQuotedByDiagnostics: the CLI prints the source
// line of an attribute a diagnostic names, value and all. A diagnostic about
// a sensitive argument written literally (the deprecation warning every run
// of a literal callback_url gets, the refusal of a malformed callback URL or
// API key) names the argument in its text and points at its block, so that
// the secret's line is not printed.
func TestAccSecrets_literalNotQuotedByDiagnostics(t *testing.T) {
	const token = "Tok3nW4lrus9"
	for _, c := range []struct {
		name, config, want string
		valid              bool
	}{
		{"deprecated callback_url", acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"
callback = true
callback_url = "https://hooks.example.net/services/T0123/B0456/`+token+`?sig=`+token+`"`), `(?s)Warning: Attribute Deprecated.*callback_url is deprecated`, true},
		{"malformed callback_config.url", acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"
callback = true
callback_config = { url = "hooks.example.net/cb?token=`+token+`" }`), `(?s)Error: Invalid URL.*Attribute callback_config.url value must be an absolute http or https URL`, false},
		{"malformed callback_url", acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"
callback = true
callback_url = "hooks.example.net/cb?token=`+token+`"`), `(?s)Error: Invalid URL.*Attribute callback_url value must be an absolute http or https URL`, false},
		// Terraform 1.16 prints an attribute's line even inside an object:
		// the one holding the URL too.
		{"bad callback_config.method beside the url", acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"
callback = true
callback_config = { url = "https://hooks.example.net/services/T0123/B0456/`+token+`", method = "post" }`), `(?s)Error: Invalid Attribute Value Match.*Attribute callback_config.method value must be one of`, false},
		// Warned of at the switch, whether written or left out.
		{"callback_config while callback is off", acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"
callback = false
callback_config = {
  url = "https://hooks.example.net/services/T0123/B0456/`+token+`?sig=`+token+`"
}`), `(?s)Warning: callback_config is ignored unless callback is true`, true},
		{"callback_config without callback", acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"
callback_config = { url = "https://hooks.example.net/services/T0123/B0456/`+token+`" }`), `(?s)Warning: callback_config is ignored unless callback is true`, true},
		// An empty key is no secret, but the line may hold one.
		{"empty api_key", `provider "transcription" {
  api_key = true ? "" : "sk_` + token + `"
}
` + acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"`), `(?s)Error: Invalid API key.*Attribute api_key: it is set to an empty string`, false},
		{"malformed api_key", `provider "transcription" {
  api_key = " sk_` + token + ` "
}
` + acctest.JobConfig("a", `audio_url = "https://example.com/a.wav"`), `(?s)Error: Invalid API key.*Attribute api_key`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newCLIWorkspace(t, c.config)
			stdout, stderr, err := w.run(nil, "validate", "-no-color")
			if (err == nil) != c.valid {
				t.Fatalf("validate: error %v, want valid %v\n%s%s", err, c.valid, stdout, stderr)
			}
			all := stdout + stderr
			if !acctest.ExpectError(c.want).MatchString(all) {
				t.Errorf("validate does not say %s:\n%s", c.want, all)
			}
			if i := strings.Index(all, token); i >= 0 {
				t.Errorf("validate quotes the secret: …%s…", around(all, i))
			}
		})
	}
}
