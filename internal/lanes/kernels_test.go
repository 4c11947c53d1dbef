package lanes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/ccn-go/ccn/arch"
)

// This file runs every exported kernel of the package through one harness:
// its arguments are slices carved from larger buffers with guard bands of
// sentinel values before and after (guardLen entries each, two registers of
// the widest lane loop), and each call is checked three ways.
//
//   - Guard bands (both builds): the call never writes outside its slices
//     (the bands keep their bits), and its results do not depend on what lies
//     outside them (the call with NaN sentinels and with finite ones gives the
//     same bits).
//   - Twins (the GOEXPERIMENT=simd build; twin_simd_test.go): the lane path
//     and the scalar path of the same kernel, run in one binary on the same
//     inputs, agree bitwise where the package documentation says they do, and
//     within the ulp bound stated in the table otherwise.
//   - Shapes: TestKernelShapes runs both checks over a grid of lengths and
//     shapes (lane tails, whole registers, one column, eight columns, the
//     Atari input size); FuzzKernelShapes over any shape.

// guardLen is the length of each guard band.
const guardLen = 16

// Two sentinel fills of the guard bands: a NaN with a payload (a value read
// from a band poisons what it enters) and a finite value of another sign and
// size (so that a result that depends on a band differs between the two).
var (
	sentinelNaN    = math.Float64frombits(0x7ff8_dead_beef_0001)
	sentinelFinite = -3.0e5
)

// shape sizes one kernel call. Each kernel reads the fields it needs: N for
// element-wise lengths, M for a column's inputs (≥ 1), U for a stage's
// columns, W for a window's steps (≥ 1), H for dense units (≥ 1).
type shape struct{ N, M, U, W, H int }

func (s shape) String() string {
	return fmt.Sprintf("N=%d M=%d U=%d W=%d H=%d", s.N, s.M, s.U, s.W, s.H)
}

// args hands out a kernel call's slices, each carved from a buffer of its own
// with guard bands filled with sentinel. The values come from rng, so two
// harnesses with equal seeds give equal inputs whatever the sentinel.
type args struct {
	rng      *rand.Rand
	sentinel float64
	bufs     [][]float64 // the whole buffers, guard bands included
	bufs32   [][]float32 // those of float32 slices (vec32)
}

func newArgs(seed uint64, sentinel float64) *args {
	return &args{rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), sentinel: sentinel}
}

// vec returns a slice of n values drawn by fill (length and capacity n, so
// that Go's own bounds checks stop an overrun by reslicing; only unsafe loads
// and stores can reach the bands).
func (a *args) vec(n int, fill func(*rand.Rand) float64) []float64 {
	buf := make([]float64, n+2*guardLen)
	for i := range buf {
		buf[i] = a.sentinel
	}
	s := buf[guardLen : guardLen+n : guardLen+n]
	for i := range s {
		s[i] = fill(a.rng)
	}
	a.bufs = append(a.bufs, buf)
	return s
}

// vec32 is vec for a float32 slice: the values drawn by fill rounded to
// float32, the bands filled with the sentinel rounded to float32.
func (a *args) vec32(n int, fill func(*rand.Rand) float64) []float32 {
	buf := make([]float32, n+2*guardLen)
	for i := range buf {
		buf[i] = float32(a.sentinel)
	}
	s := buf[guardLen : guardLen+n : guardLen+n]
	for i := range s {
		s[i] = float32(fill(a.rng))
	}
	a.bufs32 = append(a.bufs32, buf)
	return s
}

// The value distributions of the kernels' arguments.
func normal(r *rand.Rand) float64 { return r.NormFloat64() }
func unit(r *rand.Rand) float64   { return r.Float64() }                                // activations in (0, 1)
func signed(r *rand.Rand) float64 { return 2*r.Float64() - 1 }                          // tanh values in (−1, 1)
func wide(r *rand.Rand) float64   { return math.Ldexp(r.NormFloat64(), r.IntN(40)-20) } // every magnitude
func zero(*rand.Rand) float64     { return 0 }
func mostlyZero(r *rand.Rand) float64 { // a pixel game's inputs: most entries 0
	if r.IntN(10) < 9 {
		return 0
	}
	return r.Float64()
}
func small(r *rand.Rand) float64 { return math.Ldexp(r.Float64(), -r.IntN(30)) } // variances on both sides of ε²

