package forward

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// RTU is exact real-time recurrent learning for a layer of n Recurrent Trace
// Units (Elelimy, White, Bowling and White, NeurIPS 2024, §4: a diagonal
// complex linear recurrence written in real pairs) on m inputs, with the
// linear prediction y = w_out·h + b_out on its 2n features h (parameters in the
// flat layout of arch.RTU). Unit j keeps the complex state c = s¹ + i·s²; with
// λ = exp(−exp(ν) + i·exp(θ)) its parameterization through ν = ν^log_j and
// θ = θ^log_j (|λ| < 1 for every real ν):
//
//	r = exp(−e^ν)   ϑ = e^θ   g = r·cos ϑ   φ = r·sin ϑ   γ = √(1 − r²)      (R1)
//	u = W_1[j]·x_t   v = W_2[j]·x_t                                          (R2)
//	p_t = g·s¹(t−1) − φ·s²(t−1) + γ·u                                        (R3)
//	q_t = g·s²(t−1) + φ·s¹(t−1) + γ·v
//	linear RTU:      s¹ = p_t, s² = q_t,       h_j = f(p_t), h_{n+j} = f(q_t) (R4)
//	non-linear RTU:  s¹ = f(p_t), s² = f(q_t), h_j = s¹,     h_{n+j} = s²     (R5)
//	y_t = Σ_j w_out[j]·h_j + b_out,   f = tanh                               (R6)
//
// so p + i·q = λ·c(t−1) + γ·(u + i·v): (R3) is the complex product by λ in
// real pairs, and γ is the input normalization of the authors' code (that of
// the LRU). Because the recurrence is diagonal, the parameters of unit j reach
// only unit j's state, and the traces S¹ = ∂s¹/∂w, S² = ∂s²/∂w of w ∈ {ν, θ,
// W_1[j][k], W_2[j][k]} follow, differentiating (R3) with s¹, s² and S¹, S² of
// step t−1:
//
//	∂p = g·S¹ − φ·S² + g_w·s¹ − φ_w·s² + γ_w·u + γ·u_w                       (T1)
//	∂q = g·S² + φ·S¹ + g_w·s² + φ_w·s¹ + γ_w·v + γ·v_w
//	w = ν:        g_w = −e^ν·g   φ_w = −e^ν·φ   γ_w = e^ν·r²/γ   u_w = v_w = 0
//	w = θ:        g_w = −ϑ·φ     φ_w = ϑ·g      γ_w = 0          u_w = v_w = 0
//	w = W_1[j][k]: g_w = φ_w = γ_w = 0,  u_w = x_k,  v_w = 0
//	w = W_2[j][k]: g_w = φ_w = γ_w = 0,  u_w = 0,    v_w = x_k
//	linear:      S¹ ← ∂p,          S² ← ∂q                                    (T2)
//	non-linear:  S¹ ← f′(p_t)·∂p,  S² ← f′(q_t)·∂q
//	∂y/∂w = w_out[j]·∂h_j + w_out[n+j]·∂h_{n+j}                               (T3)
//	        ∂h_j = f′(p_t)·S¹, ∂h_{n+j} = f′(q_t)·S² (linear); S¹, S² (non-linear)
//
// with f′ = 1 − f². That is 2 traces for each of the 2n(m+1) recurrent
// parameters: O(n·m) memory and work per step, the same order as the forward
// pass. ∂y/∂w_out = h and ∂y/∂b_out = 1.
//
// With shape.Norm enabled the head reads the features normalized online, as
// the columns' are (paper §3.4, Equation 11; normalizer), feature k by its
// own statistics:
//
//	ĥ_k = (h_k − μ_k)·s_k      s_k = 1/max(ε, σ_k)                           (N1)
//	y_t = Σ_k w_out[k]·ĥ_k + b_out                                           (N2)
//
// The statistics are held constant in the gradient (as for the columns), and
// they sit outside the recurrence (which carries s¹, s², not ĥ), so the
// traces S¹, S² are unchanged and (T3) gains the factor s_k:
//
//	∂y/∂w = w_out[j]·s_j·∂h_j + w_out[n+j]·s_{n+j}·∂h_{n+j}                   (N3)
//
// with ∂y/∂w_out = ĥ. The gradient stays exact: normalization adds no
// trace, and the RTRL of the unnormalized layer is that of (N2) up to the
// per-feature constant s_k.
type RTU struct {
	// Defect injects a deliberate mistake for tests of the comparison only.
	// RTU honours DropRecurrentTerm (drops g·S¹ − φ·S² and g·S² + φ·S¹ from
	// (T1)), DropPhaseCoupling (drops −φ·S² and φ·S¹) and DropNormScale
	// (omits s_k from (N3)), and ignores the others.
	Defect Defect

	shape  arch.RTU
	params []float64
	norm   normalizer
	hn     []float64 // normalized features ĥ, 2n (h itself with Norm off)

	s1, s2 []float64 // state, n each
	u, v   []float64 // the last step's inputs W_1[j]·x, W_2[j]·x of (R2), n each
	h      []float64 // features, 2n
	// Per unit, the last step's output factors of (T3): f′(p), f′(q) for the
	// linear RTU, 1 for the non-linear one.
	o1, o2 []float64
	// Traces S¹, S² of ν and θ (n each) and of W_1, W_2 (n×m each, the layout
	// of the parameters).
	nu1, nu2, th1, th2 []float64
	a1, a2, b1, b2     []float64 // W_1: S¹, S²; W_2: S¹, S²
	y                  float64
}

