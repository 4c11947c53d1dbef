// Package f32step is a measurement spike for issue 25, not an engine: it
// holds float32 versions (eight lanes per instruction) of the passes of a
// column network's learner step at 275 inputs, to estimate how fast a step
// would be with everything in float32 — parameters θ, the eligibility trace
// z, RMSProp's second moments v and the RTRL traces ∂h/∂θ, ∂c/∂θ — against
// the float64 lane kernels of package lanes (docs/performance.md, "An
// all-float32 step: estimated"). Nothing outside its tests uses it.
//
// The passes (paper §3.1 for the columns, §3.4 and package td for TD(λ) and
// RMSProp; package lanes states each formula):
//
//	a_q[j] = b_q + u_q·h[j] + Σ_k W_q[k]·x[k]                  Preact32
//	c' = f·ct + A·ht + κ_q·d     ht' = B·c' + E·ht + [q=o]·D·d
//	z  ← δ·z + c_j·ht'                                         StageTraceFold32
//	v  ← b·v + (1−b)·(s·u)²      θ ← θ + α·s·u/(√v + ε)         RMSProp32
//
// in float32 with fused multiply-adds. The kernels exist only in the lane
// build (GOEXPERIMENT=simd on amd64); a plain build compiles this package
// empty.
package f32step
