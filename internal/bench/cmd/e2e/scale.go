package main

import (
	"context"
	"fmt"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// cycle is the wall times of one apply, plan (with refresh) and destroy.
type cycle struct{ apply, plan, destroy time.Duration }

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

func (w *workspace) cycle(ctx context.Context) (cycle, error) {
	var c cycle
	var err error
	if c.apply, err = w.run(ctx, applyArgs...); err != nil {
		return c, err
	}
	if c.plan, err = w.run(ctx, planArgs...); err != nil {
		return c, err
	}
	c.destroy, err = w.run(ctx, destroyArgs...)
	return c, err
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
	jobs, err := h.workspace(fmt.Sprintf("scale-%d-job", n), jobConfig(n, "", false), svc)
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
			c, err := w.cycle(ctx)
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
			"destroy job", "destroy data", "ratio", "extra per job", "requests per job"},
		Notes: []string{"`extra per job` is (job − terraform_data) of apply+plan+destroy, divided by N: what the provider, " +
			"its HTTP calls and the fake server add to Terraform core's own work, per resource and cycle. " +
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
		row = append(row, bench.Millis(extra), fmt.Sprintf("%.1f", r.requestsPerJob))
		t.Add(row...)
	}
	return t
}
