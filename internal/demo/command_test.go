//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/testutil"
	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

// leaderEnv has the test binary, run as the CLI by runCLI, say whether it
// leads a process group of its own, and exit.
const leaderEnv = "DEMO_TEST_PRINT_GROUP_LEADER"

func init() {
	if os.Getenv(leaderEnv) == "1" {
		fmt.Print(syscall.Getpgrp() == os.Getpid())
		os.Exit(0)
	}
}

// The CLI runs in a process group of its own, out of reach of the
// terminal's Ctrl-C: the demo interrupts it once, where a second interrupt
// would have it exit at once without saving its state.
func TestRunCLI_ownProcessGroup(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cli := &tfcli.CLI{Path: exe, Env: append(os.Environ(), leaderEnv+"=1"), Stdout: &out}
	if err := runCLI(t.Context(), cli); err != nil {
		t.Fatal(err)
	}
	if out.String() != "true" {
		t.Errorf("the CLI leads its own process group: %q, want true", out.String())
	}
}

// These tests run the demo's command, main (see runMainEnv), in a process
// of its own: its flags, exit code, output streams and signals.

// commandBound only stops a demo that hangs, so that the test fails instead
// of the package timing out; no demo here takes a tenth of it.
const commandBound = 5 * time.Minute

// demoCommand returns the demo's command with args, and the folder it makes
// its working folder in (its TMPDIR).
func demoCommand(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), commandBound)
	t.Cleanup(cancel)
	tmp := t.TempDir()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "TMPDIR="+tmp)
	return cmd, tmp
}

// expectNoWorkingFolder fails when the demo left its working folder in tmp.
func expectNoWorkingFolder(t *testing.T, tmp string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(tmp, "transcription-demo-*")); len(left) != 0 {
		t.Errorf("the working folder was not removed: %v", left)
	}
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if exit != nil {
		return exit.ExitCode() // -1 when killed by a signal
	}
	return 0
}

// A demo that cannot run says why on the error stream, prefixed "demo:",
// and exits 1; once it has started the server it stops it and removes its
// working folder first.
func TestCommand_failureExitsOne(t *testing.T) {
	providerDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(providerDir, tfcli.ProviderBinary), nil, 0o700); err != nil {
		t.Fatal(err)
	}
	stand, err := exec.LookPath("false") // not run: the demo fails before
	if err != nil {
		t.Skip("no false command")
	}
	emptyExample := t.TempDir()
	missingCLI := filepath.Join(t.TempDir(), "terraform")
	for _, c := range []struct {
		name       string
		args       []string
		wantErr    string
		wantOut    []string
		notStarted bool
	}{
		{"missing CLI", []string{"-terraform", missingCLI, "-provider-dir", providerDir},
			"demo: no Terraform or OpenTofu CLI: exec: \"" + missingCLI + "\":", nil, true},
		{"empty example", []string{"-terraform", stand, "-provider-dir", providerDir, "-example", emptyExample},
			"demo: no .tf file in " + emptyExample + "\n",
			[]string{"fake transcription service listening on http://127.0.0.1:", "== fake transcription service stopped\n", "removed "}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, tmp := demoCommand(t, c.args...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if code := exitCode(t, cmd.Run()); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if !strings.HasPrefix(stderr.String(), c.wantErr) {
				t.Errorf("error stream %q, want it to begin with %q", stderr.String(), c.wantErr)
			}
			for _, want := range c.wantOut {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("the output lacks %q:\n%s", want, stdout.String())
				}
			}
			if c.notStarted && stdout.Len() != 0 {
				t.Errorf("output before the check failed:\n%s", stdout.String())
			}
			expectNoWorkingFolder(t, tmp)
		})
	}
}

// acceptanceArgs returns the demo's flags for the CLI and provider of the
// acceptance tests.
func acceptanceArgs(t *testing.T, extra ...string) []string {
	t.Helper()
	o, _, _ := demoOptions(t, nil)
	return append([]string{"-terraform", o.Terraform, "-provider-dir", o.ProviderDir, "-example", o.Example}, extra...)
}

// `make demo` as a newcomer runs it: from the module's root, with the CLI
// and the provider's folder given relative to it, the example by default;
// -verbose shows the plan. The live-jobs table lists the service's jobs.
func TestAccCommand_verboseFromTheModuleRoot(t *testing.T) {
	o, _, _ := demoOptions(t, nil)
	root, err := tfcli.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	relative := func(path string) string {
		abs, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || filepath.IsAbs(rel) {
			t.Fatalf("%s has no path relative to %s: %v", path, root, err)
		}
		if !strings.Contains(rel, string(filepath.Separator)) {
			rel = "." + string(filepath.Separator) + rel // a path, not a name to look up in PATH
		}
		return rel
	}
	cli, err := exec.LookPath(o.Terraform) // TF_ACC_TERRAFORM_PATH may name a command
	if err != nil {
		t.Fatal(err)
	}
	cmd, tmp := demoCommand(t, "-terraform", relative(cli), "-provider-dir", relative(o.ProviderDir), "-processing-time", "100ms", "-verbose")
	cmd.Dir = root
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, stderr.String(), stdout.String())
	}
	text := stdout.String()
	for _, want := range []string{"transcription_job.interview will be created", "Destroy complete! Resources: 2 destroyed.", "removed "} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	if !regexp.MustCompile(`== recent live jobs\nlive job +status +created at\n\S+ +(done|error) +\d{4}-`).MatchString(text) {
		t.Errorf("the live-jobs table lists no job:\n%s", text)
	}
	expectNoWorkingFolder(t, tmp)
}

