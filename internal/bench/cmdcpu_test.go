package bench

import (
	"errors"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// A child's CPU counts as the child's, wholly, however short its life: the
// shell waits for an inner shell that spins, then exits with a status.
func TestRunForCPU_childrenApart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("children's CPU is read on Linux only")
	}
	spin := `i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done`
	cmd := exec.Command("sh", "-c", "sh -c '"+spin+"'; exit 3")
	cpu, err := RunForCPU(cmd)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("error %v, want the command's exit status 3", err)
	}
	if !cpu.ChildrenKnown || cpu.Children < 50*time.Millisecond || cpu.Own > cpu.Children {
		t.Errorf("cpu %+v: want the spinning child's time as Children, more than the outer shell's own", cpu)
	}
	if cmd.ProcessState == nil || cpu.Total() < cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime()-20*time.Millisecond {
		t.Errorf("total %v less than the rusage of the process and its children", cpu.Total())
	}
}
