package forward

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// SnAp1 is the SnAp-1 approximation of RTRL (Menick et al. 2021) for a fully
// connected LSTM with H hidden units, m inputs and the linear prediction
// y = w_out·h + b_out (parameters in the flat layout of arch.Dense). Of the
// influence matrix ∂(h, c)/∂θ it keeps only the entries that one step makes
// nonzero: for a cell parameter p on a row of unit j (W_ih[q·H+j][·],
// W_hh[q·H+j][·], b[q·H+j], written p ∈ j), the traces ∂h_j/∂p and ∂c_j/∂p of
// unit j alone; every other entry is taken to be zero after every step. With
// the gate coefficients of DenseRTRL the kept entries follow
//
//	∂a_{q',j}/∂p ≈ d_{q',j}(p) + W_hh[q'·H+j][j]·∂h_j(t-1)/∂p        (p ∈ j)
//	∂c_j/∂p ≈ f_j·∂c_j(t-1)/∂p + c_j(t-1)·f_j(1-f_j)·∂a_{f,j}/∂p
//	        + i_j·(1-g_j²)·∂a_{g,j}/∂p + g_j·i_j(1-i_j)·∂a_{i,j}/∂p
//	∂h_j/∂p ≈ o_j·(1-tanh²(c_j))·∂c_j/∂p + tanh(c_j)·o_j(1-o_j)·∂a_{o,j}/∂p
//	∂y/∂p ≈ w_out[j]·∂h_j/∂p
//
// that is, DenseRTRL's recursion with the sum over k reduced to its diagonal
// term k = j and the traces of the other units dropped. It is exact when H = 1
// and when W_hh is zero off the diagonal (the units are then independent
// columns); otherwise it is biased. The head gradients (h and 1) are exact.
// The cost is O(1) per cell parameter, O(H² + Hm) per step, as the forward pass.
type SnAp1 struct {
	// Defect injects a deliberate mistake for tests of the comparison only.
	// SnAp1 honours DropRecurrentTerm (it drops the diagonal term above) and
	// ignores the others.
	Defect Defect

	shape  arch.Dense
	params []float64

	st             denseStep // state and per-unit coefficients of the step
	alpha, delta   []float64 // per-unit coefficients of the trace update
	kc, kh         []float64 // 4H: direct-term coefficients of row q·H+j
	hTrace, cTrace []float64 // NumCellParams each: ∂h_j/∂p, ∂c_j/∂p for p ∈ j
}

// NewSnAp1 returns an engine for shape with parameters, state and traces zero.
// Fill the parameters through Params.
func NewSnAp1(shape arch.Dense) *SnAp1 {
	shape.Validate()
	H := shape.Hidden
	return &SnAp1{
		shape:  shape,
		params: make([]float64, shape.NumParams()),
		st:     newDenseStep(H),
		alpha:  make([]float64, H),
		delta:  make([]float64, H),
		kc:     make([]float64, 4*H),
		kh:     make([]float64, 4*H),
		hTrace: make([]float64, shape.NumCellParams()),
		cTrace: make([]float64, shape.NumCellParams()),
	}
}

// Shape returns the shape of the network.
func (s *SnAp1) Shape() arch.Dense { return s.shape }

// NumParams returns the length of the parameter vector, shape.NumParams().
func (s *SnAp1) NumParams() int { return len(s.params) }

// Params returns the flat parameter vector in the arch.Dense layout (a writable
// view, read at every step).
func (s *SnAp1) Params() []float64 { return s.params }

// H returns the hidden state h_t (a view; do not modify it).
func (s *SnAp1) H() []float64 { return s.st.h }

// Reset zeroes the state and the traces; parameters are unchanged.
func (s *SnAp1) Reset() {
	s.st.reset()
	clear(s.hTrace)
	clear(s.cTrace)
}

