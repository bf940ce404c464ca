package train

// The first layer's and the head's loops, in plain Go. On amd64 with
// AVX2 and FMA, addTo, head and gOut run vector versions of them
// (kernels_amd64.s) on the whole blocks of 8 floats and these on the rest.

// addToGo adds src to dst, element by element.
func addToGo(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

// screlu is the activation, clamp(x, 0, 1)².
func screlu(x float32) float32 {
	x = min(max(x, 0), 1)
	return x * x
}

// headGo is Σ screlu(acc[j])·out[j].
func headGo(acc, out []float32) float32 {
	out = out[:len(acc)]
	var s float32
	for j, x := range acc {
		s += screlu(x) * out[j]
	}
	return s
}

// gOutGo adds dy·screlu(acc[j]) to g[j] and sets dacc[j] to
// 2·dy·out[j]·acc[j] where 0 < acc[j] < 1, else 0.
func gOutGo(g, dacc, acc, out []float32, dy float32) {
	g, dacc, out = g[:len(acc)], dacc[:len(acc)], out[:len(acc)]
	for j, x := range acc {
		g[j] += dy * screlu(x)
		d := float32(0)
		if x > 0 && x < 1 {
			d = 2 * dy * out[j] * x
		}
		dacc[j] = d
	}
}
