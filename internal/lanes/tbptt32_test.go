package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// T-BPTT's float32 kernels in the kernel harness (kernels_test.go): their
// float32 slices are carved out of the harness's float64 buffers, so the
// guard bands and the check that nothing outside a slice is read or written
// apply unchanged. The harness's twin check compares float64 words and
// cannot state a float32 bound, so these rows accept any distance there;
// TestTBPTT32Kernels bounds both paths against the float64 kernels instead.
func init() {
	any32 := func(shape) float64 { return math.Inf(1) }
	kernels = append(kernels,
		kernel{name: "Dot4x32", ulpsAt: any32, call: func(a *args, s shape) {
			Dot4x32((*[4]float32)(a.tbVec32(4, unit)), a.tbVec32(4*s.M, unit), a.tbVec32(s.M, unit))
		}},
		kernel{name: "LSTMGates32", ulpsAt: any32, call: func(a *args, s shape) {
			LSTMGates32(a.tbVec32(4*s.H, normal), a.vec(4*s.H, zero))
		}},
		kernel{name: "LSTMTanh32", ulpsAt: any32, call: func(a *args, s shape) {
			LSTMTanh32(a.tbVec32(s.H, zero), a.tbVec32(s.H, normal), a.vec(s.H, zero))
		}},
		kernel{name: "OuterSum32", ulpsAt: any32, call: func(a *args, s shape) {
			R := 4 * s.H
			OuterSum32(a.tbVec32(R*s.M, normal), a.tbVec32(s.W*R, normal), a.tbVecs32(s.W, s.M, normal))
		}},
		kernel{name: "OuterSet32", ulpsAt: any32, call: func(a *args, s shape) {
			R := 4 * s.H
			OuterSet32(a.tbVec32(R*s.M, normal), a.tbVec32(s.W*R, normal), a.tbVecs32(s.W, s.M, normal))
		}},
		kernel{name: "AddMulT32", ulpsAt: any32, call: func(a *args, s shape) {
			AddMulT32(a.tbVec32(s.M, normal), a.tbVec32(4*s.H*s.M, normal), a.tbVec32(4*s.H, normal))
		}},
		kernel{name: "LSTMDelta32", ulpsAt: any32, call: func(a *args, s shape) {
			H := s.H
			LSTMDelta32(a.tbVec32(4*H, zero), a.tbVec32(H, normal), a.tbVec32(H, normal), a.tbVec32(4*H, unit), a.tbVec32(H, signed), a.tbVec32(H, normal))
		}},
		kernel{name: "LSTMBackward32", ulpsAt: any32, call: func(a *args, s shape) {
			H, w := s.H, s.W
			LSTMBackward32(a.tbVec32(4*H*w, zero), a.tbVec32(H, normal), a.tbVec32(H, normal), a.tbVec32(H, zero), a.tbVec32(4*H*H, normal),
				a.tbVecs32(w, 4*H, unit), a.tbVecs32(w, H, signed), a.tbVecs32(w, H, normal))
		}},
		kernel{name: "SumWindow32", ulpsAt: any32, call: func(a *args, s shape) {
			SumWindow32(a.tbVec32(4*s.H, normal), a.tbVec32(4*s.H*s.W, normal))
		}},
	)
}

// tbVec32 returns a float32 slice of n values drawn by fill and rounded,
// carved out of a float64 buffer with guard bands (length and capacity n;
// an odd n leaves the last word's upper half zero).
func (a *args) tbVec32(n int, fill func(*rand.Rand) float64) []float32 {
	words := (n + 1) / 2
	buf := make([]float64, words+2*guardLen)
	for i := range buf {
		buf[i] = a.sentinel
	}
	clear(buf[guardLen : guardLen+words])
	s := unsafe.Slice((*float32)(unsafe.Pointer(&buf[guardLen])), 2*words)[:n:n]
	for i := range s {
		s[i] = float32(fill(a.rng))
	}
	a.bufs = append(a.bufs, buf)
	return s
}

// tbVecs32 is vecs for tbVec32.
func (a *args) tbVecs32(w, n int, fill func(*rand.Rand) float64) [][]float32 {
	out := make([][]float32, w)
	for i := range out {
		out[i] = a.tbVec32(n, fill)
	}
	return out
}

// tbTo64 returns x widened to float64 (exactly).
func tbTo64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