// Step advances the state and the kept traces by one step on input x (length
// m) and returns the prediction y_t = w_out·h_t + b_out.
//
// The trace update is the recursion of the type comment with the linear terms
// in ∂h_j(t-1)/∂p collected per unit: for p on row q·H+j with direct term d,
//
//	∂c_j/∂p = f_j·∂c_j(t-1)/∂p + α_j·∂h_j(t-1)/∂p + kc_{q,j}·d
//	∂h_j/∂p = B_j·∂c_j/∂p + δ_j·∂h_j(t-1)/∂p + kh_{q,j}·d
//
// with α_j = kF_j·W_f,jj + kG_j·W_g,jj + kI_j·W_i,jj, δ_j = D_j·W_o,jj,
// kc = (kI, kF, kG, 0)_q, kh = (0, 0, 0, D)_q.
func (s *SnAp1) Step(x []float64) float64 {
	m, H := s.shape.Inputs, s.shape.Hidden
	// Forward 8H(m+H) + 10H, prediction 2H (+1 with the output bias),
	// coefficients 15H.
	y := s.st.step(s.shape, s.params, x)
	_, whh, _, _ := s.shape.Split(s.params)
	hp := s.st.hPrev

	// Trace coefficients: 6 operations per unit.
	for j := 0; j < H; j++ {
		kI, kF, kG, D := s.st.kI[j], s.st.kF[j], s.st.kG[j], s.st.D[j]
		diag := func(q int) float64 { return whh[(q*H+j)*H+j] }
		if s.Defect == DropRecurrentTerm {
			s.alpha[j], s.delta[j] = 0, 0
		} else {
			s.alpha[j] = kF*diag(arch.GateF) + kG*diag(arch.GateG) + kI*diag(arch.GateI)
			s.delta[j] = D * diag(arch.GateO)
		}
		s.kc[arch.GateI*H+j], s.kc[arch.GateF*H+j], s.kc[arch.GateG*H+j], s.kc[arch.GateO*H+j] = kI, kF, kG, 0
		s.kh[arch.GateI*H+j], s.kh[arch.GateF*H+j], s.kh[arch.GateG*H+j], s.kh[arch.GateO*H+j] = 0, 0, 0, D
	}

	// Traces: 10 operations per cell parameter.
	p := 0
	for r := 0; r < 4*H; r++ {
		s.traceRow(p, r, x)
		p += m
	}
	for r := 0; r < 4*H; r++ {
		s.traceRow(p, r, hp)
		p += H
	}
	s.traceRow(p, -1, nil) // the biases: row r at p+r, direct term 1
	return y
}

// traceRow advances the traces of the parameters of row r starting at p, whose
// direct terms are d; with r = -1 it advances the 4H biases starting at p.
func (s *SnAp1) traceRow(p, r int, d []float64) {
	H := s.shape.Hidden
	if r < 0 {
		for r := 0; r < 4*H; r++ {
			s.update(p+r, r, 1)
		}
		return
	}
	j := r % H
	f, al, de, be, kc, kh := s.st.f[j], s.alpha[j], s.delta[j], s.st.B[j], s.kc[r], s.kh[r]
	hs := s.hTrace[p : p+len(d)]
	cs := s.cTrace[p : p+len(d)]
	for k, dk := range d {
		hOld := hs[k]
		cNew := f*cs[k] + al*hOld + kc*dk
		cs[k] = cNew
		hs[k] = be*cNew + de*hOld + kh*dk
	}
}

// update advances the traces of one parameter p on row r with direct term d.
func (s *SnAp1) update(p, r int, d float64) {
	j := r % s.shape.Hidden
	hOld := s.hTrace[p]
	cNew := s.st.f[j]*s.cTrace[p] + s.alpha[j]*hOld + s.kc[r]*d
	s.cTrace[p] = cNew
	s.hTrace[p] = s.st.B[j]*cNew + s.delta[j]*hOld + s.kh[r]*d
}

// Grad writes the SnAp-1 estimate of ∂y_t/∂θ of the last Step into dst (length
// NumParams): for a cell parameter p ∈ j, w_out[j]·∂h_j/∂p; for w_out[j] the
// state h_j; for b_out 1.
func (s *SnAp1) Grad(dst []float64) {
	if len(dst) != len(s.params) {
		panic(fmt.Sprintf("forward: dense gradient has length %d, want %d", len(dst), len(s.params)))
	}
	m, H := s.shape.Inputs, s.shape.Hidden
	_, _, _, wout := s.shape.Split(s.params)
	p := 0
	for _, n := range [...]int{m, H, 1} {
		for r := 0; r < 4*H; r++ {
			w := wout[r%H]
			for k := 0; k < n; k++ {
				dst[p] = w * s.hTrace[p]
				p++
			}
		}
	}
	s.st.headGrad(s.shape, dst)
}

// OpsPerStep returns the floating-point additions, subtractions,
// multiplications and divisions of one Step followed by one Grad, counted from
// the code as for DenseRTRL. With P = 4H(m+H+1) cell parameters:
//
//	forward      8H(m+H) + 10H
//	coefficients 21H
//	prediction   2H (+1 with the output bias)
//	traces       10P
//	Grad         P
func (s *SnAp1) OpsPerStep() int {
	// stepOps counts 15H of the 21H coefficients.
	return stepOps(s.shape) + 6*s.shape.Hidden + 11*s.shape.NumCellParams()
}
