//go:build !amd64

package train

// addTo adds src to dst, element by element: the hot loop of the first
// layer, forward (rows into an accumulator) and backward (an
// accumulator's gradient into rows).
func addTo(dst, src []float32) { addToGo(dst, src) }

// head is one perspective's part of the output: Σ screlu(acc[j])·out[j].
func head(acc, out []float32) float32 { return headGo(acc, out) }

// gOut adds dy times the activations to the output weights' gradient g
// and sets dacc to the gradient of the accumulator: 2·dy·out[j]·acc[j]
// where 0 < acc[j] < 1, else 0.
func gOut(g, dacc, acc, out []float32, dy float32) { gOutGo(g, dacc, acc, out, dy) }