// NewRTU returns an engine for shape with parameters, state and traces zero.
// Fill the parameters through Params (InitRTU draws the authors'
// initialization of ν and θ).
func NewRTU(shape arch.RTU) *RTU {
	shape.Validate()
	n, m := shape.Units, shape.Inputs
	vec := func(k int) []float64 { return make([]float64, k) }
	return &RTU{
		shape: shape, params: vec(shape.NumParams()),
		norm: newNormalizer(shape.Norm, shape.Norm.Enabled, 2*n), hn: vec(2 * n),
		s1: vec(n), s2: vec(n), u: vec(n), v: vec(n), h: vec(2 * n), o1: vec(n), o2: vec(n),
		nu1: vec(n), nu2: vec(n), th1: vec(n), th2: vec(n),
		a1: vec(n * m), a2: vec(n * m), b1: vec(n * m), b2: vec(n * m),
	}
}

// Shape returns the shape of the layer.
func (e *RTU) Shape() arch.RTU { return e.shape }

// NumParams returns the length of the parameter vector, shape.NumParams().
func (e *RTU) NumParams() int { return len(e.params) }

// Params returns the flat parameter vector in the arch.RTU layout (a writable
// view, read at every step).
func (e *RTU) Params() []float64 { return e.params }

// Features returns the features h_t of the last step (a view; do not modify
// it): f(p) of every unit, then f(q).
func (e *RTU) Features() []float64 { return e.h }

// Reset zeroes the state and the traces and restarts the normalization
// statistics at μ = 0, σ² = 1; parameters are unchanged.
func (e *RTU) Reset() {
	for _, v := range [][]float64{e.s1, e.s2, e.h, e.hn, e.o1, e.o2, e.nu1, e.nu2, e.th1, e.th2, e.a1, e.a2, e.b1, e.b2} {
		clear(v)
	}
	e.norm.reset()
	e.y = 0
}

// rtuCoefficients returns (R1) and the derivatives of g, φ, γ in ν and θ
// that (T1) needs: 10 counted operations (exponentials, cos, sin, the square
// root and negations not counted).
func rtuCoefficients(nu, theta float64) (g, phi, gam, gNu, phiNu, gamNu, gTh, phiTh float64) {
	en := math.Exp(nu)
	r := math.Exp(-en)
	vt := math.Exp(theta)
	sin, cos := math.Sincos(vt)
	g, phi = r*cos, r*sin
	// 1 − r² = −expm1(−2e^ν), exact to rounding also where r ≈ 1.
	gam = math.Sqrt(-math.Expm1(-2 * en))
	gNu, phiNu = -en*g, -en*phi
	gamNu = en * (r * r) / gam
	gTh, phiTh = -vt*phi, vt*g
	return
}

