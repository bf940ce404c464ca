//go:build !amd64

package gemm

var kernels = []kernel{genericKernel}

// available lists the kernels this CPU can run, fastest first.
func available() []kernel { return kernels }