func tbTo64s(x [][]float32) [][]float64 {
	out := make([][]float64, len(x))
	for i, v := range x {
		out[i] = tbTo64(v)
	}
	return out
}

func tbAbs64(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Abs(v)
	}
	return out
}

// tbU32 is the unit roundoff of float32, 2⁻²⁴.
const tbU32 = 0x1p-24

// tbWithin returns an error if some |got[i] − want[i]| > tbU32·(depth[i])·mag[i]
// (a rounding-error bound: depth roundings of relative size tbU32 each of a
// computation whose terms' magnitudes add up to mag[i]), and the largest
// ratio of a difference to its bound.
func tbWithin(got []float32, want, mag []float64, depth func(i int) float64) (float64, error) {
	worst := 0.0
	for i, g := range got {
		d := math.Abs(float64(g) - want[i])
		bound := depth(i) * tbU32 * mag[i]
		if d == 0 {
			continue
		}
		if !(d <= bound) {
			return worst, fmt.Errorf("entry %d: float32 %v, float64 %v, difference %.3g over the bound %.3g", i, g, want[i], d, bound)
		}
		worst = max(worst, d/bound)
	}
	return worst, nil
}

// TestTBPTT32Kernels checks each float32 kernel against its float64 kernel
// on the same inputs (float32 values, exact in float64), on the build's
// path and on the scalar path: each result within u·d·Σ|terms|, d the
// number of roundings along the longest chain of its operations (a
// summation of n terms with fused or unfused multiply-adds rounds at most
// n+1 times per term in either order), Σ|terms| the sum of the magnitudes
// of the terms it adds. The teeth: dropping the last input, the last window
// step or the second newest step's gates makes it fail.
func TestTBPTT32Kernels(t *testing.T) {
	type teeth int
	const (
		none teeth = iota
		dropLastInput
		dropLastStep
	)
	// outerDefect applies an outer-product kernel's defect to its window x
	// (steps of m inputs) and its δ rows d (a block of R per step).
	outerDefect := func(defect teeth, x [][]float32, d []float32, R int) ([][]float32, []float32) {
		switch w := len(x); defect {
		case dropLastInput:
			for n := range x {
				x[n][len(x[n])-1] = 0
			}
		case dropLastStep:
			x, d = x[:w-1], d[:(w-1)*R]
		}
		return x, d
	}
	checks := []struct {
		name string
		run  func(s shape, rng *rand.Rand, defect teeth) (float64, error)
	}{
		{"OuterSum32", func(s shape, rng *rand.Rand, defect teeth) (float64, error) {
			R, m, w := 4*s.H, s.M, s.W
			a := newArgs(rng.Uint64(), 0)
			g, d, x := a.tbVec32(R*m, normal), a.tbVec32(w*R, normal), a.tbVecs32(w, m, normal)
			g64, d64, x64 := tbTo64(g), tbTo64(d), tbTo64s(x)
			mag := tbAbs64(g64)
			OuterSum(mag, tbAbs64(d64), tbAbs64s(x64))
			OuterSum(g64, d64, x64)
			x, d = outerDefect(defect, x, d, R)
			OuterSum32(g, d, x)
			return tbWithin(g, g64, mag, func(int) float64 { return float64(w + 1) })
		}},
		{"OuterSet32", func(s shape, rng *rand.Rand, defect teeth) (float64, error) {
			R, m, w := 4*s.H, s.M, s.W
			a := newArgs(rng.Uint64(), 0)
			g, d, x := a.tbVec32(R*m, normal), a.tbVec32(w*R, normal), a.tbVecs32(w, m, normal)
			g64, d64, x64 := make([]float64, R*m), tbTo64(d), tbTo64s(x)
			mag := make([]float64, R*m)
			OuterSum(mag, tbAbs64(d64), tbAbs64s(x64))
			OuterSum(g64, d64, x64)
			x, d = outerDefect(defect, x, d, R)
			OuterSet32(g, d, x)
			return tbWithin(g, g64, mag, func(int) float64 { return float64(w + 1) })
		}},
		{"Dot4x32", func(s shape, rng *rand.Rand, defect teeth) (float64, error) {
			m := s.M
			a := newArgs(rng.Uint64(), 0)
			acc, w, x := a.tbVec32(4, normal), a.tbVec32(4*m, normal), a.tbVec32(m, normal)
			acc64, w64, x64 := tbTo64(acc), tbTo64(w), tbTo64(x)
			mag := tbAbs64(acc64)
			Dot4((*[4]float64)(mag), tbAbs64(w64), tbAbs64(x64))
			Dot4((*[4]float64)(acc64), w64, x64)
			if defect == dropLastInput {
				x[m-1] = 0
			}
			Dot4x32((*[4]float32)(acc), w, x)
			return tbWithin(acc, acc64, mag, func(int) float64 { return float64(m + 2) })
		}},
		{"LSTMBackward32", func(s shape, rng *rand.Rand, defect teeth) (float64, error) {
			H, w := s.H, s.W
			a := newArgs(rng.Uint64(), 0)
			da, dh, carry, next := a.tbVec32(4*H*w, zero), a.tbVec32(H, normal), a.tbVec32(H, zero), a.tbVec32(H, zero)
			whh, gates, tc, cp := a.tbVec32(4*H*H, normal), a.tbVecs32(w, 4*H, unit), a.tbVecs32(w, H, signed), a.tbVecs32(w, H, normal)
			da64, dh64 := tbTo64(da), tbTo64(dh)
			LSTMBackward(da64, dh64, make([]float64, H), make([]float64, H), tbTo64(whh), tbTo64s(gates), tbTo64s(tc), tbTo64s(cp))
			// The magnitudes: the same recursion on the absolute values,
			// 1 − v and 1 − v² taken as 1 + |v| and 1 + v² (the magnitudes
			// of their terms).
			mag := make([]float64, 4*H*w)
			absGates, absTc, absCp := tbTo64s(gates), tbAbs64s(tbTo64s(tc)), tbAbs64s(tbTo64s(cp))
			tbBackwardMagnitudes(mag, tbAbs64(tbTo64(dh)), tbAbs64(tbTo64(whh)), absGates, absTc, absCp)
			if defect == dropLastStep && w > 1 {
				// The second newest step's gates: the oldest steps' δa can
				// be smaller than their bound, which their magnitudes,
				// summed without the cancellations of W_hhᵀ, outgrow.
				gates[1] = make([]float32, 4*H)
			}
			LSTMBackward32(da, dh, carry, next, whh, gates, tc, cp)
			// Each δa_n is a product of at most five factors over a chain
			// that, through W_hhᵀ (4H terms) and the carry, reaches back n
			// steps: about 4H + 10 roundings per step.
			return tbWithin(da, da64, mag, func(i int) float64 { return float64((i/(4*H) + 1) * (4*H + 10)) })
		}},
		{"SumWindow32", func(s shape, rng *rand.Rand, defect teeth) (float64, error) {
			R, w := 4*s.H, s.W
			a := newArgs(rng.Uint64(), 0)
			g, d := a.tbVec32(R, normal), a.tbVec32(w*R, normal)
			g64, d64 := tbTo64(g), tbTo64(d)
			mag := tbAbs64(g64)
			SumWindow(mag, tbAbs64(d64))
			SumWindow(g64, d64)
			if defect == dropLastStep {
				d = d[:(w-1)*R]
			}
			SumWindow32(g, d)
			return tbWithin(g, g64, mag, func(int) float64 { return float64(w + 1) })
		}},
	}
	gatesCheck := func(rng *rand.Rand, n int) (float64, error) {
		a := newArgs(rng.Uint64(), 0)
		g := a.tbVec32(4*n, func(r *rand.Rand) float64 { return 4 * r.NormFloat64() })
		g64 := tbTo64(g)
		Sigmoid(g64[:2*n], g64[:2*n])
		Tanh(g64[2*n:3*n], g64[2*n:3*n])
		Sigmoid(g64[3*n:], g64[3*n:])
		LSTMGates32(g, make([]float64, 4*n))
		return tbWithin(g, g64, tbAbs64(g64), func(int) float64 { return tbActDepth(n) })
	}
	tanhCheck := func(rng *rand.Rand, n int) (float64, error) {
		a := newArgs(rng.Uint64(), 0)
		src, dst := a.tbVec32(n, func(r *rand.Rand) float64 { return 2 * r.NormFloat64() }), a.tbVec32(n, zero)
		want := tbTo64(src)
		Tanh(want, want)
		LSTMTanh32(dst, src, make([]float64, n))
		return tbWithin(dst, want, tbAbs64(want), func(int) float64 { return tbActDepth(n) })
	}
	shapes := []shape{{M: 1, H: 1, W: 1}, {M: 7, H: 2, W: 2}, {M: 8, H: 7, W: 5}, {M: 13, H: 3, W: 3}, {M: 275, H: 7, W: 5},
		{M: 275, H: 2, W: 15}, {M: 275, H: 25, W: 2}, {M: 17, H: 9, W: 4},
		// Trace patterning's 15:4 at 12 inputs, and rows of four entries
		// (W_hh's gradient at H = 4) in blocks of eight rows and of four.
		{M: 12, H: 4, W: 15}, {M: 4, H: 4, W: 15}, {M: 4, H: 3, W: 4}, {M: 4, H: 4, W: 1}, {M: 16, H: 8, W: 3},
		// Rows whose last m mod 8 ≥ 4 entries take quads.
		{M: 20, H: 3, W: 2}, {M: 28, H: 2, W: 3}, {M: 36, H: 5, W: 4}, {M: 15, H: 1, W: 2},
		// Sixteen rows (four units) of whole quads.
		{M: 8, H: 4, W: 2}, {M: 16, H: 4, W: 5}}
	for _, path := range []string{"build", "scalar"} {
		run := func(f func()) { f() }
		if path == "scalar" {
			run = forceScalar
		}
		for _, c := range checks {
			worst := 0.0
			for i, s := range shapes {
				rng := rand.New(rand.NewPCG(uint64(i), 25))
				var r float64
				var err error
				run(func() { r, err = c.run(s, rng, none) })
				if err != nil {
					t.Errorf("%s (%s path) %v: %v", c.name, path, s, err)
				}
				worst = max(worst, r)
				// The teeth, where the kernel has such a term.
				for _, d := range []teeth{dropLastInput, dropLastStep} {
					if (d == dropLastInput && (c.name == "LSTMBackward32" || c.name == "SumWindow32")) ||
						(d == dropLastStep && (c.name == "Dot4x32" || s.W == 1)) {
						continue
					}
					rng := rand.New(rand.NewPCG(uint64(i), 25))
					run(func() { _, err = c.run(s, rng, d) })
					if err == nil {
						t.Errorf("%s (%s path) %v: the defect %d passes the bound", c.name, path, s, d)
					}
				}
			}
			t.Logf("%-15s %s path: at most %.3g of the bound", c.name, path, worst)
		}
		worst := 0.0
		for n := 1; n <= 25; n += 3 {
			var r float64
			var err error
			run(func() { r, err = gatesCheck(rand.New(rand.NewPCG(uint64(n), 26)), n) })
			if err != nil {
				t.Errorf("LSTMGates32 (%s path) H=%d: %v", path, n, err)
			}
			worst = max(worst, r)
		}
		t.Logf("%-15s %s path: at most %.3g of the bound", "LSTMGates32", path, worst)
		worst = 0
		for n := 1; n <= 25; n++ {
			var r float64
			var err error
			run(func() { r, err = tanhCheck(rand.New(rand.NewPCG(uint64(n), 27)), n) })
			if err != nil {
				t.Errorf("LSTMTanh32 (%s path) n=%d: %v", path, n, err)
			}
			worst = max(worst, r)
		}
		t.Logf("%-15s %s path: at most %.3g of the bound", "LSTMTanh32", path, worst)
	}
}

