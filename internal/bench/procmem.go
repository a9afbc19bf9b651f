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
	PeakRSS   int64         // the highest VmHWM of any of them, in bytes
	CPU       time.Duration // user + system time, summed over them
	Processes int           // how many were seen
}

// ProcessWatcher follows the processes running one executable (the provider
// plugin the CLI starts, as many times as it does) by polling /proc: their
// peak resident set size (VmHWM) and CPU time. Linux only: elsewhere it sees
// nothing. CPU time spent after the last poll of a process is missed, so the
// interval should be short beside the processes' lives.
type ProcessWatcher struct {
	exe  string
	stop context.CancelFunc
	done chan struct{}

	mu   sync.Mutex
	seen map[int]procSample
}

type procSample struct {
	hwmKiB int64
	ticks  int64
}

// WatchProcesses starts polling /proc every interval for processes whose
// executable is exe. Stop it to read the result.
func WatchProcesses(exe string, interval time.Duration) *ProcessWatcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &ProcessWatcher{exe: exe, stop: cancel, done: make(chan struct{}), seen: map[int]procSample{}}
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
	for _, p := range w.seen {
		s.PeakRSS = max(s.PeakRSS, p.hwmKiB*1024)
		s.CPU += time.Duration(p.ticks) * time.Second / clockTicks
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
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		pid, _ := strconv.Atoi(e.Name())
		s := procSample{hwmKiB: ParseVmHWM(status), ticks: ParseCPUTicks(stat)}
		w.mu.Lock()
		old := w.seen[pid]
		w.seen[pid] = procSample{hwmKiB: max(old.hwmKiB, s.hwmKiB), ticks: max(old.ticks, s.ticks)}
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

// ParseCPUTicks reads utime + stime (clock ticks) from the text of
// /proc/<pid>/stat. The command name, in parentheses, may hold spaces, so
// the fields are counted after its closing parenthesis.
func ParseCPUTicks(stat []byte) int64 {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(stat[i+1:]))
	// After the name: state is field 3 of the line, utime 14, stime 15.
	const utime, stime = 14 - 3, 15 - 3
	if len(fields) <= stime {
		return 0
	}
	u, _ := strconv.ParseInt(fields[utime], 10, 64)
	s, _ := strconv.ParseInt(fields[stime], 10, 64)
	return u + s
}
