package compare

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
)

// T-BPTT's float32 engine (backward.TBPTT32; docs/performance.md, "T-BPTT
// in float32") computes in float32 what the float64 engine computes in
// float64, so it cannot be held to Tolerance. CheckTBPTT32 holds it to the
// float64 engine instead, itself proven against the reference by CheckTBPTT.

// tbptt32Unit is the unit roundoff of float32, u = 2⁻²⁴: a float32
// operation's result is within u of its exact value, relatively.
const tbptt32Unit = 0x1p-24

// TBPTT32Factor is the constant c of TBPTT32Tolerance. On the random
// trajectories of TestCheckTBPTT32 (H 1 to 25, k 0 to 15, 1 to 275
// inputs, Gaussian and sparse binary, parameter scales 0.1 to 1.5, up to
// 300 steps) rel_t stayed below 0.22 of the tolerance in the lane build and
// 0.28 in the scalar build: c = 2 leaves a margin above 3.5. The teeth (TestCheckTBPTT32Teeth) exceed
// it at least 700-fold for a dropped forget path, a dropped last input or
// a dropped gradient column, 7-fold for the off-by-one window, and 1.5-fold
// for a gradient rounded to float16's 11 significant bits.
const TBPTT32Factor = 2

// TBPTT32Tolerance returns the largest relative disagreement CheckTBPTT32
// allows at a step whose forward sums have the condition measure kappa
// (TBPTT32Agreement) in an engine of H units and a window of w steps:
//
//	tol = c·u·(κ + w·(4H + 8))      u = 2⁻²⁴, c = TBPTT32Factor
//
// The first term is the forward pass's: each pre-activation is a sum whose
// float32 rounding error is a multiple of u times the sum of its terms'
// magnitudes, κ bounds those sums over the steps so far, and the gates and
// the state inherit that error times slopes of at most 1 (σ' ≤ 1/4,
// tanh' ≤ 1), the recurrence contracting the errors of earlier steps (the
// measured errors do not grow with t). The second is the backward pass's:
// per step of the window, the 4H-term sums of W_hhᵀ·δa and the few
// roundings of each δa (about 8), which the window's outer products carry
// into the gradient with their own roundings. The gates' own errors count
// among those roundings: σ and tanh are within 4u of their exact values
// (in the lane build at H a multiple of 4 they are evaluated in float32,
// at most 2.4u measured; elsewhere float64 values rounded once, 1u), each
// δa a product of at most three of them.
func TBPTT32Tolerance(kappa float64, H, w int) float64 {
	return TBPTT32Factor * tbptt32Unit * (kappa + float64(w*(4*H+8)))
}

// TBPTT32Agreement is the outcome of CheckTBPTT32: Worst is the largest
// ratio of a step's disagreement rel_t to its tolerance, at step Step
// (1-based), where rel_t was StepRel and the condition measure Kappa;
// Agreement holds the largest disagreements over all steps (MaxAbs of the
// predictions and gradients, MaxRel the largest rel_t).
type TBPTT32Agreement struct {
	Agreement
	Worst   float64
	Step    int
	StepRel float64
	Kappa   float64
}

// Pass reports whether every step was within its tolerance.
func (a TBPTT32Agreement) Pass() bool { return a.Worst <= 1 }

// tbptt32Engine is an engine's Step and Grad with the gradient in float64.
type tbptt32Engine interface {
	Step(x []float64) float64
	grad(dst []float64)
}

type tbptt64Engine struct{ *backward.TBPTT }

func (e tbptt64Engine) grad(dst []float64) { e.Grad(dst) }

type tbptt32Float struct {
	*backward.TBPTT32
	g []float32
}

func (e tbptt32Float) grad(dst []float64) {
	e.Grad(e.g)
	for i, v := range e.g {
		dst[i] = float64(v)
	}
}

