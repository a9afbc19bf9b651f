package heapfloor

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
)

// release forgets the floor, so that each test starts without one.
func release(t *testing.T) {
	t.Helper()
	floor = nil
	runtime.GC()
}

// TestReserve_costsNoResidentMemory checks that the floor counts toward the
// heap the collector paces by, while the operating system backs none of it.
func TestReserve_costsNoResidentMemory(t *testing.T) {
	release(t)
	t.Cleanup(func() { release(t) })
	// As at the provider's start: no freed pages the floor could reuse.
	debug.FreeOSMemory()
	rssBefore, ok := residentBytes(t)
	if !ok {
		t.Skip("no /proc/self/status here")
	}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if !Reserve(func(string) string { return "" }) {
		t.Fatal("Reserve did not reserve the floor")
	}
	runtime.ReadMemStats(&after)
	rssAfter, _ := residentBytes(t)

	// HeapAlloc also moves with what other goroutines allocate and free.
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown < Size*9/10 {
		t.Errorf("the heap grew by %d bytes, want about the floor's %d", grown, Size)
	}
	if grown := rssAfter - rssBefore; grown > Size/4 {
		t.Errorf("resident memory grew by %d bytes, want far less than the floor's %d", grown, Size)
	}
}

func TestReserve_leavesTheUsersTuningAlone(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		reserved bool
	}{
		{"nothing set", nil, true},
		{"GOGC set", map[string]string{"GOGC": "200"}, false},
		{"GOGC off", map[string]string{"GOGC": "off"}, false},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release(t)
			t.Cleanup(func() { release(t) })
			getenv := func(k string) string { return tc.env[k] }
			if got := Reserve(getenv); got != tc.reserved {
				t.Fatalf("Reserve = %t, want %t", got, tc.reserved)
			}
			if (floor != nil) != tc.reserved {
				t.Fatalf("floor allocated: %t, want %t", floor != nil, tc.reserved)
			}
			if tc.reserved && Reserve(getenv) {
				t.Fatal("a second Reserve allocated the floor again")
			}
		})
	}
}

// TestReserve_raisesTheHeapGoal checks what paces the collector: the heap
// size at which its next cycle starts, after a full cycle.
func TestReserve_raisesTheHeapGoal(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the collector is tuned by the environment")
	}
	release(t)
	t.Cleanup(func() { release(t) })

	without := heapGoal()
	if !Reserve(func(string) string { return "" }) {
		t.Fatal("Reserve did not reserve the floor")
	}
	with := heapGoal()
	t.Logf("heap goal: %d MB without the floor, %d MB with it", without>>20, with>>20)
	if without >= Size/2 {
		t.Fatalf("the heap goal is %d bytes without the floor: the test no longer measures anything", without)
	}
	if with < 2*Size {
		t.Fatalf("the heap goal is %d bytes with the floor, want at least twice its %d", with, Size)
	}
}

// heapGoal is the heap size at which the collector starts its next cycle,
// right after a full one.
func heapGoal() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// residentBytes is the process's resident set size (VmRSS), where Linux
// reports it.
func residentBytes(t *testing.T) (int64, bool) {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", rest, err)
			}
			return kb << 10, true
		}
	}
	return 0, false
}
