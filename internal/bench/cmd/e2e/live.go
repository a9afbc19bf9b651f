package main

import (
	"context"
	"fmt"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// liveResult is one size of the live listing section.
type liveResult struct {
	engine   string // the CLI's version
	items    int
	plans    []time.Duration
	server   []time.Duration // time spent in the fake server's handler
	build    []time.Duration // building the seeded records, before the plan
	cold     bool            // the records were built on first read, inside the plan
	requests int
	bytes    int64
	peaks    []int64 // provider's peak RSS
	cpu      []time.Duration
	cliCPU   []time.Duration // the CLI's own: its process's CPU, its children's (the provider's) apart
}

// live plans a transcription_live_jobs data source over items seeded live
// jobs with cli, each run against a fresh fake server, watching the
// provider's memory. Unless cold, the fake server builds its seeded records
// before the timed plan: a service has its jobs stored, and generating these
// synthetic ones on first read cost the plan about 3 s of a 2-core machine
// at 10,000.
func (h *harness) live(ctx context.Context, cli string, items int, cold bool) (liveResult, error) {
	res := liveResult{engine: bench.CLIVersion(ctx, cli), items: items, cold: cold}
	for r := range h.runs {
		svc, err := startService(fakeserver.Options{LiveJobs: items})
		if err != nil {
			return res, err
		}
		w, err := h.workspace(fmt.Sprintf("live-%d", items), liveConfig, svc)
		if err != nil {
			svc.Close()
			return res, err
		}
		w.cli.Path = cli
		records := "records built on first read"
		if !cold {
			start := time.Now()
			svc.fake.BuildLiveJobs()
			built := time.Since(start)
			res.build = append(res.build, built)
			records = "records built before the plan in " + bench.Seconds(built)
		}
		watch := bench.WatchProcesses(h.providerExe, 10*time.Millisecond)
		d, cpu, err := w.runTimed(ctx, planArgs...)
		ps := watch.Stop()
		s := bench.Summarize(svc.rec.Exchanges())
		svc.Close()
		if err != nil {
			return res, err
		}
		res.plans = append(res.plans, d)
		res.server = append(res.server, s.HandlerTime)
		res.peaks = append(res.peaks, ps.PeakRSS)
		res.cpu = append(res.cpu, cpu.Children)
		res.cliCPU = append(res.cliCPU, cpu.Own)
		res.requests, res.bytes = s.Requests, s.Bytes
		h.log("live %d (%s) run %d: %s; plan %s (server %s, provider CPU %s, CLI CPU %s), %d requests, %s, provider peak %s", items, res.engine, r+1,
			records, bench.Seconds(d), bench.Seconds(s.HandlerTime), bench.Seconds(cpu.Children), bench.Seconds(cpu.Own), s.Requests, bench.Bytes(s.Bytes), bench.Bytes(ps.PeakRSS))
	}
	return res, nil
}

func liveTable(results []liveResult) *bench.Table {
	t := &bench.Table{
		Title:  "transcription_live_jobs over seeded live jobs (plan reads it; medians; fresh fake server each run)",
		Header: []string{"engine", "live jobs", "plan", "records built", "fake server time", "provider CPU", "CLI CPU", "requests", "response bytes", "provider peak RSS", "peak per job"},
		Notes: []string{"The fake server builds its seeded records before the timed plan (`records built`, not in `plan`), as a service has its jobs stored, " +
			"or on first read, inside the plan (`in plan`: `-live-cold`). " +
			"`fake server time` sums the time the fake server spent answering (building and encoding records on first read, writing pages). " +
			"`CLI CPU` is the CLI's own: its process's CPU time, the provider processes' (its children's) apart. " +
			"Peak RSS is the highest VmHWM of the provider processes the CLI started."},
	}
	for _, r := range results {
		peak := bench.MedianInt(r.peaks)
		t.Add(r.engine, fmt.Sprint(r.items), bench.Seconds(bench.Median(r.plans)), r.buildCell(), bench.Seconds(bench.Median(r.server)), bench.Seconds(bench.Median(r.cpu)), bench.Seconds(bench.Median(r.cliCPU)), fmt.Sprint(r.requests),
			bench.Bytes(r.bytes), bench.Bytes(peak), bench.Bytes(peak/int64(max(r.items, 1))))
	}
	return t
}

// buildCell is the table's `records built` cell.
func (r liveResult) buildCell() string {
	if r.cold {
		return "in plan"
	}
	return bench.Seconds(bench.Median(r.build))
}
