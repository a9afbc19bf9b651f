package main

// The scale section: one fake server, five root modules of N resources each,
// every one applied, planned (with refresh) and destroyed runs times, their
// order changed from run to run (runOrders):
//
//   - transcription_job of this repository's provider (audio_url only);
//   - minimal_job of cmd/minimalprovider, a terraform-plugin-framework
//     provider with three attributes and plain net/http: the floor a
//     framework provider reaches against this service;
//   - minimal_wide_job, the same resource with 40 more optional attributes
//     left null, as many top-level attributes as transcription_job: the
//     floor of a schema that wide, what its width alone costs the framework
//     and Terraform;
//   - restapi_object of Mastercard's terraform-provider-restapi (SDKv2), the
//     generic REST provider users pick when a service has none of its own;
//   - terraform_data, built into Terraform: core's own cost, no provider.
//
// The table gives each one's medians, ours divided by each, what each adds
// to terraform_data per resource, the CPU time of its provider processes and
// the requests the fake server answered, by method.

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// cycle is the wall times of one apply, plan (with refresh) and destroy,
// the CPU time of the provider processes the CLI started for them, and the
// CPU time of the CLI itself (its process and its children, less the
// provider's).
type cycle struct{ apply, plan, destroy, providerCPU, cliCPU time.Duration }

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

// scalePlanArgs is the plan of a cycle: it must find nothing to change
// (exit code 0), or the cycle would time an update rather than a refresh.
var scalePlanArgs = append(slices.Clone(planArgs), "-detailed-exitcode")

func (h *harness) cycle(ctx context.Context, w *workspace) (cycle, error) {
	var c cycle
	for _, step := range []struct {
		args []string
		wall *time.Duration
	}{{applyArgs, &c.apply}, {scalePlanArgs, &c.plan}, {destroyArgs, &c.destroy}} {
		d, cpu, err := w.runTimed(ctx, step.args...)
		// The CLI's children are the provider processes it started for the
		// workspace's one provider.
		c.providerCPU += cpu.Children
		c.cliCPU += cpu.Own
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 2 && slices.Contains(step.args, "-detailed-exitcode") {
			return c, fmt.Errorf("the plan right after apply in %s wants changes: the provider does not converge", w.cli.Dir)
		}
		if err != nil {
			return c, err
		}
		*step.wall = d
	}
	return c, nil
}

// The contenders of the scale section, in the table's order. Ours comes
// first (the ratios divide it by each), terraform_data last (the floor each
// is compared with).
const (
	ours = iota
	minimal
	minimalWide
	restapi
	data
	contenders
)

var contenderNames = [contenders]string{
	ours:        "transcription_job",
	minimal:     "minimal_job",
	minimalWide: "minimal_wide_job",
	restapi:     "restapi_object",
	data:        "terraform_data",
}

// contenderResult is the runs of one contender at one N.
type contenderResult struct {
	cycles   cycles
	requests []map[string]int64 // per run: requests by method
	failures []int64            // per run: answers outside 2xx
	watched  bool               // whether its provider processes' CPU is known
}

// scaleResult is one N of the scale section.
type scaleResult struct {
	engine string // the CLI's version
	n      int
	each   [contenders]contenderResult
}

// runOrders are the orders the contenders run in, one run after the other
// (then again from the first): each runs first once in five runs, and in
// any three runs in a row none keeps its place or runs right after the
// same other each time (what one leaves behind, the fake server's garbage
// say, would always land on the same one). TestRunOrder checks it.
var runOrders = [contenders][contenders]int{
	{0, 1, 2, 3, 4},
	{1, 0, 2, 4, 3},
	{2, 0, 3, 4, 1},
	{3, 1, 2, 0, 4},
	{4, 2, 1, 3, 0},
}

// runOrder is the order the contenders run in at run r.
func runOrder(r int) []int {
	order := runOrders[r%contenders]
	return order[:]
}

