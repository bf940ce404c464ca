package train

import "testing"

// BenchmarkStepPlainGo is BenchmarkStep's H=128 on one thread with the
// Go loops instead of the vector ones, to weigh what they bring.
func BenchmarkStepPlainGo(b *testing.B) {
	batch := benchBatchOf(b)
	defer func(v bool) { vector = v }(vector)
	vector = false
	benchStep(b, batch, 128, 1)
}
