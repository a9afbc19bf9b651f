//go:build unix

package provider

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) the process has used: benchmarks
// report it beside wall time, which other work on the machine inflates.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