// scale applies, plans and destroys n resources of each contender against
// one fake server, h.runs times, after an untimed validate of each.
func (h *harness) scale(ctx context.Context, cli string, n int) (scaleResult, error) {
	res := scaleResult{engine: bench.CLIVersion(ctx, cli), n: n}
	svc, err := startService(fakeserver.Options{})
	if err != nil {
		return res, err
	}
	defer svc.Close()
	configs := [contenders]string{
		ours:        jobConfig(n, "", ""),
		minimal:     minimalConfig(n, "minimal_job"),
		minimalWide: minimalConfig(n, "minimal_wide_job"),
		restapi:     restapiConfig(n, svc.url, apiKey),
		data:        dataConfig(n),
	}
	var ws [contenders]*workspace
	for i := range ws {
		// A folder per engine: an engine refuses state a newer one wrote.
		if ws[i], err = h.workspace(fmt.Sprintf("scale-%s-%d-%s", strings.ReplaceAll(res.engine, " ", "-"), n, contenderNames[i]), configs[i], svc); err != nil {
			return res, err
		}
		ws[i].cli.Path = cli
		// Every contender but terraform_data runs a provider; its CPU is
		// told apart from the CLI's on Linux only (bench.RunForCPU).
		res.each[i].watched = i != data && runtime.GOOS == "linux"
		// Untimed: checks the configuration, and starts the provider once
		// so that no contender's first run pays for a cold page cache.
		if _, err := ws[i].run(ctx, "validate", "-no-color"); err != nil {
			return res, fmt.Errorf("%s: %w", contenderNames[i], err)
		}
	}
	for r := range h.runs {
		var line []string
		for _, i := range runOrder(r) {
			svc.rec.Reset()
			c, err := h.cycle(ctx, ws[i])
			if err != nil {
				return res, fmt.Errorf("%s: %w", contenderNames[i], err)
			}
			byMethod, failures := requestMix(svc.rec.Exchanges())
			e := &res.each[i]
			e.cycles = append(e.cycles, c)
			e.requests = append(e.requests, byMethod)
			e.failures = append(e.failures, failures)
			line = append(line, fmt.Sprintf("%s %s", contenderNames[i], bench.Seconds(c.total())))
		}
		h.log("scale N=%d (%s) run %d: %s", n, res.engine, r+1, strings.Join(line, ", "))
	}
	return res, nil
}

// requestMix counts exchanges by method, and those answered outside 2xx.
func requestMix(xs []bench.Exchange) (byMethod map[string]int64, failures int64) {
	byMethod = map[string]int64{}
	for _, x := range xs {
		byMethod[x.Method]++
		if x.Status/100 != 2 {
			failures++
		}
	}
	return byMethod, failures
}

// methodOrder is the order methods are listed in; others follow, sorted.
var methodOrder = []string{"POST", "GET", "PUT", "PATCH", "DELETE"}

// formatRequests describes the median requests per resource of a cycle:
// "5.0 (POST 1.0, GET 3.0, DELETE 1.0)", with failures when some answers
// were not 2xx.
func formatRequests(runs []map[string]int64, failures []int64, n int) string {
	if len(runs) == 0 || n <= 0 {
		return "-"
	}
	methods := map[string]bool{}
	for _, m := range runs {
		for k := range m {
			methods[k] = true
		}
	}
	var names []string
	for _, k := range methodOrder {
		if methods[k] {
			names = append(names, k)
			delete(methods, k)
		}
	}
	var rest []string
	for k := range methods {
		rest = append(rest, k)
	}
	slices.Sort(rest)
	names = append(names, rest...)

	per := func(counts []int64) string { return fmt.Sprintf("%.1f", float64(bench.MedianInt(counts))/float64(n)) }
	totals := make([]int64, len(runs))
	for i, m := range runs {
		for _, c := range m {
			totals[i] += c
		}
	}
	if len(names) == 0 {
		return "0"
	}
	var parts []string
	for _, k := range names {
		counts := make([]int64, len(runs))
		for i, m := range runs {
			counts[i] = m[k]
		}
		parts = append(parts, k+" "+per(counts))
	}
	out := per(totals) + " (" + strings.Join(parts, ", ") + ")"
	if bench.MedianInt(failures) > 0 {
		out += ", non-2xx " + per(failures)
	}
	return out
}

