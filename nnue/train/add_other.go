//go:build !amd64

package train

// addTo adds src to dst, element by element: the hot loop of the first
// layer, forward (rows into an accumulator) and backward (an
// accumulator's gradient into rows).
func addTo(dst, src []float32) { addToGo(dst, src) }
