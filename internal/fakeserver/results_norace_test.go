//go:build !race

package fakeserver

// raceDetector is true when the tests run under the race detector.
const raceDetector = false
