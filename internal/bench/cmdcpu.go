package bench

import (
	"os/exec"
	"time"
)

// CommandCPU is the CPU time (user + system) of a command's process once it
// has ended: its own, and that of the children it waited for (a Terraform
// CLI's provider processes). ChildrenKnown is false where the children's
// share cannot be read (not Linux): Own then holds both.
type CommandCPU struct {
	Own, Children time.Duration
	ChildrenKnown bool
}

// Total is the process's CPU time and its waited-for children's.
func (c CommandCPU) Total() time.Duration { return c.Own + c.Children }

// RunForCPU runs cmd (not yet started) to its end, like cmd.Run, and returns
// its CPU time. Children's CPU is whole (to the clock tick), not sampled:
// on Linux it is read from the ended process's cutime and cstime before the
// process is reaped, so a child's last instants, after any poll of /proc
// would have seen it, count too.
func RunForCPU(cmd *exec.Cmd) (CommandCPU, error) {
	if err := cmd.Start(); err != nil {
		return CommandCPU{}, err
	}
	usage, ok := cpuAtExit(cmd.Process.Pid)
	err := cmd.Wait()
	if !ok && cmd.ProcessState != nil {
		usage = CommandCPU{Own: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	}
	return usage, err
}

// ticksToDuration converts clock ticks of /proc/<pid>/stat to a duration.
func ticksToDuration(ticks int64) time.Duration {
	return time.Duration(ticks) * time.Second / clockTicks
}
