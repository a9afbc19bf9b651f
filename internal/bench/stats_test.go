package bench

import (
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{3}, 3},
		{[]time.Duration{5, 1, 3}, 3},
		{[]time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2 in integer nanoseconds
	} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if got := MedianInt([]int64{10, 30, 20, 40}); got != 25 {
		t.Errorf("MedianInt = %d, want 25", got)
	}
}

func TestTable_alignsColumns(t *testing.T) {
	tb := &Table{Title: "t", Header: []string{"a", "long header"}, Notes: []string{"note"}}
	tb.Add("wide cell", "x")
	var b strings.Builder
	tb.Fprint(&b)
	want := "\n### t\n\n| a         | long header |\n| --------- | ----------- |\n| wide cell | x           |\n\nnote\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestTable_countsCharactersNotBytes(t *testing.T) {
	tb := &Table{Header: []string{"ratio ÷", "b"}}
	tb.Add("1.00×", "x")
	var b strings.Builder
	tb.Fprint(&b)
	want := "| ratio ÷ | b |\n| ------- | - |\n| 1.00×   | x |\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
