package arch

import "fmt"

// Dense is the shape of a fully connected LSTM with Hidden units reading Inputs
// values per step, followed by the linear prediction
//
//	y = w_out·h + b_out     (OutBias)
//	y = w_out·h             (otherwise: the authors' dense LSTM)
//
// Hidden = 1 is a single column.
type Dense struct {
	Hidden int // H ≥ 1
	Inputs int // m ≥ 1
	// OutBias adds the output bias b_out, the last entry of the flat vector,
	// so the dense LSTM's head is that of the column networks; false (the
	// zero value) is the authors' head y = w_out·h.
	OutBias bool
}

// Validate panics if d is not a usable shape.
func (d Dense) Validate() {
	if d.Hidden < 1 || d.Inputs < 1 {
		panic(fmt.Sprintf("arch: invalid dense shape H=%d m=%d", d.Hidden, d.Inputs))
	}
}

// NumParams is the length of the flat parameter vector:
//
//	4H·m + 4H·H + 4H + H (+ 1 with OutBias)
func (d Dense) NumParams() int {
	if d.OutBias {
		return d.OffOut() + d.Hidden + 1
	}
	return d.OffOut() + d.Hidden
}

// NumCellParams is the number of cell parameters (everything but the head
// w_out and b_out).
func (d Dense) NumCellParams() int { return d.OffOut() }

// OffWHH is the offset of W_hh in the flat vector (W_ih starts at 0).
func (d Dense) OffWHH() int { return 4 * d.Hidden * d.Inputs }

// OffB is the offset of b in the flat vector.
func (d Dense) OffB() int { return d.OffWHH() + 4*d.Hidden*d.Hidden }

// OffOut is the offset of w_out in the flat vector.
func (d Dense) OffOut() int { return d.OffB() + 4*d.Hidden }

// IdxWIH is the flat index of W_ih[q·H+j][k]: gate q of unit j, input k.
func (d Dense) IdxWIH(q, j, k int) int { return (q*d.Hidden+j)*d.Inputs + k }

// IdxWHH is the flat index of W_hh[q·H+j][k]: gate q of unit j, previous h_k.
func (d Dense) IdxWHH(q, j, k int) int { return d.OffWHH() + (q*d.Hidden+j)*d.Hidden + k }

// IdxB is the flat index of b[q·H+j].
func (d Dense) IdxB(q, j int) int { return d.OffB() + q*d.Hidden + j }

// IdxOut is the flat index of w_out[j].
func (d Dense) IdxOut(j int) int { return d.OffOut() + j }

// IdxOutBias is the flat index of b_out, the last entry. It panics if d has
// no output bias.
func (d Dense) IdxOutBias() int {
	if !d.OutBias {
		panic("arch: dense shape has no output bias")
	}
	return d.OffOut() + d.Hidden
}

// Split returns views of the four blocks of a flat vector p of length
// NumParams; wout has H entries (b_out, if any, is OutBiasOf(p)).
func (d Dense) Split(p []float64) (wih, whh, b, wout []float64) {
	if len(p) != d.NumParams() {
		panic(fmt.Sprintf("arch: dense vector has length %d, want %d", len(p), d.NumParams()))
	}
	return p[:d.OffWHH()], p[d.OffWHH():d.OffB()], p[d.OffB():d.OffOut()], p[d.OffOut() : d.OffOut()+d.Hidden]
}

// OutBiasOf returns b_out of the flat vector p, or 0 if d has no output bias.
func (d Dense) OutBiasOf(p []float64) float64 {
	if !d.OutBias {
		return 0
	}
	return p[d.IdxOutBias()]
}
