//go:build unix

package provider

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// TestAccProcess_sigtermToProcessGroupWhileWaiting sends SIGTERM to the
// CLI's whole process group (a service manager's default, a CI runner
// cancelling a job, kill -TERM -- -PGID) while an apply waits for a job:
// Terraform stops gracefully, as for SIGINT, and so does the provider,
// which ignores the signal, so the job the service created is in state,
// tainted, where the provider died at once and the job was lost.
func TestAccProcess_sigtermToProcessGroupWhileWaiting(t *testing.T) {
	fs, url, _ := acctest.HeldFakeServer(t)
	w := newCLIWorkspace(t, acctest.ProviderConfig(url)+acctest.JobConfig("term", `audio_url = "https://example.com/term.wav"`))
	var stdout, stderr bytes.Buffer
	cmd := applyInProcessGroup(t, w, fs, &stdout, &stderr)
	sigtermStopsApply(t, cmd, &stdout)
	expectOneJobTainted(t, w, fs, "transcription_job.term", &stdout, &stderr)
}

// sigtermStopsApply sends SIGTERM to the process group cmd leads and
// waits for the apply to fail.
func sigtermStopsApply(t *testing.T, cmd *exec.Cmd, stdout *bytes.Buffer) {
	t.Helper()
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Errorf("the apply stopped by SIGTERM succeeded\n%s", stdout)
	}
}

// expectOneJobTainted checks that the service has one job and that state
// holds it at address, tainted.
func expectOneJobTainted(t *testing.T, w *cliWorkspace, fs *fakeserver.Server, address string, stdout, stderr *bytes.Buffer) {
	t.Helper()
	ids, statuses := w.stateJobs()
	if _, onService := fs.Job(ids[address]); fs.JobCount() != 1 || !onService || statuses[address] != "tainted" {
		t.Errorf("the service has %d jobs, state holds %v (%v): want the service's job, tainted\n%s%s", fs.JobCount(), ids, statuses, stdout, stderr)
	}
}

// TestAccProcess_sigtermToProcessGroupWhileCreating sends SIGTERM to the
// CLI's process group while a create's answer is on its way, for longer
// than the provider's grace (main.go's sigtermGrace): the provider lives on
// until that answer, so the job the service created is in state, tainted,
// where it exited after its grace and the job was lost.
func TestAccProcess_sigtermToProcessGroupWhileCreating(t *testing.T) {
	fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey, ProcessingTime: time.Hour})
	t.Cleanup(fs.Close)
	var arrived atomic.Bool
	slowCreates := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v2/pre-recorded" {
			fs.ServeHTTP(w, r)
			return
		}
		// The job is made; its answer comes past the grace.
		made := httptest.NewRecorder()
		fs.ServeHTTP(made, r)
		arrived.Store(true)
		time.Sleep(13 * time.Second)
		maps.Copy(w.Header(), made.Header())
		w.WriteHeader(made.Code)
		_, _ = w.Write(made.Body.Bytes())
	}))
	t.Cleanup(slowCreates.Close)
	w := newCLIWorkspace(t, acctest.ProviderConfig(slowCreates.URL)+acctest.JobConfig("late", `audio_url = "https://example.com/late.wav"`))
	var stdout, stderr bytes.Buffer
	cmd := startApplyInProcessGroup(t, w, arrived.Load, "the create", &stdout, &stderr)
	sigtermStopsApply(t, cmd, &stdout)
	expectOneJobTainted(t, w, fs, "transcription_job.late", &stdout, &stderr)
}

