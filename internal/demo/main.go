// Command demo is what `make demo` runs: it starts the fake service on a free
// loopback port, generates a recording, applies examples/demo with the
// freshly built provider (upload the recording, transcribe it with subtitles
// and a summary, list live jobs), prints the results, then destroys
// everything, stops the server and removes its working folder: on success,
// on failure and on Ctrl-C.
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
	"github.com/transcription-service/terraform-provider-transcription/internal/wav"
)

// demoKey is the API key of the demo's fake service.
const demoKey = "demo-key"

// destroyTimeout bounds the final destroy, which runs even after Ctrl-C.
const destroyTimeout = 2 * time.Minute

func main() {
	terraform := flag.String("terraform", "terraform", "path of the Terraform or OpenTofu CLI")
	providerDir := flag.String("provider-dir", "bin", "folder holding the built "+tfcli.ProviderBinary)
	example := flag.String("example", "examples/demo", "configuration to apply: as examples/demo, it takes var.recording and declares the outputs recording, transcript, subtitles_srt, summary and live_jobs")
	processing := flag.Duration("processing-time", 3*time.Second, "time the fake service takes to transcribe")
	verbose := flag.Bool("verbose", false, "show the CLI's whole output (plans included), not only its progress")
	flag.Parse()

	// The first Ctrl-C cancels ctx: the CLI is interrupted and the demo
	// cleans up; a second one skips the cleanup's destroy (see run). A
	// terminal closed (SIGHUP) does the same: the CLI runs in a process
	// group of its own, which the hangup does not reach.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// A reader that goes away (`make demo | head`) must not kill the demo
	// before it cleans up: output to it is dropped instead.
	signal.Ignore(syscall.SIGPIPE)
	err := run(ctx, options{
		Terraform:      *terraform,
		ProviderDir:    *providerDir,
		Example:        *example,
		ProcessingTime: *processing,
		Verbose:        *verbose,
		Out:            &dropOnError{w: os.Stdout},
		Err:            &dropOnError{w: os.Stderr},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		stop()
		os.Exit(1)
	}
}

// options configure one run of the demo.
type options struct {
	Terraform   string // terraform or tofu executable
	ProviderDir string // folder holding the provider binary
	Example     string // configuration to apply (its .tf files are copied)
	// ProcessingTime is how long the fake service takes per job.
	ProcessingTime time.Duration
	// RecordingSeconds is the length of the generated recording (default 20).
	RecordingSeconds float64
	// TempRoot is where the working folder is made (default: the system's).
	TempRoot string
	// Server is the fake service to serve (default: a new one). The caller
	// keeps ownership of a Server it passes.
	Server *fakeserver.Server
	// Out receives the demo's report and the CLI's progress (everything it
	// prints with Verbose); Err the CLI's errors.
	Out, Err io.Writer
	Verbose  bool
}

// outputs are the example's outputs the demo prints, with their headings.
var outputs = []struct{ name, heading string }{
	{"recording", "the recording the service received"},
	{"transcript", "transcript"},
	{"subtitles_srt", "subtitles (SRT)"},
	{"summary", "summary"},
	{"live_jobs", "recent live jobs"},
}

func run(ctx context.Context, o options) (err error) {
	if o.RecordingSeconds <= 0 {
		o.RecordingSeconds = 20
	}
	providerDir, err := filepath.Abs(o.ProviderDir)
	if err != nil {
		return err
	}
	// The CLI runs in the working folder: resolve its path from here.
	if o.Terraform, err = exec.LookPath(o.Terraform); err != nil {
		return fmt.Errorf("no Terraform or OpenTofu CLI: %w (give one with -terraform PATH, or run make demo, which builds one)", err)
	}
	if o.ProcessingTime < 0 {
		return fmt.Errorf("-processing-time %s: must not be negative", o.ProcessingTime)
	}
	if o.Terraform, err = filepath.Abs(o.Terraform); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(providerDir, tfcli.ProviderBinary)); err != nil {
		return fmt.Errorf("no provider in %s (build it with `make build`): %w", providerDir, err)
	}

	work, err := os.MkdirTemp(o.TempRoot, "transcription-demo-")
	if err != nil {
		return err
	}
	defer func() {
		if rmErr := os.RemoveAll(work); rmErr != nil {
			err = errors.Join(err, fmt.Errorf("removing %s: %w", work, rmErr))
			return
		}
		fmt.Fprintf(o.Out, "removed %s\n", work)
	}()

	// The fake service, in process, on a free loopback port.
	fake := o.Server
	if fake == nil {
		fake = fakeserver.New(fakeserver.Options{APIKey: demoKey, ProcessingTime: o.ProcessingTime, LiveJobs: 30})
		defer fake.Close()
	}
	listener, err := fakeserver.Serve("127.0.0.1:0", fake)
	if err != nil {
		return err
	}
	defer func() {
		if closeErr := listener.Close(); closeErr != nil {
			err = errors.Join(err, closeErr)
		}
		fmt.Fprintln(o.Out, "\n== fake transcription service stopped")
	}()
	fmt.Fprintf(o.Out, "fake transcription service listening on %s (Ctrl-C at any time: the demo cleans up)\n", listener.URL())

	if err := copyConfig(o.Example, work); err != nil {
		return err
	}
	recording := filepath.Join(work, "interview.wav")
	if err := os.WriteFile(recording, makeWAV(o.RecordingSeconds, 16000), 0o600); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "generated %s: %.0f s of 16 kHz mono PCM\n", recording, o.RecordingSeconds)

	// dev_overrides makes the CLI use the provider just built, with no
	// registry; the provider reads the service's address and key, and the
	// example its recording, from the environment.
	rc := filepath.Join(work, "cli.tfrc")
	if err := tfcli.WriteDevOverrides(rc, providerDir); err != nil {
		return err
	}
	cli := &tfcli.CLI{
		Path: o.Terraform,
		Dir:  work,
		Env: tfcli.Environment(rc,
			"TRANSCRIPTION_BASE_URL="+listener.URL(),
			"TRANSCRIPTION_API_KEY="+demoKey,
			"TF_VAR_recording="+recording,
		),
		Stdout: o.Out,
		Stderr: o.Err,
	}
	if !o.Verbose {
		progress := &lineFilter{w: o.Out, keep: progressLine}
		defer progress.Flush()
		cli.Stdout = progress
	}

	// Destroy whatever the apply created, even after a failure or Ctrl-C,
	// before the server stops.
	defer func() {
		if _, statErr := os.Stat(filepath.Join(work, "terraform.tfstate")); statErr != nil {
			return // nothing was applied
		}
		fmt.Fprintln(o.Out, "\n== destroying the demo's resources")
		cleanupCtx := context.WithoutCancel(ctx)
		if ctx.Err() != nil {
			// A job still processing makes the destroy wait for it; the
			// demo's service and its jobs end with the demo anyway.
			fmt.Fprintln(o.Out, "(interrupted: cleaning up, please wait; Ctrl-C again skips the destroy)")
			var stopSkip context.CancelFunc
			cleanupCtx, stopSkip = signal.NotifyContext(cleanupCtx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stopSkip()
		}
		cleanup, cancel := context.WithTimeout(cleanupCtx, destroyTimeout)
		defer cancel()
		if destroyErr := runCLI(cleanup, cli, "destroy", "-auto-approve", "-no-color", "-compact-warnings"); destroyErr != nil {
			err = errors.Join(err, fmt.Errorf("destroy: %w", destroyErr))
		}
	}()

	fmt.Fprintln(o.Out, "\n== apply: upload the recording, transcribe it with subtitles and a summary, list live jobs")
	if err := runCLI(ctx, cli, "apply", "-auto-approve", "-no-color", "-compact-warnings"); err != nil {
		return interrupted(ctx, fmt.Errorf("apply: %w", err))
	}
	for _, out := range outputs {
		value, err := cli.Output(ctx, "output", "-raw", "-no-color", out.name)
		if err != nil {
			return interrupted(ctx, err)
		}
		fmt.Fprintf(o.Out, "\n== %s\n%s\n", out.heading, strings.TrimRight(string(value), "\n"))
	}
	return interrupted(ctx, nil)
}

