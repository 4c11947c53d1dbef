//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// useLanes is true when the CPU has the AVX2 and FMA instructions that the
// lane kernels use.
var useLanes = archsimd.X86.AVX2() && archsimd.X86.FMA()

// eightLanes is true when the CPU also has AVX-512 (F, CD, BW, DQ, VL), so that
// kernels may use eight lanes where that pays (rmsprop8At). The eight-lane
// code does the four-lane code's operations on the same operands and gives
// the same bits. GODEBUG=cpu.avx512f=off turns it off.
var eightLanes = useLanes && archsimd.X86.AVX512()

// clearUpper zeroes the upper halves of the vector registers (VZEROUPPER)
// after a lane kernel. Go's scalar floating-point code is SSE-encoded, and
// SSE instructions after 256-bit code with dirty upper halves pay a false
// dependency on every instruction; the compiler does not insert the
// instruction itself (archsimd.ClearAVXUpperBits documents this).
func clearUpper() { archsimd.ClearAVXUpperBits() }
