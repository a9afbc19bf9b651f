package provider

// How numbers, durations and lists are written in descriptions and
// diagnostics, the same everywhere.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// markdownList writes values as `a`, `b`, `c`.
func markdownList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	return strings.Join(quoted, ", ")
}

// formatFloat writes a number as a user would: 1, 0.5, 30.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// joinLines joins lines into one text.
func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// formatDuration writes a duration as a Go duration a user would write: 1h,
// 20m, and Go's own form for the rest (2s, 1m30s), not cut to minutes.
func formatDuration(d time.Duration) string {
	switch {
	case d != 0 && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}
