package tfcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnvironment_extraEntriesWinOverInherited(t *testing.T) {
	t.Setenv("TF_CLI_CONFIG_FILE", "/nonexistent/.terraformrc")
	t.Setenv("TRANSCRIPTION_API_KEY", "inherited")
	t.Setenv("TFCLI_TEST_KEPT", "kept")
	t.Setenv("TF_WORKSPACE", "ci")
	t.Setenv("TF_REATTACH_PROVIDERS", `{"registry.terraform.io/transcription-service/transcription":{}}`)

	env := Environment("/tmp/x.tfrc", "TRANSCRIPTION_API_KEY=chosen")
	got := map[string][]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = append(got[k], v)
	}
	for key, want := range map[string]string{
		"TF_CLI_CONFIG_FILE":    "/tmp/x.tfrc",
		"TRANSCRIPTION_API_KEY": "chosen",
		"CHECKPOINT_DISABLE":    "1",
		"TF_IN_AUTOMATION":      "1",
		"TFCLI_TEST_KEPT":       "kept",
	} {
		if len(got[key]) != 1 || got[key][0] != want {
			t.Errorf("%s = %q, want exactly %q", key, got[key], want)
		}
	}
	if v, ok := got["TF_WORKSPACE"]; ok {
		t.Errorf("TF_WORKSPACE = %q inherited: the run's state would not be in terraform.tfstate", v)
	}
	if v, ok := got["TF_REATTACH_PROVIDERS"]; ok {
		t.Errorf("TF_REATTACH_PROVIDERS = %q inherited: the run would use a provider being debugged elsewhere", v)
	}
	// Given by the caller, it is kept.
	for _, kv := range Environment("/tmp/x.tfrc", "TF_REATTACH_PROVIDERS={}") {
		if kv == "TF_REATTACH_PROVIDERS={}" {
			return
		}
	}
	t.Error("TF_REATTACH_PROVIDERS given by the caller was dropped")
}

func TestWriteDevOverrides_namesBothRegistries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dev.tfrc")
	if err := WriteDevOverrides(path, "/opt/provider dir"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		`"registry.terraform.io/transcription-service/transcription" = "/opt/provider dir"`,
		`"registry.opentofu.org/transcription-service/transcription" = "/opt/provider dir"`,
		"direct {}",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("configuration lacks %s:\n%s", want, text)
		}
	}
}

func TestDevOverrides_severalProvidersInOrder(t *testing.T) {
	got := DevOverrides(
		Override{Source: "registry.terraform.io/bench/minimal", Dir: "/a"},
		Override{Source: "registry.terraform.io/mastercard/restapi", Dir: "/b c"},
	)
	want := `provider_installation {
  dev_overrides {
    "registry.terraform.io/bench/minimal" = "/a"
    "registry.terraform.io/mastercard/restapi" = "/b c"
  }
  direct {}
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestModuleRoot_findsGoMod(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.Contains(string(data), "module github.com/transcription-service/terraform-provider-transcription") {
		t.Fatalf("%s is not this module's root: %v", root, err)
	}
}

func TestVersionLine_skipsWarnings(t *testing.T) {
	for out, want := range map[string]string{
		"Terraform v1.8.5\non linux_amd64\n": "Terraform v1.8.5",
		"\nWarning: Unable to open CLI configuration file\n\nThere are some problems.\n\nOpenTofu v1.12.6\non linux_amd64\n": "OpenTofu v1.12.6",
		"something else\n": "",
	} {
		if got := VersionLine(out); got != want {
			t.Errorf("VersionLine(%q) = %q, want %q", out, got, want)
		}
	}
}
