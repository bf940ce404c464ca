// Package syncbuf is a text buffer that goroutines may write to while
// another reads it, as tests read a child process's or a background
// loop's output while it runs.
package syncbuf

import (
	"strings"
	"sync"
)

// Buffer collects what is written to it. It is safe for concurrent use,
// and its zero value is an empty buffer.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p; it never fails.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns all written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
