package shipped

import (
	"testing"

	"trench/checkpoints"
)

func TestShippedDecode(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{Name, Default()},
		{TrichessName, Trichess()},
	} {
		if len(tc.data) > 8<<20 {
			t.Errorf("%s is %d bytes; keep it to a few MB", tc.name, len(tc.data))
		}
		c, err := checkpoints.Decode(tc.data, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Tensors) == 0 || len(c.Config) == 0 {
			t.Errorf("%s has %d tensors and a %d-byte config", tc.name, len(c.Tensors), len(c.Config))
		}
		if len(c.Optimizer) != 0 {
			t.Errorf("%s carries %d optimizer tensors; a shipped net holds its weights alone", tc.name, len(c.Optimizer))
		}
	}
}
