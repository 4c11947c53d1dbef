//go:build goexperiment.simd && amd64

package f32step

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// u32 is float32's unit roundoff, 2⁻²⁴.
const u32 = 1.0 / (1 << 24)

// r32 returns a uniform value in [lo, hi) that float32 represents.
func r32(rng *rand.Rand, lo, hi float64) float64 {
	return float64(float32(lo + (hi-lo)*rng.Float64()))
}

func fill32(rng *rand.Rand, n int, lo, hi float64) ([]float32, []float64) {
	a, b := make([]float32, n), make([]float64, n)
	for i := range a {
		b[i] = r32(rng, lo, hi)
		a[i] = float32(b[i])
	}
	return a, b
}

// inputs returns m inputs, a tenth of them 1 and a tenth other values
// (the games' binary frames and a little more).
func inputs(rng *rand.Rand, m int) []float64 {
	x := make([]float64, m)
	for k := range x {
		switch p := rng.Float64(); {
		case p < 0.1:
			x[k] = 1
		case p < 0.2:
			x[k] = r32(rng, -2, 2)
		}
	}
	x[m-1] = 1 // so that the last input's entries always count
	return x
}

// worst returns the largest |got − want|/bound over the entries (above 1:
// outside the bound), and its index.
func worst(got []float32, want, bound []float64) (float64, int) {
	w, at := 0.0, -1
	for i, g := range got {
		e := math.Abs(float64(g) - want[i])
		if e == 0 {
			continue
		}
		r := math.Inf(1)
		if bound[i] > 0 {
			r = e / bound[i]
		}
		if r > w || at < 0 {
			w, at = r, i
		}
	}
	return w, at
}

// traceCase is one stage's traces and scalars for StageTraceFold32, the
// float32 values and the same values in float64.
type traceCase struct {
	u, m           int
	ht, ct, z      []float32
	x32            []float32
	ht64, ct64, z6 []float64
	x              []float64
	f, hp, c       []float64
	k              lanes.TraceCoef
	d              float64
}

func newTraceCase(rng *rand.Rand, u, m int) *traceCase {
	n := u * arch.ColumnParams(m)
	t := &traceCase{u: u, m: m, x: inputs(rng, m), k: lanes.NewTraceCoef(u), d: r32(rng, 0.5, 0.99)}
	t.ht, t.ht64 = fill32(rng, n, -1, 1)
	t.ct, t.ct64 = fill32(rng, n, -1, 1)
	t.z, t.z6 = fill32(rng, n, -3, 3)
	t.x32 = make([]float32, m)
	for i, v := range t.x {
		t.x32[i] = float32(v)
	}
	_, t.f = fill32(rng, u, 0.1, 0.99)
	_, t.hp = fill32(rng, u, -1, 1)
	_, t.c = fill32(rng, u, -2, 2)
	_, t.k.A = fill32(rng, u, -0.5, 0.5)
	_, t.k.B = fill32(rng, u, 0, 1)
	_, t.k.E = fill32(rng, u, -0.25, 0.25)
	for j := range u {
		kj := t.k.K[8*j : 8*j+8]
		kj[0], kj[1], kj[2], kj[7] = r32(rng, -0.25, 0.25), r32(rng, -0.25, 0.25), r32(rng, -1, 1), r32(rng, -0.25, 0.25)
	}
	return t
}