// TestAccProcess_signalWhileRefreshing: SIGINT (a terminal's Ctrl-C) or
// SIGTERM to the process group while an apply's refresh waits in a data
// source stops the wait, whose error the CLI shows, also on Terraform 1.8
// and OpenTofu, which send the provider no stop while an apply plans: the
// wait ran on until timeouts.read (an hour) under SIGINT, which go-plugin
// ignores, and under SIGTERM until the provider exited after its grace,
// with "Plugin did not respond".
func TestAccProcess_signalWhileRefreshing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			fs, url, _ := acctest.HeldFakeServer(t)
			c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey})
			if err != nil {
				t.Fatal(err)
			}
			job, err := c.CreatePreRecorded(context.Background(), &client.InitTranscriptionRequest{AudioURL: "https://example.com/held.wav"})
			if err != nil {
				t.Fatal(err)
			}
			w := newCLIWorkspace(t, acctest.ProviderConfig(url)+`
data "transcription_job" "held" {
  id                  = "`+job.ID+`"
  wait_for_completion = true
}
`)
			var stdout, stderr bytes.Buffer
			cmd := applyInProcessGroup(t, w, fs, &stdout, &stderr)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				if err == nil {
					t.Errorf("the apply stopped by %s succeeded\n%s", sig, &stdout)
				}
			case <-time.After(sigtermBound):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				t.Fatalf("the apply still ran %s after %s\n%s%s", sigtermBound, sig, &stdout, &stderr)
			}
			if out := stdout.String() + stderr.String(); !strings.Contains(out, "Interrupted while waiting for the transcription job") {
				t.Errorf("the wait did not end with the provider's interruption error\n%s", out)
			}
		})
	}
}

// sigtermBound is how soon a CLI stops after SIGTERM: the provider's grace
// (main.go's sigtermGrace, 10 s) and the CLI's own wind-down.
const sigtermBound = 30 * time.Second

// applyInProcessGroup starts terraform apply in w as the leader of its own
// process group, and returns once the apply waits for a job of fs (the
// fake server has been asked for one's record).
func applyInProcessGroup(t *testing.T, w *cliWorkspace, fs *fakeserver.Server, stdout, stderr *bytes.Buffer) *exec.Cmd {
	t.Helper()
	return startApplyInProcessGroup(t, w, func() bool { return len(polledJobs(fs)) > 0 }, "the apply to wait for a job", stdout, stderr)
}

// startApplyInProcessGroup starts terraform apply in w as the leader of its
// own process group, and returns once ready reports true (polled for at
// most 2 minutes; waitingFor names what it waits for in a failure).
func startApplyInProcessGroup(t *testing.T, w *cliWorkspace, ready func() bool, waitingFor string, stdout, stderr *bytes.Buffer) *exec.Cmd {
	t.Helper()
	cmd := w.command(context.Background(), stdout, stderr, "apply", "-auto-approve", "-input=false", "-no-color")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); !ready(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatalf("waited in vain for %s\n%s%s", waitingFor, stdout, stderr)
		}
	}
	return cmd
}

// TestAccProcess_orphanedProviderStops kills the CLI alone (SIGKILL, which
// it cannot handle) while an apply waits for a job: the provider it
// started, reparented, stops polling and exits, where it polled the job
// until its timeout, an hour, and then idled for ever.
func TestAccProcess_orphanedProviderStops(t *testing.T) {
	fs, url, _ := acctest.HeldFakeServer(t)
	w := newCLIWorkspace(t, acctest.ProviderConfig(url)+acctest.JobConfig("orphan", `audio_url = "https://example.com/orphan.wav"`))
	var stdout, stderr bytes.Buffer
	cmd := applyInProcessGroup(t, w, fs, &stdout, &stderr)
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	providers := childrenOf(t, cmd.Process.Pid)
	if len(providers) == 0 {
		t.Fatal("the CLI has no provider process")
	}
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, pid := range providers {
		for deadline := time.Now().Add(sigtermBound); running(pid); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the orphaned provider process %d still runs %s after its CLI was killed", pid, sigtermBound)
			}
		}
	}
	before := len(fs.Requests())
	time.Sleep(1500 * time.Millisecond)
	if after := len(fs.Requests()); after != before {
		t.Errorf("%d requests after the orphaned provider exited", after-before)
	}
}

// childrenOf lists the processes whose parent is pid (Linux's /proc).
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		t.Skip("no /proc to find the provider process in")
	}
	var children []int
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// After the name in parentheses: state, then the parent's id.
		fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			children = append(children, child)
		}
	}
	return children
}

// running reports whether process pid runs: it exists, and is no zombie
// (a reparented process may wait unreaped where process 1 does not reap).
func running(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}
