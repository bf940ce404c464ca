package train

// addToGo adds src to dst, element by element: addTo without vector
// instructions.
func addToGo(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}