func (a *args) normal(n int) []float64 { return a.vec(n, normal) }
func (a *args) unit(n int) []float64   { return a.vec(n, unit) }

// scalar draws one scalar argument.
func (a *args) scalar() float64 { return a.rng.NormFloat64() }

// vecs returns w slices of n values each, every one with its own bands.
func (a *args) vecs(w, n int, fill func(*rand.Rand) float64) [][]float64 {
	out := make([][]float64, w)
	for i := range out {
		out[i] = a.vec(n, fill)
	}
	return out
}

// traceCoef returns a TraceCoef for u columns (K with the zeros of its
// layout), each slice with its own bands.
func (a *args) traceCoef(u int) TraceCoef {
	k := TraceCoef{A: a.normal(u), B: a.unit(u), E: a.normal(u), K: a.vec(8*u, zero)}
	for j := range u {
		k.K[8*j], k.K[8*j+1], k.K[8*j+2], k.K[8*j+7] = a.scalar(), a.scalar(), a.scalar(), a.scalar()
	}
	return k
}

// inside returns the values of every slice handed out (the bands left out),
// one after the other: the call's outputs, and its inputs, which it must not
// have changed differently in two runs either.
func (a *args) inside() []float64 {
	var out []float64
	for _, b := range a.bufs {
		out = append(out, b[guardLen:len(b)-guardLen]...)
	}
	for _, b := range a.bufs32 {
		for _, v := range b[guardLen : len(b)-guardLen] {
			out = append(out, float64(v))
		}
	}
	return out
}

// bandsIntact returns an error naming the first band entry that no longer
// holds the sentinel's bits.
func (a *args) bandsIntact() error {
	want := math.Float64bits(a.sentinel)
	for i, b := range a.bufs {
		n := len(b) - 2*guardLen
		for p, v := range b {
			if p >= guardLen && p < guardLen+n {
				continue
			}
			if math.Float64bits(v) != want {
				off := p - guardLen // −guardLen..−1 before the slice, n.. after it
				return fmt.Errorf("slice %d (length %d): band entry at %d overwritten with %v", i, n, off, v)
			}
		}
	}
	want32 := math.Float32bits(float32(a.sentinel))
	for i, b := range a.bufs32 {
		n := len(b) - 2*guardLen
		for p, v := range b {
			if (p < guardLen || p >= guardLen+n) && math.Float32bits(v) != want32 {
				return fmt.Errorf("float32 slice %d (length %d): band entry at %d overwritten with %v", i, n, p-guardLen, v)
			}
		}
	}
	return nil
}

// kernel is one row of the harness: how to call an exported kernel with args
// of a shape, and how close its lane and scalar paths must be.
type kernel struct {
	name string
	// ulps bounds the distance of the lane path's results from the scalar
	// path's, in units in the last place of the scalar value; 0 means the
	// package documentation says they agree bitwise. A bound that depends on
	// the shape (summation order over M terms) is given by ulpsAt.
	ulps   float64
	ulpsAt func(shape) float64
	// signOfZero: the paths agree bitwise up to the sign of zero.
	signOfZero bool
	call       func(a *args, s shape)
}

func (k kernel) bound(s shape) float64 {
	if k.ulpsAt != nil {
		return k.ulpsAt(s)
	}
	return k.ulps
}

// ulps32 is the number of float64 ulps in n float32 ulps (of a normal
// value): the bounds of the float32 kernels, whose results are float32.
func ulps32(n float64) float64 { return n * (1 << 29) }

// cell32Ulps is b for a stage of at most four columns, else no bound.
func cell32Ulps(s shape, b float64) float64 {
	if s.U > 4 {
		return math.Inf(1)
	}
	return b
}

