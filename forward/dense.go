package forward

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// DenseRTRL is exact real-time recurrent learning for a fully connected LSTM
// with H hidden units, m inputs and the linear prediction y = w_out·h + b_out
// (paper §2; b_out only with arch.Dense.OutBias; parameters in the flat layout
// of arch.Dense). For every cell parameter p it
// keeps the traces ∂h_j/∂p and ∂c_j/∂p of all H units, updated by
//
//	∂a_{q,j}/∂p = d_{q,j}(p) + Σ_k W_hh[q·H+j][k]·∂h_k(t-1)/∂p
//	∂c_j/∂p = f_j·∂c_j(t-1)/∂p + c_j(t-1)·f_j(1-f_j)·∂a_{f,j}/∂p
//	        + i_j·(1-g_j²)·∂a_{g,j}/∂p + g_j·i_j(1-i_j)·∂a_{i,j}/∂p
//	∂h_j/∂p = o_j·(1-tanh²(c_j))·∂c_j/∂p + tanh(c_j)·o_j(1-o_j)·∂a_{o,j}/∂p
//
// where the direct term d_{q,j}(p) is x_k for p = W_ih[q·H+j][k], h_k(t-1) for
// p = W_hh[q·H+j][k], 1 for p = b[q·H+j], and 0 for every other row. The cost is
// O(H²) per cell parameter, O(H⁴ + H³m) per step.
type DenseRTRL struct {
	// Defect injects a deliberate mistake for tests of the comparison only.
	// DenseRTRL honours DropRecurrentTerm and ignores PreviousStepFeatures.
	Defect Defect

	shape  arch.Dense
	params []float64

	st             denseStep // state and per-unit trace coefficients
	da             []float64 // 4H scratch: ∂a/∂p of one parameter
	hTrace, cTrace []float64 // NumCellParams × H, parameter-major
	y              float64
}

// NewDenseRTRL returns an engine for shape with parameters, state and traces
// zero. Fill the parameters through Params.
func NewDenseRTRL(shape arch.Dense) *DenseRTRL {
	shape.Validate()
	H := shape.Hidden
	return &DenseRTRL{
		shape:  shape,
		params: make([]float64, shape.NumParams()),
		st:     newDenseStep(H),
		da:     make([]float64, 4*H),
		hTrace: make([]float64, shape.NumCellParams()*H),
		cTrace: make([]float64, shape.NumCellParams()*H),
	}
}

// Shape returns the shape of the network.
func (d *DenseRTRL) Shape() arch.Dense { return d.shape }

// NumParams returns the length of the parameter vector, shape.NumParams().
func (d *DenseRTRL) NumParams() int { return len(d.params) }

// Params returns the flat parameter vector in the arch.Dense layout (a writable
// view, read at every step).
func (d *DenseRTRL) Params() []float64 { return d.params }

// H returns the hidden state h_t (a view; do not modify it).
func (d *DenseRTRL) H() []float64 { return d.st.h }

// Reset zeroes the state and the traces; parameters are unchanged.
func (d *DenseRTRL) Reset() {
	d.st.reset()
	clear(d.hTrace)
	clear(d.cTrace)
	d.y = 0
}

// Step advances the state and the traces by one step on input x (length m) and
// returns the prediction y_t = w_out·h_t + b_out.
func (d *DenseRTRL) Step(x []float64) float64 {
	H := d.shape.Hidden
	// Forward 8H(m+H) + 10H, prediction 2H (+1), coefficients 15H.
	y := d.st.step(d.shape, d.params, x)
	d.y = y
	_, whh, _, _ := d.shape.Split(d.params)
	hp := d.st.hPrev

	// Traces, parameter by parameter, in the flat layout order.
	p := 0
	for r := 0; r < 4*H; r++ {
		for _, xk := range x {
			d.traceParam(p, r, xk, whh)
			p++
		}
	}
	for r := 0; r < 4*H; r++ {
		for _, hk := range hp {
			d.traceParam(p, r, hk, whh)
			p++
		}
	}
	for r := 0; r < 4*H; r++ {
		d.traceParam(p, r, 1, whh)
		p++
	}
	return y
}

// traceParam advances the traces of cell parameter p, whose direct term is
// direct on pre-activation row r: 8H² + 1 + 10H operations.
func (d *DenseRTRL) traceParam(p, r int, direct float64, whh []float64) {
	H := d.shape.Hidden
	hs := d.hTrace[p*H : (p+1)*H]
	cs := d.cTrace[p*H : (p+1)*H]
	da := d.da[:4*H]
	if d.Defect == DropRecurrentTerm {
		clear(da)
	} else {
		for row := range da {
			s := 0.0
			for k, wk := range whh[row*H : (row+1)*H] {
				s += wk * hs[k]
			}
			da[row] = s
		}
	}
	da[r] += direct
	st := &d.st
	for j := range cs {
		cNew := st.f[j]*cs[j] + st.kF[j]*da[H+j] + st.kG[j]*da[2*H+j] + st.kI[j]*da[j]
		cs[j] = cNew
		hs[j] = st.B[j]*cNew + st.D[j]*da[3*H+j]
	}
}

// Grad writes ∂y_t/∂θ of the last Step into dst (length NumParams): for a cell
// parameter Σ_j w_out[j]·∂h_j/∂p, for w_out[j] the state h_j, for b_out 1.
func (d *DenseRTRL) Grad(dst []float64) {
	if len(dst) != len(d.params) {
		panic(fmt.Sprintf("forward: dense gradient has length %d, want %d", len(dst), len(d.params)))
	}
	H := d.shape.Hidden
	off := d.shape.OffOut()
	_, _, _, wout := d.shape.Split(d.params)
	for p := range dst[:off] {
		hs := d.hTrace[p*H : (p+1)*H]
		s := 0.0
		for j, w := range wout {
			s += w * hs[j]
		}
		dst[p] = s
	}
	d.st.headGrad(d.shape, dst)
}

// OpsPerStep returns the floating-point additions, subtractions,
// multiplications and divisions of one Step followed by one Grad, counted from
// the code (exponentials, tanh and negations not counted). With P = 4H(m+H+1)
// cell parameters:
//
//	forward      8H(m+H) + 10H
//	prediction   2H (+1 with the output bias)
//	coefficients 15H
//	traces       P·(8H² + 10H + 1)
//	Grad         P·2H
func (d *DenseRTRL) OpsPerStep() int {
	H, P := d.shape.Hidden, d.shape.NumCellParams()
	return stepOps(d.shape) + P*(8*H*H+10*H+1) + P*2*H
}