// `make demo | head`: a reader that goes away before the end neither kills
// the demo nor the CLI; the demo completes and cleans up.
func TestAccCommand_readerGoneAway(t *testing.T) {
	cmd, tmp := demoCommand(t, acceptanceArgs(t, "-processing-time", "100ms")...)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // gone before the first line
	defer w.Close()
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = w, &stderr
	if code := exitCode(t, cmd.Run()); code != 0 {
		t.Errorf("exit code %d, want 0 (-1: killed by a signal)\n%s", code, stderr.String())
	}
	expectNoWorkingFolder(t, tmp)
}

// Ctrl-C in a terminal signals the whole foreground process group: the
// demo, which interrupts the CLI once and cleans up, and exits 1 saying it
// was interrupted. So does a terminal closed (SIGHUP): the CLI, in a process
// group of its own, would not hear it, and the demo left it running with
// the working folder. The fake service takes -processing-time per job, as
// its control interface shows.
func TestAccCommand_ctrlC(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) { testInterrupt(t, sig, false) })
	}
}

// TestAccCommand_ctrlCTwice: a second Ctrl-C skips the cleanup's destroy,
// which waits for a job still processing (up to destroyTimeout): the demo
// ends at once, its working folder removed.
func TestAccCommand_ctrlCTwice(t *testing.T) {
	testInterrupt(t, syscall.SIGINT, true)
}

func testInterrupt(t *testing.T, sig syscall.Signal, again bool) {
	processing := "5s"
	if again {
		processing = "10m" // the destroy would wait for the job
	}
	cmd, tmp := demoCommand(t, acceptanceArgs(t, "-processing-time", processing)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the group a terminal would signal
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	listening := regexp.MustCompile(`listening on (http://\S+)`)
	signalled := false
	var signalledAgain time.Time
	for lines := bufio.NewScanner(stdout); lines.Scan(); {
		line := lines.Text()
		out.WriteString(line + "\n")
		if m := listening.FindStringSubmatch(line); m != nil {
			expectProcessingTime(t, m[1], map[string]string{"5s": "5s", "10m": "10m0s"}[processing])
		}
		if again && signalledAgain.IsZero() && strings.HasPrefix(line, "transcription_job.interview: Destroying...") {
			if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
				t.Fatal(err)
			}
			signalledAgain = time.Now()
		}
		// The job is being made: interrupt then. Before or after the
		// service has answered, the demo cleans up the same way. For a
		// second interrupt, once the job exists and is waited for.
		interruptAt := "transcription_job.interview: Creating..."
		if again {
			interruptAt = "transcription_job.interview: Still creating..."
		}
		if !signalled && strings.HasPrefix(line, interruptAt) {
			if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
				t.Fatal(err)
			}
			signalled = true
		}
	}
	code := exitCode(t, cmd.Wait())
	if !signalled {
		t.Fatalf("the job was never created:\n%s\n%s", out.String(), stderr)
	}
	// The CLI's errors come first, then the demo's.
	if code != 1 || !strings.Contains(stderr.String(), "\ndemo: interrupted\n") {
		t.Errorf("exit code %d, error stream %q; want 1, ending with \"demo: interrupted\" (-1: killed by the signal)", code, stderr)
	}
	wants := []string{"(interrupted: cleaning up, please wait; Ctrl-C again skips the destroy)\n", "Destroy complete!", "removed "}
	if again {
		if signalledAgain.IsZero() {
			t.Fatalf("the destroy never started:\n%s\n%s", out.String(), stderr)
		}
		// Well before destroyTimeout, which the job would have taken.
		if waited := time.Since(signalledAgain); waited > destroyTimeout/2 {
			t.Errorf("the demo ended %s after the second Ctrl-C, want it to skip the destroy", waited)
		}
		wants = slices.DeleteFunc(wants, func(w string) bool { return w == "Destroy complete!" })
	}
	for _, want := range wants {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	expectNoWorkingFolder(t, tmp)
}

// expectProcessingTime asks the fake service at base for its settings.
func expectProcessingTime(t *testing.T, base, want string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+fakeserver.ControlPrefix, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(client.ServiceKeyHeader, demoKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("the fake service's settings: %v", err)
		return
	}
	defer resp.Body.Close()
	var index struct {
		Settings struct {
			ProcessingTime string `json:"processing_time"`
		} `json:"settings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&index); err != nil || index.Settings.ProcessingTime != want {
		t.Errorf("the fake service's processing time: %q (%v), want %q", index.Settings.ProcessingTime, err, want)
	}
}