func tbAbs64s(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, v := range x {
		out[i] = tbAbs64(v)
	}
	return out
}

// tbBackwardMagnitudes is LSTMBackward's recursion on magnitudes: every
// product of absolute values, every difference 1 − v as 1 + |v|.
func tbBackwardMagnitudes(da, dh, whh []float64, gates, tc, cp [][]float64) {
	H, w := len(dh), len(gates)
	carry, next := make([]float64, H), make([]float64, H)
	dh = append([]float64(nil), dh...)
	for n := range w {
		g := gates[n]
		for j := range H {
			i, f, gg, o := g[j], g[H+j], math.Abs(g[2*H+j]), g[3*H+j]
			t := tc[n][j]
			dc := dh[j]*o*(1+t*t) + carry[j]
			carry[j] = dc * f
			da[n*4*H+j] = dc * gg * i * (1 + i)
			da[n*4*H+H+j] = dc * cp[n][j] * f * (1 + f)
			da[n*4*H+2*H+j] = dc * i * (1 + gg*gg)
			da[n*4*H+3*H+j] = dh[j] * t * o * (1 + o)
		}
		if n < w-1 {
			clear(next)
			AddMulT(next, whh, da[n*4*H:(n+1)*4*H])
			dh, next = next, dh
		}
	}
}

