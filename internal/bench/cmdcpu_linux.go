package bench

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// cpuAtExit waits for the process to end without reaping it (WNOWAIT), so
// that its /proc/<pid>/stat still holds its own CPU time and its reaped
// children's (cutime, cstime); cmd.Wait reaps it after.
func cpuAtExit(pid int) (CommandCPU, bool) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return CommandCPU{}, false
		}
		break
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return CommandCPU{}, false
	}
	own, children, ok := ParseOwnAndChildrenTicks(stat)
	if !ok {
		return CommandCPU{}, false
	}
	return CommandCPU{Own: ticksToDuration(own), Children: ticksToDuration(children), ChildrenKnown: true}, true
}
