// Command e2e is the end-to-end half of `make bench`: the real Terraform (or
// OpenTofu) CLI, running the provider built from this module through
// dev_overrides, against the fake server on loopback over real HTTP. It
// prints Markdown tables of medians, headed by a description of the machine.
//
//	go run ./internal/bench/cmd/e2e -cli .tools/terraform-1.8.5/terraform \
//	    -restapi .tools/restapi-1.20.0/terraform-provider-restapi
//
// Sections (-sections):
//
//   - scale: apply, plan (with refresh) and destroy wall times of N
//     resources of five kinds against one fake server, side by side:
//     transcription_job (audio_url only), minimal_job of a minimal
//     terraform-plugin-framework provider (cmd/minimalprovider, built here),
//     minimal_wide_job (the same, as wide as transcription_job),
//     restapi_object of Mastercard's terraform-provider-restapi (built by
//     `make bench-e2e` from the Go module proxy, passed with -restapi) and
//     terraform_data; ratios of ours to each, the provider processes' CPU
//     time and the requests per resource. See scale.go.
//   - long: one-hour recordings, state size and plan time.
//   - poll: how soon a finished job is seen.
//   - live: transcription_live_jobs over thousands of live jobs, with the
//     provider's peak memory.
//   - batch: one apply of N jobs that each take P to process, by
//     -parallelism (and an account's concurrency limit): about
//     ⌈N / parallelism⌉ × P; and jobs waited for by data sources, which
//     end near P at the default parallelism. See batch.go.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

type options struct {
	cli         string
	providerDir string
	restapi     string
	runs        int
	sections    []string
	scaleN      []int
	scaleCLIs   []string
	longN       int
	transcriptN int
	rawN        int
	duration    int
	polls       []time.Duration
	pollJobs    int
	live        []int
	liveCLIs    []string
	liveCold    bool
	batchN      []int
	batchP      []time.Duration
	batchPar    []int
	batchLimit  []int
	batchProto  bool
	out         string
}

