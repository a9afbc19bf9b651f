package bench

import (
	"bufio"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

// Machine describes where the benchmarks ran: CPU model, cores, OS, Go
// version and the CLI's name and version.
func Machine(ctx context.Context, cli string) string {
	return fmt.Sprintf("%s, %d cores, %s, %s, %s", cpuModel(), runtime.NumCPU(), osName(), runtime.Version(), CLIVersion(ctx, cli))
}

// FrameworkModule is the plugin framework module whose build ModuleOf
// reports.
const FrameworkModule = "github.com/hashicorp/terraform-plugin-framework"

// ModuleOf is the version of module that the Go executable exe was built
// with, and what replaced it when a replace directive did, such as
// "v1.19.0 replaced by /tmp/fixed": which framework a benchmarked provider
// ran on. It is "" when exe does not hold module.
func ModuleOf(exe, module string) (string, error) {
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		return "", err
	}
	for _, dep := range info.Deps {
		if dep.Path != module {
			continue
		}
		if r := dep.Replace; r != nil {
			replaced := dep.Version + " replaced by " + r.Path
			if r.Version != "(devel)" { // what a folder replacing it has
				replaced += " " + r.Version
			}
			return strings.TrimSpace(replaced), nil
		}
		return dep.Version, nil
	}
	return "", nil
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func osName() string {
	name := runtime.GOOS + "/" + runtime.GOARCH
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "PRETTY_NAME="); ok {
				name = strings.Trim(v, `"`) + " " + runtime.GOARCH
			}
		}
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		name += " (Linux " + strings.TrimSpace(string(data)) + ")"
	}
	return name
}

// CLIVersion is the line of `<cli> version` that names it, such as
// "Terraform v1.8.5" (warnings may come first), or the executable's name
// when it cannot tell.
func CLIVersion(ctx context.Context, cli string) string {
	cmd := exec.CommandContext(ctx, cli, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return filepath.Base(cli)
	}
	if v := tfcli.VersionLine(string(out)); v != "" {
		return v
	}
	return filepath.Base(cli)
}
