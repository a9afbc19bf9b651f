package main

// The batch section: how long one apply of N jobs takes when each job takes
// P to process. Terraform runs at most -parallelism operations at once (10
// by default), and a transcription_job's create holds its slot until the job
// has ended, so N jobs go through in waves: about ⌈N / parallelism⌉ × P. An
// account's concurrency limit L below the parallelism makes the waves
// ⌈N / L⌉ (the creates beyond it are answered 429 and retried).
//
// The data-source rows measure the design that ends near the slowest job at
// the default parallelism: every transcription_job submitted without
// waiting (wait_for_completion = false), and a transcription_job data source
// per job, depending on it, whose read waits for the job to end
// (wait_for_completion = true). Terraform queues nodes for its slots first
// come first served, so the N quick submissions all run before any wait, the
// N jobs process together on the service, and the waits overlap.

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// batchCase is one row of the batch section.
type batchCase struct {
	n           int
	processing  time.Duration
	parallelism int
	limit       int  // the account's concurrency limit; 0 for none
	prototype   bool // submit without waiting, wait in data sources
}

// waves is how many rounds of P the batch needs: ⌈N / k⌉, k the parallelism
// or the account's limit when lower; 1 for the prototype.
func (c batchCase) waves() int {
	if c.prototype {
		return 1
	}
	k := c.parallelism
	if c.limit > 0 {
		k = min(k, c.limit)
	}
	return (c.n + k - 1) / k
}

func (c batchCase) design() string {
	if c.prototype {
		return "submit, then wait in data sources"
	}
	return "`transcription_job` (waits in create)"
}

type batchResult struct {
	batchCase
	applies  []time.Duration
	spans    []time.Duration // first create's arrival to the last job's end, at the service
	limited  []int64         // creates answered 429 by the concurrency limit
	requests []int64
}

// batchCases is every combination of the flags' values: the waiting design
// at each parallelism and limit, and the prototype at each parallelism (it
// ignores the limit: its submissions would queue on it as well).
func batchCases(ns []int, processing []time.Duration, parallelism, limits []int, prototype bool) []batchCase {
	var out []batchCase
	for _, n := range ns {
		for _, p := range processing {
			for _, par := range parallelism {
				for _, l := range limits {
					out = append(out, batchCase{n: n, processing: p, parallelism: par, limit: l})
				}
				if prototype {
					out = append(out, batchCase{n: n, processing: p, parallelism: par, prototype: true})
				}
			}
		}
	}
	return out
}

// batch applies and destroys the case's jobs h.runs times against a fake
// server whose jobs take c.processing.
func (h *harness) batch(ctx context.Context, c batchCase) (batchResult, error) {
	res := batchResult{batchCase: c}
	svc, err := startService(fakeserver.Options{ProcessingTime: c.processing, MaxConcurrentJobs: c.limit})
	if err != nil {
		return res, err
	}
	defer svc.Close()
	config := jobConfig(c.n, "", "")
	name := fmt.Sprintf("batch-%d-%s-%d-%d", c.n, c.processing, c.parallelism, c.limit)
	if c.prototype {
		config, name = batchPrototypeConfig(c.n), name+"-prototype"
	}
	w, err := h.workspace(name, config, svc)
	if err != nil {
		return res, err
	}
	args := append(append([]string(nil), applyArgs...), fmt.Sprintf("-parallelism=%d", c.parallelism))
	for r := range h.runs {
		svc.rec.Reset()
		d, err := w.run(ctx, args...)
		if err != nil {
			return res, err
		}
		xs := svc.rec.Exchanges()
		span, limited, err := batchSpan(xs, c.n, c.processing)
		if err != nil {
			return res, err
		}
		res.applies = append(res.applies, d)
		res.spans = append(res.spans, span)
		res.limited = append(res.limited, limited)
		res.requests = append(res.requests, int64(len(xs)))
		h.log("batch N=%d P=%s parallelism=%d limit=%d prototype=%v run %d: apply %s (model %s), service span %s, %d creates limited",
			c.n, c.processing, c.parallelism, c.limit, c.prototype, r+1, bench.Seconds(d), bench.Seconds(time.Duration(c.waves())*c.processing), bench.Seconds(span), limited)
		if _, err := w.run(ctx, destroyArgs...); err != nil {
			return res, err
		}
	}
	return res, nil
}

// batchSpan reads an apply's exchanges: the time from the first accepted
// create's arrival to the end of the last job's processing, and the creates
// answered 429. It checks that n jobs were created.
func batchSpan(xs []bench.Exchange, n int, p time.Duration) (time.Duration, int64, error) {
	var first, last time.Time
	created := 0
	var limited int64
	for _, x := range xs {
		if x.Method != http.MethodPost || x.Path != "/v2/pre-recorded" {
			continue
		}
		switch x.Status {
		case http.StatusCreated:
			created++
			if first.IsZero() || x.Start.Before(first) {
				first = x.Start
			}
			if end := x.Start.Add(p); end.After(last) {
				last = end
			}
		case http.StatusTooManyRequests:
			limited++
		}
	}
	if created != n {
		return 0, limited, fmt.Errorf("%d jobs created, want %d", created, n)
	}
	return last.Sub(first), limited, nil
}

// batchPrototypeConfig declares n jobs that do not wait, and a
// transcription_job data source per job that waits for it
// (wait_for_completion).
func batchPrototypeConfig(n int) string {
	return providerBlock + fmt.Sprintf(`
resource "transcription_job" "bench" {
  count               = %d
  audio_url           = "https://media.example.com/bench/recording-${count.index}.wav"
  wait_for_completion = false
}

data "transcription_job" "bench" {
  count               = %d
  id                  = transcription_job.bench[count.index].id
  wait_for_completion = true
}

output "statuses" {
  value = distinct(data.transcription_job.bench[*].status)
}
`, n, n)
}

func batchTable(results []batchResult) *bench.Table {
	t := &bench.Table{
		Title:  "a batch of N jobs of processing time P in one apply, by -parallelism (medians)",
		Header: []string{"N", "P", "parallelism", "account limit", "design", "apply", "waves × P", "apply ÷ (waves × P)", "service span", "creates answered 429"},
		Notes: []string{"`waves` is ⌈N / k⌉, k the parallelism or the account's concurrency limit when lower (the emulator's -max-concurrent-jobs; " +
			"creates beyond it are answered 429 with Retry-After and retried by the provider), and 1 for the prototype. " +
			"`service span` runs from the first create's arrival at the service to the end of the last job's processing. " +
			"The data-source design submits every job without waiting (`wait_for_completion = false`) and waits in one `transcription_job` data source per job " +
			"(`wait_for_completion = true`)."},
	}
	for _, r := range results {
		limit := "none"
		if r.limit > 0 {
			limit = fmt.Sprint(r.limit)
		}
		model := time.Duration(r.waves()) * r.processing
		apply := bench.Median(r.applies)
		t.Add(fmt.Sprint(r.n), r.processing.String(), fmt.Sprint(r.parallelism), limit, r.design(),
			bench.Seconds(apply), bench.Seconds(model), bench.Ratio(apply, model), bench.Seconds(bench.Median(r.spans)), fmt.Sprint(bench.MedianInt(r.limited)))
	}
	return t
}