// sumBound is the bound for sums of M+2 non-negative terms added in another
// order (and with fused multiply-adds): each order is within (M+1) units of
// the exact sum's last place, so the two within 2(M+2).
func sumBound(s shape) float64 { return float64(2 * (s.M + 2)) }

// kernels lists every exported kernel of the package (TestKernelTableIsComplete
// checks that none is missing).
var kernels = []kernel{
	{name: "Sigmoid", ulps: 3, call: func(a *args, s shape) {
		src := a.vec(s.N, func(r *rand.Rand) float64 { return 30 * r.NormFloat64() })
		Sigmoid(a.vec(s.N, zero), src)
	}},
	{name: "Tanh", ulps: 3, call: func(a *args, s shape) {
		src := a.vec(s.N, func(r *rand.Rand) float64 { return 3 * r.NormFloat64() })
		Tanh(a.vec(s.N, zero), src)
	}},
	{name: "Exp", ulps: 2, call: func(a *args, s shape) {
		src := a.vec(s.N, func(r *rand.Rand) float64 { return 300 * r.NormFloat64() })
		Exp(a.vec(s.N, zero), src)
	}},
	{name: "Dot4", ulpsAt: sumBound, call: func(a *args, s shape) {
		acc := a.unit(4)
		Dot4((*[4]float64)(acc), a.unit(4*s.M), a.unit(s.M))
	}},
	{name: "ScaleAdd", call: func(a *args, s shape) {
		ScaleAdd(a.normal(s.N), a.scalar(), a.scalar(), a.normal(s.N))
	}},
	{name: "AddScaled", call: func(a *args, s shape) {
		AddScaled(a.normal(s.N), a.scalar(), a.normal(s.N))
	}},
	{name: "ScaleAddBlocks", call: func(a *args, s shape) {
		ScaleAddBlocks(a.normal(s.U*s.M), a.scalar(), a.normal(s.U), a.normal(s.U*s.M))
	}},
	{name: "RTUTraces", call: func(a *args, s shape) {
		RTUTraces(a.normal(s.M), a.normal(s.M), a.normal(s.M), a.normal(s.M), a.vec(s.M, mostlyZero),
			a.scalar(), a.scalar(), a.scalar(), a.scalar(), a.scalar(), a.scalar())
	}},
	{name: "Combine", call: func(a *args, s shape) {
		Combine(a.vec(s.N, zero), a.scalar(), a.normal(s.N), a.scalar(), a.normal(s.N))
	}},
	{name: "ScaleBlocks", call: func(a *args, s shape) {
		ScaleBlocks(a.normal(s.U*s.M), a.normal(s.U), a.normal(s.U*s.M))
	}},
	{name: "Normalize", call: func(a *args, s shape) {
		h := a.normal(s.N)
		if s.N > 5 {
			h[5] = math.NaN()
		}
		Normalize(a.vec(s.N, zero), h, a.normal(s.N), a.vec(s.N, small), a.vec(s.N, zero), 0.99, 1-0.99, 0.01)
	}},
	{name: "RMSProp", ulps: 8, call: func(a *args, s shape) {
		// θ starts at 0, so that it holds the step, whose last place the
		// bound is about (both paths are within 4 ulps of one division).
		RMSProp(a.vec(s.N, zero), a.vec(s.N, wide), a.vec(s.N, small), -0.7, 1e-3, 0.9999, 1e-8)
	}},
	{name: "RMSPropFold", ulps: 8, call: func(a *args, s shape) {
		RMSPropFold(a.vec(s.N, zero), a.vec(s.N, wide), a.vec(s.N, small), a.normal(s.N), 0.3, 1e-3, 0.9999, 1e-8, 0.891, -0.37)
	}},
	{name: "OuterSum", call: func(a *args, s shape) {
		R := 4 * s.H
		OuterSum(a.normal(R*s.M), a.normal(s.W*R), a.vecs(s.W, s.M, normal))
	}},
	{name: "OuterSumSparse", call: func(a *args, s shape) {
		R := 4 * s.H
		x := a.vecs(s.W, s.M, mostlyZero)
		nz := make([][]int32, len(x))
		for n, xn := range x {
			nz[n] = nonzeroIndices(xn)
		}
		OuterSumSparse(a.normal(R*s.M), a.normal(s.W*R), x, nz)
	}},
	{name: "AllFinite", call: func(a *args, s shape) {
		// Finite vectors, and one with ±Inf in its middle (odd N) or a
		// NaN in its first quad (N ≡ 2 mod 4).
		x := a.normal(s.N)
		switch {
		case s.N%2 == 1:
			x[s.N/2] = math.Inf(1 - 2*(s.N%4/3))
		case s.N > 2 && s.N%4 == 2:
			x[1] = math.NaN()
		}
		finite := a.vec(1, zero)
		if AllFinite(x) {
			finite[0] = 1
		}
	}},
	{name: "AddMulT", call: func(a *args, s shape) {
		AddMulT(a.normal(s.M), a.normal(4*s.H*s.M), a.normal(4*s.H))
	}},
	{name: "LSTMDelta", call: func(a *args, s shape) {
		H := s.H
		LSTMDelta(a.vec(4*H, zero), a.normal(H), a.normal(H), a.unit(4*H), a.vec(H, signed), a.normal(H))
	}},
	{name: "LSTMBackward", call: func(a *args, s shape) {
		H, w := s.H, s.W
		da := a.vec(4*H*w, zero)
		dh, carry, next, whh := a.normal(H), a.normal(H), a.vec(H, zero), a.normal(4*H*H)
		LSTMBackward(da, dh, carry, next, whh, a.vecs(w, 4*H, unit), a.vecs(w, H, signed), a.vecs(w, H, normal))
	}},
	{name: "SumWindow", call: func(a *args, s shape) {
		SumWindow(a.normal(4*s.H), a.normal(4*s.H*s.W))
	}},
	{name: "Preact", ulpsAt: sumBound, call: func(a *args, s shape) {
		u, m := s.U, s.M
		Preact(a.vec(u, zero), a.vec(u, zero), a.vec(u, zero), a.vec(u, zero), a.unit(u), a.unit(u*arch.ColumnParams(m)), a.unit(m))
	}},
	{name: "Cell", ulps: 8, call: func(a *args, s shape) {
		u := s.U
		// a_g > 0 and c_prev > 0, so that c = f·c_prev + i·g adds two
		// positive terms (a cancellation would make any ulp bound moot).
		pre := func(r *rand.Rand) float64 { return 8 * r.NormFloat64() }
		pos := func(r *rand.Rand) float64 { return math.Abs(pre(r)) }
		Cell(a.vec(u, pre), a.vec(u, pre), a.vec(u, pos), a.vec(u, pre), a.unit(u), a.vec(u, zero), a.vec(u, zero), a.vec(u, zero))
	}},
	{name: "Stage", ulpsAt: func(s shape) float64 { return sumBound(s) + 8 }, call: func(a *args, s shape) {
		u, m := s.U, s.M
		gates := func() []float64 { return a.vec(u, zero) }
		Stage(gates(), gates(), gates(), gates(), a.unit(u), a.unit(u), a.vec(u, zero), a.vec(u, zero), a.vec(u, zero),
			a.unit(u*arch.ColumnParams(m)), a.unit(m))
	}},
	{name: "ColumnTrace", signOfZero: true, call: func(a *args, s shape) {
		size := arch.ColumnParams(s.M)
		ht, ct, x := a.normal(size), a.normal(size), a.normal(s.M)
		ColumnTrace(ht, ct, x, unit(a.rng), a.scalar(), unit(a.rng), a.scalar(), a.scalar(), a.scalar(), a.scalar(), a.scalar(), a.scalar())
	}},
	{name: "TraceScalars", call: func(a *args, s shape) {
		u, m := s.U, s.M
		k := a.traceCoef(u)
		TraceScalars(k, a.unit(u), a.unit(u), a.vec(u, signed), a.unit(u), a.normal(u), a.vec(u, signed), a.normal(u*arch.ColumnParams(m)), m)
	}},
	{name: "StageTrace", signOfZero: true, call: func(a *args, s shape) {
		u, m := s.U, s.M
		size := arch.ColumnParams(m)
		ht, ct, x, f, hp := a.normal(u*size), a.normal(u*size), a.normal(m), a.unit(u), a.normal(u)
		StageTrace(ht, ct, x, f, hp, a.traceCoef(u))
	}},
	{name: "StageTraceFold", signOfZero: true, call: func(a *args, s shape) {
		u, m := s.U, s.M
		size := arch.ColumnParams(m)
		ht, ct, x, f, hp := a.normal(u*size), a.normal(u*size), a.normal(m), a.unit(u), a.normal(u)
		k := a.traceCoef(u)
		StageTraceFold(ht, ct, x, f, hp, k, a.normal(u*size), a.scalar(), a.normal(u), s.W%2 == 0)
	}},
	// The float32 kernels (column32.go, rmsprop32.go): the element-wise
	// ones take the lane path's fused operations in the scalar path too.
	{name: "Input32", call: func(a *args, s shape) {
		Input32(a.vec32(s.N, zero), a.vec(s.N, wide))
	}},
	{name: "Preact32", ulpsAt: func(s shape) float64 { return ulps32(sumBound(s)) }, call: func(a *args, s shape) {
		u, m := s.U, s.M
		Preact32(a.vec(u, zero), a.vec(u, zero), a.vec(u, zero), a.vec(u, zero), a.unit(u), a.vec32(u*arch.ColumnParams(m), unit),
			a.vec32(Padded32(m), unit), m)
	}},
	// Stage32 and Cell32 of more than four columns take σ and tanh in
	// float32 on the lane path (TestCell32FollowsCell bounds them against
	// Cell); here only their guard bands count.
	{name: "Stage32", ulpsAt: func(s shape) float64 { return cell32Ulps(s, ulps32(sumBound(s))+8) }, call: func(a *args, s shape) {
		u, m := s.U, s.M
		gates := func() []float64 { return a.vec(u, zero) }
		Stage32(gates(), gates(), gates(), gates(), a.unit(u), a.unit(u), a.vec(u, zero), a.vec(u, zero), a.vec(u, zero),
			a.vec32(u*arch.ColumnParams(m), unit), a.vec32(Padded32(m), unit), m)
	}},
	{name: "Cell32", ulpsAt: func(s shape) float64 { return cell32Ulps(s, 8) }, call: func(a *args, s shape) {
		u := s.U
		pre := func(r *rand.Rand) float64 { return 8 * r.NormFloat64() }
		pos := func(r *rand.Rand) float64 { return math.Abs(pre(r)) }
		Cell32(a.vec(u, pre), a.vec(u, pre), a.vec(u, pos), a.vec(u, pre), a.unit(u), a.vec(u, zero), a.vec(u, zero), a.vec(u, zero))
	}},
	{name: "Normalize32", call: func(a *args, s shape) {
		h := a.normal(s.N)
		if s.N > 5 {
			h[5] = math.NaN()
		}
		Normalize32(a.vec(s.N, zero), h, a.normal(s.N), a.vec(s.N, small), a.vec(s.N, zero), 0.99, 1-0.99, 0.01)
	}},
	{name: "TraceScalars32", call: func(a *args, s shape) {
		u, m := s.U, s.M
		k := a.traceCoef(u)
		TraceScalars32(k, a.unit(u), a.unit(u), a.vec(u, signed), a.unit(u), a.normal(u), a.vec(u, signed), a.vec32(u*arch.ColumnParams(m), normal), m)
	}},
	{name: "StageTrace32", call: func(a *args, s shape) {
		u, m := s.U, s.M
		size := arch.ColumnParams(m)
		StageTrace32(a.vec32(u*size, normal), a.vec32(u*size, normal), a.vec32(m, normal), a.unit(u), a.normal(u), a.traceCoef(u))
	}},
	// Positive operands: the scalar path rounds fewer intermediate results
	// than the lane path, so the bound is in ulps of sums without
	// cancellation.
	{name: "StageTraceFold32", ulps: ulps32(4), call: func(a *args, s shape) {
		u, m := s.U, s.M
		size := arch.ColumnParams(m)
		ht, ct, x, f, hp := a.vec32(u*size, unit), a.vec32(u*size, unit), a.vec32(m, unit), a.unit(u), a.unit(u)
		k := TraceCoef{A: a.unit(u), B: a.unit(u), E: a.unit(u), K: a.vec(8*u, zero)}
		for j := range u {
			k.K[8*j], k.K[8*j+1], k.K[8*j+2], k.K[8*j+7] = unit(a.rng), unit(a.rng), unit(a.rng), unit(a.rng)
		}
		StageTraceFold32(ht, ct, x, f, hp, k, a.vec32(u*size, unit), unit(a.rng), a.unit(u), s.W%2 == 0)
	}},
	{name: "ScaleBlocks32", call: func(a *args, s shape) {
		ScaleBlocks32(a.vec32(s.U*s.M, normal), a.normal(s.U), a.vec32(s.U*s.M, normal))
	}},
	{name: "ScaleAddBlocks32", call: func(a *args, s shape) {
		ScaleAddBlocks32(a.vec32(s.U*s.M, normal), a.scalar(), a.normal(s.U), a.vec32(s.U*s.M, normal))
	}},
	{name: "ScaleAdd32", call: func(a *args, s shape) {
		ScaleAdd32(a.vec32(s.N, normal), a.scalar(), a.scalar(), a.normal(s.N))
	}},
	{name: "ScaleAddSame32", call: func(a *args, s shape) {
		ScaleAddSame32(a.vec32(s.N, normal), a.scalar(), a.scalar(), a.vec32(s.N, normal))
	}},
	{name: "RMSProp32", ulps: ulps32(8), call: func(a *args, s shape) {
		RMSProp32(a.vec32(s.N, zero), a.vec32(s.N, normal), a.vec32(s.N, small), -0.7, 1e-3, 0.9999, 1e-8)
	}},
	{name: "RMSPropHead32", ulps: ulps32(8), call: func(a *args, s shape) {
		RMSPropHead32(a.vec32(s.N, zero), a.vec32(s.N, normal), a.vec32(s.N, small), s.N*(s.U%14)/14, -0.7, 1e-3/7, 1e-3, 0.9999, 1e-8)
	}},
	{name: "RMSPropFold32", ulps: ulps32(8), call: func(a *args, s shape) {
		RMSPropFold32(a.vec32(s.N, zero), a.vec32(s.N, normal), a.vec32(s.N, small), a.vec32(s.N, normal), 0.3, 1e-3, 0.9999, 1e-8, 0.891, -0.37)
	}},
}

