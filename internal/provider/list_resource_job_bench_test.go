package provider

import (
	"context"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// BenchmarkJobListQuery lists 10,000 jobs of the fake server through the
// transcription_job list resource, as `terraform query` with `limit =
// 10000` does (100 pages), and reports how long the first result took
// (ms-to-first/op) and how far the heap grew above what it held before
// the listing (peak-heap-MB: the largest heap in use seen at a result,
// garbage included; peak-live-MB: the largest heap marked live by a
// collection during the listing). The fake server shares the process: its
// share, the same whatever the provider does, is in both heap figures.
func BenchmarkJobListQuery(b *testing.B) {
	const jobs = 10_000
	h := newJobListHarness(b, jobs, nil)
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	heap := func() (inUse, live uint64) {
		metrics.Read(samples)
		return samples[0].Value.Uint64(), samples[1].Value.Uint64()
	}
	var toFirst time.Duration
	var peakInUse, peakLive uint64
	for b.Loop() {
		runtime.GC()
		baseInUse, baseLive := heap()
		start := time.Now()
		n := 0
		for result := range h.listJobs(context.Background(), jobs) {
			if errs := errorsAmong(result.Diagnostics); len(errs) > 0 {
				b.Fatalf("result %d: %s: %s", n, errs[0].Summary, errs[0].Detail)
			}
			if n == 0 {
				toFirst += time.Since(start)
			}
			n++
			inUse, live := heap()
			peakInUse = max(peakInUse, inUse-min(inUse, baseInUse))
			peakLive = max(peakLive, live-min(live, baseLive))
		}
		if n != jobs {
			b.Fatalf("%d results, want %d", n, jobs)
		}
	}
	b.ReportMetric(float64(toFirst.Milliseconds())/float64(b.N), "ms-to-first/op")
	b.ReportMetric(float64(peakInUse)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peakLive)/(1<<20), "peak-live-MB")
}