func main() {
	var o options
	var sections, scaleN, scaleCLIs, polls, live, liveCLIs, batchN, batchP, batchPar, batchLimit string
	flag.StringVar(&o.cli, "cli", ".tools/terraform-1.8.5/terraform", "Terraform or OpenTofu executable")
	flag.StringVar(&o.providerDir, "provider-dir", "", "folder holding a built "+tfcli.ProviderBinary+" (default: build one)")
	flag.StringVar(&o.restapi, "restapi", ".tools/restapi-1.20.0/terraform-provider-restapi",
		"terraform-provider-restapi `executable` for the scale section (make bench-e2e builds it)")
	flag.IntVar(&o.runs, "runs", 3, "runs per measurement; tables show medians")
	flag.StringVar(&sections, "sections", "scale,long,poll,live,batch", "sections to run")
	flag.StringVar(&scaleN, "n", "50,200,500", "resource counts of the scale section")
	flag.StringVar(&scaleCLIs, "scale-cli", "", "Terraform or OpenTofu executables the scale section runs with, comma-separated (default: -cli)")
	flag.IntVar(&o.longN, "long-n", 200, "jobs of the long-recording section")
	flag.IntVar(&o.transcriptN, "transcript-n", 200, "jobs of the long-recording section with include_transcript = true")
	flag.IntVar(&o.rawN, "raw-n", 200, "jobs of the long-recording section with include_raw_result = true")
	flag.IntVar(&o.duration, "duration", 3600, "recording length of the long-recording section, in seconds")
	flag.StringVar(&polls, "poll", "2s,30s", "processing times of the poll section")
	flag.IntVar(&o.pollJobs, "poll-jobs", 3, "jobs per apply in the poll section")
	flag.StringVar(&live, "live", "1000,10000", "live job counts of the live section")
	flag.BoolVar(&o.liveCold, "live-cold", false, "in the live section, let the fake server build its seeded records on first read, inside the timed plan (by default it builds them before, as a service has its jobs stored)")
	flag.StringVar(&liveCLIs, "live-cli", "", "Terraform or OpenTofu executables the live section runs with, comma-separated (default: -cli)")
	flag.StringVar(&batchN, "batch-n", "20,40", "job counts of the batch section")
	flag.StringVar(&batchP, "batch-processing", "2s,5s", "processing times of the batch section")
	flag.StringVar(&batchPar, "batch-parallelism", "10,40", "values of terraform apply -parallelism in the batch section (Terraform's default: 10)")
	flag.StringVar(&batchLimit, "batch-limit", "0", "the account's concurrency limits of the batch section (the fake server's MaxConcurrentJobs; 0: none)")
	flag.BoolVar(&o.batchProto, "batch-prototype", true, "also measure the prototype of a batch that ends near its slowest job (submit without waiting, wait in data sources)")
	flag.StringVar(&o.out, "out", "", "also write the tables to this file")
	flag.Parse()

	var err error
	o.sections = splitList(sections)
	o.liveCLIs = splitList(liveCLIs)
	o.scaleCLIs = splitList(scaleCLIs)
	if o.scaleN, err = parseInts(scaleN); err == nil {
		if o.live, err = parseInts(live); err == nil {
			o.polls, err = parseDurations(polls)
		}
	}
	if err == nil {
		err = parseBatchFlags(&o, batchN, batchP, batchPar, batchLimit)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	cli, err := filepath.Abs(o.cli)
	if err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "transcription-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)

	providerDir := o.providerDir
	if providerDir == "" {
		providerDir = filepath.Join(root, "provider")
		if err := os.MkdirAll(providerDir, 0o755); err != nil {
			return err
		}
		if _, err := tfcli.BuildProvider(ctx, providerDir); err != nil {
			return err
		}
	}
	if providerDir, err = filepath.Abs(providerDir); err != nil {
		return err
	}
	h := &harness{
		cli:         cli,
		providerExe: filepath.Join(providerDir, tfcli.ProviderBinary),
		rc:          filepath.Join(root, "bench.tfrc"),
		root:        root,
		runs:        o.runs,
		log: func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, "%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
		},
	}
	overrides := overridesFor(tfcli.ProviderSources, providerDir)
	if slices.Contains(o.sections, "scale") || (slices.Contains(o.sections, "batch") && o.batchProto) {
		more, err := h.minimalProvider(ctx)
		if err != nil {
			return err
		}
		overrides = append(overrides, more...)
	}
	if slices.Contains(o.sections, "scale") {
		more, err := h.restapiProvider(o.restapi)
		if err != nil {
			return err
		}
		overrides = append(overrides, more...)
	}
	if err := tfcli.WriteOverrides(h.rc, overrides...); err != nil {
		return err
	}

	var tables []*bench.Table
	for _, section := range o.sections {
		t, err := h.section(ctx, section, o)
		if err != nil {
			return fmt.Errorf("section %s: %w", section, err)
		}
		tables = append(tables, t)
	}

	outputs := []io.Writer{os.Stdout}
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return err
		}
		defer f.Close()
		outputs = append(outputs, f)
	}
	w := io.MultiWriter(outputs...)
	framework, err := bench.ModuleOf(h.providerExe, bench.FrameworkModule)
	if err != nil {
		return fmt.Errorf("which framework %s was built with: %w", h.providerExe, err)
	}
	fmt.Fprintf(w, "Machine: %s. Provider built with terraform-plugin-framework %s. %d runs per figure, medians.\n", bench.Machine(ctx, cli), framework, o.runs)
	for _, t := range tables {
		t.Fprint(w)
	}
	return nil
}

// registryHosts are the hosts a short source address ("bench/minimal")
// stands for: Terraform's and OpenTofu's.
var registryHosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// overridesFor maps each source to dir.
func overridesFor(sources []string, dir string) []tfcli.Override {
	var out []tfcli.Override
	for _, s := range sources {
		out = append(out, tfcli.Override{Source: s, Dir: dir})
	}
	return out
}

// onEveryHost returns namespace/type's full address on each registry host.
func onEveryHost(namespaceType string) []string {
	var out []string
	for _, host := range registryHosts {
		out = append(out, host+"/"+namespaceType)
	}
	return out
}

// minimalProvider builds the minimal framework provider into the scratch
// folder and returns its overrides.
func (h *harness) minimalProvider(ctx context.Context) ([]tfcli.Override, error) {
	root, err := tfcli.ModuleRoot()
	if err != nil {
		return nil, err
	}
	minimalDir := filepath.Join(h.root, "minimal")
	h.minimalExe = filepath.Join(minimalDir, "terraform-provider-minimal")
	if err := os.MkdirAll(minimalDir, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", h.minimalExe, "./internal/bench/cmd/minimalprovider")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the minimal provider: %w\n%s", err, out)
	}
	return overridesFor(onEveryHost("bench/minimal"), minimalDir), nil
}

