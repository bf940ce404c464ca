package natsrun

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"trench/training"
)

// TestCommandsRefuseBadNames checks that a run name the server cannot
// hold is refused as a usage error before any connection is tried.
func TestCommandsRefuseBadNames(t *testing.T) {
	f := &Flags{Conn: ConnOptions{URL: "nats://127.0.0.1:1"}}
	if _, _, err := f.Join(context.Background(), "bad.name", Worker{Log: io.Discard}, nil); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "bad.name") {
		t.Errorf("Join: %v, want a usage error naming the run", err)
	}
	err := f.Train(context.Background(), t.TempDir()+"/bad.name", "", 0, training.Config{}, training.Options{}, io.Discard)
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--nats-run") {
		t.Errorf("Train: %v, want a usage error saying to name the run", err)
	}
}
