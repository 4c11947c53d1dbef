package arch

import "fmt"

// RTU is the shape of a layer of Units Recurrent Trace Units (Elelimy, White,
// Bowling and White, "Real-Time Recurrent Learning using Trace Units in
// Reinforcement Learning", NeurIPS 2024, §4) reading Inputs values per step,
// followed by the linear prediction y = w_out·h + b_out on its 2·Units
// features h. Linear selects the paper's linear RTU (linear recurrence, the
// nonlinearity on the output); otherwise the nonlinearity sits inside the
// recurrence (the paper's non-linear RTU). forward.RTU states the equations.
//
// The flat parameter vector is, for n = Units and m = Inputs,
//
//	ν^log (n) | θ^log (n) | W_1 (n×m, row-major) | W_2 (n×m) | w_out (2n) | b_out
//
// with w_out[j] weighting the real part's feature of unit j and w_out[n+j]
// the imaginary part's.
//
// Norm normalizes the 2n features online before the head, as the columns'
// features are (paper §3.4, Equation 11): y = w_out·ĥ + b_out with
// ĥ = (h − μ)/max(ε, σ), the statistics held constant in the gradient.
type RTU struct {
	Units  int // n ≥ 1
	Inputs int // m ≥ 1
	Linear bool
	Norm   Normalization
}

// Validate panics if s is not a usable shape.
func (s RTU) Validate() {
	if s.Units < 1 || s.Inputs < 1 {
		panic(fmt.Sprintf("arch: invalid RTU shape n=%d m=%d", s.Units, s.Inputs))
	}
}

// Features is the number of features, 2n.
func (s RTU) Features() int { return 2 * s.Units }

// NumParams is the length of the flat parameter vector, 2n + 2n·m + 2n + 1.
func (s RTU) NumParams() int { return s.OffOut() + 2*s.Units + 1 }

// NumCellParams is the number of recurrent parameters (everything but the
// head w_out and b_out), 2n(m+1).
func (s RTU) NumCellParams() int { return s.OffOut() }

// OffTheta is the offset of θ^log (ν^log starts at 0).
func (s RTU) OffTheta() int { return s.Units }

// OffW1 is the offset of W_1.
func (s RTU) OffW1() int { return 2 * s.Units }

// OffW2 is the offset of W_2.
func (s RTU) OffW2() int { return s.OffW1() + s.Units*s.Inputs }

// OffOut is the offset of w_out.
func (s RTU) OffOut() int { return s.OffW2() + s.Units*s.Inputs }

// IdxOutBias is the flat index of b_out, the last entry.
func (s RTU) IdxOutBias() int { return s.NumParams() - 1 }

// Split returns views of the blocks of a flat vector p of length NumParams.
func (s RTU) Split(p []float64) (nu, theta, w1, w2, wout []float64, bout float64) {
	if len(p) != s.NumParams() {
		panic(fmt.Sprintf("arch: RTU vector has length %d, want %d", len(p), s.NumParams()))
	}
	n := s.Units
	return p[:n], p[n:s.OffW1()], p[s.OffW1():s.OffW2()], p[s.OffW2():s.OffOut()],
		p[s.OffOut() : s.OffOut()+2*n], p[s.IdxOutBias()]
}