// Step advances the state and the traces by one step on input x (length m) and
// returns the prediction y_t = w_out·h_t + b_out.
func (e *RTU) Step(x []float64) float64 {
	n, m := e.shape.Units, e.shape.Inputs
	if len(x) != m {
		panic(fmt.Sprintf("forward: RTU input has length %d, want %d", len(x), m))
	}
	nu, theta, w1, w2, wout, bout := e.shape.Split(e.params)
	linear := e.shape.Linear
	rec, rot := 1.0, 1.0 // factors of the recurrent and rotation terms of (T1)
	switch e.Defect {
	case DropRecurrentTerm:
		rec = 0
	case DropPhaseCoupling:
		rot = 0
	}
	y := bout
	rtuInputs(e.u, e.v, w1, w2, x)
	for j := 0; j < n; j++ {
		g, phi, gam, gNu, phiNu, gamNu, gTh, phiTh := rtuCoefficients(nu[j], theta[j])
		row := j * m
		u, v := e.u[j], e.v[j]
		s1, s2 := e.s1[j], e.s2[j]
		p := g*s1 - phi*s2 + gam*u
		q := g*s2 + phi*s1 + gam*v
		fp, fq := math.Tanh(p), math.Tanh(q)
		dp, dq := 1-fp*fp, 1-fq*fq
		// Trace factors: (T2) multiplies by kp, kq; (T3) by o1, o2.
		kp, kq := dp, dq
		if linear {
			e.s1[j], e.s2[j] = p, q
			e.o1[j], e.o2[j] = dp, dq
			kp, kq = 1, 1
		} else {
			e.s1[j], e.s2[j] = fp, fq
			e.o1[j], e.o2[j] = 1, 1
		}
		e.h[j], e.h[n+j] = fp, fq
		hp, hq := fp, fq
		if e.norm.enabled {
			hp, hq = e.norm.update(j, fp), e.norm.update(n+j, fq)
		}
		e.hn[j], e.hn[n+j] = hp, hq
		y += wout[j]*hp + wout[n+j]*hq

		// (T1) for ν and θ.
		gr, pr := rec*g, rec*rot*phi
		S1, S2 := e.nu1[j], e.nu2[j]
		e.nu1[j] = kp * (gr*S1 - pr*S2 + gNu*s1 - phiNu*s2 + gamNu*u)
		e.nu2[j] = kq * (gr*S2 + pr*S1 + gNu*s2 + phiNu*s1 + gamNu*v)
		S1, S2 = e.th1[j], e.th2[j]
		e.th1[j] = kp * (gr*S1 - pr*S2 + gTh*s1 - phiTh*s2)
		e.th2[j] = kq * (gr*S2 + pr*S1 + gTh*s2 + phiTh*s1)
		// (T1) for the rows W_1[j] and W_2[j].
		lanes.RTUTraces(e.a1[row:row+m], e.a2[row:row+m], e.b1[row:row+m], e.b2[row:row+m], x,
			kp, kq, gr, pr, kp*gam, kq*gam)
	}
	e.y = y
	return y
}

// rtuInputs sets u[j] = W_1[j]·x and v[j] = W_2[j]·x of (R2) for every unit j
// (w1, w2 the n = len(u) rows of m = len(x) weights), each sum in the order
// k = 0, 1, ... of one row's loop, so with the bits of that loop; two units
// at a time, whose four chains of additions overlap where one row's two
// would wait for each addition in turn.
func rtuInputs(u, v, w1, w2, x []float64) {
	m := len(x)
	j := 0
	for ; j+2 <= len(u); j += 2 {
		a0, a1 := w1[j*m:][:m], w1[(j+1)*m:][:m]
		b0, b1 := w2[j*m:][:m], w2[(j+1)*m:][:m]
		var u0, u1, v0, v1 float64
		for k, xk := range x {
			u0 += a0[k] * xk
			v0 += b0[k] * xk
			u1 += a1[k] * xk
			v1 += b1[k] * xk
		}
		u[j], u[j+1] = u0, u1
		v[j], v[j+1] = v0, v1
	}
	if j < len(u) {
		a, b := w1[j*m:][:m], w2[j*m:][:m]
		var uj, vj float64
		for k, xk := range x {
			uj += a[k] * xk
			vj += b[k] * xk
		}
		u[j], v[j] = uj, vj
	}
}

