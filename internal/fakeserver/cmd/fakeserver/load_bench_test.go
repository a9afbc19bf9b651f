package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// The load benchmark's sizes; make bench runs the defaults.
var (
	loadJobs       = flag.Int("load-jobs", 10000, "BenchmarkLoad: jobs created per run")
	loadClients    = flag.Int("load-clients", 200, "BenchmarkLoad: concurrent clients")
	loadProcessing = flag.Duration("load-processing", 200*time.Millisecond, "BenchmarkLoad: -processing-time of the emulator")
	loadPoll       = flag.Duration("load-poll", 50*time.Millisecond, "BenchmarkLoad: time between a client's polls of its job")
	loadRetention  = flag.Duration("load-retention", time.Second, "BenchmarkLoad: -retention of the run with expiry on")
	loadTimeout    = flag.Duration("load-timeout", 10*time.Minute, "BenchmarkLoad: a run taking longer fails")
)

const loadKey = "load-key"

// BenchmarkLoad runs the fakeserver command as its own process on loopback
// and drives -load-jobs job creations, each polled until done, from
// -load-clients concurrent clients through its HTTP interface, once with
// retention off and once with it on. It reports the throughput, the
// latency of the requests, and the process's peak memory (VmHWM) when half
// the jobs were done and at the end: with expiry on the peak stops growing,
// without it grows with the jobs kept. Linux only (it reads /proc).
//
//	go test -run '^$' -bench Load -benchtime 1x ./internal/fakeserver/cmd/fakeserver
//	go test -run '^$' -bench Load -benchtime 1x ./internal/fakeserver/cmd/fakeserver -args -load-jobs 1000 -load-clients 50
func BenchmarkLoad(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads the emulator's peak memory from /proc")
	}
	exe := filepath.Join(b.TempDir(), "fakeserver")
	build := exec.Command("go", "build", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the command: %v\n%s", err, out)
	}
	for _, retention := range []time.Duration{0, *loadRetention} {
		name := "retention=off"
		if retention > 0 {
			name = "retention=" + retention.String()
		}
		b.Run(name, func(b *testing.B) {
			var last loadResult
			for range b.N {
				b.StopTimer()
				srv := startLoadServer(b, exe, retention)
				b.StartTimer()
				r, err := driveLoad(srv, *loadJobs, *loadClients, *loadPoll, *loadTimeout)
				b.StopTimer()
				if stopErr := srv.stop(); err == nil && stopErr != nil {
					err = fmt.Errorf("the emulator's exit: %w", stopErr)
				}
				if err != nil {
					b.Fatal(err)
				}
				last = r
			}
			b.ReportMetric(float64(last.jobs)/last.elapsed.Seconds(), "jobs/s")
			b.ReportMetric(float64(last.requests)/last.elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(last.requests)/float64(last.jobs), "req/job")
			b.ReportMetric(ms(last.p50), "p50-ms")
			b.ReportMetric(ms(last.p99), "p99-ms")
			b.ReportMetric(mib(last.peakAtHalf), "peak-MiB-at-half")
			b.ReportMetric(mib(last.peak), "peak-MiB")
			b.ReportMetric(float64(last.expired), "jobs-expired")
		})
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func mib(n int64) float64        { return float64(n) / (1 << 20) }

// loadServer is the command running as a process.
type loadServer struct {
	cmd  *exec.Cmd
	url  string
	done chan error // the process's exit
	once sync.Once
	exit error
}

var loadListening = regexp.MustCompile(`^fakeserver listening on (http://127\.0\.0\.1:\d+)$`)

func startLoadServer(b *testing.B, exe string, retention time.Duration) *loadServer {
	b.Helper()
	cmd := exec.Command(exe, "-addr", "127.0.0.1:0", "-quiet",
		"-processing-time", loadProcessing.String(), "-retention", retention.String())
	cmd.Env = append(os.Environ(), "FAKESERVER_API_KEY="+loadKey)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	srv := &loadServer{cmd: cmd, done: make(chan error, 1)}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		_ = cmd.Process.Kill()
		b.Fatalf("the command printed no listening line: %v", cmd.Wait())
	}
	m := loadListening.FindStringSubmatch(lines.Text())
	if m == nil {
		_ = cmd.Process.Kill()
		b.Fatalf("first line %q", lines.Text())
	}
	srv.url = m[1]
	go func() {
		_, _ = io.Copy(io.Discard, stdout)
		srv.done <- cmd.Wait()
	}()
	b.Cleanup(func() { _ = srv.stop() })
	return srv
}

