package bench

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is the unit of utime and stime in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux platform Go supports).
const clockTicks = 100

// ProcessStats is what a ProcessWatcher saw of the processes it followed.
type ProcessStats struct {
	PeakRSS   int64 // the highest VmHWM of any of them, in bytes
	Processes int   // how many were seen
}

// ProcessWatcher follows the processes running one executable (the provider
// plugin the CLI starts, as many times as it does) by polling /proc: their
// peak resident set size (VmHWM), which the kernel keeps, so a poll late in
// a process's life sees it. Linux only: elsewhere it sees nothing. (Their CPU
// time is exact from RunForCPU instead.)
type ProcessWatcher struct {
	exe  string
	stop context.CancelFunc
	done chan struct{}

	mu      sync.Mutex
	peakKiB map[int]int64 // VmHWM by process id
}

// WatchProcesses starts polling /proc every interval for processes whose
// executable is exe. Stop it to read the result.
func WatchProcesses(exe string, interval time.Duration) *ProcessWatcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &ProcessWatcher{exe: exe, stop: cancel, done: make(chan struct{}), peakKiB: map[int]int64{}}
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			w.sample()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// Stop ends the polling and returns what was seen.
func (w *ProcessWatcher) Stop() ProcessStats {
	w.stop()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	var s ProcessStats
	for _, kib := range w.peakKiB {
		s.PeakRSS = max(s.PeakRSS, kib*1024)
		s.Processes++
	}
	return s
}

func (w *ProcessWatcher) sample() {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		if exe, err := os.Readlink(filepath.Join(dir, "exe")); err != nil || exe != w.exe {
			continue
		}
		status, err := os.ReadFile(filepath.Join(dir, "status"))
		if err != nil {
			continue
		}
		pid, _ := strconv.Atoi(e.Name())
		w.mu.Lock()
		w.peakKiB[pid] = max(w.peakKiB[pid], ParseVmHWM(status))
		w.mu.Unlock()
	}
}

// ParseVmHWM reads VmHWM (KiB) from the text of /proc/<pid>/status.
func ParseVmHWM(status []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			if fields := strings.Fields(v); len(fields) > 0 {
				n, _ := strconv.ParseInt(fields[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// ParseOwnAndChildrenTicks reads a process's own CPU time, utime + stime,
// and its waited-for children's, cutime + cstime (clock ticks), from the
// text of /proc/<pid>/stat. The command name, in parentheses, may hold
// spaces, so the fields are counted after its closing parenthesis.
func ParseOwnAndChildrenTicks(stat []byte) (own, children int64, ok bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	// After the name: state is field 3 of the line, utime 14, stime 15,
	// cutime 16, cstime 17.
	const utime, stime, cutime, cstime = 14 - 3, 15 - 3, 16 - 3, 17 - 3
	if len(fields) <= cstime {
		return 0, 0, false
	}
	var v [4]int64
	for k, f := range []int{utime, stime, cutime, cstime} {
		n, err := strconv.ParseInt(fields[f], 10, 64)
		if err != nil {
			return 0, 0, false
		}
		v[k] = n
	}
	return v[0] + v[1], v[2] + v[3], true
}