// restapiProvider puts the restapi executable where dev_overrides looks for
// it and returns its overrides.
func (h *harness) restapiProvider(restapiExe string) ([]tfcli.Override, error) {
	exe, err := filepath.Abs(restapiExe)
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe) // the name /proc shows its processes under
	}
	if err != nil {
		return nil, fmt.Errorf("terraform-provider-restapi (-restapi %s; `make bench-e2e` builds it): %w", restapiExe, err)
	}
	restapiDir := filepath.Join(h.root, "restapi")
	if err := os.MkdirAll(restapiDir, 0o755); err != nil {
		return nil, err
	}
	// A copy in the run's folder: dev_overrides names a folder, and the
	// run's then holds every provider it measured.
	h.restapiExe = filepath.Join(restapiDir, "terraform-provider-restapi")
	if err := copyExecutable(exe, h.restapiExe); err != nil {
		return nil, err
	}
	return overridesFor(onEveryHost("mastercard/restapi"), restapiDir), nil
}

// copyExecutable copies the executable from to to.
func copyExecutable(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755) //nolint:gosec // an executable, as built
}

// clis is the absolute paths of the executables a section runs with:
// listed, or the harness's CLI when none is.
func (h *harness) clis(listed []string) ([]string, error) {
	if len(listed) == 0 {
		return []string{h.cli}, nil
	}
	var clis []string
	for _, c := range listed {
		abs, err := filepath.Abs(c)
		if err != nil {
			return nil, err
		}
		clis = append(clis, abs)
	}
	return clis, nil
}

func (h *harness) section(ctx context.Context, name string, o options) (*bench.Table, error) {
	switch name {
	case "scale":
		clis, err := h.clis(o.scaleCLIs)
		if err != nil {
			return nil, err
		}
		var results []scaleResult
		for _, cli := range clis {
			for _, n := range o.scaleN {
				r, err := h.scale(ctx, cli, n)
				if err != nil {
					return nil, err
				}
				results = append(results, r)
			}
		}
		return scaleTable(results), nil
	case "long":
		hour := fmt.Sprintf("?duration=%d", o.duration)
		var results []longResult
		for _, v := range []longVariant{
			{name: "short", n: o.longN},
			{name: "hour", n: o.longN, query: hour},
			{name: "hour-transcript", n: o.transcriptN, query: hour, settings: "include_transcript = true"},
			{name: "hour-raw", n: o.rawN, query: hour, settings: "include_raw_result = true"},
		} {
			r, err := h.long(ctx, v)
			if err != nil {
				return nil, err
			}
			results = append(results, r)
		}
		return longTable(results), nil
	case "poll":
		var results []pollResult
		for _, p := range o.polls {
			r, err := h.poll(ctx, p, o.pollJobs)
			if err != nil {
				return nil, err
			}
			results = append(results, r)
		}
		return pollTable(results), nil
	case "live":
		clis, err := h.clis(o.liveCLIs)
		if err != nil {
			return nil, err
		}
		var results []liveResult
		for _, cli := range clis {
			for _, n := range o.live {
				r, err := h.live(ctx, cli, n, o.liveCold)
				if err != nil {
					return nil, err
				}
				results = append(results, r)
			}
		}
		return liveTable(results), nil
	case "batch":
		var results []batchResult
		for _, c := range batchCases(o.batchN, o.batchP, o.batchPar, o.batchLimit, o.batchProto) {
			r, err := h.batch(ctx, c)
			if err != nil {
				return nil, err
			}
			results = append(results, r)
		}
		return batchTable(results), nil
	}
	return nil, fmt.Errorf("unknown section %q (want scale, long, poll, live or batch)", name)
}

// parseBatchFlags reads the batch section's lists into o.
func parseBatchFlags(o *options, n, processing, parallelism, limits string) error {
	var err error
	if o.batchN, err = parseInts(n); err != nil {
		return err
	}
	if o.batchP, err = parseDurations(processing); err != nil {
		return err
	}
	if o.batchPar, err = parseInts(parallelism); err != nil {
		return err
	}
	for _, f := range splitList(limits) {
		l, err := strconv.Atoi(f)
		if err != nil || l < 0 {
			return fmt.Errorf("%q is not a concurrency limit (0 for none)", f)
		}
		o.batchLimit = append(o.batchLimit, l)
	}
	if len(o.batchLimit) == 0 {
		o.batchLimit = []int{0}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive count", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseDurations(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, f := range splitList(s) {
		d, err := time.ParseDuration(f)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("%q is not a duration", f)
		}
		out = append(out, d)
	}
	return out, nil
}
