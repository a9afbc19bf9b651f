// Package bench holds what the end-to-end benchmarks (cmd/e2e, run by
// `make bench`) share: medians, result tables, a description of the machine,
// an HTTP recorder put in front of the fake server, and a watcher of a
// plugin process's peak memory.
//
// The in-process benchmarks (`go test -bench`) live beside the code they
// measure, in files named *_bench_test.go.
package bench
