package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// pollResult is one processing time of the poll section.
type pollResult struct {
	processing time.Duration
	jobs       int
	overshoots []time.Duration // per job: done seen − (created + processing)
	gets       []int64         // per job: GETs of the job during the apply
	applies    []time.Duration
}

// poll applies jobs that each take p to process, runs times, and measures
// from the fake server's side when the provider first saw each done.
func (h *harness) poll(ctx context.Context, p time.Duration, jobs int) (pollResult, error) {
	res := pollResult{processing: p, jobs: jobs}
	svc, err := startService(fakeserver.Options{ProcessingTime: p})
	if err != nil {
		return res, err
	}
	defer svc.Close()
	w, err := h.workspace(fmt.Sprintf("poll-%s", p), jobConfig(jobs, "", ""), svc)
	if err != nil {
		return res, err
	}
	for r := range h.runs {
		svc.rec.Reset()
		d, err := w.run(ctx, applyArgs...)
		if err != nil {
			return res, err
		}
		res.applies = append(res.applies, d)
		over, gets, err := overshoots(svc.rec.Exchanges(), p)
		if err != nil {
			return res, err
		}
		res.overshoots = append(res.overshoots, over...)
		res.gets = append(res.gets, gets...)
		h.log("poll P=%s run %d: apply %s, overshoots %v, GETs %v", p, r+1, bench.Seconds(d), over, gets)
		if _, err := w.run(ctx, destroyArgs...); err != nil {
			return res, err
		}
	}
	return res, nil
}

// overshoots finds, for each job created in xs, how long after it was due
// to be done (its create's arrival + p) a GET first answered done, and how
// many GETs of it were made.
func overshoots(xs []bench.Exchange, p time.Duration) ([]time.Duration, []int64, error) {
	created := map[string]time.Time{}
	var order []string
	for _, x := range xs {
		if x.Method != http.MethodPost || x.Path != "/v2/pre-recorded" {
			continue
		}
		var body struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(x.Head, &body); err != nil || body.ID == "" {
			return nil, nil, fmt.Errorf("cannot read the id of a create answer %q", x.Head)
		}
		created[body.ID] = x.Start
		order = append(order, body.ID)
	}
	seen := map[string]time.Time{}
	gets := map[string]int64{}
	for _, x := range xs {
		id, ok := strings.CutPrefix(x.Path, "/v2/pre-recorded/")
		if !ok || x.Method != http.MethodGet {
			continue
		}
		gets[id]++
		if _, done := seen[id]; !done && bytes.Contains(x.Head, []byte(`"status":"done"`)) {
			seen[id] = x.End
		}
	}
	var over []time.Duration
	var counts []int64
	for _, id := range order {
		at, ok := seen[id]
		if !ok {
			return nil, nil, fmt.Errorf("job %s was never seen done", id)
		}
		over = append(over, at.Sub(created[id].Add(p)))
		counts = append(counts, gets[id])
	}
	return over, counts, nil
}

func pollTable(results []pollResult) *bench.Table {
	t := &bench.Table{
		Title:  "waiting for a job: poll overshoot (done seen − due) and GETs",
		Header: []string{"processing P", "jobs × runs", "overshoot median", "overshoot max", "target", "GETs per job (median)", "apply (median)"},
		Notes: []string{"Measured at the fake server: from the arrival of the create plus P to the end of the first GET answering `done`. " +
			"Target: max(0.5 s, 10 % of P)."},
	}
	for _, r := range results {
		worst := time.Duration(0)
		for _, o := range r.overshoots {
			worst = max(worst, o)
		}
		target := max(500*time.Millisecond, r.processing/10)
		t.Add(r.processing.String(), fmt.Sprintf("%d × %d", r.jobs, len(r.applies)), bench.Millis(bench.Median(r.overshoots)), bench.Millis(worst),
			bench.Millis(target), fmt.Sprint(bench.MedianInt(r.gets)), bench.Seconds(bench.Median(r.applies)))
	}
	return t
}
