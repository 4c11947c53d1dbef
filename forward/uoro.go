package forward

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
)

// uoroEpsilon keeps the UORO scalings finite when a norm is zero (at the start).
const uoroEpsilon = 1e-7

// UORO is Unbiased Online Recurrent Optimization (Tallec & Ollivier 2018) for
// a fully connected LSTM with H hidden units, m inputs and the linear
// prediction y = w_out·h + b_out (parameters in the flat layout of
// arch.Dense). With the state s = (h, c) and one step s_t = F(s_{t-1}, x_t, θ)
// it carries a rank-one estimate s̃·θ̃ᵀ of the influence matrix ∂s_t/∂θ over
// the cell parameters:
//
//	ν ∈ {−1, +1}^{2H} uniform, drawn afresh every step
//	ρ0 = sqrt((‖θ̃‖ + ε) / (‖(∂F/∂s)·s̃‖ + ε))
//	ρ1 = sqrt((‖νᵀ·∂F/∂θ‖ + ε) / (‖ν‖ + ε))
//	s̃ ← ρ0·(∂F/∂s)·s̃ + ρ1·ν
//	θ̃ ← θ̃/ρ0 + (νᵀ·∂F/∂θ)/ρ1
//	∂y/∂θ_cell ≈ (w_out·s̃_h)·θ̃
//
// from s̃ = 0, θ̃ = 0, ε = 1e-7. Since E[ννᵀ] = I, ρ0 does not depend on
// ν_t and ρ1 is even in ν_t, E[s̃·θ̃ᵀ] = ∂s_t/∂θ exactly: the estimate is
// unbiased, and noisy. The head gradients (h and 1) are exact.
// (∂F/∂s)·s̃ is a forward-mode product through one step,
//
//	δa_r = Σ_k W_hh[r][k]·s̃_h[k]
//	δc_j = f_j·s̃_c[j] + kF_j·δa_{f,j} + kG_j·δa_{g,j} + kI_j·δa_{i,j}
//	δh_j = B_j·δc_j + D_j·δa_{o,j}
//
// and νᵀ·∂F/∂θ a reverse-mode one: γ_j = ν_c[j] + B_j·ν_h[j], the
// pre-activation cotangents (kI_j·γ_j, kF_j·γ_j, kG_j·γ_j, D_j·ν_h[j]) for
// the gates (i, f, g, o), times x_k, h_k(t−1) or 1 for the row's W_ih, W_hh
// and b entries (coefficients kI, kF, kG, B, D as in DenseRTRL). The cost is
// O(H² + Hm) per step, as the forward pass.
//
// The signs come from the engine's own generator, seeded at construction:
// two engines with one seed and the same inputs are identical; Reset does not
// reseed, so successive runs after Reset are independent draws.
type UORO struct {
	// Defect injects a deliberate mistake for tests of the statistical check
	// only: UORO honours AsymmetricScaling and UnsignedNewTerm and ignores the
	// others.
	Defect Defect

	shape  arch.Dense
	params []float64
	rng    *rand.Rand

	st         denseStep // state and per-unit coefficients of the step
	da         []float64 // 4H scratch
	sT, js, nu []float64 // 2H: s̃ (h then c), (∂F/∂s)·s̃, ν
	thT, vjp   []float64 // NumCellParams: θ̃, νᵀ·∂F/∂θ
}

// NewUORO returns an engine for shape with parameters, state and estimate
// zero, drawing its signs from a generator seeded with seed. Fill the
// parameters through Params.
func NewUORO(shape arch.Dense, seed uint64) *UORO {
	shape.Validate()
	H := shape.Hidden
	vec := func(n int) []float64 { return make([]float64, n) }
	return &UORO{
		shape:  shape,
		params: vec(shape.NumParams()),
		rng:    rand.New(rand.NewPCG(seed, 0x5eed)),
		st:     newDenseStep(H),
		da:     vec(4 * H),
		sT:     vec(2 * H), js: vec(2 * H), nu: vec(2 * H),
		thT: vec(shape.NumCellParams()), vjp: vec(shape.NumCellParams()),
	}
}

// Shape returns the shape of the network.
func (u *UORO) Shape() arch.Dense { return u.shape }

// NumParams returns the length of the parameter vector, shape.NumParams().
func (u *UORO) NumParams() int { return len(u.params) }

// Params returns the flat parameter vector in the arch.Dense layout (a writable
// view, read at every step).
func (u *UORO) Params() []float64 { return u.params }

// H returns the hidden state h_t (a view; do not modify it).
func (u *UORO) H() []float64 { return u.st.h }

// Reset zeroes the state and the estimate s̃, θ̃; parameters and the
// generator's position are unchanged.
func (u *UORO) Reset() {
	u.st.reset()
	clear(u.sT)
	clear(u.thT)
}

