package bench

import (
	"os"
	"testing"
	"time"
)

func TestParseVmHWM(t *testing.T) {
	status := []byte("Name:\tterraform-provi\nPPid:\t4242\nVmPeak:\t 1300000 kB\nVmHWM:\t   53124 kB\nVmRSS:\t   50000 kB\n")
	if got := ParseVmHWM(status); got != 53124 {
		t.Errorf("VmHWM %d, want 53124", got)
	}
	if got := ParseVmHWM([]byte("Name:\tx\n")); got != 0 {
		t.Errorf("VmHWM of a status without it: %d", got)
	}
}

func TestParseOwnAndChildrenTicks(t *testing.T) {
	stat := []byte("4321 (odd name) with) Z 4242 4321 4242 0 -1 4194560 1200 0 0 0 37 5 300 20 20 0 9 0 1234 1300000000 13000 18446744073709551615\n")
	own, children, ok := ParseOwnAndChildrenTicks(stat)
	if !ok || own != 42 || children != 320 {
		t.Errorf("own %d, children %d, ok %v; want 37 + 5, 300 + 20, true", own, children, ok)
	}
	for _, bad := range []string{"4321 no name", "4321 (x) Z 1 2 3", "4321 (x) Z 4242 4321 4242 0 -1 4194560 1200 0 0 0 37 5 x 20"} {
		if _, _, ok := ParseOwnAndChildrenTicks([]byte(bad)); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

// The watcher sees this test process when told to watch its executable.
func TestWatchProcesses_seesItself(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	w := WatchProcesses(exe, 5*time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	s := w.Stop()
	if s.Processes < 1 || s.PeakRSS <= 0 {
		t.Errorf("saw %+v, want this process", s)
	}
}