// runKernel calls k on fresh args of shape s drawn from seed, with the bands
// filled with sentinel, on the lane path (the build's own) or the scalar
// path, and returns the args. A panic is returned as an error.
func runKernel(k kernel, s shape, seed uint64, sentinel float64, scalarPath bool) (a *args, err error) {
	a = newArgs(seed, sentinel)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	if scalarPath {
		onScalarPathNow = true
		defer func() { onScalarPathNow = false }()
		forceScalar(func() { k.call(a, s) })
	} else {
		k.call(a, s)
	}
	return a, nil
}

// checkGuards runs k at shape s twice, with NaN and with finite sentinels,
// and returns an error if a band was written or the results differ.
func checkGuards(k kernel, s shape, seed uint64) error {
	nan, err := runKernel(k, s, seed, sentinelNaN, false)
	if err != nil {
		return err
	}
	if err := nan.bandsIntact(); err != nil {
		return err
	}
	fin, err := runKernel(k, s, seed, sentinelFinite, false)
	if err != nil {
		return err
	}
	if err := fin.bandsIntact(); err != nil {
		return err
	}
	x, y := nan.inside(), fin.inside()
	for i := range x {
		if !sameBits(x[i], y[i]) {
			return fmt.Errorf("value %d is %v with NaN bands and %v with finite ones: the kernel reads outside its slices", i, x[i], y[i])
		}
	}
	return nil
}