// TestOuterSet32 checks that OuterSet32 gives, whatever g held, the bits
// of OuterSum32 on a cleared g, on the build's path and the scalar path.
func TestOuterSet32(t *testing.T) {
	for _, path := range []string{"build", "scalar"} {
		run := func(f func()) { f() }
		if path == "scalar" {
			run = forceScalar
		}
		for i, s := range shapeGrid() {
			a := newArgs(uint64(i), 0)
			R := 4 * s.H
			g, d, x := a.tbVec32(R*s.M, normal), a.tbVec32(s.W*R, normal), a.tbVecs32(s.W, s.M, normal)
			want := make([]float32, len(g))
			run(func() {
				OuterSum32(want, d, x)
				OuterSet32(g, d, x)
			})
			for j := range g {
				if math.Float32bits(g[j]) != math.Float32bits(want[j]) {
					t.Fatalf("%s path %v: entry %d is %v, OuterSum32 on zeros gives %v", path, s, j, g[j], want[j])
				}
			}
		}
	}
}

// tbAct32Depth is the bound of the float32 lane activations (LSTMGates32
// and LSTMTanh32 on whole quads, evaluated in float32), in units of
// tbU32 relative to the exact value: TestTBPTT32Activations measures at
// most 2.4 for σ and 2.1 for tanh. Elsewhere the activations are
// float64 values rounded once (1).
const tbAct32Depth = 4

