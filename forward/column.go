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
	c.init(m, make([]float64, n), true)
	return c
}

// init sets c up to read m inputs with parameters params (a view of length
// 4m+8) and, if traces is true, allocates its traces.
func (c *Column) init(m int, params []float64, traces bool) {
	c.m = m
	c.params = params[:arch.ColumnParams(m):arch.ColumnParams(m)]
	c.h, c.c = 0, 0
	if traces {
		c.hTrace = make([]float64, arch.ColumnParams(m))
		c.cTrace = make([]float64, arch.ColumnParams(m))
	} else {
		c.hTrace, c.cTrace = nil, nil
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
// under the PreviousStepFeatures defect of a Network. A Network runs the same
// three phases for all columns of a stage at once (Network.stepStage), so that
// the activations of a stage's columns share lanes.
func (c *Column) step(xf, xd []float64, traces bool) float64 {
	a := c.preact(xf)
	lanes.Sigmoid(a[arch.GateI:arch.GateG], a[arch.GateI:arch.GateG])
	lanes.Tanh(a[arch.GateG:arch.GateO], a[arch.GateG:arch.GateO])
	lanes.Sigmoid(a[arch.GateO:], a[arch.GateO:])
	i, f, g, o := a[arch.GateI], a[arch.GateF], a[arch.GateG], a[arch.GateO]
	cn := [1]float64{c.cell(i, f, g)}
	var tc [1]float64
	lanes.Tanh(tc[:], cn[:])
	return c.advance(i, f, g, o, cn[0], tc[0], xd, traces)
}

// preact returns the pre-activations a_q = W_q·x + u_q·h_prev + b_q of the
// gates (order i, f, g, o): 4·(2m+2) operations.
func (c *Column) preact(x []float64) [arch.NumGates]float64 {
	m := c.m
	p := c.params
	hp := c.h
	a := [arch.NumGates]float64{
		p[4*m+4] + p[4*m]*hp,
		p[4*m+5] + p[4*m+1]*hp,
		p[4*m+6] + p[4*m+2]*hp,
		p[4*m+7] + p[4*m+3]*hp,
	}
	lanes.Dot4(&a, p[:4*m], x[:m])
	return a
}

// cell returns the new cell state c = f·c_prev + i·g (3 operations) for the
// gate activations i, f, g.
func (c *Column) cell(i, f, g float64) float64 { return f*c.c + i*g }

// advance completes the step from the activations i = σ(a_i), f = σ(a_f),
// g = tanh(a_g), o = σ(a_o), the new cell state cn and tc = tanh(cn): it sets
// h = o·tc (1 operation; gates and state, with the 2 of each of the three
// logistic functions and cell's 3, make 10) and, if traces is set, advances
// the traces with the direct terms x = xd. It returns h.
func (c *Column) advance(i, f, g, o, cn, tc float64, xd []float64, traces bool) float64 {
	m := c.m
	p := c.params
	uf, ug, ui, uo := p[4*m+1], p[4*m+2], p[4*m], p[4*m+3]
	hp, cp := c.h, c.c
	h := o * tc
	c.h, c.c = h, cn
	if !traces {
		return h
	}

	// Per-step scalars: 8 + 3 + 5 + 3 + 1 + 1 = 21 operations.
	si, sf, sg, so := i*(1-i), f*(1-f), 1-g*g, o*(1-o)
	ki, kf, kg := g*si, cp*sf, i*sg
	A := kf*uf + kg*ug + ki*ui
	B := o * (1 - tc*tc)
	D := tc * so
	E := D * uo
	if c.Defect == DropRecurrentTerm {
		A, E = 0, 0
	}

	// Traces: 8 operations per weight and recurrent scalar, 7 per bias.
	ht, ct := c.hTrace[:len(p)], c.cTrace[:len(p)]
	xd = xd[:m]
	lanes.Trace(ht[0:m], ct[0:m], xd, f, A, B, E, ki)
	lanes.Trace(ht[m:2*m], ct[m:2*m], xd, f, A, B, E, kf)
	lanes.Trace(ht[2*m:3*m], ct[2*m:3*m], xd, f, A, B, E, kg)
	lanes.TraceOut(ht[3*m:4*m], ct[3*m:4*m], xd, f, A, B, E, D)

	// u_q: direct term h_prev.
	uh, uc := ht[4*m:4*m+4], ct[4*m:4*m+4]
	for q, kq := range [3]float64{ki, kf, kg} {
		hOld := uh[q]
		cNew := f*uc[q] + A*hOld + kq*hp
		uc[q] = cNew
		uh[q] = B*cNew + E*hOld
	}
	hOld := uh[3]
	cNew := f*uc[3] + A*hOld
	uc[3] = cNew
	uh[3] = B*cNew + E*hOld + D*hp

	// b_q: direct term 1.
	bh, bc := ht[4*m+4:4*m+8], ct[4*m+4:4*m+8]
	for q, kq := range [3]float64{ki, kf, kg} {
		hOld := bh[q]
		cNew := f*bc[q] + A*hOld + kq
		bc[q] = cNew
		bh[q] = B*cNew + E*hOld
	}
	hOld = bh[3]
	cNew = f*bc[3] + A*hOld
	bc[3] = cNew
	bh[3] = B*cNew + E*hOld + D
	return h
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
