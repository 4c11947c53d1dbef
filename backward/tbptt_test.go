package backward

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxRel is max_i |a_i − b_i| / max(1, max_i |b_i|), the measure of package compare.
func maxRel(a, b []float64) float64 {
	var d, s float64 = 0, 1
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		s = math.Max(s, math.Abs(b[i]))
	}
	return d / s
}

func TestGradMatchesReferences(t *testing.T) {
	const T = 18
	scales := []float64{0.5, 1.5, 0.1}
	n := 0
	for _, H := range []int{1, 2, 4} {
		for _, m := range []int{1, 3, 12} {
			for _, k := range []int{1, 2, 5, 15, 0} {
				n++
				scale := scales[n%len(scales)]
				t.Run(fmt.Sprintf("H=%d/m=%d/k=%d", H, m, k), func(t *testing.T) {
					d := arch.Dense{Hidden: H, Inputs: m}
					rng := rand.New(rand.NewPCG(uint64(n), 7))
					p, xs := randomCase(rng, d, T, scale)
					e := NewTBPTT(d, k)
					copy(e.Params(), p)
					got := make([]float64, e.NumParams())
					for s := 1; s <= T; s++ {
						y := e.Step(xs[s-1])
						full := runFrom(d, p, zeroState(H), xs[:s])
						require.InDelta(t, predict(d, p, full.h), y, 1e-12, "y at t=%d", s)

						e.Grad(got)
						st, win := windowStart(d, p, xs, s, k)
						exact := forwardModeGrad(d, p, st, win)
						require.LessOrEqual(t, maxRel(got, exact), 1e-12, "forward-mode reference at t=%d", s)
						if s == 1 || s == T/2 || s == T {
							fd := finiteDiffGrad(d, p, st, win, 1e-5)
							require.LessOrEqual(t, maxRel(got, fd), 1e-6, "finite differences at t=%d", s)
						}
					}
				})
			}
		}
	}
}

// The truncated gradient really is truncated: once t > k it differs from the
// full gradient (which the t ≤ k case equals).
func TestTruncationIsNotFull(t *testing.T) {
	d := arch.Dense{Hidden: 2, Inputs: 3}
	rng := rand.New(rand.NewPCG(3, 3))
	p, xs := randomCase(rng, d, 8, 0.8)
	e := NewTBPTT(d, 3)
	copy(e.Params(), p)
	got := make([]float64, e.NumParams())
	for s := 1; s <= len(xs); s++ {
		e.Step(xs[s-1])
		e.Grad(got)
		full := forwardModeGrad(d, p, zeroState(2), xs[:s])
		if s <= 3 {
			assert.LessOrEqual(t, maxRel(got, full), 1e-12, "t=%d", s)
		} else {
			assert.Greater(t, maxRel(got, full), 1e-6, "t=%d", s)
		}
	}
}

func TestFullBPTTBuffersGrow(t *testing.T) {
	d := arch.Dense{Hidden: 2, Inputs: 2}
	e := NewTBPTT(d, 0)
	x := []float64{0.3, -0.2}
	for range 40 {
		e.Step(x)
	}
	assert.Equal(t, 40*d.Inputs, len(e.xs))
	assert.Equal(t, 40*4*d.Hidden, len(e.gates))
	assert.Equal(t, 40, e.Steps())
	e.Reset()
	assert.Empty(t, e.xs)
	assert.Equal(t, 0, e.Steps())
}

// Step and Grad read the parameters through the Params view at every call.
func TestParamsReadEveryStep(t *testing.T) {
	d := arch.Dense{Hidden: 3, Inputs: 2}
	rng := rand.New(rand.NewPCG(5, 1))
	p, xs := randomCase(rng, d, 6, 0.7)
	e := NewTBPTT(d, 2)
	copy(e.Params(), p)
	for _, x := range xs[:5] {
		e.Step(x)
	}
	before := runFrom(d, p, zeroState(3), xs[:5])
	for i := range e.Params() {
		e.Params()[i] *= -1.3
	}
	q := append([]float64(nil), e.Params()...)
	y := e.Step(xs[5])
	after := forwardOne(d, q, before, xs[5])
	assert.InDelta(t, predict(d, q, after.h), y, 1e-12)

	g := make([]float64, e.NumParams())
	e.Grad(g)
	for j := range 3 {
		assert.Equal(t, after.h[j], g[d.IdxOut(j)], "w_out part is h_t")
	}
	// With one window step below the newest, the newest step's δh is w_out,
	// read now: doubling w_out doubles the cell gradient.
	g2 := make([]float64, e.NumParams())
	_, _, _, wout := d.Split(e.Params())
	for j := range wout {
		wout[j] *= 2
	}
	e.Grad(g2)
	for i := range d.NumCellParams() {
		assert.InDelta(t, 2*g[i], g2[i], 1e-12*(1+math.Abs(g[i])))
	}
}