// checkTwins runs k at shape s on the lane and the scalar path and returns
// the largest distance of their results in ulps, and an error if it is more
// than k allows.
func checkTwins(k kernel, s shape, seed uint64) (float64, error) {
	lane, err := runKernel(k, s, seed, sentinelNaN, false)
	if err != nil {
		return 0, err
	}
	scalar, err := runKernel(k, s, seed, sentinelNaN, true)
	if err != nil {
		return 0, err
	}
	x, y := lane.inside(), scalar.inside()
	bound, worst := k.bound(s), 0.0
	for i := range x {
		switch {
		case sameBits(x[i], y[i]):
		case k.signOfZero && x[i] == 0 && y[i] == 0:
		case bound > 0 && ulps(x[i], y[i]) <= bound:
			worst = max(worst, ulps(x[i], y[i]))
		default:
			return worst, fmt.Errorf("value %d: lane %v, scalar %v (%.3g ulps, bound %v)", i, x[i], y[i], ulps(x[i], y[i]), bound)
		}
	}
	return worst, nil
}

// onScalarPathNow is true while runKernel runs a kernel on the scalar path
// (for the teeth of the twin check).
var onScalarPathNow bool

// sameBits reports whether a and b are the same float64 bits, or both NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// shapeGrid is the shapes of TestKernelShapes: every element-wise length
// 0..17 (whole registers of four and eight and every tail), stages of 0 to
// 13 columns (one column and eight take their own lane paths) on inputs
// with and without tails and on the Atari input size, windows of 1 to 3
// steps and dense layers of 1 to 9 units.
func shapeGrid() []shape {
	var out []shape
	ms := []int{1, 3, 4, 5, 8, 13, 17, 275}
	for n := 0; n <= 17; n++ {
		m := ms[n%len(ms)]
		out = append(out, shape{N: n, M: m, U: n % 14, W: 1 + n%3, H: 1 + n%9})
	}
	for _, m := range ms {
		for _, u := range []int{0, 1, 4, 7, 8, 13} {
			out = append(out, shape{N: m, M: m, U: u, W: 1 + u%3, H: 1 + (m+u)%9})
		}
	}
	return out
}

