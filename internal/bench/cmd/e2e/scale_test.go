package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
)

func TestRunOrder(t *testing.T) {
	firsts := map[int]bool{}
	for r := range contenders {
		order := runOrder(r)
		sorted := slices.Sorted(slices.Values(order))
		if !slices.Equal(sorted, []int{ours, minimal, minimalWide, restapi, data}) {
			t.Fatalf("run %d: order %v is not a permutation of the contenders", r, order)
		}
		firsts[order[0]] = true
	}
	if len(firsts) != contenders {
		t.Errorf("over %d runs, only %v ran first", contenders, firsts)
	}
	// In any 3 runs in a row (the default count), none keeps its place or
	// always follows the same other.
	for start := range contenders {
		positions, predecessors := map[int]map[int]bool{}, map[int]map[int]bool{}
		follows := map[int]int{}
		for r := start; r < start+3; r++ {
			order := runOrder(r)
			for i, c := range order {
				if positions[c] == nil {
					positions[c], predecessors[c] = map[int]bool{}, map[int]bool{}
				}
				positions[c][i] = true
				if i > 0 {
					predecessors[c][order[i-1]] = true
					follows[c]++
				}
			}
		}
		for c := range contenders {
			if len(positions[c]) < 2 {
				t.Errorf("runs %d to %d: contender %d always at %v", start, start+2, c, positions[c])
			}
			if follows[c] >= 2 && len(predecessors[c]) < 2 {
				t.Errorf("runs %d to %d: contender %d always right after %v", start, start+2, c, predecessors[c])
			}
		}
	}
}

func TestRequestMix_countsMethodsAndFailures(t *testing.T) {
	by, failures := requestMix([]bench.Exchange{
		{Method: "POST", Status: 201},
		{Method: "GET", Status: 200},
		{Method: "GET", Status: 404},
		{Method: "DELETE", Status: 202},
	})
	if by["POST"] != 1 || by["GET"] != 2 || by["DELETE"] != 1 || len(by) != 3 {
		t.Errorf("by method: %v", by)
	}
	if failures != 1 {
		t.Errorf("failures = %d, want 1", failures)
	}
}

