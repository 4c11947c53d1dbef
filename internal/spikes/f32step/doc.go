// Package f32step is a measurement spike for issue 25, not an engine: it
// holds float32 versions (eight lanes per instruction) of the passes of a
// learner's step at 275 inputs, to estimate how fast a step would be with
// everything in float32 — parameters θ, the eligibility trace z, RMSProp's
// second moments v, the RTRL traces ∂h/∂θ, ∂c/∂θ and T-BPTT's gradient —
// against the float64 lane kernels of package lanes (docs/performance.md,
// "An all-float32 step: estimated"). Nothing outside its tests uses it.
//
// The passes (paper §3.1 for the columns and their RTRL traces, §3.4 and
// package td for TD(λ) and RMSProp, package backward for T-BPTT; package
// lanes states each formula):
//
//	a_q[j] = b_q + u_q·h[j] + Σ_k W_q[k]·x[k]                  Preact32
//	c' = f·ct + A·ht + κ_q·d     ht' = B·c' + E·ht + [q=o]·D·d
//	z  ← δ·z + c_j·ht'                                         StageTraceFold32(Rows)
//	v  ← b·v + (1−b)·(s·u)²      θ ← θ + α·s·u/(√v + ε)         RMSProp32(Shared)
//	g[r·m+j] += Σ_n d[n·R+r]·x[n][j]                           OuterSum32
//	RMSProp32Shared's step, then u ← d·u + c·t                 RMSPropFold32
//
// in float32 with fused multiply-adds. Each is checked against its float64
// lane kernel within a bound of a few float32 rounding errors. The kernels
// exist only in the lane build (GOEXPERIMENT=simd on amd64); a plain build
// compiles this package empty.
package f32step
