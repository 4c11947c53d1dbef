package lanes

import (
	"runtime"
	"strconv"

	"golang.org/x/sys/cpu"
)

// NumericsVersion numbers the arithmetic of the lane kernels: the order of
// summation, the fused operations and the polynomial of the lane exponential.
// It changes whenever a change to a lane kernel can change the bits a lane
// build computes, so that runs made by builds whose numerics differ are never
// taken for one another (a summary records Numerics, and a sweep refuses to
// resume across a change). The scalar path's arithmetic is Go's own and is
// versioned with it.
const NumericsVersion = 1

// Numerics names the numerics of this binary's kernels: Path() and, for the
// lane path, NumericsVersion, then how the platform's own arithmetic differs
// from the reference platform's (platformSuffix), as in "simd/1", "scalar"
// or "scalar/arm64-fma".
func Numerics() string {
	n := Path()
	if useLanes {
		n += "/" + strconv.Itoa(NumericsVersion)
	}
	return n + platform
}

// platform is this binary's platformSuffix.
var platform = platformSuffix(runtime.GOARCH, compilerFuses(), cpu.X86.HasAVX && cpu.X86.HasFMA)

// platformSuffix names what the Go code's own floating-point arithmetic (the
// scalar path, and what the lane build computes outside its kernels) depends
// on besides the source: the architecture, whether the compiler fuses x·y + z
// into one rounding (fuses: Go does on arm64, ppc64, s390x and riscv64, and
// on amd64 built for GOAMD64=v3 or above), and on amd64 whether math.Exp
// takes its FMA path (expFMA: a CPU with AVX and FMA). The reference
// platform, amd64 without fusion with math.Exp's FMA path (where every
// committed run was made), has no suffix; any other has "/" + goarch, then
// "-fma" if fuses, then "-exp-nofma" on amd64 without expFMA.
func platformSuffix(goarch string, fuses, expFMA bool) string {
	if goarch == "amd64" && !fuses && expFMA {
		return ""
	}
	s := "/" + goarch
	if fuses {
		s += "-fma"
	}
	if goarch == "amd64" && !expFMA {
		s += "-exp-nofma"
	}
	return s
}

// compilerFuses reports whether this build's compiler fuses x·y + z
// (fusesMulAdd).
func compilerFuses() bool { return fusesMulAdd(1+0x1p-30, 1-0x1p-30, -1) != 0 }

// fusesMulAdd returns x·y + z as this build compiles it: rounded once where
// the compiler fuses the two operations, twice where it does not. For x =
// 1 + 2⁻³⁰, y = 1 − 2⁻³⁰, z = −1 the exact x·y is 1 − 2⁻⁶⁰, which rounds to 1,
// so the result is 0 unfused and −2⁻⁶⁰ fused.
//
//go:noinline
func fusesMulAdd(x, y, z float64) float64 { return x*y + z }

// Float32NumericsVersion numbers the arithmetic of the float32 engine's
// kernels (the float32 functions of this package and the float32 recursions
// that call them), in both paths: it changes whenever a change can change the
// bits the float32 engine computes. Version 3 floors RMSProp's accumulator
// (AccumulatorFloor32) and flushes trace entries below TinyTrace32.
const Float32NumericsVersion = 3

// Float32Numerics names the numerics of the float32 engine in a build whose
// float64 kernels compute with numerics n (Numerics()): n followed by "/f32"
// and, from the float32 kernels' second version on, their version, as in
// "simd/1/f32" (version 1) or "simd/1/f32/3".
func Float32Numerics(n string) string { return float32Numerics(n, Float32NumericsVersion) }

func float32Numerics(n string, version int) string {
	if version == 1 {
		return n + "/f32"
	}
	return n + "/f32/" + strconv.Itoa(version)
}
