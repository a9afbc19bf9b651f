package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

func TestMakeWAV_header(t *testing.T) {
	wav := makeWAV(20, 16000)
	if len(wav) != 44+20*16000*2 {
		t.Fatalf("%d bytes, want a 44-byte header and 20 s of 16-bit mono samples", len(wav))
	}
	le := binary.LittleEndian
	if string(wav[0:4]) != "RIFF" || string(wav[8:16]) != "WAVEfmt " || string(wav[36:40]) != "data" {
		t.Fatalf("not a canonical PCM WAV header: %q", wav[:44])
	}
	if ch, rate, bits := le.Uint16(wav[22:24]), le.Uint32(wav[24:28]), le.Uint16(wav[34:36]); ch != 1 || rate != 16000 || bits != 16 {
		t.Errorf("channels %d, rate %d, bits %d; want 1, 16000, 16", ch, rate, bits)
	}
	if int(le.Uint32(wav[40:44])) != len(wav)-44 || int(le.Uint32(wav[4:8])) != len(wav)-8 {
		t.Error("chunk sizes do not match the file")
	}
}

func TestLineFilter_keepsProgressOnly(t *testing.T) {
	var out bytes.Buffer
	f := &lineFilter{w: &out, keep: progressLine}
	for _, chunk := range []string{
		"Terraform will perform the following actions:\n  # transcription_job.a will be created\n",
		"transcription_job.a: Creat", "ing...\n",
		"Plan: 1 to add, 0 to change, 0 to destroy.\n\n",
		"data.transcription_live_jobs.recent: Reading...\nApply complete! Resources: 1 added",
	} {
		if _, err := f.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	f.Flush()
	want := "transcription_job.a: Creating...\nPlan: 1 to add, 0 to change, 0 to destroy.\n" +
		"data.transcription_live_jobs.recent: Reading...\nApply complete! Resources: 1 added\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// An unterminated last line is shown only if it is progress, as any other.
func TestLineFilter_flushKeepsOnlyProgress(t *testing.T) {
	for _, c := range []struct{ last, want string }{
		{"Destroy complete! Resources: 2 destroyed.", "Destroy complete! Resources: 2 destroyed.\n"},
		{"Terraform has compared your real infrastructure", ""},
	} {
		var out bytes.Buffer
		f := &lineFilter{w: &out, keep: progressLine}
		if _, err := f.Write([]byte(c.last)); err != nil {
			t.Fatal(err)
		}
		if out.Len() != 0 {
			t.Fatalf("%q written before Flush: the line may go on", out.String())
		}
		f.Flush()
		if out.String() != c.want {
			t.Errorf("Flush of %q wrote %q, want %q", c.last, out.String(), c.want)
		}
	}
}

// failingWriter fails every write, counting them.
type failingWriter struct{ writes int }

func (f *failingWriter) Write([]byte) (int, error) {
	f.writes++
	return 0, errors.New("broken pipe")
}

// dropOnError reports every write as done, so that the CLI writing through
// it goes on, and stops writing to its writer after the first failure.
func TestDropOnError_stopsAtTheFirstFailure(t *testing.T) {
	w := &failingWriter{}
	d := &dropOnError{w: w}
	for _, line := range []string{"first\n", "second\n", "third\n"} {
		if n, err := d.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", line, n, err, len(line))
		}
	}
	if w.writes != 1 {
		t.Errorf("%d writes reached the failed writer, want 1", w.writes)
	}
}

// copyConfig copies the configuration, each .tf file under its name, and
// nothing else: no state, lock file or notes beside it.
func TestCopyConfig_tfFilesOnly(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	files := map[string]string{
		"main.tf":             "resource \"a\" \"b\" {}\n",
		"outputs.tf":          "output \"c\" { value = 1 }\n",
		"terraform.tfstate":   "{}",
		".terraform.lock.hcl": "# lock\n",
		"README.md":           "notes\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := copyConfig(src, dst); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dst)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "main.tf outputs.tf" {
		t.Fatalf("copied %v, want main.tf and outputs.tf", names)
	}
	for _, name := range names {
		if data, err := os.ReadFile(filepath.Join(dst, name)); err != nil || string(data) != files[name] {
			t.Errorf("%s holds %q (%v), want %q", name, data, err, files[name])
		}
	}
}

// The recording is a few notes, not silence: the pitch changes after half
// a second (C to E: about 262 then 330 zero crossings).
func TestMakeWAV_notes(t *testing.T) {
	const rate = 16000
	data := makeWAV(1, rate)[44:]
	crossings := func(pcm []byte) int {
		n := 0
		for i := 2; i+1 < len(pcm); i += 2 {
			prev, cur := int16(binary.LittleEndian.Uint16(pcm[i-2:])), int16(binary.LittleEndian.Uint16(pcm[i:]))
			if (prev < 0) != (cur < 0) {
				n++
			}
		}
		return n
	}
	first, second := crossings(data[:rate]), crossings(data[rate:])
	if first < 200 || second < first+40 {
		t.Errorf("zero crossings: %d in the first half second, %d in the next; want a note, then a higher one", first, second)
	}
}

// The acceptance tests run the demo with the CLI of TF_ACC_TERRAFORM_PATH
// (Terraform or OpenTofu) and a provider built for them.

var built struct {
	once sync.Once
	dir  string
	err  error
}

// demoOptions returns options running the demo against fake, in a
// temporary root that the test checks is empty afterwards.
func demoOptions(t *testing.T, fake *fakeserver.Server) (options, *testutil.SyncBuffer, string) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 and TF_ACC_TERRAFORM_PATH")
	}
	cli := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if cli == "" {
		t.Skip("TF_ACC_TERRAFORM_PATH names no CLI")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "demo-test-provider-") //nolint:usetesting // shared by the tests, removed by TestMain
		if built.err == nil {
			_, built.err = tfcli.BuildProvider(context.Background(), built.dir)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	root, err := tfcli.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := &testutil.SyncBuffer{}
	tempRoot := t.TempDir()
	return options{
		Terraform:   cli,
		ProviderDir: built.dir,
		Example:     filepath.Join(root, "examples", "demo"),
		TempRoot:    tempRoot,
		Server:      fake,
		Out:         out,
		Err:         out,
	}, out, tempRoot
}

