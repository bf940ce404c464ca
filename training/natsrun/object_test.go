package natsrun

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// flakyStore fails GetBytes with context.Canceled its first fails calls,
// as nats.go's object store can after the last chunk has arrived.
type flakyStore struct {
	jetstream.ObjectStore
	fails, calls int
	err          error
}

func (f *flakyStore) GetBytes(ctx context.Context, name string, _ ...jetstream.GetObjectOpt) ([]byte, error) {
	f.calls++
	if f.calls <= f.fails {
		return nil, fmt.Errorf("reading %s: %w", name, f.err)
	}
	return []byte("net"), nil
}

func TestGetObjectRetriesSpuriousCancel(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name      string
		ctx       context.Context
		fails     int
		err       error
		wantCalls int
		wantData  bool
	}{
		{"no failure", context.Background(), 0, context.Canceled, 1, true},
		{"two spurious cancels", context.Background(), 2, context.Canceled, 3, true},
		{"cancels every time", context.Background(), 100, context.Canceled, objectAttempts, false},
		{"our context is cancelled", cancelled, 1, context.Canceled, 1, false},
		{"another error", context.Background(), 1, jetstream.ErrObjectNotFound, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &flakyStore{fails: tc.fails, err: tc.err}
			data, err := getObject(tc.ctx, s, "ckpt-000010.tnet")
			if s.calls != tc.wantCalls {
				t.Errorf("%d calls, want %d", s.calls, tc.wantCalls)
			}
			if got := err == nil && string(data) == "net"; got != tc.wantData {
				t.Errorf("data %q, error %v", data, err)
			}
			if !tc.wantData && !errors.Is(err, tc.err) {
				t.Errorf("error %v does not wrap %v", err, tc.err)
			}
		})
	}
}
