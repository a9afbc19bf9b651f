package provider

// How numbers and lists are written in descriptions and
// diagnostics, the same everywhere.

import (
	"strconv"
	"strings"
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