// Grad writes ∂y_t/∂θ of the last Step into dst (length NumParams), by (T3).
func (e *RTU) Grad(dst []float64) {
	if len(dst) != len(e.params) {
		panic(fmt.Sprintf("forward: RTU gradient has length %d, want %d", len(dst), len(e.params)))
	}
	n, m := e.shape.Units, e.shape.Inputs
	_, _, _, _, wout, _ := e.shape.Split(e.params)
	off1, off2 := e.shape.OffW1(), e.shape.OffW2()
	scaled := e.norm.enabled && e.Defect != DropNormScale
	for j := 0; j < n; j++ {
		c1, c2 := wout[j]*e.o1[j], wout[n+j]*e.o2[j]
		if scaled {
			c1, c2 = c1*e.norm.scale[j], c2*e.norm.scale[n+j]
		}
		dst[j] = c1*e.nu1[j] + c2*e.nu2[j]
		dst[n+j] = c1*e.th1[j] + c2*e.th2[j]
		row := j * m
		lanes.Combine(dst[off1+row:off1+row+m], c1, e.a1[row:row+m], c2, e.a2[row:row+m])
		lanes.Combine(dst[off2+row:off2+row+m], c1, e.b1[row:row+m], c2, e.b2[row:row+m])
	}
	off := e.shape.OffOut()
	copy(dst[off:off+2*n], e.hn)
	dst[e.shape.IdxOutBias()] = 1
}

// InitRTU fills ν^log and θ^log of p (an arch.RTU vector of shape) as the
// authors' code initializes them: r = |λ| uniform in [rMin, rMax) through
//
//	ν^log = log(−½·log(U·(rMax² − rMin²) + rMin²))     θ^log = log(2π·U')
//
// with U, U' uniform in (0, 1] (drawn by u, which must not return 0). The
// other parameters are left unchanged.
func InitRTU(shape arch.RTU, p []float64, rMin, rMax float64, u func() float64) {
	nu, theta, _, _, _, _ := shape.Split(p)
	for j := range nu {
		nu[j] = math.Log(-0.5 * math.Log(u()*(rMax*rMax-rMin*rMin)+rMin*rMin))
		theta[j] = math.Log(2 * math.Pi * u())
	}
}

// OpsPerStep returns the floating-point additions, subtractions,
// multiplications and divisions of one Step followed by one Grad, counted from
// the code (exponentials, cos, sin, the square root, tanh and negations not
// counted). Per unit, with m inputs:
//
//	coefficients (R1) and their derivatives   10
//	forward (R2)-(R6): u, v, p, q, f′, y      4m + 18
//	traces (T1)-(T2): ν, θ, factors           41
//	traces of the rows W_1[j], W_2[j]         20m
//	Grad (T3)                                 6m + 8
//	normalization (N1), (N3), if on           2·12 + 2
//
// so n·(30m + 77) in all without normalization, n·(30m + 103) with it:
// linear in the 2n(m+1) recurrent parameters, about 15 operations per
// parameter.
func (e *RTU) OpsPerStep() int { return RTUOpsPerStep(e.shape) }

// RTUOpsPerStep is RTU.OpsPerStep for shape, n·(30m + 77), or n·(30m + 103)
// with shape.Norm enabled.
func RTUOpsPerStep(shape arch.RTU) int {
	perUnit := 30*shape.Inputs + 77
	if shape.Norm.Enabled {
		perUnit += 2*12 + 2 // two normalizer updates (12 each), two scalings in (N3)
	}
	return shape.Units * perUnit
}