func TestResetReplaysExactly(t *testing.T) {
	for _, k := range []int{0, 1, 4} {
		d := arch.Dense{Hidden: 2, Inputs: 3}
		rng := rand.New(rand.NewPCG(9, uint64(k)))
		p, xs := randomCase(rng, d, 10, 1)
		a, b := NewTBPTT(d, k), NewTBPTT(d, k)
		copy(a.Params(), p)
		copy(b.Params(), p)
		for _, x := range xs[3:] {
			a.Step(x)
		}
		a.Reset()
		assert.Equal(t, p, a.Params(), "Reset keeps parameters")
		ga, gb := make([]float64, a.NumParams()), make([]float64, b.NumParams())
		for _, x := range xs {
			assert.Equal(t, b.Step(x), a.Step(x))
			a.Grad(ga)
			b.Grad(gb)
			assert.Equal(t, gb, ga, "k=%d", k)
		}
	}
}

func TestPanics(t *testing.T) {
	d := arch.Dense{Hidden: 2, Inputs: 3}
	assert.PanicsWithValue(t, "backward: negative truncation -1", func() { NewTBPTT(d, -1) })
	assert.PanicsWithValue(t, "backward: invalid dense shape H=0 m=3", func() { NewTBPTT(arch.Dense{Inputs: 3}, 1) })
	assert.PanicsWithValue(t, "backward: invalid dense shape H=2 m=0", func() { NewTBPTT(arch.Dense{Hidden: 2}, 1) })
	e := NewTBPTT(d, 2)
	assert.PanicsWithValue(t, "backward: Grad before Step", func() { e.Grad(make([]float64, e.NumParams())) })
	assert.PanicsWithValue(t, "backward: input has length 2, want 3", func() { e.Step(make([]float64, 2)) })
	e.Step(make([]float64, 3))
	assert.PanicsWithValue(t, "backward: gradient has length 5, want 50", func() { e.Grad(make([]float64, 5)) })
	assert.Panics(t, func() { Ops(d, 0) })
}

func TestAccessors(t *testing.T) {
	d := arch.Dense{Hidden: 4, Inputs: 12}
	e := NewTBPTT(d, 15)
	assert.Equal(t, 15, e.Truncation())
	assert.Equal(t, d, e.Shape())
	assert.Equal(t, 4*4*12+4*4*4+4*4+4, e.NumParams())
	assert.Len(t, e.Params(), e.NumParams())
	assert.Equal(t, 0, NewTBPTT(d, 0).Truncation())
}

func TestDefects(t *testing.T) {
	const k, T = 3, 8
	for _, def := range []Defect{OffByOneWindow, DropForgetPath} {
		for _, H := range []int{2, 5} { // the scalar path, and lanes with a tail
			testDefect(t, def, arch.Dense{Hidden: H, Inputs: 3}, k, T)
		}
	}
	assert.Equal(t, "NoDefect", NoDefect.String())
	assert.Equal(t, "Defect(99)", Defect(99).String())
}

// testDefect checks that e with def disagrees with the forward-mode
// gradient wherever def changes it, and agrees where it cannot.
func testDefect(t *testing.T, def Defect, d arch.Dense, k, T int) {
	rng := rand.New(rand.NewPCG(11, 2))
	p, xs := randomCase(rng, d, T, 0.9)
	t.Run(fmt.Sprintf("%s/H=%d", def, d.Hidden), func(t *testing.T) {
		e := NewTBPTT(d, k)
		e.Defect = def
		copy(e.Params(), p)
		got := make([]float64, e.NumParams())
		for s := 1; s <= T; s++ {
			e.Step(xs[s-1])
			e.Grad(got)
			st, win := windowStart(d, p, xs, s, k)
			rel := maxRel(got, forwardModeGrad(d, p, st, win))
			switch {
			case s == 1:
				// A one-step window from the zero state has neither a
				// carried cell gradient nor a wrong previous state to use.
				assert.LessOrEqual(t, rel, 1e-12, "t=%d", s)
			case def == OffByOneWindow && s < k:
				// The window still starts at the true initial state.
				assert.LessOrEqual(t, rel, 1e-12, "t=%d", s)
			default:
				assert.Greater(t, rel, 1e-4, "t=%d", s)
			}
		}
	})
}

