//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// useLanes is true when the CPU has the AVX2 and FMA instructions that the
// lane kernels use.
var useLanes = archsimd.X86.AVX2() && archsimd.X86.FMA()
