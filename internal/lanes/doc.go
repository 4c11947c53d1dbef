// Package lanes holds the hot loops of the engines and optimizers as slice
// kernels with two implementations: a scalar reference path in plain Go, and a
// path that runs four float64 lanes per instruction with Go's simd/archsimd
// (AVX2 and FMA on amd64). The lane path is compiled only when the toolchain
// runs with GOEXPERIMENT=simd on amd64 and used only when the CPU reports
// AVX2 and FMA; everywhere else the scalar path runs, so a plain go build works
// on every architecture. Path reports which one this binary uses. Where the
// CPU also has AVX-512 with full-width 512-bit square roots (wideRMSProp),
// RMSProp's loops run eight lanes per instruction with the four-lane loops'
// operations and bits (GODEBUG=cpu.avx512f=off turns it off); on Intel
// Xeons with AMX, where eight lanes measured slower, four (intelAMX).
//
// On some Intel CPUs a legacy-SSE instruction run while the vector
// registers' upper halves are in use costs about a hundred cycles, and Go
// compiles float64 scalars, and their spills, with SSE encodings: hot
// kernels therefore broadcast their scalars from memory, keep no float64
// live across a vector loop (stageTraceAt, rmsprop8FoldAt;
// docs/performance.md, "Intel"), zero a vector with its zero value, not
// bc(0) (XORPS), do their tails in lanes loaded and stored in part or after
// clearUpper (VZEROUPPER), and every kernel of its own (go:noinline) that
// returns no vector ends with clearUpper: its caller reloads its float64
// arguments after the call with legacy-SSE moves. The test
// TestNoLegacySSEWithUpperHalvesInUse disassembles the package's test
// binary with binutils' objdump, follows each function's control flow, and
// fails on a legacy-SSE instruction that can run with the upper halves in
// use; make check-machine-code runs it on bin/ccn as built.
//
// The two paths compute the same formulas. Element-wise kernels (the RMSProp
// update, trace recurrences, axpy forms) perform the same operations in the
// same order in both paths and agree bitwise, except where noted. The lane
// exponential is not math.Exp (it is a polynomial after Cody-Waite range
// reduction, accurate to about 1 ulp), and lane dot products sum in four
// partial sums, so the two builds differ in the last bits of activations.
//
// The float32 kernels of the opt-in float32 engine (column32.go,
// rmsprop32.go: Preact32, StageTraceFold32, RMSProp32, ...) compute the
// same formulas on float32 parameters, traces and optimizer state, eight
// lanes per instruction in the lane path; they change nothing of the
// float64 kernels, and runs that use them say so in their numerics
// (Float32Numerics, versioned by Float32NumericsVersion).
//
// Within one build, every kernel is deterministic: the same inputs give the
// same bits.
package lanes
