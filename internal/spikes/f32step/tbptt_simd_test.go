//go:build goexperiment.simd && amd64

package f32step

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/internal/lanes"
)

// outerCase checks OuterSum32 against lanes.OuterSum for R rows of m inputs
// over a window of w steps: each entry's bound is (w+1)·u₃₂ times the sum of
// the magnitudes of its terms (g and the w products, one rounding per
// fused multiply-add). mut changes the float32 run's input.
func outerCase(tb testing.TB, rng *rand.Rand, R, m, w int, mut func(x [][]float32)) float64 {
	g32, g64 := fill32(rng, R*m+8, -1, 1)
	d32, d := fill32(rng, R*w, -1, 1)
	x, x32 := make([][]float64, w), make([][]float32, w)
	for n := range w {
		x[n] = inputs(rng, m)
		x32[n] = make([]float32, Padded(m))
		Input32(x32[n], x[n])
	}
	bound := make([]float64, R*m)
	for r := range R {
		for j := range m {
			T := math.Abs(g64[r*m+j])
			for n := range w {
				T += math.Abs(d[n*R+r] * x[n][j])
			}
			bound[r*m+j] = float64(w+1) * u32 * T
		}
	}
	tail := append([]float32(nil), g32[R*m:]...)
	lanes.OuterSum(g64[:R*m], d, x)
	if mut != nil {
		mut(x32)
	}
	OuterSum32(g32, d32, x32, m)
	for i, v := range g32[R*m:] {
		if v != tail[i] {
			tb.Errorf("OuterSum32 changed g[%d] past the matrix: %g, was %g", R*m+i, v, tail[i])
		}
	}
	wst, at := worst(g32[:R*m], g64[:R*m], bound)
	if mut == nil && wst > 1 {
		tb.Errorf("OuterSum32 %d×%d, window %d: g[%d] = %g, float64 %g, %.3g of the bound", R, m, w, at, g32[at], g64[at], wst)
	}
	return wst
}

func TestOuterSum32(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, sh := range []struct{ R, m, w int }{{28, 275, 5}, {4, 8, 1}, {8, 9, 3}, {4, 16, 2}, {12, 33, 15}, {100, 275, 2}} {
		r := outerCase(t, rng, sh.R, sh.m, sh.w, nil)
		t.Logf("%d×%d window %d: worst error %.3f of the bound", sh.R, sh.m, sh.w, r)
	}
}

// TestOuterSum32Teeth: the check fails for a run without the last input or
// without the window's oldest step.
func TestOuterSum32Teeth(t *testing.T) {
	for _, mu := range []struct {
		name string
		mut  func(x [][]float32)
	}{
		{"last input dropped", func(x [][]float32) {
			for _, xn := range x {
				xn[274] = 0
			}
		}},
		{"oldest step dropped", func(x [][]float32) { clear(x[len(x)-1]) }},
	} {
		if r := outerCase(t, rand.New(rand.NewPCG(21, 22)), 28, 275, 5, mu.mut); r <= 1 {
			t.Errorf("%s: worst error %.3g of the bound, the check does not see it", mu.name, r)
		}
	}
}

// foldCase checks RMSPropFold32 against lanes.RMSPropFold over n entries
// (bounds of θ and v as rmsCase; u ← d·u + c·t within 3·u₃₂ of |d·u| +
// |c·t|). mut changes the float32 run's new gradient t.
func foldCase(tb testing.TB, rng *rand.Rand, n int, mut func(t []float32)) float64 {
	s, alpha, b, eps := r32(rng, -2, 2), float64(float32(1e-4)), float64(float32(0.9999)), float64(float32(1e-8))
	d, c := r32(rng, 0.5, 0.9), 1.0
	cb := float64(float32(1 - b))
	th32, th := fill32(rng, n, -2*alpha, 2*alpha)
	u32s, u := fill32(rng, n, -3, 3)
	v32, v := fill32(rng, n, 0, 1)
	t32, t := fill32(rng, n, -1, 1)
	bv, bt, bu := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		g := s * u[i]
		vi := b*v[i] + cb*g*g
		bv[i] = 8 * u32 * vi
		step := math.Abs(alpha * g / (math.Sqrt(vi) + eps))
		bt[i] = u32*(math.Abs(th[i])+step) + 12*u32*step
		bu[i] = 3 * u32 * (math.Abs(d*u[i]) + math.Abs(c*t[i]))
	}
	lanes.RMSPropFold(th, u, v, t, s, alpha, b, eps, d, c)
	if mut != nil {
		mut(t32)
	}
	RMSPropFold32(th32, u32s, v32, t32, s, alpha, b, eps, d, c)
	wv, _ := worst(v32, v, bv)
	wt, _ := worst(th32, th, bt)
	wu, _ := worst(u32s, u, bu)
	if mut == nil && max(wv, wt, wu) > 1 {
		tb.Errorf("RMSPropFold32 of %d entries: v %.3g, θ %.3g, u %.3g of the bounds", n, wv, wt, wu)
	}
	tb.Logf("%d entries: v %.3f, θ %.3f, u %.3f of the bounds", n, wv, wt, wu)
	return max(wv, wt, wu)
}

func TestRMSPropFold32(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{7924, 8, 9, 16, 17, 24, 31} {
		foldCase(t, rng, n, nil)
	}
}

// TestRMSPropFold32Teeth: the check fails when the last entry's new
// gradient is off by 2⁻¹⁶ relative (the tail octet).
func TestRMSPropFold32Teeth(t *testing.T) {
	if r := foldCase(t, rand.New(rand.NewPCG(25, 26)), 7924, func(t []float32) { t[len(t)-1] *= 1 + 1.0/(1<<16) }); r <= 1 {
		t.Errorf("worst error %.3g of the bound, the check does not see it", r)
	}
}

// TestZeroAllocs: no kernel allocates.
func TestZeroAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	tc := newTraceCase(rng, 6, 275)
	x := make([]float32, Padded(275))
	Input32(x, tc.x)
	th, _ := fill32(rng, 6655, -1, 1)
	v, _ := fill32(rng, 6655, 0, 1)
	g, _ := fill32(rng, 28*275+8, -1, 1)
	d, _ := fill32(rng, 28*5, -1, 1)
	xw := [][]float32{x, x, x, x, x}
	a := make([]float32, 6)
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"Input32", func() { Input32(x, tc.x) }},
		{"Preact32", func() { Preact32(a, a, a, a, a, th, x, 275) }},
		{"StageTraceFold32", func() { StageTraceFold32(tc.ht, tc.ct, tc.x32, tc.f, tc.hp, tc.k, tc.z, tc.d, tc.c, true) }},
		{"StageTraceFold32Rows", func() { StageTraceFold32Rows(tc.ht, tc.ct, tc.x32, tc.f, tc.hp, tc.k, tc.z, tc.d, tc.c, true) }},
		{"RMSProp32", func() { RMSProp32(th, tc.z[:6648], v, 0.5, 1e-4, 0.9999, 1e-8) }},
		{"RMSProp32Shared", func() { RMSProp32Shared(th, tc.z[:6648], v, 0.5, 1e-4, 0.9999, 1e-8) }},
		{"OuterSum32", func() { OuterSum32(g, d, xw, 275) }},
		{"RMSPropFold32", func() { RMSPropFold32(th, tc.z[:6648], v, g[:6648], 0.5, 1e-4, 0.9999, 1e-8, 0.7, 1) }},
	} {
		if n := testing.AllocsPerRun(20, k.f); n != 0 {
			t.Errorf("%s: %v allocations per call", k.name, n)
		}
	}
}