func scaleTable(results []scaleResult) *bench.Table {
	t := &bench.Table{
		Title: "apply / plan (refresh) / destroy of N resources: transcription_job beside a minimal framework provider " +
			"(three attributes, and as wide as transcription_job), the generic REST provider and terraform_data, against one fake server (medians)",
		Header: []string{"engine", "N", "resource", "apply", "plan", "destroy", "apply: ours ÷", "plan: ours ÷", "destroy: ours ÷",
			"extra per resource", "provider CPU per resource", "CLI CPU per resource", "requests per resource"},
		Notes: []string{
			"`transcription_job` is this provider with only `audio_url` set; `minimal_job` is a terraform-plugin-framework provider " +
				"with three attributes (id, audio_url, status) and plain net/http (internal/bench/cmd/minimalprovider): create is a POST " +
				"and a GET, no waiting for the job to finish; `minimal_wide_job` is the same resource with 40 more optional string attributes, " +
				"left null, as many top-level attributes as transcription_job: what that width alone costs; `restapi_object` is Mastercard's terraform-provider-restapi " +
				"v1.20.0 (SDKv2), configured with `create_returns_object = true`; `terraform_data` is built into Terraform. " +
				"The five run one after the other against the same fake server, in an order that changes from run to run (which runs first, and which after which).",
			"`ours ÷` divides transcription_job's median by the row's: ours/minimal, ours/minimal_wide, ours/restapi, ours/terraform_data. " +
				"`extra per resource` is (row − terraform_data) of apply+plan+destroy, divided by N: what the provider, " +
				"its HTTP calls and the fake server add to Terraform core's own work, per resource and cycle. " +
				"`provider CPU per resource` is the CPU time (user + system) of the provider processes over the cycle (the CLI's children, whose time the kernel adds up as it reaps them), divided by N; " +
				"`CLI CPU per resource` is the CLI's own (its process's CPU time), divided by N: " +
				"what Terraform itself spends on the resource type: it decodes, checks and compares every attribute of each value a call returns, " +
				"and the local backend rewrites the whole state file after each resource it changes. " +
				"`requests per resource` counts every request of one cycle (create, polls, refresh, delete), by method. " +
				"The plan must find no changes, or the run fails.",
		},
	}
	for _, r := range results {
		for i := range contenders {
			t.Add(scaleRow(r, i)...)
		}
	}
	return t
}

// scaleRow is contender i's row of one N.
func scaleRow(r scaleResult, i int) []string {
	e, o, d := r.each[i], r.each[ours], r.each[data]
	row := []string{r.engine, fmt.Sprint(r.n), contenderNames[i]}
	phases := []func(cycle) time.Duration{
		func(c cycle) time.Duration { return c.apply },
		func(c cycle) time.Duration { return c.plan },
		func(c cycle) time.Duration { return c.destroy },
	}
	for _, pick := range phases {
		row = append(row, bench.Seconds(e.cycles.median(pick)))
	}
	for _, pick := range phases {
		cell := "1.00×"
		if i != ours {
			cell = bench.Ratio(o.cycles.median(pick), e.cycles.median(pick))
		}
		row = append(row, cell)
	}
	extra, cpu := "-", "-"
	if i != data {
		extra = bench.Millis((e.cycles.median(cycle.total) - d.cycles.median(cycle.total)) / time.Duration(r.n))
	}
	if e.watched {
		cpu = bench.Millis(e.cycles.median(func(c cycle) time.Duration { return c.providerCPU }) / time.Duration(r.n))
	}
	cliCPU := bench.Millis(e.cycles.median(func(c cycle) time.Duration { return c.cliCPU }) / time.Duration(r.n))
	return append(row, extra, cpu, cliCPU, formatRequests(e.requests, e.failures, r.n))
}
