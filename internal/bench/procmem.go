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

// PeakWatcher follows the processes running one executable (the provider
// plugin) and keeps the highest peak resident set size (VmHWM) any of them
// reached. Linux only: elsewhere it sees nothing.
type PeakWatcher struct {
	exe  string
	stop context.CancelFunc
	done chan struct{}

	mu    sync.Mutex
	peak  map[int]int64 // KiB, by pid
	ppids map[int]int
}

// WatchPeak starts polling /proc every interval for processes whose
// executable is exe. Stop it to read the result.
func WatchPeak(exe string, interval time.Duration) *PeakWatcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &PeakWatcher{exe: exe, stop: cancel, done: make(chan struct{}), peak: map[int]int64{}, ppids: map[int]int{}}
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

// Stop ends the polling and returns the largest VmHWM seen, in bytes, and
// the number of processes seen with it and their parents' pids.
func (w *PeakWatcher) Stop() (peakBytes int64, processes int, parents []int) {
	w.stop()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := map[int]bool{}
	for pid, kib := range w.peak {
		peakBytes = max(peakBytes, kib*1024)
		if pp := w.ppids[pid]; !seen[pp] {
			seen[pp] = true
			parents = append(parents, pp)
		}
	}
	return peakBytes, len(w.peak), parents
}

func (w *PeakWatcher) sample() {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != w.exe {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		hwm, ppid := ParseStatus(status)
		w.mu.Lock()
		w.peak[pid] = max(w.peak[pid], hwm)
		w.ppids[pid] = ppid
		w.mu.Unlock()
	}
}

// ParseStatus reads VmHWM (KiB) and PPid from the text of /proc/<pid>/status.
func ParseStatus(status []byte) (hwmKiB int64, ppid int) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) == 0 {
			continue
		}
		switch k {
		case "VmHWM":
			hwmKiB, _ = strconv.ParseInt(fields[0], 10, 64)
		case "PPid":
			ppid, _ = strconv.Atoi(fields[0])
		}
	}
	return hwmKiB, ppid
}
