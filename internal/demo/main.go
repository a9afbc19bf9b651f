// Command demo is what `make demo` runs: it starts the fake server in
// process as the default service, applies examples/demo with the freshly
// built provider, prints the transcript, subtitles and live jobs, then
// destroys everything and stops the server, on success, failure or Ctrl-C.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

const demoKey = "demo-key"

func main() {
	terraform := flag.String("terraform", "terraform", "path of the Terraform or OpenTofu CLI")
	providerDir := flag.String("provider-dir", "bin", "folder holding the built terraform-provider-transcription")
	example := flag.String("example", "examples/demo", "configuration to apply")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *terraform, *providerDir, *example, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, terraform, providerDir, example string, out io.Writer) error {
	providerDir, err := filepath.Abs(providerDir)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "transcription-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	// The fake server, embedded: the demo's default service.
	fs := fakeserver.New(fakeserver.Options{APIKey: demoKey, ProcessingTime: 3 * time.Second, LiveJobs: 30})
	defer fs.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: fs, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	baseURL := "http://" + ln.Addr().String()
	fmt.Fprintf(out, "fake transcription service listening on %s\n", baseURL)

	if err := copyDir(example, work); err != nil {
		return err
	}
	// dev_overrides makes the CLI use the provider just built, with no registry.
	rc := filepath.Join(work, "demo.tfrc")
	overrides := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n    %q = %q\n  }\n  direct {}\n}\n",
		"registry.terraform.io/transcription-service/transcription", providerDir,
		"registry.opentofu.org/transcription-service/transcription", providerDir)
	if err := os.WriteFile(rc, []byte(overrides), 0o600); err != nil {
		return err
	}
	env := append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+rc,
		"TRANSCRIPTION_BASE_URL="+baseURL,
		"TRANSCRIPTION_API_KEY="+demoKey,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
	)
	tf := func(ctx context.Context, args ...string) error {
		cmd := exec.CommandContext(ctx, terraform, args...)
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = work, env, out, os.Stderr
		// On Ctrl-C the CLI gets its own interrupt and stops cleanly.
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 30 * time.Second
		return cmd.Run()
	}

	// Destroy whatever was created, even after a failure or Ctrl-C.
	defer func() {
		fmt.Fprintln(out, "\n== destroying the demo's resources")
		cleanup, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := tf(cleanup, "destroy", "-auto-approve", "-no-color"); err != nil {
			fmt.Fprintln(os.Stderr, "demo: destroy failed:", err)
		}
	}()

	fmt.Fprintln(out, "\n== terraform apply (uploads a generated WAV, transcribes it, lists live jobs)")
	if err := tf(ctx, "apply", "-auto-approve", "-no-color"); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	for _, output := range []string{"transcript", "subtitles_srt", "summary", "live_jobs"} {
		fmt.Fprintf(out, "\n== %s\n", output)
		if err := tf(ctx, "output", "-raw", output); err != nil {
			return fmt.Errorf("output %s: %w", output, err)
		}
		fmt.Fprintln(out)
	}
	if ctx.Err() != nil {
		return errors.New("interrupted")
	}
	return nil
}

// copyDir copies the regular files of src (not recursive) into dst.
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}
