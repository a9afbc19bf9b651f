package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/tfcli"
)

const apiKey = "bench-key"

// harness is what every section uses: the CLI, the providers it runs
// (through dev_overrides), and a scratch folder.
type harness struct {
	cli         string // terraform or tofu executable
	providerExe string // the provider binary the CLI starts
	minimalExe  string // the minimal framework provider (scale section only)
	restapiExe  string // Mastercard's terraform-provider-restapi (scale section only)
	rc          string // CLI configuration with the dev_overrides
	root        string // scratch folder, removed at the end
	runs        int
	log         func(format string, args ...any)
}

// service is a fake server on loopback, behind a recorder.
type service struct {
	fake *fakeserver.Server
	rec  *bench.Recorder
	srv  *http.Server
	url  string
}

func startService(opts fakeserver.Options) (*service, error) {
	opts.APIKey = apiKey
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	fake := fakeserver.New(opts)
	rec := bench.NewRecorder(fake)
	srv := &http.Server{Handler: rec, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &service{fake: fake, rec: rec, srv: srv, url: "http://" + ln.Addr().String()}, nil
}

func (s *service) Close() {
	_ = s.srv.Close()
	s.fake.Close()
}

// workspace is one root module the CLI runs in, pointed at a service.
type workspace struct {
	cli tfcli.CLI
}

func (h *harness) workspace(name, config string, svc *service) (*workspace, error) {
	dir := filepath.Join(h.root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return nil, err
	}
	env := tfcli.Environment(h.rc,
		"TRANSCRIPTION_BASE_URL="+svc.url,
		"TRANSCRIPTION_API_KEY="+apiKey,
		"TF_LOG=", // no logging: it would dominate the timings
	)
	return &workspace{cli: tfcli.CLI{Path: h.cli, Dir: dir, Env: env}}, nil
}

// Commands timed by the sections. Terraform needs no init here: the
// provider comes from dev_overrides and terraform_data is built in.
var (
	applyArgs   = []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	planArgs    = []string{"plan", "-input=false", "-no-color"}
	destroyArgs = []string{"destroy", "-auto-approve", "-input=false", "-no-color"}
)

// run runs the CLI and returns its wall time; its standard output is
// dropped, its standard error is in the error when it fails.
func (w *workspace) run(ctx context.Context, args ...string) (time.Duration, error) {
	elapsed, _, err := w.runTimed(ctx, args...)
	return elapsed, err
}

// runTimed is run, with the CPU time of the CLI's process: its own, and
// its children's, the provider processes it started and waited for.
func (w *workspace) runTimed(ctx context.Context, args ...string) (elapsed time.Duration, cpu bench.CommandCPU, err error) {
	cmd := w.cli.Command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	start := time.Now()
	cpu, err = bench.RunForCPU(cmd)
	elapsed = time.Since(start)
	if err != nil {
		return elapsed, cpu, fmt.Errorf("%s %v in %s: %w\n%s", filepath.Base(w.cli.Path), args, w.cli.Dir, err, stderr.String())
	}
	return elapsed, cpu, nil
}

// stateSize is the size of the workspace's state file.
func (w *workspace) stateSize() (int64, error) {
	fi, err := os.Stat(filepath.Join(w.cli.Dir, "terraform.tfstate"))
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

const providerBlock = `terraform {
  required_providers {
    transcription = { source = "transcription-service/transcription" }
  }
}

provider "transcription" {}
`

// jobConfig declares n transcription jobs; query is appended to each
// audio_url (such as "?duration=3600"), settings are more arguments (such
// as "include_transcript = true").
func jobConfig(n int, query, settings string) string {
	return providerBlock + fmt.Sprintf(`
resource "transcription_job" "bench" {
  count     = %d
  audio_url = "https://media.example.com/bench/recording-${count.index}.wav%s"
  %s
}
`, n, query, settings)
}

// minimalConfig declares n resources of resourceType (minimal_job or
// minimal_wide_job) of the minimal framework provider
// (cmd/minimalprovider), which reads the service's address and key from the
// environment like ours.
func minimalConfig(n int, resourceType string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    minimal = { source = "bench/minimal" }
  }
}

provider "minimal" {}

resource "%s" "bench" {
  count     = %d
  audio_url = "https://media.example.com/bench/recording-${count.index}.wav"
}
`, resourceType, n)
}

// restapiConfig declares n jobs as Mastercard's generic REST provider
// manages them: POST {"audio_url": ...} to the collection; the create answer
// {id, result_url} holds the id (create_returns_object, id_attribute "id"),
// and the job is read, and deleted, at path/{id}. Not write_returns_object:
// the service has no PUT, and nothing is ever updated here.
func restapiConfig(n int, url, key string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    restapi = { source = "mastercard/restapi" }
  }
}

provider "restapi" {
  uri                   = %q
  headers               = { "x-service-key" = %q }
  id_attribute          = "id"
  create_returns_object = true
}

resource "restapi_object" "bench" {
  count = %d
  path  = "/v2/pre-recorded"
  data  = jsonencode({ audio_url = "https://media.example.com/bench/recording-${count.index}.wav" })
}
`, url, key, n)
}

// dataConfig declares n terraform_data resources, Terraform core's floor.
func dataConfig(n int) string {
	return fmt.Sprintf(`
resource "terraform_data" "bench" {
  count = %d
  input = "https://media.example.com/bench/recording-${count.index}.wav"
}
`, n)
}

// liveConfig reads every live job.
const liveConfig = providerBlock + `
data "transcription_live_jobs" "all" {}

output "live_jobs" {
  value = length(data.transcription_live_jobs.all.ids)
}
`