func TestFormatRequests(t *testing.T) {
	for _, tc := range []struct {
		name     string
		runs     []map[string]int64
		failures []int64
		n        int
		want     string
	}{
		{
			name: "methods in their usual order, medians per resource",
			runs: []map[string]int64{
				{"DELETE": 10, "GET": 30, "POST": 10},
				{"DELETE": 10, "GET": 40, "POST": 10},
				{"DELETE": 10, "GET": 35, "POST": 10},
			},
			failures: []int64{0, 0, 0},
			n:        10,
			want:     "5.5 (POST 1.0, GET 3.5, DELETE 1.0)",
		},
		{
			name:     "failures shown",
			runs:     []map[string]int64{{"GET": 4, "OPTIONS": 2}},
			failures: []int64{2},
			n:        2,
			want:     "3.0 (GET 2.0, OPTIONS 1.0), non-2xx 1.0",
		},
		{name: "no requests", runs: []map[string]int64{{}, {}}, failures: []int64{0, 0}, n: 5, want: "0"},
		{name: "no runs", n: 5, want: "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := formatRequests(tc.runs, tc.failures, tc.n); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestScaleTable_rowsRatiosAndFloor(t *testing.T) {
	s := time.Second
	one := func(apply, plan, destroy, cpu, cliCPU time.Duration, reqs map[string]int64, watched bool) contenderResult {
		return contenderResult{
			cycles:   cycles{{apply: apply, plan: plan, destroy: destroy, providerCPU: cpu, cliCPU: cliCPU}},
			requests: []map[string]int64{reqs},
			failures: []int64{0},
			watched:  watched,
		}
	}
	r := scaleResult{engine: "OpenTofu v1.12.6", n: 10}
	r.each[ours] = one(4*s, 2*s, 2*s, 500*time.Millisecond, 900*time.Millisecond, map[string]int64{"POST": 10, "GET": 30, "DELETE": 10}, true)
	r.each[minimal] = one(2*s, 1*s, 1*s, 200*time.Millisecond, 400*time.Millisecond, map[string]int64{"POST": 10, "GET": 30, "DELETE": 10}, true)
	r.each[minimalWide] = one(3*s, 2*s, 1*s, 400*time.Millisecond, 600*time.Millisecond, map[string]int64{"POST": 10, "GET": 30, "DELETE": 10}, true)
	r.each[restapi] = one(1*s, 4*s, 2*s, 300*time.Millisecond, 700*time.Millisecond, map[string]int64{"POST": 10, "GET": 40, "DELETE": 10}, true)
	r.each[data] = one(1*s, 1*s, 1*s, 0, 100*time.Millisecond, map[string]int64{}, false)

	tab := scaleTable([]scaleResult{r})
	if len(tab.Rows) != contenders {
		t.Fatalf("%d rows, want %d", len(tab.Rows), contenders)
	}
	want := [][]string{
		{"OpenTofu v1.12.6", "10", "transcription_job", "4.00 s", "2.00 s", "2.00 s", "1.00×", "1.00×", "1.00×", "500 ms", "50 ms", "90 ms", "5.0 (POST 1.0, GET 3.0, DELETE 1.0)"},
		{"OpenTofu v1.12.6", "10", "minimal_job", "2.00 s", "1.00 s", "1.00 s", "2.00×", "2.00×", "2.00×", "100 ms", "20 ms", "40 ms", "5.0 (POST 1.0, GET 3.0, DELETE 1.0)"},
		{"OpenTofu v1.12.6", "10", "minimal_wide_job", "3.00 s", "2.00 s", "1.00 s", "1.33×", "1.00×", "2.00×", "300 ms", "40 ms", "60 ms", "5.0 (POST 1.0, GET 3.0, DELETE 1.0)"},
		{"OpenTofu v1.12.6", "10", "restapi_object", "1.00 s", "4.00 s", "2.00 s", "4.00×", "0.50×", "1.00×", "400 ms", "30 ms", "70 ms", "6.0 (POST 1.0, GET 4.0, DELETE 1.0)"},
		{"OpenTofu v1.12.6", "10", "terraform_data", "1.00 s", "1.00 s", "1.00 s", "4.00×", "2.00×", "2.00×", "-", "-", "10 ms", "0"},
	}
	for i, row := range tab.Rows {
		if len(row) != len(tab.Header) {
			t.Errorf("row %d has %d cells for %d columns", i, len(row), len(tab.Header))
		}
		if !slices.Equal(row, want[i]) {
			t.Errorf("row %d:\n got %q\nwant %q", i, row, want[i])
		}
	}
	var b bytes.Buffer
	tab.Fprint(&b)
	if !strings.Contains(b.String(), "| restapi_object ") {
		t.Errorf("printed table lacks the restapi row:\n%s", b.String())
	}
}

func TestScaleConfigs(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"ours", jobConfig(3, "", ""), []string{
			`source = "transcription-service/transcription"`, `resource "transcription_job" "bench"`, "count     = 3",
		}},
		{"minimal", minimalConfig(3, "minimal_job"), []string{
			`minimal = { source = "bench/minimal" }`, `provider "minimal" {}`, `resource "minimal_job" "bench"`, "count     = 3",
			`audio_url = "https://media.example.com/bench/recording-${count.index}.wav"`,
		}},
		{"minimal_wide", minimalConfig(3, "minimal_wide_job"), []string{
			`minimal = { source = "bench/minimal" }`, `resource "minimal_wide_job" "bench"`, "count     = 3",
		}},
		{"restapi", restapiConfig(3, "http://127.0.0.1:1234", "k\"ey"), []string{
			`restapi = { source = "mastercard/restapi" }`,
			`uri                   = "http://127.0.0.1:1234"`,
			`headers               = { "x-service-key" = "k\"ey" }`,
			`id_attribute          = "id"`,
			`create_returns_object = true`,
			`resource "restapi_object" "bench"`, "count = 3", `path  = "/v2/pre-recorded"`,
			`data  = jsonencode({ audio_url = "https://media.example.com/bench/recording-${count.index}.wav" })`,
		}},
		{"terraform_data", dataConfig(3), []string{`resource "terraform_data" "bench"`, "count = 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.config, w) {
					t.Errorf("configuration lacks %s:\n%s", w, tc.config)
				}
			}
			if strings.Count(tc.config, "{") != strings.Count(tc.config, "}") {
				t.Errorf("unbalanced braces:\n%s", tc.config)
			}
		})
	}
}

func TestScaleProvidersOverrides_everyHost(t *testing.T) {
	got := overridesFor(onEveryHost("bench/minimal"), "/m")
	if len(got) != 2 || got[0].Source != "registry.terraform.io/bench/minimal" || got[1].Source != "registry.opentofu.org/bench/minimal" || got[1].Dir != "/m" {
		t.Errorf("overrides: %+v", got)
	}
}
