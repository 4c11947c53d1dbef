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

// wideRMSProp is true when RMSProp's loops take eight lanes: on CPUs with
// AVX-512 whose 512-bit square roots cost about what 256-bit ones do. The
// instruction set does not say so; AVX-VNNI (the VEX form, which AMD added
// with Zen 5 and Intel with its cores whose 512-bit units are full width)
// stands for it. Measured, CPU time per RMSProp step of 6,648 entries: on a
// Zen 4 (AVX-512 on 256-bit units, no AVX-VNNI) four lanes 5.3 µs, eight
// 6.1 µs; on a Zen 5, 500 entries in 300 ns with eight lanes, 580 with four.
// Both loops give the same bits, so the choice changes only the speed.
var wideRMSProp = eightLanes && archsimd.X86.AVXVNNI()

// clearUpper zeroes the upper halves of the vector registers (VZEROUPPER)
// after a lane kernel. Go's scalar floating-point code is SSE-encoded, and
// SSE instructions after 256-bit code with dirty upper halves pay a false
// dependency on every instruction; the compiler does not insert the
// instruction itself (archsimd.ClearAVXUpperBits documents this).
func clearUpper() { archsimd.ClearAVXUpperBits() }
