// Package tfcli runs a Terraform or OpenTofu CLI against the provider built
// from this module, with no registry and no network: `make demo`, the
// process-level acceptance tests (signals, logs) and the end-to-end
// benchmarks share it.
package tfcli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ProviderBinary is the provider executable's name, as the CLI looks for it.
const ProviderBinary = "terraform-provider-transcription"

// ProviderSources are the addresses a configuration may require the provider
// under: Terraform's registry host and OpenTofu's.
var ProviderSources = []string{
	"registry.terraform.io/transcription-service/transcription",
	"registry.opentofu.org/transcription-service/transcription",
}

// ModuleRoot returns the folder holding this module's go.mod, searching up
// from the working directory (tests run in their package's folder).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// BuildProvider compiles the provider's main package into dir and returns
// the binary's path.
func BuildProvider(ctx context.Context, dir string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, ProviderBinary)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	return bin, nil
}

// WriteDevOverrides writes a CLI configuration file at path that makes every
// address in ProviderSources resolve to the provider binary in providerDir,
// and lets other providers (terraform_data is built in) install as usual.
func WriteDevOverrides(path, providerDir string) error {
	var overrides []Override
	for _, source := range ProviderSources {
		overrides = append(overrides, Override{Source: source, Dir: providerDir})
	}
	return WriteOverrides(path, overrides...)
}

// Override makes the CLI take the provider at Source from the folder Dir
// (which holds terraform-provider-<type>) instead of installing it.
type Override struct {
	Source string // full address, such as registry.terraform.io/bench/minimal
	Dir    string
}

// WriteOverrides writes a CLI configuration file at path with one
// dev_overrides entry per override, in their order, and lets other providers
// install as usual.
func WriteOverrides(path string, overrides ...Override) error {
	return os.WriteFile(path, []byte(DevOverrides(overrides...)), 0o600)
}

// DevOverrides returns the text of the CLI configuration WriteOverrides
// writes.
func DevOverrides(overrides ...Override) string {
	var b strings.Builder
	b.WriteString("provider_installation {\n  dev_overrides {\n")
	for _, o := range overrides {
		fmt.Fprintf(&b, "    %q = %q\n", o.Source, o.Dir)
	}
	b.WriteString("  }\n  direct {}\n}\n")
	return b.String()
}

// CLI runs one Terraform or OpenTofu binary in one working directory.
type CLI struct {
	// Path is the terraform or tofu executable.
	Path string
	// Dir is the working directory (the root module).
	Dir string
	// Env is the complete environment of every run.
	Env []string
	// Stdout and Stderr receive the CLI's output (discarded when nil).
	Stdout, Stderr io.Writer
	// InterruptGrace is how long a cancelled run is given to stop after its
	// interrupt before it is killed (default 30 s).
	InterruptGrace time.Duration
}

// Environment returns the current environment with the settings every run
// needs: the CLI configuration at rcFile, no checkpoint calls, automation
// mode, plus extra ("KEY=value") entries, which win over inherited ones.
// An inherited TF_WORKSPACE is dropped: a run's working directory is its
// own, its state in terraform.tfstate where callers look for it. So is an
// inherited TF_REATTACH_PROVIDERS (a provider being debugged, as the README
// shows): the CLI would use that process, configured by its own terminal's
// environment (another service, a real account), instead of the provider
// and the settings the run gives.
func Environment(rcFile string, extra ...string) []string {
	set := append([]string{
		"TF_CLI_CONFIG_FILE=" + rcFile,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
	}, extra...)
	override := map[string]bool{"TF_WORKSPACE": true, "TF_REATTACH_PROVIDERS": true}
	for _, kv := range set {
		k, _, _ := strings.Cut(kv, "=")
		override[k] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !override[k] {
			env = append(env, kv)
		}
	}
	return append(env, set...)
}

// Command prepares a run. When ctx is cancelled the CLI gets an interrupt,
// as from Ctrl-C, so it stops cleanly and saves its state.
func (c *CLI) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.Path, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = c.Dir, c.Env, c.Stdout, c.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = c.InterruptGrace
	if cmd.WaitDelay <= 0 {
		cmd.WaitDelay = 30 * time.Second
	}
	return cmd
}

// Output runs the CLI with args and returns its standard output; its
// standard error is in the error when it fails.
func (c *CLI) Output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := c.Command(ctx, args...)
	cmd.Stdout = nil
	var stderr strings.Builder
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	}
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w\n%s", filepath.Base(c.Path), strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

// VersionLine finds the line of `<cli> version` output that names the
// engine, "Terraform v…" or "OpenTofu v…" (warnings about the CLI
// configuration may come first), or "" when there is none.
func VersionLine(out string) string {
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "Terraform v") || strings.HasPrefix(line, "OpenTofu v") {
			return line
		}
	}
	return ""
}