// stop ends the process as SIGTERM does (gracefully), once, and returns
// how it exited.
func (s *loadServer) stop() error {
	s.once.Do(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case s.exit = <-s.done:
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
			s.exit = fmt.Errorf("still running 15 s after SIGTERM: %w", <-s.done)
		}
	})
	return s.exit
}

// peakRSS is the process's VmHWM, in bytes.
func (s *loadServer) peakRSS() int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	return bench.ParseVmHWM(status) * 1024
}

type loadResult struct {
	jobs, requests   int
	elapsed          time.Duration
	p50, p99         time.Duration
	peakAtHalf, peak int64
	expired          int
}

// driveLoad has clients workers create jobs until jobs have been made,
// each polling its job every poll until it is done.
func driveLoad(srv *loadServer, jobs, clients int, poll, timeout time.Duration) (loadResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	defer hc.CloseIdleConnections()

	var next, finished atomic.Int64
	var halfOnce sync.Once
	var res loadResult
	var mu sync.Mutex
	var latencies []time.Duration
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}

	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			defer func() {
				mu.Lock()
				latencies = append(latencies, mine...)
				mu.Unlock()
			}()
			do := func(method, path string, body []byte) (int, []byte, error) {
				req, err := http.NewRequestWithContext(ctx, method, srv.url+path, bytes.NewReader(body))
				if err != nil {
					return 0, nil, err
				}
				req.Header.Set(client.ServiceKeyHeader, loadKey)
				if body != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				t := time.Now()
				resp, err := hc.Do(req)
				if err != nil {
					return 0, nil, err
				}
				data, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				mine = append(mine, time.Since(t))
				return resp.StatusCode, data, err
			}
			for {
				i := next.Add(1)
				if i > int64(jobs) || ctx.Err() != nil {
					return
				}
				body := fmt.Appendf(nil, `{"audio_url":"https://media.example.com/load/%d.wav"}`, i)
				status, data, err := do(http.MethodPost, "/v2/pre-recorded", body)
				if err != nil || status != http.StatusCreated {
					fail(fmt.Errorf("create %d: %d %s %v", i, status, data, err))
					return
				}
				var created client.InitResponse
				if err := json.Unmarshal(data, &created); err != nil {
					fail(err)
					return
				}
				for {
					status, data, err := do(http.MethodGet, "/v2/pre-recorded/"+created.ID, nil)
					if err != nil || status != http.StatusOK {
						fail(fmt.Errorf("poll %s: %d %s %v", created.ID, status, data, err))
						return
					}
					if bytes.Contains(data, []byte(`"status":"done"`)) {
						break
					}
					select {
					case <-ctx.Done():
						return
					case <-time.After(poll):
					}
				}
				if finished.Add(1) == int64(jobs/2) {
					halfOnce.Do(func() { res.peakAtHalf = srv.peakRSS() })
				}
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	if firstErr != nil {
		return res, firstErr
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("the run took more than %s", timeout)
	}
	res.jobs, res.requests = int(finished.Load()), len(latencies)
	res.peak = srv.peakRSS()
	slices.Sort(latencies)
	res.p50, res.p99 = latencies[len(latencies)/2], latencies[len(latencies)*99/100]
	res.expired = srv.stat("jobs_expired")
	return res, nil
}

// stat reads one counter of GET /_emulator/stats (-1 when it cannot).
func (s *loadServer) stat(name string) int {
	req, _ := http.NewRequest(http.MethodGet, s.url+"/_emulator/stats", nil)
	req.Header.Set(client.ServiceKeyHeader, loadKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var stats map[string]json.Number
	if err := json.NewDecoder(resp.Body).Decode(&stats); err != nil {
		return -1
	}
	n, err := strconv.Atoi(stats[name].String())
	if err != nil {
		return -1
	}
	return n
}
