//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// useLanes is true when the CPU has the AVX2 and FMA instructions that the
// lane kernels use.
var useLanes = archsimd.X86.AVX2() && archsimd.X86.FMA()

// clearUpper zeroes the upper halves of the vector registers (VZEROUPPER)
// after a lane kernel. Go's scalar floating-point code is SSE-encoded, and
// SSE instructions after 256-bit code with dirty upper halves pay a false
// dependency on every instruction; the compiler does not insert the
// instruction itself (archsimd.ClearAVXUpperBits documents this).
func clearUpper() { archsimd.ClearAVXUpperBits() }