// want runs lanes.StageTraceFold on the float64 copies and returns the new
// ht, ct, z with a bound on each float32 entry's error: with T the sum of
// the magnitudes of a result's terms, 4·u₃₂·T for each of the three
// roundings' results, plus the error carried in from c' (into ht') and ht'
// (into z).
func (t *traceCase) want(add bool) (ht, ct, z, bh, bc, bz []float64) {
	ht, ct, z = append([]float64(nil), t.ht64...), append([]float64(nil), t.ct64...), append([]float64(nil), t.z6...)
	lanes.StageTraceFold(ht, ct, t.x, t.f, t.hp, t.k, z, t.d, t.c, add)
	m, size := t.m, arch.ColumnParams(t.m)
	bh, bc, bz = make([]float64, len(ht)), make([]float64, len(ht)), make([]float64, len(ht))
	for i := range ht {
		j, e := i/size, i%size
		kj := t.k.K[8*j : 8*j+8]
		var q int
		var dt float64
		switch {
		case e < 4*m:
			q, dt = e/m, t.x[e%m]
		case e < 4*m+4:
			q, dt = e-4*m, t.hp[j]
		default:
			q, dt = e-4*m-4, 1
		}
		kc, kh := 0.0, kj[7]
		if q < 3 {
			kc, kh = kj[q], 0
		}
		h0, c0 := t.ht64[i], t.ct64[i]
		Tc := math.Abs(t.f[j]*c0) + math.Abs(t.k.A[j]*h0) + math.Abs(kc*dt)
		bc[i] = 4 * u32 * Tc
		Th := math.Abs(t.k.B[j])*(math.Abs(ct[i])+bc[i]) + math.Abs(t.k.E[j]*h0) + math.Abs(kh*dt)
		bh[i] = math.Abs(t.k.B[j])*bc[i] + 4*u32*Th
		zd := 0.0
		if add {
			zd = math.Abs(t.d * t.z6[i])
		}
		Tz := zd + math.Abs(t.c[j])*(math.Abs(ht[i])+bh[i])
		bz[i] = math.Abs(t.c[j])*bh[i] + 4*u32*Tz
	}
	return ht, ct, z, bh, bc, bz
}

// mutation changes the float32 run of a case (nil: none).
type mutation func(t *traceCase, d *float64)

func (t *traceCase) check(tb testing.TB, add bool, mut mutation) float64 {
	wh, wc, wz, bh, bc, bz := t.want(add)
	ht, ct, z := append([]float32(nil), t.ht...), append([]float32(nil), t.ct...), append([]float32(nil), t.z...)
	x, d := append([]float32(nil), t.x32...), t.d
	if mut != nil {
		c := *t
		c.ht, c.ct, c.z, c.x32 = ht, ct, z, x
		mut(&c, &d)
	}
	if rowsVariant {
		StageTraceFold32Rows(ht, ct, x, t.f, t.hp, t.k, z, d, t.c, add)
	} else {
		StageTraceFold32(ht, ct, x, t.f, t.hp, t.k, z, d, t.c, add)
	}
	r := 0.0
	for _, v := range []struct {
		name string
		got  []float32
		want []float64
		b    []float64
	}{{"∂h/∂θ", ht, wh, bh}, {"∂c/∂θ", ct, wc, bc}, {"z", z, wz, bz}} {
		w, at := worst(v.got, v.want, v.b)
		if w > r {
			r = w
		}
		if w > 1 && mut == nil {
			tb.Errorf("%d columns of %d inputs, add %v: %s[%d] = %g, float64 %g, beyond the bound %g (%.3g of it)",
				t.u, t.m, add, v.name, at, v.got[at], v.want[at], v.b[at], w)
		}
	}
	return r
}

var traceShapes = []struct{ u, m int }{{6, 275}, {5, 285}, {5, 275}, {5, 280}, {1, 8}, {2, 9}, {3, 16}, {4, 23}}

// rowsVariant makes traceCase.check run StageTraceFold32Rows.
var rowsVariant bool

func TestStageTraceFold32(t *testing.T) {
	for _, rows := range []bool{false, true} {
		rowsVariant = rows
		rng := rand.New(rand.NewPCG(1, 2))
		for _, sh := range traceShapes {
			for _, add := range []bool{true, false} {
				for range 3 {
					r := newTraceCase(rng, sh.u, sh.m).check(t, add, nil)
					t.Logf("rows %v, %d×%d add %v: worst error %.3f of the bound", rows, sh.u, sh.m, add, r)
				}
			}
		}
	}
	rowsVariant = false
}

