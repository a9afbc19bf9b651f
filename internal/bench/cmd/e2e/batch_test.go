package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/bench"
)

func TestBatchWaves(t *testing.T) {
	for _, c := range []struct {
		c    batchCase
		want int
	}{
		{batchCase{n: 40, parallelism: 10}, 4},
		{batchCase{n: 41, parallelism: 10}, 5},
		{batchCase{n: 40, parallelism: 40}, 1},
		{batchCase{n: 20, parallelism: 40}, 1},
		{batchCase{n: 40, parallelism: 40, limit: 10}, 4},
		{batchCase{n: 40, parallelism: 10, limit: 20}, 4},
		{batchCase{n: 40, parallelism: 10, prototype: true}, 1},
	} {
		if got := c.c.waves(); got != c.want {
			t.Errorf("%+v: %d waves, want %d", c.c, got, c.want)
		}
	}
}

func TestBatchCases(t *testing.T) {
	cases := batchCases([]int{20, 40}, []time.Duration{2 * time.Second, 5 * time.Second}, []int{10, 40}, []int{0, 10}, true)
	if len(cases) != 2*2*2*3 {
		t.Fatalf("%d cases, want 24", len(cases))
	}
	protos := 0
	for _, c := range cases {
		if c.prototype {
			protos++
			if c.limit != 0 {
				t.Errorf("prototype with a limit: %+v", c)
			}
		}
	}
	if protos != 8 {
		t.Fatalf("%d prototype cases, want 8", protos)
	}
	if n := len(batchCases([]int{20}, []time.Duration{time.Second}, []int{10}, []int{0}, false)); n != 1 {
		t.Fatalf("without the prototype: %d cases", n)
	}
}

func TestBatchSpan(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	create := func(at time.Duration, status int) bench.Exchange {
		return bench.Exchange{Method: http.MethodPost, Path: "/v2/pre-recorded", Start: t0.Add(at), Status: status}
	}
	xs := []bench.Exchange{
		create(time.Second, http.StatusCreated),
		create(0, http.StatusTooManyRequests),
		{Method: http.MethodGet, Path: "/v2/pre-recorded/x", Start: t0.Add(9 * time.Second), Status: http.StatusOK},
		create(100*time.Millisecond, http.StatusCreated),
		create(3*time.Second, http.StatusTooManyRequests),
		create(4*time.Second, http.StatusCreated),
	}
	span, limited, err := batchSpan(xs, 3, 2*time.Second)
	if err != nil || span != 5900*time.Millisecond || limited != 2 {
		t.Fatalf("span %s, limited %d, %v; want 5.9s, 2", span, limited, err)
	}
	if _, _, err := batchSpan(xs, 4, time.Second); err == nil {
		t.Fatal("3 jobs created, 4 expected: no error")
	}
}

func TestBatchPrototypeConfig(t *testing.T) {
	cfg := batchPrototypeConfig(7)
	for _, want := range []string{
		`transcription = { source = "transcription-service/transcription" }`,
		"count               = 7",
		"wait_for_completion = false",
		`data "transcription_job" "bench"`,
		"id                  = transcription_job.bench[count.index].id",
		"wait_for_completion = true",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("the prototype's configuration lacks %q:\n%s", want, cfg)
		}
	}
}

func TestParseBatchFlags(t *testing.T) {
	var o options
	if err := parseBatchFlags(&o, "20,40", "2s,5s", "10,40", "0,10"); err != nil {
		t.Fatal(err)
	}
	if len(o.batchN) != 2 || len(o.batchP) != 2 || o.batchP[1] != 5*time.Second || len(o.batchPar) != 2 || o.batchLimit[1] != 10 {
		t.Fatalf("parsed %+v", o)
	}
	o = options{}
	if err := parseBatchFlags(&o, "20", "2s", "10", ""); err != nil || len(o.batchLimit) != 1 || o.batchLimit[0] != 0 {
		t.Fatalf("no limit given: %v, %v", o.batchLimit, err)
	}
	for _, bad := range [][4]string{
		{"0", "2s", "10", "0"},
		{"20", "soon", "10", "0"},
		{"20", "2s", "-1", "0"},
		{"20", "2s", "10", "-1"},
	} {
		o = options{}
		if err := parseBatchFlags(&o, bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
