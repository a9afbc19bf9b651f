//go:build !unix

package provider

import "time"

// cpuTime is not measured here: the CPU metrics of the benchmarks read 0.
func cpuTime() time.Duration { return 0 }
