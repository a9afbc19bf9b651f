package bench

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

func TestModuleOf_readsTheFrameworkOfABinary(t *testing.T) {
	exe, err := tfcli.BuildProvider(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ModuleOf(exe, FrameworkModule)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}{{with .Replace}} replaced by {{.Path}} {{.Version}}{{end}}", FrameworkModule).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(out)); got != want {
		t.Errorf("ModuleOf = %q, want %q (go list -m)", got, want)
	}
	if got, err := ModuleOf(exe, "example.com/not-a-dependency"); got != "" || err != nil {
		t.Errorf("a module the binary does not hold: %q, %v", got, err)
	}
	if _, err := ModuleOf("machine_test.go", FrameworkModule); err == nil {
		t.Error("a file that is no Go executable gave no error")
	}
}
