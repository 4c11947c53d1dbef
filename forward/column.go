package forward

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// Column is one LSTM column (a dense LSTM with a single hidden unit, paper §3.1)
// together with its RTRL traces. With m inputs it has 4m+8 parameters in the
// column layout of package arch (W_q[k] at q·m+k, u_q at 4m+q, b_q at 4m+4+q,
// gate order i, f, g, o):
//
//	a_q = W_q·x + u_q·h_prev + b_q
//	i = σ(a_i)  f = σ(a_f)  g = tanh(a_g)  o = σ(a_o)
//	c = f·c_prev + i·g
//	h = o·tanh(c)
//
// Step also advances the traces H_p = ∂h/∂p and C_p = ∂c/∂p of every parameter p
// in the fast form derived in docs/equations.md. With the per-step scalars
//
//	κ_i = g·i(1-i)    κ_f = c_prev·f(1-f)    κ_g = i·(1-g²)    κ_o = 0
//	A   = κ_f·u_f + κ_g·u_g + κ_i·u_i
//	B   = o·(1-tanh²(c))    D = tanh(c)·o(1-o)    E = D·u_o
//
// a parameter of gate q whose direct derivative d = ∂a_q/∂p|direct is x_k for
// W_q[k], h_prev for u_q and 1 for b_q is updated as
//
//	C_p ← f·C_p + A·H_p + κ_q·d
//	H_p ← B·C_p + E·H_p + [q = o]·D·d         (H_p on the right is the old value)
//
// which is the chain rule for c and h with ∂a_q/∂p = d_q(p) + u_q·H_p(t-1)
// collected once per step instead of once per gate and parameter.
type Column struct {
	// Defect injects a deliberate mistake for tests of the comparison only.
	// Column honours DropRecurrentTerm and ignores PreviousStepFeatures.
	Defect Defect

	m      int
	params []float64 // 4m+8, possibly a view into a network's vector
	h, c   float64
	hTrace []float64 // ∂h/∂θ, nil for a column that never learns
	cTrace []float64 // ∂c/∂θ
}

// NewColumn returns a column reading m inputs with all parameters, state and
// traces zero. Fill the parameters through Params.
func NewColumn(m int) *Column {
	if m < 1 {
		panic(fmt.Sprintf("forward: column needs at least one input, got %d", m))
	}
	n := arch.ColumnParams(m)
	c := &Column{}
	c.init(m, make([]float64, n), make([]float64, n), make([]float64, n))
	return c
}

// init sets c up to read m inputs with parameters params and traces
// hTrace, cTrace (views of length 4m+8; nil traces for a column that never
// learns).
func (c *Column) init(m int, params, hTrace, cTrace []float64) {
	n := arch.ColumnParams(m)
	c.m = m
	c.params = params[:n:n]
	c.h, c.c = 0, 0
	c.hTrace, c.cTrace = nil, nil
	if hTrace != nil {
		c.hTrace, c.cTrace = hTrace[:n:n], cTrace[:n:n]
	}
}

// Inputs returns the number of inputs m the column reads.
func (c *Column) Inputs() int { return c.m }

// NumParams returns 4m+8.
func (c *Column) NumParams() int { return len(c.params) }

// Params returns the column's parameter vector (a writable view, length 4m+8).
func (c *Column) Params() []float64 { return c.params }

// Trace returns ∂h_t/∂θ after the last Step (a view of length 4m+8; do not
// modify it).
func (c *Column) Trace() []float64 { return c.hTrace }

// CellTrace returns ∂c_t/∂θ after the last Step (a view; do not modify it).
func (c *Column) CellTrace() []float64 { return c.cTrace }

// Grad writes ∂h_t/∂θ into dst, which must have length NumParams. It gives a
// column the same gradient interface as the networks, its prediction being h_t.
func (c *Column) Grad(dst []float64) {
	if len(dst) != len(c.params) {
		panic(fmt.Sprintf("forward: column gradient has length %d, want %d", len(dst), len(c.params)))
	}
	copy(dst, c.hTrace)
}

// H returns the hidden state h_t.
func (c *Column) H() float64 { return c.h }

// C returns the cell state c_t.
func (c *Column) C() float64 { return c.c }

// Reset zeroes the state and the traces; parameters are unchanged.
func (c *Column) Reset() {
	c.h, c.c = 0, 0
	clear(c.hTrace)
	clear(c.cTrace)
}

// Step advances the state and the traces by one step on input x (length m) and
// returns h_t.
func (c *Column) Step(x []float64) float64 {
	c.checkInput(x)
	if c.hTrace == nil {
		panic("forward: Step on a column without traces")
	}
	return c.step(x, x, true)
}

// StepFrozen advances the state only, leaving the traces untouched, and returns
// h_t. It is the step of a frozen column, whose parameters no longer learn.
func (c *Column) StepFrozen(x []float64) float64 {
	c.checkInput(x)
	return c.step(x, x, false)
}

func (c *Column) checkInput(x []float64) {
	if len(x) != c.m {
		panic(fmt.Sprintf("forward: column input has length %d, want %d", len(x), c.m))
	}
}

// step runs the forward pass on xf and, if traces is set, advances the traces
// with the direct terms taken from xd. Both have length m; they differ only
// under the PreviousStepFeatures defect of a Network. It is a stage of one
// column: a Network runs the same kernels for all columns of a stage at once
// (Network.stepStage), so that a stage's columns share lanes.
//
// Operations: the forward pass (lanes.Stage) 8m+18, the pre-activations
// 8m+8 and the gates and state 10 (2 for each of the three logistic
// functions, the cell's 3 and h's 1); the per-step scalars κ, A, B, D, E 21
// (lanes.TraceScalars); the traces 8 per weight and recurrent scalar and 7
// per bias (lanes.StageTrace).
func (c *Column) step(xf, xd []float64, traces bool) float64 {
	var ai, af, ag, ao, hp, cp, cn, tc, h [1]float64
	hp[0], cp[0] = c.h, c.c
	lanes.Stage(ai[:], af[:], ag[:], ao[:], hp[:], cp[:], cn[:], tc[:], h[:], c.params, xf)
	c.h, c.c = h[0], cn[0]
	if traces {
		var A, B, E [1]float64
		var K [8]float64
		k := lanes.TraceCoef{A: A[:], B: B[:], E: E[:], K: K[:]}
		lanes.TraceScalars(k, ai[:], af[:], ag[:], ao[:], cp[:], tc[:], c.params, c.m)
		if c.Defect == DropRecurrentTerm {
			A[0], E[0] = 0, 0
		}
		lanes.StageTrace(c.hTrace, c.cTrace, xd[:c.m], af[:], hp[:], k)
	}
	return h[0]
}

// OpsPerStep returns the number of floating-point additions, subtractions,
// multiplications and divisions of one Step (traces included), counted from the
// code; exponentials and tanh (3 math.Exp, 2 math.Tanh per step) and negations
// are not counted:
//
//	forward    8m + 18   (pre-activations 8m+8, gates and state 10)
//	scalars    21        (κ, A, B, D, E)
//	traces     32m + 60  (8 per weight and recurrent scalar, 7 per bias)
//	total      40m + 99
//
// Grad adds no arithmetic (it copies the trace).
func (c *Column) OpsPerStep() int { return columnStepOps(c.m) }

func columnStepOps(m int) int { return columnFrozenOps(m) + 21 + 32*m + 60 }

// FrozenOpsPerStep returns the operations of one StepFrozen: 8m + 18.
func (c *Column) FrozenOpsPerStep() int { return columnFrozenOps(c.m) }

func columnFrozenOps(m int) int { return 8*m + 18 }
