package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// longVariant is one configuration of the long-recording section.
type longVariant struct {
	name     string
	n        int
	query    string
	settings string // the jobs' provider-side settings; "" for the defaults
}

type longResult struct {
	longVariant
	apply      time.Duration
	plan       time.Duration // median
	state      int64
	getBytes   int64         // response bytes of one refresh GET
	peakPlugin int64         // provider's peak RSS during the plans
	planCPU    time.Duration // provider CPU time per plan
}

// long applies n jobs of one variant once, plans them h.runs times, and
// measures the state. It does not destroy them: the fake server and the
// workspace go away with the run, and a destroy of large states is
// Terraform rewriting the state file after each job (about 23 minutes for
// 200 one-hour jobs with include_raw_result, on Terraform 1.8.5).
func (h *harness) long(ctx context.Context, v longVariant) (longResult, error) {
	res := longResult{longVariant: v}
	svc, err := startService(fakeserver.Options{})
	if err != nil {
		return res, err
	}
	defer svc.Close()
	w, err := h.workspace("long-"+v.name, jobConfig(v.n, v.query, v.settings), svc)
	if err != nil {
		return res, err
	}
	if res.apply, err = w.run(ctx, applyArgs...); err != nil {
		return res, err
	}
	if res.state, err = w.stateSize(); err != nil {
		return res, err
	}
	var plans []time.Duration
	var bytes []int64
	var planCPU time.Duration
	watch := bench.WatchProcesses(h.providerExe, 20*time.Millisecond)
	for range h.runs {
		svc.rec.Reset()
		// It must find nothing to change, or it would time an update.
		d, cpu, err := w.runTimed(ctx, scalePlanArgs...)
		if err != nil {
			watch.Stop()
			if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.ExitCode() == 2 {
				return res, fmt.Errorf("the plan after apply in %s wants changes: the provider does not converge", w.cli.Dir)
			}
			return res, err
		}
		plans = append(plans, d)
		planCPU += cpu.Children
		s := bench.Summarize(svc.rec.Exchanges())
		bytes = append(bytes, s.Bytes/int64(max(s.Gets, 1)))
	}
	ps := watch.Stop()
	res.peakPlugin = ps.PeakRSS
	res.planCPU = planCPU / time.Duration(h.runs)
	res.plan = bench.Median(plans)
	res.getBytes = bench.MedianInt(bytes)
	h.log("long %s: apply %s, plan %s (provider CPU %s), state %s", v.name, bench.Seconds(res.apply), bench.Seconds(res.plan), bench.Seconds(res.planCPU), bench.Bytes(res.state))
	return res, nil
}

func longTable(results []longResult) *bench.Table {
	t := &bench.Table{
		Title:  "long recordings: state size and plan (refresh) time (plan: median)",
		Header: []string{"jobs", "recording", "settings", "apply", "plan", "plan vs short", "provider CPU per plan", "state", "state per job", "bytes per GET", "provider peak RSS"},
		Notes: []string{"`plan vs short` divides by the plan of the same number of short recordings (5–60 s) measured in this section. " +
			"`provider CPU per plan` is the CPU time (user + system) of the provider processes, per plan. `bytes per GET` is the size of the job record the service returns on refresh."},
	}
	var short time.Duration
	for _, r := range results {
		if r.query == "" {
			short = r.plan
		}
	}
	for _, r := range results {
		rec := "5–60 s"
		if r.query != "" {
			rec = r.query
		}
		settings := "defaults"
		if r.settings != "" {
			settings = "`" + r.settings + "`"
		}
		t.Add(fmt.Sprint(r.n), rec, settings, bench.Seconds(r.apply), bench.Seconds(r.plan), bench.Ratio(r.plan, short), bench.Seconds(r.planCPU),
			bench.Bytes(r.state), bench.Bytes(r.state/int64(r.n)), bench.Bytes(r.getBytes), bench.Bytes(r.peakPlugin))
	}
	return t
}