// runCLI runs the CLI in its own process group, so that a Ctrl-C in the
// terminal reaches only the demo, which interrupts the CLI once: a second
// interrupt would make Terraform stop at once, without saving its state.
func runCLI(ctx context.Context, cli *tfcli.CLI, args ...string) error {
	cmd := cli.Command(ctx, args...)
	ownProcessGroup(cmd)
	return cmd.Run()
}

// progressLine matches what the demo shows of the CLI's output without
// -verbose: each resource's progress and the final counts.
var progressLine = regexp.MustCompile(`^((data\.)?transcription_\w+\.\S+: |Plan: |Apply complete!|Destroy complete!)`)

// lineFilter writes to w the complete lines that keep matches.
type lineFilter struct {
	w    io.Writer
	keep *regexp.Regexp
	buf  []byte
}

func (f *lineFilter) Write(p []byte) (int, error) {
	f.buf = append(f.buf, p...)
	for {
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := f.buf[:i+1]
		if f.keep.Match(line) {
			if _, err := f.w.Write(line); err != nil {
				return len(p), err
			}
		}
		f.buf = f.buf[i+1:]
	}
}

// Flush writes a last unterminated line when it matches.
func (f *lineFilter) Flush() {
	if len(f.buf) > 0 && f.keep.Match(f.buf) {
		fmt.Fprintln(f.w, string(f.buf))
	}
	f.buf = nil
}

// dropOnError writes to w until a write fails, then drops everything, so
// that a CLI writing through it never meets a broken pipe.
type dropOnError struct {
	w      io.Writer
	failed bool
}

func (d *dropOnError) Write(p []byte) (int, error) {
	if !d.failed {
		if _, err := d.w.Write(p); err != nil {
			d.failed = true
		}
	}
	return len(p), nil
}

// interrupted names an interruption as such.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errors.Join(errors.New("interrupted"), err)
	}
	return err
}

// copyConfig copies the .tf files of src into dst.
func copyConfig(src, dst string) error {
	files, err := filepath.Glob(filepath.Join(src, "*.tf"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no .tf file in %s", src)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// makeWAV returns a mono 16-bit PCM WAV recording of the given length: a
// few notes, so it is not silence. The fake service reads its duration and
// channels from the header.
func makeWAV(seconds float64, rate int) []byte {
	frames := int(seconds * float64(rate))
	dataLen := frames * 2
	var b bytes.Buffer
	b.Grow(44 + dataLen)
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.Write(wav.Header(1, uint32(rate), 16, uint32(dataLen))) // mono, 16-bit
	notes := []float64{261.63, 329.63, 392.00, 523.25}        // C E G C, half a second each
	samples := make([]int16, frames)
	for i := range samples {
		tone := notes[(i/(rate/2))%len(notes)]
		samples[i] = int16(6000 * math.Sin(2*math.Pi*tone*float64(i)/float64(rate)))
	}
	le(samples)
	return b.Bytes()
}