// TestKernelGuardBands checks, for every kernel at every shape of the grid,
// that the call writes nothing outside its slices and that its results do
// not depend on the values around them.
func TestKernelGuardBands(t *testing.T) {
	for _, k := range kernels {
		for i, s := range shapeGrid() {
			if err := checkGuards(k, s, uint64(i)); err != nil {
				t.Errorf("%s %v (%s path): %v", k.name, s, Path(), err)
			}
		}
	}
}

// TestKernelTwins checks, for every kernel at every shape of the grid, the
// lane path against the scalar path in the same binary (a GOEXPERIMENT=simd
// build on a CPU with the lane instructions; elsewhere there is no lane path
// and the test says so).
func TestKernelTwins(t *testing.T) {
	if !hasTwins() {
		t.Skip("no lane path in this build (make test-simd runs the twins)")
	}
	for _, k := range kernels {
		worst := 0.0
		for i, s := range shapeGrid() {
			w, err := checkTwins(k, s, uint64(i))
			if err != nil {
				t.Errorf("%s %v: %v", k.name, s, err)
			}
			worst = max(worst, w)
		}
		t.Logf("%-16s lane and scalar paths at most %.3g ulps apart", k.name, worst)
	}
}

// FuzzKernelShapes runs the guard-band and twin checks of every kernel at
// any shape and seed: go test -fuzz FuzzKernelShapes ./internal/lanes (with
// GOEXPERIMENT=simd for the twins). Sizes are folded into ranges that cover
// every lane path: N < 80, 1 ≤ M ≤ 300, U < 20, 1 ≤ W ≤ 5, 1 ≤ H ≤ 13.
func FuzzKernelShapes(f *testing.F) {
	f.Add(uint8(0), uint16(1), uint8(0), uint8(1), uint8(1), uint64(1))
	f.Add(uint8(13), uint16(275), uint8(9), uint8(3), uint8(7), uint64(2))
	f.Add(uint8(64), uint16(17), uint8(8), uint8(5), uint8(12), uint64(3))
	f.Fuzz(func(t *testing.T, n uint8, m uint16, u, w, h uint8, seed uint64) {
		s := shape{N: int(n) % 80, M: 1 + int(m)%300, U: int(u) % 20, W: 1 + int(w)%5, H: 1 + int(h)%13}
		for _, k := range kernels {
			if err := checkGuards(k, s, seed); err != nil {
				t.Errorf("%s %v guard bands: %v", k.name, s, err)
			}
			if hasTwins() {
				if _, err := checkTwins(k, s, seed); err != nil {
					t.Errorf("%s %v twins: %v", k.name, s, err)
				}
			}
		}
	})
}

