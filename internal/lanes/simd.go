//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"

	"golang.org/x/sys/cpu"
)

// useLanes is true when the CPU has the AVX2 and FMA instructions that the
// lane kernels use.
var useLanes = archsimd.X86.AVX2() && archsimd.X86.FMA()

// eightLanes is true when the CPU also has AVX-512 (F, CD, BW, DQ, VL), so that
// kernels may use eight lanes where that pays (rmsprop8At), and is not an
// Intel Xeon with AMX (intelAMX). The eight-lane code does the four-lane
// code's operations on the same operands and gives the same bits.
// GODEBUG=cpu.avx512f=off turns it off.
var eightLanes = avx512 && !intelAMX

// avx512 is true when the CPU has the AVX-512 instructions of the eight-lane
// kernels, whether or not eightLanes uses them: their tests run where it is.
var avx512 = useLanes && archsimd.X86.AVX512()

// intelAMX is true on CPUs with AMX tiles (Intel Xeons since Sapphire
// Rapids), where the eight-lane paths measured slower than the four-lane
// ones: whole breakout runs 6-12% more CPU time for CCN 15, Columnar 6 and
// T-BPTT 5:7 (docs/performance.md, "Intel"). No AMD CPU has AMX.
var intelAMX = cpu.X86.HasAMXTile

// wideRMSProp is true when RMSProp's loops take eight lanes: on CPUs with
// AVX-512 whose 512-bit square roots cost about what 256-bit ones do. The
// instruction set does not say so; AVX-VNNI (the VEX form, which AMD added
// with Zen 5) stands for it, on eightLanes' CPUs (an Intel Xeon with AMX
// has AVX-VNNI too, and its eight-lane loops measured slower). Measured, CPU
// time per RMSProp step of 6,648 entries: on a Zen 4 (AVX-512 on 256-bit
// units, no AVX-VNNI) four lanes 5.3 µs, eight 6.1 µs; on a Zen 5, 500
// entries in 300 ns with eight lanes, 580 with four.
// Both loops give the same bits, so the choice changes only the speed.
var wideRMSProp = eightLanes && archsimd.X86.AVXVNNI()

// clearUpper zeroes the upper halves of the vector registers (VZEROUPPER)
// after a lane kernel. Go's scalar floating-point code is SSE-encoded, and
// SSE instructions after 256-bit code with dirty upper halves pay a false
// dependency on every instruction; the compiler does not insert the
// instruction itself (archsimd.ClearAVXUpperBits documents this).
func clearUpper() { archsimd.ClearAVXUpperBits() }
