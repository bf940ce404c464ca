package shipped

import (
	"testing"

	"trench/checkpoints"
)

func TestDefaultDecodes(t *testing.T) {
	data := Default()
	if len(data) > 8<<20 {
		t.Errorf("the shipped net is %d bytes; keep it to a few MB", len(data))
	}
	c, err := checkpoints.Decode(data, Name)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tensors) == 0 || len(c.Config) == 0 {
		t.Errorf("the shipped net has %d tensors and a %d-byte config", len(c.Tensors), len(c.Config))
	}
}
