package main

import (
	"context"
	"fmt"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// cycle is the wall times of one apply, plan (with refresh) and destroy,
// and the CPU time of the provider processes the CLI started for them.
type cycle struct{ apply, plan, destroy, providerCPU time.Duration }

func (c cycle) total() time.Duration { return c.apply + c.plan + c.destroy }

// cycles holds the runs of one workspace.
type cycles []cycle

func (cs cycles) median(pick func(cycle) time.Duration) time.Duration {
	ds := make([]time.Duration, len(cs))
	for i, c := range cs {
		ds[i] = pick(c)
	}
	return bench.Median(ds)
}

func (h *harness) cycle(ctx context.Context, w *workspace) (cycle, error) {
	var c cycle
	for _, step := range []struct {
		args []string
		wall *time.Duration
	}{{applyArgs, &c.apply}, {planArgs, &c.plan}, {destroyArgs, &c.destroy}} {
		watch := bench.WatchProcesses(h.providerExe, 10*time.Millisecond)
		d, err := w.run(ctx, step.args...)
		c.providerCPU += watch.Stop().CPU
		if err != nil {
			return c, err
		}
		*step.wall = d
	}
	return c, nil
}

// scaleResult is one N of the scale section.
type scaleResult struct {
	n              int
	jobs, data     cycles
	requestsPerJob float64
}

// scale applies, plans and destroys n transcription_job resources and n
// terraform_data resources, alternating which goes first.
func (h *harness) scale(ctx context.Context, n int) (scaleResult, error) {
	res := scaleResult{n: n}
	svc, err := startService(fakeserver.Options{})
	if err != nil {
		return res, err
	}
	defer svc.Close()
	jobs, err := h.workspace(fmt.Sprintf("scale-%d-job", n), jobConfig(n, "", ""), svc)
	if err != nil {
		return res, err
	}
	data, err := h.workspace(fmt.Sprintf("scale-%d-data", n), dataConfig(n), svc)
	if err != nil {
		return res, err
	}
	var requests []int64
	for r := range h.runs {
		order := []*workspace{jobs, data}
		if r%2 == 1 {
			order = []*workspace{data, jobs}
		}
		for _, w := range order {
			svc.rec.Reset()
			c, err := h.cycle(ctx, w)
			if err != nil {
				return res, err
			}
			if w == jobs {
				res.jobs = append(res.jobs, c)
				requests = append(requests, int64(bench.Summarize(svc.rec.Exchanges()).Requests))
			} else {
				res.data = append(res.data, c)
			}
		}
		h.log("scale N=%d run %d: job %s, terraform_data %s", n, r+1, bench.Seconds(res.jobs[r].total()), bench.Seconds(res.data[r].total()))
	}
	res.requestsPerJob = float64(bench.MedianInt(requests)) / float64(n)
	return res, nil
}

func scaleTable(results []scaleResult) *bench.Table {
	t := &bench.Table{
		Title: "apply / plan (refresh) / destroy: N transcription_job beside N terraform_data (medians)",
		Header: []string{"N", "apply job", "apply data", "ratio", "plan job", "plan data", "ratio",
			"destroy job", "destroy data", "ratio", "extra per job", "provider CPU per job", "requests per job"},
		Notes: []string{"`extra per job` is (job − terraform_data) of apply+plan+destroy, divided by N: what the provider, " +
			"its HTTP calls and the fake server add to Terraform core's own work, per resource and cycle. " +
			"`provider CPU per job` is the CPU time (user + system) of the provider processes over the cycle, divided by N. " +
			"`requests per job` counts every request of one cycle (create, polls, refresh, delete)."},
	}
	for _, r := range results {
		row := []string{fmt.Sprint(r.n)}
		for _, pick := range []func(cycle) time.Duration{
			func(c cycle) time.Duration { return c.apply },
			func(c cycle) time.Duration { return c.plan },
			func(c cycle) time.Duration { return c.destroy },
		} {
			j, d := r.jobs.median(pick), r.data.median(pick)
			row = append(row, bench.Seconds(j), bench.Seconds(d), bench.Ratio(j, d))
		}
		extra := (r.jobs.median(cycle.total) - r.data.median(cycle.total)) / time.Duration(r.n)
		cpu := r.jobs.median(func(c cycle) time.Duration { return c.providerCPU }) / time.Duration(r.n)
		row = append(row, bench.Millis(extra), bench.Millis(cpu), fmt.Sprintf("%.1f", r.requestsPerJob))
		t.Add(row...)
	}
	return t
}