// Step advances the state and the rank-one estimate by one step on input x
// (length m) and returns the prediction y_t = w_out·h_t + b_out.
func (u *UORO) Step(x []float64) float64 {
	H := u.shape.Hidden
	// Forward 8H(m+H) + 10H, prediction 2H (+1 with the output bias),
	// coefficients 15H.
	y := u.st.step(u.shape, u.params, x)
	_, whh, _, _ := u.shape.Split(u.params)
	hp := u.st.hPrev
	st := &u.st

	// (∂F/∂s)·s̃: 8H² + 10H, and its squared norm 4H.
	sh, sc := u.sT[:H], u.sT[H:]
	for r := range u.da {
		v := 0.0
		for k, wk := range whh[r*H : (r+1)*H] {
			v += wk * sh[k]
		}
		u.da[r] = v
	}
	jsn := 0.0
	for j := 0; j < H; j++ {
		dc := st.f[j]*sc[j] + st.kF[j]*u.da[arch.GateF*H+j] + st.kG[j]*u.da[arch.GateG*H+j] + st.kI[j]*u.da[arch.GateI*H+j]
		dh := st.B[j]*dc + st.D[j]*u.da[arch.GateO*H+j]
		u.js[j], u.js[H+j] = dh, dc
		jsn += dh*dh + dc*dc
	}

	// ν: 2H signs, 64 per draw from the generator.
	var bits uint64
	for n := range u.nu {
		if n%64 == 0 {
			bits = u.rng.Uint64()
		}
		u.nu[n] = float64(int(bits&1)*2 - 1)
		bits >>= 1
	}
	nuh, nuc := u.nu[:H], u.nu[H:]

	// νᵀ·∂F/∂θ: pre-activation cotangents 6H (into da), then one
	// multiplication per W_ih and W_hh entry; its squared norm 2P.
	for j := 0; j < H; j++ {
		vh, vc := 1.0, 1.0
		if u.Defect != UnsignedNewTerm {
			vh, vc = nuh[j], nuc[j]
		}
		gam := vc + st.B[j]*vh
		u.da[arch.GateI*H+j] = st.kI[j] * gam
		u.da[arch.GateF*H+j] = st.kF[j] * gam
		u.da[arch.GateG*H+j] = st.kG[j] * gam
		u.da[arch.GateO*H+j] = st.D[j] * vh
	}
	p := 0
	for r := 0; r < 4*H; r++ {
		gr := u.da[r]
		for _, xk := range x {
			u.vjp[p] = gr * xk
			p++
		}
	}
	for r := 0; r < 4*H; r++ {
		gr := u.da[r]
		for _, hk := range hp {
			u.vjp[p] = gr * hk
			p++
		}
	}
	copy(u.vjp[p:], u.da)
	vn, tn := 0.0, 0.0
	for i, v := range u.vjp {
		vn += v * v
		tn += u.thT[i] * u.thT[i]
	}

	// Scalings: 6 operations, and 2 reciprocals.
	rho0 := math.Sqrt((math.Sqrt(tn) + uoroEpsilon) / (math.Sqrt(jsn) + uoroEpsilon))
	rho1 := math.Sqrt((math.Sqrt(vn) + uoroEpsilon) / (math.Sqrt(float64(2*H)) + uoroEpsilon))
	inv0, inv1 := 1/rho0, 1/rho1
	if u.Defect == AsymmetricScaling {
		inv1 = 1
	}
	// Updates: 3 per state entry, 3 per cell parameter.
	for n := range u.sT {
		u.sT[n] = rho0*u.js[n] + rho1*u.nu[n]
	}
	for i, v := range u.vjp {
		u.thT[i] = u.thT[i]*inv0 + v*inv1
	}
	return y
}

// Grad writes the UORO estimate of ∂y_t/∂θ of the last Step into dst (length
// NumParams): (w_out·s̃_h)·θ̃ for the cell parameters, h for w_out, 1 for
// b_out.
func (u *UORO) Grad(dst []float64) {
	if len(dst) != len(u.params) {
		panic(fmt.Sprintf("forward: dense gradient has length %d, want %d", len(dst), len(u.params)))
	}
	_, _, _, wout := u.shape.Split(u.params)
	s := 0.0
	for j, w := range wout {
		s += w * u.sT[j]
	}
	for i, v := range u.thT {
		dst[i] = s * v
	}
	u.st.headGrad(u.shape, dst)
}

// OpsPerStep returns the floating-point additions, subtractions,
// multiplications and divisions of one Step followed by one Grad, counted from
// the code as for DenseRTRL (square roots not counted). With P = 4H(m+H+1)
// cell parameters:
//
//	forward       8H(m+H) + 10H
//	coefficients  15H
//	prediction    2H (+1 with the output bias)
//	(∂F/∂s)·s̃     8H² + 14H (with its squared norm)
//	νᵀ·∂F/∂θ      6H + (P − 4H), and 4P for the two squared norms
//	scalings      8
//	updates       6H + 3P
//	Grad          2H + P
func (u *UORO) OpsPerStep() int {
	H, P := u.shape.Hidden, u.shape.NumCellParams()
	return stepOps(u.shape) + 8*H*H + 14*H + 6*H + (P - 4*H) + 4*P + 8 + 6*H + 3*P + 2*H + P
}