// TestKernelTableIsComplete checks that the harness covers every exported
// function of the package that takes a slice (the kernels), by name.
func TestKernelTableIsComplete(t *testing.T) {
	covered := map[string]bool{}
	for _, k := range kernels {
		covered[strings.Split(k.name, "/")[0]] = true
	}
	for _, name := range exportedKernels(t) {
		if !covered[name] {
			t.Errorf("kernel %s is not in the harness's table", name)
		}
	}
}

// exportedKernels returns the names of the package's exported functions
// with a slice parameter, from its source files (every build's).
func exportedKernels(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() {
				continue
			}
			for _, p := range fn.Type.Params.List {
				if _, slice := p.Type.(*ast.ArrayType); slice || isTraceCoef(p.Type) {
					names = append(names, fn.Name.Name)
					break
				}
			}
		}
	}
	if len(names) < 20 {
		t.Fatalf("found only %d kernels: %v", len(names), names)
	}
	return names
}

func isTraceCoef(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "TraceCoef"
}

// The checks have teeth: kernels with an off-by-one (one entry read or
// written past the end of a slice, or before its start, through unsafe
// pointers as the lane loops address memory) fail the guard-band check, and
// a result one ulp off fails the twin check of a bitwise kernel.
func TestKernelChecksHaveTeeth(t *testing.T) {
	past := func(s []float64, i int) *float64 { // &s[i] without a bounds check
		return (*float64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), 8*i))
	}
	defects := []kernel{
		{name: "writes one past the end", call: func(a *args, s shape) {
			z, t := a.normal(s.N), a.normal(s.N)
			for i := 0; i <= len(z); i++ {
				*past(z, i) = 2 * *past(t, min(i, len(t)-1))
			}
		}},
		{name: "writes one before the start", call: func(a *args, s shape) {
			z := a.normal(s.N)
			*past(z, -1) = 1
		}},
		{name: "reads one past the end", call: func(a *args, s shape) {
			z, t := a.normal(s.N), a.normal(s.N)
			for i := range z {
				z[i] += *past(t, i+1)
			}
		}},
		{name: "reads one before the start", call: func(a *args, s shape) {
			z, t := a.normal(s.N), a.normal(s.N)
			for i := range z {
				z[i] += *past(t, i-1)
			}
		}},
	}
	for _, k := range defects {
		if err := checkGuards(k, shape{N: 5, M: 1, W: 1, H: 1}, 1); err == nil {
			t.Errorf("%s: the guard-band check passed", k.name)
		} else {
			t.Logf("%s: %v", k.name, err)
		}
	}
	// A twin one ulp off, on the twin check's own comparison.
	off := kernel{name: "one ulp", call: func(a *args, s shape) {
		z := a.normal(s.N)
		if !onScalarPathNow {
			z[s.N-1] = math.Nextafter(z[s.N-1], math.Inf(1))
		}
	}}
	if _, err := checkTwins(off, shape{N: 7, M: 1, W: 1, H: 1}, 1); err == nil {
		t.Error("a bitwise kernel one ulp off passed the twin check")
	}
	off.ulps = 1
	if _, err := checkTwins(off, shape{N: 7, M: 1, W: 1, H: 1}, 1); err != nil {
		t.Errorf("one ulp off within a bound of 1: %v", err)
	}
}
