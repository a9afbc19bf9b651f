// Package testutil holds what tests of several packages share.
package testutil

import (
	"strings"
	"sync"
)

// SyncBuffer is a log sink that goroutines may write to while a test reads
// it: a command's output captured while the command runs.
type SyncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