// tbActDepth returns the bound for n activations on the current path.
func tbActDepth(n int) float64 {
	if useLanes && n%4 == 0 {
		return tbAct32Depth
	}
	return 1
}

// TestTBPTT32Activations measures LSTMGates32 (σ in the blocks i, f, o,
// tanh in g) and LSTMTanh32 against math.Exp and math.Tanh on a grid of
// step 2⁻¹² over [−40, 40] and on ±1, 1.3 and 1.7 times every power of two
// from 2⁻⁴⁰ to 1, on the build's path and the scalar path: each within
// tbActDepth units tbU32 of the exact value, relatively (values below
// 10⁻³⁷ skipped: the lane path keeps e^x normal, so σ of a pre-activation
// below −88 is about 10⁻³⁸ instead of smaller).
func TestTBPTT32Activations(t *testing.T) {
	var xs []float32
	for x := -40.0; x <= 40; x += 0x1p-12 {
		xs = append(xs, float32(x))
	}
	for e := -40; e <= 0; e++ {
		for _, m := range []float64{1, 1.3, 1.7} {
			xs = append(xs, float32(m*math.Ldexp(1, e)), float32(-m*math.Ldexp(1, e)))
		}
	}
	for len(xs)%16 != 0 {
		xs = append(xs, 0)
	}
	for _, path := range []string{"build", "scalar"} {
		run := func(f func()) { f() }
		if path == "scalar" {
			run = forceScalar
		}
		run(func() {
			bound := tbActDepth(16)
			worst := map[string]float64{}
			g, th, sc := make([]float32, 16), make([]float32, 16), make([]float64, 16)
			check := func(name string, got float32, want float64) {
				if math.Abs(want) < 1e-37 {
					return
				}
				e := math.Abs(float64(got)-want) / (tbU32 * math.Abs(want))
				if !(e <= bound) {
					t.Errorf("%s (%s path): %v, exact %v: %.3g units over the bound %v", name, path, got, want, e, bound)
				}
				worst[name] = max(worst[name], e)
			}
			for k := 0; k < len(xs); k += 16 {
				copy(g, xs[k:k+16])
				LSTMGates32(g, sc)
				LSTMTanh32(th, xs[k:k+16], sc)
				for j, x := range xs[k : k+16] {
					a := float64(x)
					if j >= 8 && j < 12 {
						check("tanh (LSTMGates32)", g[j], math.Tanh(a))
					} else {
						check("σ (LSTMGates32)", g[j], 1/(1+math.Exp(-a)))
					}
					check("tanh (LSTMTanh32)", th[j], math.Tanh(a))
				}
			}
			t.Logf("%s path: worst %v units of 2⁻²⁴ (bound %v)", path, worst, bound)
		})
	}
}