// TestStageTraceFold32Teeth: the check fails for a float32 run that drops
// the last input (the rows' tail octets), uses one trace entry of the
// recurrent scalars off by 2⁻¹⁶ relative, or folds without the decay.
func TestStageTraceFold32Teeth(t *testing.T) {
	muts := []struct {
		name string
		mut  mutation
	}{
		{"last input dropped", func(c *traceCase, _ *float64) { c.x32[c.m-1] = 0 }},
		{"u_q trace off", func(c *traceCase, _ *float64) {
			i := 4 * c.m
			c.ht[i] *= 1 + 1.0/(1<<16)
		}},
		{"no decay of z", func(_ *traceCase, d *float64) { *d = 1 }},
	}
	for _, rows := range []bool{false, true} {
		rowsVariant = rows
		for _, mu := range muts {
			rng := rand.New(rand.NewPCG(3, 4))
			if r := newTraceCase(rng, 6, 275).check(t, true, mu.mut); r <= 1 {
				t.Errorf("rows %v, %s: worst error %.3g of the bound, the check does not see it", rows, mu.name, r)
			}
		}
	}
	rowsVariant = false
}

// rmsCase checks RMSProp32 (or the shared-division loop) over n entries
// against lanes.RMSProp; mut changes the float32 run. It returns the
// largest error over its bound: 8·u₃₂ of v (each term's rounding, g's
// twice), and for θ u₃₂·|θ'| plus 12·u₃₂ of the step α·g/(√v+ε) (g, the
// product, v's error halved by the root, the root, the sum, the
// division, the shared division's two products).
func rmsCase(tb testing.TB, rng *rand.Rand, n int, shared bool, mut func(u []float32, b *float64)) float64 {
	s, alpha, b, eps := r32(rng, -2, 2), 1e-4, 0.9999, 1e-8
	alpha, eps = float64(float32(alpha)), float64(float32(eps))
	b = float64(float32(b))
	c := float64(float32(1 - b))
	// θ of the step's size, so that the bound sees the step's errors
	// beside θ's own rounding.
	th32, th := fill32(rng, n, -2*alpha, 2*alpha)
	u32s, u := fill32(rng, n, -3, 3)
	v32, v := fill32(rng, n, 0, 1)
	bv, bt := make([]float64, n), make([]float64, n)
	for i := range n {
		g := s * u[i]
		vi := b*v[i] + c*g*g
		bv[i] = 8 * u32 * vi
		step := math.Abs(alpha * g / (math.Sqrt(vi) + eps))
		bt[i] = u32*(math.Abs(th[i])+step) + 12*u32*step
	}
	// lanes.RMSProp takes 1−b as 1 − b in float64; with b rounded to
	// float32 that is c exactly (Sterbenz).
	lanes.RMSProp(th, u, v, s, alpha, b, eps)
	bb := b
	if mut != nil {
		mut(u32s, &bb)
	}
	if shared {
		RMSProp32Shared(th32, u32s, v32, s, alpha, bb, eps)
	} else {
		RMSProp32(th32, u32s, v32, s, alpha, bb, eps)
	}
	wv, iv := worst(v32, v, bv)
	wt, it := worst(th32, th, bt)
	if mut == nil && (wv > 1 || wt > 1) {
		tb.Errorf("RMSProp32 of %d entries (shared %v): v[%d] %.3g of the bound, θ[%d] %.3g", n, shared, iv, wv, it, wt)
	}
	tb.Logf("%d entries, shared %v: v %.3f, θ %.3f of the bound", n, shared, wv, wt)
	return max(wv, wt)
}

func TestRMSProp32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{6648, 6655, 5740, 7, 1, 8, 9, 16, 17, 24, 31} {
		for _, shared := range []bool{false, true} {
			rmsCase(t, rng, n, shared, nil)
		}
	}
}

