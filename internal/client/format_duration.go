package client

import (
	"fmt"
	"time"
)

// FormatDuration writes a duration as a Go duration a user would write: 1h,
// 20m, and Go's own form for the rest (2s, 1m30s), not cut to minutes.
func FormatDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}
