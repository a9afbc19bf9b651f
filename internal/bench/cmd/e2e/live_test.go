package main

import (
	"slices"
	"testing"
	"time"
)

func TestLiveTable_oneRowPerEngineAndSize(t *testing.T) {
	s := time.Second
	tab := liveTable([]liveResult{
		{engine: "Terraform v1.8.5", items: 10, plans: []time.Duration{3 * s, 1 * s, 2 * s}, build: []time.Duration{5 * s, 7 * s, 6 * s}, server: []time.Duration{s}, cpu: []time.Duration{s}, cliCPU: []time.Duration{s}, requests: 1, bytes: 2048, peaks: []int64{10 << 20}},
		{engine: "OpenTofu v1.12.6", items: 10, plans: []time.Duration{4 * s}, build: []time.Duration{8 * s}, server: []time.Duration{s}, cpu: []time.Duration{s}, cliCPU: []time.Duration{2 * s}, requests: 1, bytes: 2048, peaks: []int64{20 << 20}},
		{engine: "Terraform v1.8.5", items: 20, plans: []time.Duration{5 * s}, cold: true, server: []time.Duration{s}, cpu: []time.Duration{s}, cliCPU: []time.Duration{s}, requests: 1, bytes: 2048, peaks: []int64{10 << 20}},
	})
	if len(tab.Rows) != 3 {
		t.Fatalf("%d rows, want 3", len(tab.Rows))
	}
	for i, want := range [][]string{
		{"Terraform v1.8.5", "10", "2.00 s", "6.00 s"},
		{"OpenTofu v1.12.6", "10", "4.00 s", "8.00 s"},
		{"Terraform v1.8.5", "20", "5.00 s", "in plan"},
	} {
		row := tab.Rows[i]
		if len(row) != len(tab.Header) {
			t.Errorf("row %d has %d cells for %d columns", i, len(row), len(tab.Header))
		}
		if !slices.Equal(row[:4], want) {
			t.Errorf("row %d starts %q, want %q", i, row[:4], want)
		}
	}
}