// runMainEnv makes the test binary the demo's command: TestMain runs main
// instead of the tests, so that a test can run the demo as `make demo` does
// and see its exit code, its two output streams and how it takes signals.
const runMainEnv = "DEMO_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main() // exits 1 itself on failure
		os.Exit(0)
	}
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func newDemoServer(t *testing.T, processing time.Duration) *fakeserver.Server {
	t.Helper()
	fake := fakeserver.New(fakeserver.Options{APIKey: demoKey, ProcessingTime: processing, LiveJobs: 12})
	t.Cleanup(fake.Close)
	return fake
}

// expectCleanedUp checks that the demo left nothing behind: no working
// folder, no job on the service, no server listening.
func expectCleanedUp(t *testing.T, out *testutil.SyncBuffer, tempRoot string, fake *fakeserver.Server) {
	t.Helper()
	entries, err := os.ReadDir(tempRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("the working folder was not removed: %s holds %v", tempRoot, entries)
	}
	if n := fake.JobCount(); n != 0 {
		t.Errorf("%d jobs left on the service, want none", n)
	}
	m := regexp.MustCompile(`listening on http://(\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("the demo did not say where it listened:\n%s", out)
	}
	if conn, err := net.DialTimeout("tcp", m[1], time.Second); err == nil {
		conn.Close()
		t.Errorf("something still listens on %s", m[1])
	}
}

func countRequests(fake *fakeserver.Server, method, path string) int {
	n := 0
	for _, r := range fake.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func TestAccDemo_success(t *testing.T) {
	fake := newDemoServer(t, time.Second)
	o, out, tempRoot := demoOptions(t, fake)
	if err := run(t.Context(), o); err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	text := out.String()
	for _, want := range []string{
		"interview.wav: 20.0 s, 1 channel(s), 640044 bytes", // the service read the generated WAV
		"== transcript\n",
		"== subtitles (SRT)\n1\n00:00:",
		"== summary\n- ",
		"== recent live jobs\nlive job ",
		"Apply complete! Resources: 2 added",
		"== destroying the demo's resources\n",
		"Destroy complete! Resources: 2 destroyed.",
		"== fake transcription service stopped\n",
		"removed " + tempRoot,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	// Each section ends with its text and one blank line, the subtitles'
	// own trailing blank line left out.
	if !regexp.MustCompile(`\S\n\n== summary\n`).MatchString(text) {
		t.Errorf("the subtitles are not followed by one blank line:\n%s", text)
	}
	if strings.Contains(text, "will be created") {
		t.Errorf("the plan was printed without -verbose:\n%s", text)
	}
	if s := fake.Stats(); s.JobsCreated != 1 || countRequests(fake, http.MethodPost, "/v2/upload") != 1 {
		t.Errorf("%d jobs created and %d uploads, want one each", s.JobsCreated, countRequests(fake, http.MethodPost, "/v2/upload"))
	}
	expectCleanedUp(t, out, tempRoot, fake)
}

// TestAccDemo_workspaceInTheEnvironment: a TF_WORKSPACE the user exported
// (for their own configurations) does not move the demo's state away from
// where the demo looks for it: what the apply made is destroyed.
func TestAccDemo_workspaceInTheEnvironment(t *testing.T) {
	t.Setenv("TF_WORKSPACE", "ci")
	fake := newDemoServer(t, 200*time.Millisecond)
	o, out, tempRoot := demoOptions(t, fake)
	if err := run(t.Context(), o); err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	if text := out.String(); !strings.Contains(text, "Destroy complete! Resources: 2 destroyed.") {
		t.Errorf("the output lacks the destroy:\n%s", text)
	}
	expectCleanedUp(t, out, tempRoot, fake)
}

// TestAccDemo_failedApply: a job that ends in error fails the apply; the
// demo still destroys what was created and removes everything.
func TestAccDemo_failedApply(t *testing.T) {
	fake := newDemoServer(t, 200*time.Millisecond)
	o, out, tempRoot := demoOptions(t, fake)
	example := t.TempDir()
	config := `
terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

variable "recording" {
  type = string
}

resource "transcription_upload" "interview" {
  source = var.recording
}

resource "transcription_job" "broken" {
  audio_url = "https://media.example.com/fail-500.wav?from=${transcription_upload.interview.audio_metadata.id}"
}
`
	if err := os.WriteFile(filepath.Join(example, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	o.Example = example
	err := run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "apply") {
		t.Fatalf("err = %v, want the apply's failure\n%s", err, out)
	}
	if fake.Stats().JobsCreated != 1 {
		t.Errorf("%d jobs created, want 1", fake.Stats().JobsCreated)
	}
	if !strings.Contains(out.String(), "Destroy complete!") {
		t.Errorf("no destroy after the failure:\n%s", out)
	}
	expectCleanedUp(t, out, tempRoot, fake)
}

// TestAccDemo_failedDestroy: a destroy that fails (here refused by
// prevent_destroy) fails the demo, naming the destroy, with the CLI's error
// on the error stream; the demo still stops the server and removes its
// working folder.
func TestAccDemo_failedDestroy(t *testing.T) {
	fake := newDemoServer(t, 200*time.Millisecond)
	o, out, tempRoot := demoOptions(t, fake)
	const upload = "resource \"transcription_upload\" \"interview\" {\n"
	useExampleWith(t, &o, upload, upload+"  lifecycle {\n    prevent_destroy = true\n  }\n")
	errOut := &testutil.SyncBuffer{}
	o.Err = errOut
	err := run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "destroy") {
		t.Fatalf("err = %v, want the destroy's failure\n%s", err, out)
	}
	if !strings.Contains(errOut.String(), "cannot be destroyed") {
		t.Errorf("the CLI's error is not on the error stream:\n%s\nout:\n%s", errOut, out)
	}
	if entries, _ := os.ReadDir(tempRoot); len(entries) != 0 {
		t.Errorf("the working folder was not removed: %v", entries)
	}
	if !strings.Contains(out.String(), "== fake transcription service stopped") {
		t.Errorf("the server was not stopped:\n%s", out)
	}
}

// TestAccDemo_failedOutput: an output the CLI cannot print (-raw of a
// null) fails the demo, naming it, rather than showing an empty section;
// the demo still destroys what it made and cleans up.
func TestAccDemo_failedOutput(t *testing.T) {
	fake := newDemoServer(t, 200*time.Millisecond)
	o, out, tempRoot := demoOptions(t, fake)
	useExampleWith(t, &o, "value = transcription_job.interview.result.summarization.results", "value = null")
	err := run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "output -raw -no-color summary") {
		t.Fatalf("err = %v, want the summary output's failure\n%s", err, out)
	}
	if strings.Contains(out.String(), "== summary") || !strings.Contains(out.String(), "Destroy complete! Resources: 2 destroyed.") {
		t.Errorf("want no summary section, and a destroy:\n%s", out)
	}
	expectCleanedUp(t, out, tempRoot, fake)
}

// useExampleWith has o apply a copy of examples/demo with old replaced by
// replacement in its main.tf.
func useExampleWith(t *testing.T, o *options, old, replacement string) {
	t.Helper()
	config, err := os.ReadFile(filepath.Join(o.Example, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(config), old) != 1 {
		t.Fatalf("examples/demo/main.tf does not hold %q once", old)
	}
	example := t.TempDir()
	if err := os.WriteFile(filepath.Join(example, "main.tf"), []byte(strings.Replace(string(config), old, replacement, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	o.Example = example
}

// TestAccDemo_interrupted cancels the demo, as Ctrl-C does, while the apply
// waits for the job: the CLI is interrupted, the demo destroys the job,
// stops the server and removes its working folder.
func TestAccDemo_interrupted(t *testing.T) {
	fake := newDemoServer(t, 6*time.Second)
	o, out, tempRoot := demoOptions(t, fake)
	o.Verbose = os.Getenv("DEMO_VERBOSE") != ""
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if fake.Stats().JobsCreated > 0 {
				time.Sleep(300 * time.Millisecond) // the CLI is waiting for the job
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	start := time.Now()
	err := run(ctx, o)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v, want an interruption\n%s", err, out)
	}
	if fake.Stats().JobsCreated != 1 {
		t.Fatalf("%d jobs created, want 1: the interruption did not come mid-apply\n%s", fake.Stats().JobsCreated, out)
	}
	if strings.Contains(out.String(), "Apply complete!") {
		t.Errorf("the apply completed despite the interruption:\n%s", out)
	}
	if !strings.Contains(out.String(), "(interrupted: cleaning up, please wait; Ctrl-C again skips the destroy)\n") || !strings.Contains(out.String(), "Destroy complete!") {
		t.Errorf("no destroy, said to be cleaning up, after the interruption:\n%s", out)
	}
	if !deletedAJob(fake) {
		t.Errorf("the job was never deleted")
	}
	t.Logf("interrupted demo cleaned up in %s", time.Since(start).Round(100*time.Millisecond))
	expectCleanedUp(t, out, tempRoot, fake)
}

func deletedAJob(fake *fakeserver.Server) bool {
	for _, r := range fake.Requests() {
		if r.Method == http.MethodDelete && r.Status == http.StatusAccepted {
			return true
		}
	}
	return false
}

// TestRun_missingProvider fails early, with a hint, and leaves nothing.
func TestRun_missingProvider(t *testing.T) {
	tempRoot := t.TempDir()
	cli, err := os.Executable() // any executable will do: it is not run
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = run(t.Context(), options{Terraform: cli, ProviderDir: t.TempDir(), Example: "../../examples/demo", TempRoot: tempRoot, Out: &out, Err: &out})
	if err == nil || !strings.Contains(err.Error(), "make build") {
		t.Fatalf("err = %v, want a hint to build the provider", err)
	}
	if entries, _ := os.ReadDir(tempRoot); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}

// TestRun_missingCLI fails early and leaves nothing.
func TestRun_missingCLI(t *testing.T) {
	tempRoot := t.TempDir()
	var out bytes.Buffer
	err := run(t.Context(), options{Terraform: filepath.Join(t.TempDir(), "terraform"), ProviderDir: t.TempDir(), Example: "../../examples/demo", TempRoot: tempRoot, Out: &out, Err: &out})
	if err == nil || !strings.Contains(err.Error(), "no Terraform or OpenTofu CLI") {
		t.Fatalf("err = %v, want the CLI named missing", err)
	}
	if entries, _ := os.ReadDir(tempRoot); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}