// TestRMSProp32Teeth: the check fails for a run whose last entry's
// direction is off by 2⁻¹⁶ relative (the tail octet) or whose decay b is
// the float64 one's neighbour.
func TestRMSProp32Teeth(t *testing.T) {
	muts := []struct {
		name string
		mut  func(u []float32, b *float64)
	}{
		{"last direction off", func(u []float32, _ *float64) { u[len(u)-1] *= 1 + 1.0/(1<<16) }},
		{"decay off", func(_ []float32, b *float64) { *b = float64(math.Nextafter32(float32(*b), 0)) }},
	}
	for _, mu := range muts {
		for _, shared := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(7, 8))
			if r := rmsCase(t, rng, 6655, shared, mu.mut); r <= 1 {
				t.Errorf("%s (shared %v): worst error %.3g of the bound, the check does not see it", mu.name, shared, r)
			}
		}
	}
}

// preactCase checks Preact32 against lanes.Preact for u columns of m
// inputs: the bound is (⌈m/8⌉+6)·u₃₂ times the sum of the magnitudes of
// the terms (the longest chain of roundings of the eight partial sums and
// their total). mut changes the float32 run's input or hidden states.
func preactCase(tb testing.TB, rng *rand.Rand, u, m int, mut func(x, h []float32)) float64 {
	size := arch.ColumnParams(m)
	b32, b64 := fill32(rng, u*size, -1, 1)
	h32, h64 := fill32(rng, u, -1, 1)
	x := inputs(rng, m)
	x32 := make([]float32, Padded(m))
	Input32(x32, x)
	want := make([][]float64, 4)
	got := make([][]float32, 4)
	for q := range want {
		want[q], got[q] = make([]float64, u), make([]float32, u)
	}
	lanes.Preact(want[0], want[1], want[2], want[3], h64, b64, x)
	if mut != nil {
		mut(x32, h32)
	}
	for i := m; i < len(x32); i++ {
		x32[i] = 1e30 // what lies beyond the input must not count
	}
	Preact32(got[0], got[1], got[2], got[3], h32, b32, x32, m)
	r := 0.0
	for q := range 4 {
		bound := make([]float64, u)
		for j := range u {
			p := b64[j*size : (j+1)*size]
			T := math.Abs(p[4*m+4+q]) + math.Abs(p[4*m+q]*h64[j])
			for k, xk := range x {
				T += math.Abs(p[q*m+k] * xk)
			}
			bound[j] = float64((m+7)/8+6) * u32 * T
		}
		w, at := worst(got[q], want[q], bound)
		r = max(r, w)
		if mut == nil && w > 1 {
			tb.Errorf("Preact32 of %d columns of %d inputs: gate %d column %d = %g, float64 %g, %.3g of the bound %g",
				u, m, q, at, got[q][at], want[q][at], w, bound[at])
		}
	}
	return r
}

func TestPreact32(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, sh := range traceShapes {
		for range 3 {
			r := preactCase(t, rng, sh.u, sh.m, nil)
			t.Logf("%d×%d: worst error %.3f of the bound", sh.u, sh.m, r)
		}
	}
}

// TestPreact32Teeth: the check fails when the float32 run misses the last
// input or the recurrent term.
func TestPreact32Teeth(t *testing.T) {
	muts := []struct {
		name string
		mut  func(x, h []float32)
	}{
		{"last input dropped", func(x, _ []float32) { x[274] = 0 }},
		{"no recurrent term", func(_, h []float32) { clear(h) }},
	}
	for _, mu := range muts {
		rng := rand.New(rand.NewPCG(11, 12))
		if r := preactCase(t, rng, 6, 275, mu.mut); r <= 1 {
			t.Errorf("%s: worst error %.3g of the bound, the check does not see it", mu.name, r)
		}
	}
}

func TestInput32(t *testing.T) {
	x := []float64{1, 0.1, -2, 3e-3, 5, 6, 7, 8, 9, 1e40}
	dst := make([]float32, 16)
	for i := range dst {
		dst[i] = 7
	}
	Input32(dst, x)
	for i, v := range dst {
		want := float32(0)
		if i < len(x) {
			want = float32(x[i])
		}
		if v != want {
			t.Errorf("Input32: [%d] = %g, want %g", i, v, want)
		}
	}
}
