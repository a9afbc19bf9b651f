package tfcli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAccMakeInstall_initFindsTheProvider: after `make install`, the CLI of
// the acceptance tests (Terraform or OpenTofu) initializes a configuration
// requiring the provider's development version without a registry, from
// its implied local mirror (~/.terraform.d/plugins). HOME is a temporary
// folder for both, so nothing is installed for the user running the tests.
func TestAccMakeInstall_initFindsTheProvider(t *testing.T) {
	cliPath := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || cliPath == "" {
		t.Skip("acceptance test: needs TF_ACC=1 and TF_ACC_TERRAFORM_PATH (make testacc-terraform, make testacc-opentofu)")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	home := t.TempDir()
	// Go keeps its caches and settings under HOME unless told where they
	// are: the real ones, so the build is not a cold one.
	goEnv, err := exec.CommandContext(ctx, "go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	env := []string{"HOME=" + home}
	for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"} {
		env = append(env, name+"="+strings.Split(strings.TrimSpace(string(goEnv)), "\n")[i])
	}

	install := exec.CommandContext(ctx, "make", "--no-print-directory", "install")
	install.Dir, install.Env = root, Environment(filepath.Join(home, "none.tfrc"), env...)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}

	dir := t.TempDir()
	config := `terraform {
  required_providers {
    transcription = {
      source  = "transcription-service/transcription"
      version = "0.0.0-dev"
    }
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(home, "empty.tfrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cli := CLI{Path: cliPath, Dir: dir, Env: Environment(rc, env...)}
	if _, err := cli.Output(ctx, "init", "-no-color", "-input=false"); err != nil {
		t.Fatalf("init after make install: %v", err)
	}
	lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(lock), `version     = "0.0.0-dev"`) {
		t.Errorf("the lock file does not select the installed 0.0.0-dev:\n%s", lock)
	}
}
