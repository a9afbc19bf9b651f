//go:build !linux

package bench

// cpuAtExit cannot read a child's share here: RunForCPU falls back to the
// process's rusage.
func cpuAtExit(int) (CommandCPU, bool) { return CommandCPU{}, false }