func TestZeroAllocsPerStep(t *testing.T) {
	for _, k := range []int{1, 5, 15} {
		d := arch.Dense{Hidden: 4, Inputs: 12}
		rng := rand.New(rand.NewPCG(1, uint64(k)))
		p, xs := randomCase(rng, d, 2*k+2, 0.5)
		e := NewTBPTT(d, k)
		copy(e.Params(), p)
		g := make([]float64, e.NumParams())
		for _, x := range xs[:k+1] {
			e.Step(x)
			e.Grad(g)
		}
		i := 0
		allocs := testing.AllocsPerRun(50, func() {
			e.Step(xs[i%len(xs)])
			e.Grad(g)
			i++
		})
		assert.Zero(t, allocs, "k=%d", k)
	}
}

func TestOps(t *testing.T) {
	// Counted by hand from the code for H = 1, m = 1, one window step:
	// forward 4 rows × (2 + 2 + 1) + 7 = 27; backward 21 + 4 × (2 + 2 + 1) = 41.
	assert.Equal(t, 68, Ops(arch.Dense{Hidden: 1, Inputs: 1}, 1))
	// H = 2, m = 3, two window steps: forward 8·(6+4+1) + 14 = 102; each window
	// step 42 + 8·(6+4+1) = 130; carrying back once 8·2·2·2... = 32 + 2 = 34.
	assert.Equal(t, 102+2*130+34, Ops(arch.Dense{Hidden: 2, Inputs: 3}, 2))

	d := arch.Dense{Hidden: 4, Inputs: 12}
	e := NewTBPTT(d, 15)
	assert.Equal(t, Ops(d, 15), e.OpsPerStep())
	// Same order as the paper's (k+1)·(4H² + 4Hm + 4H) with mul and add counted
	// apart: between 2× and 3× of it.
	paper := 16 * (4*16 + 4*4*12 + 4*4)
	assert.Greater(t, e.OpsPerStep(), 2*paper)
	assert.Less(t, e.OpsPerStep(), 3*paper)

	full := NewTBPTT(d, 0)
	assert.Equal(t, Ops(d, 1), full.OpsPerStep())
	for range 7 {
		full.Step(make([]float64, 12))
	}
	assert.Equal(t, Ops(d, 7), full.OpsPerStep())
}

// TestSparseInputsGradBitwise checks that Grad's sum of ∂W_ih over the
// window's nonzero inputs (sparseWorth) gives the dense sum's bits, step
// after step with the parameters moving, on inputs as sparse as the pixel
// games' (and across a Reset); that the sparse sum did run; and that the
// comparison can fail: an index list short of one nonzero input changes the
// gradient.
func TestSparseInputsGradBitwise(t *testing.T) {
	for _, tc := range []struct{ H, m, k int }{{7, 275, 5}, {2, 275, 15}, {3, 20, 3}, {25, 275, 2}} {
		t.Run(fmt.Sprintf("H=%d/m=%d/k=%d", tc.H, tc.m, tc.k), func(t *testing.T) {
			d := arch.Dense{Hidden: tc.H, Inputs: tc.m}
			rng := rand.New(rand.NewPCG(uint64(tc.m), uint64(tc.k)))
			p, _ := randomCase(rng, d, 0, 0.5)
			sparse, dense := NewTBPTT(d, tc.k), NewTBPTT(d, tc.k)
			dense.denseOnly = true
			copy(sparse.Params(), p)
			copy(dense.Params(), p)
			gs, gd := make([]float64, len(p)), make([]float64, len(p))
			x := make([]float64, tc.m)
			sparseSteps := 0
			for s := range 200 {
				for j := range x {
					x[j] = 0
					if rng.IntN(25) == 0 {
						x[j] = rng.Float64()
					}
				}
				if s == 120 {
					sparse.Reset()
					dense.Reset()
				}
				require.Equal(t, dense.Step(x), sparse.Step(x))
				sparse.Grad(gs)
				dense.Grad(gd)
				window := min(sparse.Steps(), tc.k)
				if sparse.sparseWorth(window, sparse.da[:4*tc.H*window]) {
					sparseSteps++
				}
				for i := range gs {
					if math.Float64bits(gs[i]) != math.Float64bits(gd[i]) {
						t.Fatalf("step %d: ∂θ[%d] = %v, dense %v", s, i, gs[i], gd[i])
					}
				}
				for i := range p { // both move alike
					sparse.Params()[i] -= 1e-2 * gs[i]
					dense.Params()[i] -= 1e-2 * gd[i]
				}
			}
			assert.Greater(t, sparseSteps, 190, "the sparse sum ran")

			// Teeth: the newest input's first nonzero entry left out of its list.
			r := sparse.slot(sparse.Steps())
			require.NotEmpty(t, sparse.nz[r])
			sparse.nz[r] = sparse.nz[r][1:]
			sparse.Grad(gs)
			dense.Grad(gd)
			assert.NotEqual(t, gd, gs, "a missing index changes the gradient")
		})
	}
}
