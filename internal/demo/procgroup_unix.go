//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a process group of its own, out of reach of
// the terminal's Ctrl-C, and interrupts that whole group when the run is
// cancelled, as the terminal's Ctrl-C would: the provider, in the CLI's
// group, stops its waits on its own interrupt, where Terraform 1.8 lets a
// create's wait run on after the CLI's.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
}