// CheckTBPTT32 runs backward.TBPTT32 and backward.TBPTT with truncation k
// (0: full) side by side on tr.Xs from the same parameters, drawn
// U(−tr.Scale, tr.Scale) from rng and rounded to float32 (so that only the
// arithmetic differs), and after every step moves both by the same random
// float32 steps of size 10⁻³·tr.Scale through Params (as an optimizer
// would). After every step t it measures
//
//	rel_t = max( |y³²_t − y_t| / max(1, |y_t|),  max_i |g³²_i − g_i| / max(1, max_i |g_i|) )
//
// with y the predictions and g the gradients Grad of the two engines, and
// requires rel_t ≤ TBPTT32Tolerance(κ_t, H, w_t), with w_t the window at t
// and κ_t the largest absolute sum of a pre-activation's terms so far,
//
//	κ_t = max_{s ≤ t} max_r ( |b_r| + Σ_k |W_ih[r,k]|·|x_s[k]| + Σ_j |W_hh[r,j]|·|h_{s−1}[j]| )
//
// (the parameters of step s, h of the float64 engine). defect is injected
// into the float32 engine only.
func CheckTBPTT32(shape arch.Dense, k int, tr Trajectory, rng *rand.Rand, defect backward.Defect) TBPTT32Agreement {
	e64, e32 := backward.NewTBPTT(shape, k), backward.NewTBPTT32(shape, k)
	e32.Defect = defect
	return checkTBPTT32(e64, tbptt64Engine{e64}, tbptt32Float{e32, make([]float32, e32.NumParams())}, e32.Params(), k, tr, rng)
}

// checkTBPTT32 is CheckTBPTT32 on the engines a (float64; e64 its TBPTT,
// for the state and the parameters) and b, whose parameters are p32.
func checkTBPTT32(e64 *backward.TBPTT, a, b tbptt32Engine, p32 []float32, k int, tr Trajectory, rng *rand.Rand) TBPTT32Agreement {
	shape := e64.Shape()
	H, m := shape.Hidden, shape.Inputs
	p64 := e64.Params()
	if len(p32) != len(p64) {
		panic(fmt.Sprintf("compare: float32 T-BPTT check of %d and %d parameters", len(p32), len(p64)))
	}
	for i := range p32 {
		p32[i] = float32(tr.Scale * (2*rng.Float64() - 1))
		p64[i] = float64(p32[i])
	}
	nudge := 1e-3 * tr.Scale
	n := len(p64)
	g64, g32 := make([]float64, n), make([]float64, n)
	var out TBPTT32Agreement
	kappa := 0.0
	for t, x := range tr.Xs {
		// κ of this step, from the state entering it.
		h := e64.H()
		for r := range 4 * H {
			s := math.Abs(p64[shape.IdxB(r/H, r%H)])
			for j, xj := range x {
				s += math.Abs(p64[r*m+j]) * math.Abs(xj)
			}
			for j, hj := range h {
				s += math.Abs(p64[shape.OffWHH()+r*H+j]) * math.Abs(hj)
			}
			kappa = max(kappa, s)
		}
		y64, y32 := a.Step(x), b.Step(x)
		a.grad(g64)
		b.grad(g32)
		rel := math.Abs(y32-y64) / max(1, math.Abs(y64))
		if math.IsNaN(rel) {
			rel = math.Inf(1)
		}
		ag := Measure(g32, g64)
		out.Agreement = out.Agreement.Worst(ag)
		out.Agreement.MaxAbs = max(out.Agreement.MaxAbs, math.Abs(y32-y64))
		rel = max(rel, ag.MaxRel)
		out.Agreement.MaxRel = max(out.Agreement.MaxRel, rel)
		w := t + 1
		if k > 0 {
			w = min(w, k)
		}
		if r := rel / TBPTT32Tolerance(kappa, H, w); r > out.Worst || math.IsInf(r, 1) || math.IsNaN(r) {
			out.Worst, out.Step, out.StepRel, out.Kappa = r, t+1, rel, kappa
			if math.IsNaN(r) {
				out.Worst = math.Inf(1)
			}
		}
		for i := range p32 {
			p32[i] += float32(nudge * rng.NormFloat64())
			p64[i] = float64(p32[i])
		}
	}
	return out
}
