//go:build goexperiment.simd && amd64

package f32step

import (
	"fmt"
	"math"
	"simd/archsimd"
	"unsafe"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

type (
	f32x8 = archsimd.Float32x8
	f32x4 = archsimd.Float32x4
)

func bc(x float32) f32x8 { return archsimd.BroadcastFloat32x8(x) }

// ldAt loads p[i:i+8] of float32s; stAt stores v there. The caller
// guarantees i+8 ≤ len.
func ldAt(p unsafe.Pointer, i int) f32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(p, 4*i)))
}

func stAt(v f32x8, p unsafe.Pointer, i int) { v.Store((*[8]float32)(unsafe.Add(p, 4*i))) }

func base(s []float32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// Padded is the length of a float32 input buffer for m inputs: m rounded
// up to a multiple of 8.
func Padded(m int) int { return (m + 7) &^ 7 }

// Input32 writes x rounded to float32 into dst[:len(x)] and zeros into
// dst[len(x):Padded(len(x))]: the float32 engine's copy of a step's input.
func Input32(dst []float32, x []float64) {
	m := len(x)
	if len(dst) < Padded(m) {
		panic(fmt.Sprintf("f32step: Input32 of %d inputs into %d entries", m, len(dst)))
	}
	n4 := m &^ 3
	px, pd := unsafe.Pointer(unsafe.SliceData(x)), base(dst)
	for k := 0; k < n4; k += 4 {
		archsimd.LoadFloat64x4((*[4]float64)(unsafe.Add(px, 8*k))).ConvertToFloat32().
			Store((*[4]float32)(unsafe.Add(pd, 4*k)))
	}
	archsimd.ClearAVXUpperBits()
	for k := n4; k < m; k++ {
		dst[k] = float32(x[k])
	}
	clear(dst[m:Padded(m)])
}

// Preact32 is lanes.Preact in float32: the gates' pre-activations
//
//	a_q[j] = b_q + u_q·h[j] + Σ_k W_q[k]·x[k]      q = i, f, g, o
//
// of u = len(h) columns of m inputs (blocks of arch.ColumnParams(m)
// entries). x holds at least Padded(m) entries: a row's last octet reads up
// to 7 entries past the row's end (the next row's, or the block's u_q and
// b_q) and past x[m-1], and takes its lanes beyond m as zero. Eight partial
// sums per gate (k mod 8) with fused multiply-adds, then their total.
func Preact32(ai, af, ag, ao, h, blocks, x []float32, m int) {
	u := len(h)
	size := arch.ColumnParams(m)
	if m < 1 || len(x) < Padded(m) || len(blocks) < u*size || len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u {
		panic(fmt.Sprintf("f32step: Preact32 of %d columns of %d inputs: %d parameters, %d inputs", u, m, len(blocks), len(x)))
	}
	pb, px := base(blocks), base(x)
	var a [4]float32
	for j, hj := range h {
		p := unsafe.Add(pb, 4*j*size)
		dot := dot4x8(p, px, m)
		bq := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, 4*(4*m+4))))
		uq := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, 4*4*m)))
		uq.MulAdd(archsimd.BroadcastFloat32x4(hj), bq).Add(dot).Store(&a)
		ai[j], af[j], ag[j], ao[j] = a[0], a[1], a[2], a[3]
	}
	archsimd.ClearAVXUpperBits()
}

// laneIndex holds the lane numbers.
var laneIndex = [8]float32{0, 1, 2, 3, 4, 5, 6, 7}

// dot4x8 returns the dot products of the four rows p[q·m:q·m+m] with
// x[:m], gate order in the lanes; the last octet's lanes beyond m are
// zeroed in x.
//
//go:noinline
func dot4x8(p, px unsafe.Pointer, m int) f32x4 {
	p1, p2, p3 := unsafe.Add(p, 4*m), unsafe.Add(p, 8*m), unsafe.Add(p, 12*m)
	var s0, s1, s2, s3 f32x8
	m8 := m &^ 7
	k := 0
	for ; k < m8; k += 8 {
		xv := ldAt(px, k)
		s0 = ldAt(p, k).MulAdd(xv, s0)
		s1 = ldAt(p1, k).MulAdd(xv, s1)
		s2 = ldAt(p2, k).MulAdd(xv, s2)
		s3 = ldAt(p3, k).MulAdd(xv, s3)
	}
	if k < m {
		xv := ldAt(px, k).Masked(archsimd.LoadFloat32x8(&laneIndex).Less(bc(float32(m - k))))
		s0 = ldAt(p, k).MulAdd(xv, s0)
		s1 = ldAt(p1, k).MulAdd(xv, s1)
		s2 = ldAt(p2, k).MulAdd(xv, s2)
		s3 = ldAt(p3, k).MulAdd(xv, s3)
	}
	t := s0.AddPairsGrouped(s1).AddPairsGrouped(s2.AddPairsGrouped(s3))
	return t.GetLo().Add(t.GetHi())
}

// colScalars are one column's per-step scalars of StageTraceFold32 in
// float32, with the direct terms of the last 8 entries of its block (u_q,
// direct term hp; b_q, direct term 1) multiplied out per lane: kc the terms
// of c (κ_q·d, 0 for gate o), kh those of h (D·d for gate o, else 0).
type colScalars struct {
	f, A, B, E, D, ki, kf, kg, c, d float32
	kc, kh                          [8]float32
}

// StageTraceFold32 is lanes.StageTraceFold in float32: the RTRL traces ht
// = ∂h/∂θ, ct = ∂c/∂θ of a stage's u = len(hp) columns of m = len(x) ≥ 8
// inputs advance by one step,
//
//	c' = f·ct + A·ht + κ_q·d      ht' = B·c' + E·ht + [q = o]·D·d
//
// and are folded into z as they are computed, z ← d·z + c[j]·ht' if add,
// else z ← c[j]·ht'. Every per-column scalar (f[j], hp[j], k's, c[j], d)
// is rounded to float32. A row's last m mod 8 entries are those of the
// octet ending at the row's end, computed from the old values before the
// row's other octets and stored after them (no scalar tail).
func StageTraceFold32(ht, ct, x []float32, f, hp []float64, k lanes.TraceCoef, z []float32, d float64, c []float64, add bool) {
	u, m := len(hp), len(x)
	size := arch.ColumnParams(m)
	if m < 8 || len(ht) != u*size || len(ct) != u*size || len(z) != u*size || len(f) < u || len(c) < u ||
		len(k.A) < u || len(k.B) < u || len(k.E) < u || len(k.K) < 8*u {
		panic(fmt.Sprintf("f32step: StageTraceFold32 of %d columns of %d inputs: traces %d %d, z %d",
			u, m, len(ht), len(ct), len(z)))
	}
	var s colScalars
	for j := range u {
		kj := k.K[8*j : 8*j+8]
		h := float32(hp[j])
		s.f, s.A, s.B, s.E = float32(f[j]), float32(k.A[j]), float32(k.B[j]), float32(k.E[j])
		s.D, s.ki, s.kf, s.kg = float32(kj[7]), float32(kj[0]), float32(kj[1]), float32(kj[2])
		s.c, s.d = float32(c[j]), float32(d)
		s.kc = [8]float32{s.ki * h, s.kf * h, s.kg * h, 0, s.ki, s.kf, s.kg, 0}
		s.kh = [8]float32{0, 0, 0, s.D * h, 0, 0, 0, s.D}
		o := 4 * j * size
		column32At(unsafe.Add(base(ht), o), unsafe.Add(base(ct), o), unsafe.Add(base(z), o), base(x), m, &s, add)
	}
	archsimd.ClearAVXUpperBits()
}

// column32At advances and folds one column's block (see StageTraceFold32).
//
//go:noinline
func column32At(ph, pc, pz, px unsafe.Pointer, m int, s *colScalars, add bool) {
	m8 := m &^ 7
	var tail [3][4][8]float32 // the rows' last octets: h, c, z
	if m8 < m {
		rows32(ph, pc, pz, px, m, m-8, m, unsafe.Pointer(&tail[0]), unsafe.Pointer(&tail[1]), unsafe.Pointer(&tail[2]), 8, s, add)
	}
	rows32(ph, pc, pz, px, m, 0, m8, ph, pc, pz, m, s, add)
	if m8 < m {
		for r := range 4 {
			stAt(ldAt(unsafe.Pointer(&tail[0][r]), 0), ph, r*m+m-8)
			stAt(ldAt(unsafe.Pointer(&tail[1][r]), 0), pc, r*m+m-8)
			stAt(ldAt(unsafe.Pointer(&tail[2][r]), 0), pz, r*m+m-8)
		}
	}
	// u_q and b_q: one octet with the direct terms per lane.
	vf, vA, vB, vE := bc(s.f), bc(s.A), bc(s.B), bc(s.E)
	kc, kh := archsimd.LoadFloat32x8(&s.kc), archsimd.LoadFloat32x8(&s.kh)
	i := 4 * m
	h := ldAt(ph, i)
	cn := vf.MulAdd(ldAt(pc, i), vA.MulAdd(h, kc))
	stAt(cn, pc, i)
	hn := vB.MulAdd(cn, vE.MulAdd(h, kh))
	stAt(hn, ph, i)
	if add {
		stAt(bc(s.d).MulAdd(ldAt(pz, i), bc(s.c).Mul(hn)), pz, i)
	} else {
		stAt(bc(s.c).Mul(hn), pz, i)
	}
}

// rows32 advances the octets k = from, from+8, ... < to of the four rows
// (input weights of gates i, f, g, o) of a block at ph, pc, pz, reading the
// old values there and writing the new ones to oh, oc, oz at r·stride +
// k − from for row r (in place: oh = ph, ..., stride m, from 0).
func rows32(ph, pc, pz, px unsafe.Pointer, m, from, to int, oh, oc, oz unsafe.Pointer, stride int, s *colScalars, add bool) {
	vf, vA, vB, vE := bc(s.f), bc(s.A), bc(s.B), bc(s.E)
	vki, vkf, vkg, vD := bc(s.ki), bc(s.kf), bc(s.kg), bc(s.D)
	vd, vc := bc(s.d), bc(s.c)
	m2, m3, s2, s3 := 2*m, 3*m, 2*stride, 3*stride
	for k := from; k < to; k += 8 {
		xv := ldAt(px, k)
		w := k - from
		// gate i
		h := ldAt(ph, k)
		cn := vf.MulAdd(ldAt(pc, k), vA.MulAdd(h, vki.Mul(xv)))
		stAt(cn, oc, w)
		hn := vB.MulAdd(cn, vE.Mul(h))
		stAt(hn, oh, w)
		stAt(fold(hn, ldAt(pz, k), vd, vc, add), oz, w)
		// gate f
		h = ldAt(ph, m+k)
		cn = vf.MulAdd(ldAt(pc, m+k), vA.MulAdd(h, vkf.Mul(xv)))
		stAt(cn, oc, stride+w)
		hn = vB.MulAdd(cn, vE.Mul(h))
		stAt(hn, oh, stride+w)
		stAt(fold(hn, ldAt(pz, m+k), vd, vc, add), oz, stride+w)
		// gate g
		h = ldAt(ph, m2+k)
		cn = vf.MulAdd(ldAt(pc, m2+k), vA.MulAdd(h, vkg.Mul(xv)))
		stAt(cn, oc, s2+w)
		hn = vB.MulAdd(cn, vE.Mul(h))
		stAt(hn, oh, s2+w)
		stAt(fold(hn, ldAt(pz, m2+k), vd, vc, add), oz, s2+w)
		// gate o: D·x enters h
		h = ldAt(ph, m3+k)
		cn = vf.MulAdd(ldAt(pc, m3+k), vA.Mul(h))
		stAt(cn, oc, s3+w)
		hn = vB.MulAdd(cn, vE.MulAdd(h, vD.Mul(xv)))
		stAt(hn, oh, s3+w)
		stAt(fold(hn, ldAt(pz, m3+k), vd, vc, add), oz, s3+w)
	}
}

// fold is the new z of an octet: d·z + c·hn if add, else c·hn.
func fold(hn, z, vd, vc f32x8, add bool) f32x8 {
	if add {
		return vd.MulAdd(z, vc.Mul(hn))
	}
	return vc.Mul(hn)
}

// RMSProp32 is lanes.RMSProp in float32 with θ, u and v all float32:
//
//	g = s·u_i      v_i ← b·v_i + (1−b)·g²      θ_i ← θ_i + α·g/(√v_i + ε)
//
// with s, α, b, 1−b and ε rounded to float32, a square root (VSQRTPS) and a
// division (VDIVPS) per octet. Blocks of fewer than 8 entries run in scalar
// float32; otherwise the last len(u) mod 8 entries are those of the octet
// ending at the end, computed before the loop and stored after it.
func RMSProp32(theta, u, v []float32, s, alpha, b, eps float64) {
	rmsprop32(theta, u, v, s, alpha, b, eps, false)
}

// RMSProp32Shared is RMSProp32 with one division per two octets, shared as
// in lanes.RMSProp: 1/a₀ = a₁·(α/(a₀·a₁)) and 1/a₁ = a₀·(α/(a₀·a₁)).
func RMSProp32Shared(theta, u, v []float32, s, alpha, b, eps float64) {
	rmsprop32(theta, u, v, s, alpha, b, eps, true)
}

func rmsprop32(theta, u, v []float32, s, alpha, b, eps float64, shared bool) {
	n := len(u)
	if len(theta) < n || len(v) < n {
		panic(fmt.Sprintf("f32step: RMSProp32 of %d entries with θ %d and v %d", n, len(theta), len(v)))
	}
	s32, a32, b32, c32, e32 := float32(s), float32(alpha), float32(b), float32(1-b), float32(eps)
	if n < 8 {
		for i, ui := range u {
			g := s32 * ui
			vi := b32*v[i] + c32*g*g
			v[i] = vi
			theta[i] += a32 * g / (sqrt32(vi) + e32)
		}
		return
	}
	if shared {
		rmsprop32SharedAt(base(theta), base(u), base(v), n, s32, a32, b32, c32, e32)
	} else {
		rmsprop32At(base(theta), base(u), base(v), n, s32, a32, b32, c32, e32)
	}
	archsimd.ClearAVXUpperBits()
}

// sqrt32 is the correctly rounded float32 square root (that of float64,
// rounded, is).
func sqrt32(x float32) float32 {
	return float32(math.Sqrt(float64(x)))
}

// rmsprop32At is the loop of RMSProp32 over n ≥ 8 entries.
//
//go:noinline
func rmsprop32At(pt, pu, pv unsafe.Pointer, n int, s, alpha, b, c, eps float32) {
	vs, vb, vc, va, ve := bc(s), bc(b), bc(c), bc(alpha), bc(eps)
	n8 := n &^ 7
	// The last octet, from the old values (see RMSProp32).
	g := vs.Mul(ldAt(pu, n-8))
	lv := vc.Mul(g).MulAdd(g, vb.Mul(ldAt(pv, n-8)))
	lt := ldAt(pt, n-8).Add(va.Mul(g).Div(lv.Sqrt().Add(ve)))
	for k := 0; k < n8; k += 8 {
		g := vs.Mul(ldAt(pu, k))
		vi := vc.Mul(g).MulAdd(g, vb.Mul(ldAt(pv, k)))
		stAt(vi, pv, k)
		stAt(ldAt(pt, k).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, k)
	}
	stAt(lv, pv, n-8)
	stAt(lt, pt, n-8)
}

// rmsprop32SharedAt is the loop of RMSProp32Shared over n ≥ 8 entries.
//
//go:noinline
func rmsprop32SharedAt(pt, pu, pv unsafe.Pointer, n int, s, alpha, b, c, eps float32) {
	vs, vb, vc, va, ve := bc(s), bc(b), bc(c), bc(alpha), bc(eps)
	n8 := n &^ 7
	g := vs.Mul(ldAt(pu, n-8))
	lv := vc.Mul(g).MulAdd(g, vb.Mul(ldAt(pv, n-8)))
	lt := ldAt(pt, n-8).Add(va.Mul(g).Div(lv.Sqrt().Add(ve)))
	k := 0
	for ; k+16 <= n8; k += 16 {
		g0, g1 := vs.Mul(ldAt(pu, k)), vs.Mul(ldAt(pu, k+8))
		v0 := vc.Mul(g0).MulAdd(g0, vb.Mul(ldAt(pv, k)))
		v1 := vc.Mul(g1).MulAdd(g1, vb.Mul(ldAt(pv, k+8)))
		stAt(v0, pv, k)
		stAt(v1, pv, k+8)
		a0, a1 := v0.Sqrt().Add(ve), v1.Sqrt().Add(ve)
		inv := va.Div(a0.Mul(a1))
		stAt(ldAt(pt, k).Add(g0.Mul(a1).Mul(inv)), pt, k)
		stAt(ldAt(pt, k+8).Add(g1.Mul(a0).Mul(inv)), pt, k+8)
	}
	if k < n8 {
		g := vs.Mul(ldAt(pu, k))
		vi := vc.Mul(g).MulAdd(g, vb.Mul(ldAt(pv, k)))
		stAt(vi, pv, k)
		stAt(ldAt(pt, k).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, k)
	}
	stAt(lv, pv, n-8)
	stAt(lt, pt, n-8)
}

// StageTraceFold32Rows is StageTraceFold32 with the four rows of a block
// taken one after the other (each row one stream of ht, ct and z beside x)
// instead of together: the same operations and bits.
func StageTraceFold32Rows(ht, ct, x []float32, f, hp []float64, k lanes.TraceCoef, z []float32, d float64, c []float64, add bool) {
	u, m := len(hp), len(x)
	size := arch.ColumnParams(m)
	if m < 8 || len(ht) != u*size || len(ct) != u*size || len(z) != u*size || len(f) < u || len(c) < u ||
		len(k.A) < u || len(k.B) < u || len(k.E) < u || len(k.K) < 8*u {
		panic(fmt.Sprintf("f32step: StageTraceFold32Rows of %d columns of %d inputs: traces %d %d, z %d",
			u, m, len(ht), len(ct), len(z)))
	}
	var s colScalars
	for j := range u {
		kj := k.K[8*j : 8*j+8]
		h := float32(hp[j])
		s.f, s.A, s.B, s.E = float32(f[j]), float32(k.A[j]), float32(k.B[j]), float32(k.E[j])
		s.D, s.ki, s.kf, s.kg = float32(kj[7]), float32(kj[0]), float32(kj[1]), float32(kj[2])
		s.c, s.d = float32(c[j]), float32(d)
		s.kc = [8]float32{s.ki * h, s.kf * h, s.kg * h, 0, s.ki, s.kf, s.kg, 0}
		s.kh = [8]float32{0, 0, 0, s.D * h, 0, 0, 0, s.D}
		o := 4 * j * size
		ph, pc, pz := unsafe.Add(base(ht), o), unsafe.Add(base(ct), o), unsafe.Add(base(z), o)
		for q, kq := range [4]float32{s.ki, s.kf, s.kg, 0} {
			var dq float32
			if q == 3 {
				dq = s.D
			}
			r := 4 * q * m
			row32At(unsafe.Add(ph, r), unsafe.Add(pc, r), unsafe.Add(pz, r), base(x), m, &s, kq, dq, add)
		}
		tail32(ph, pc, pz, m, &s, add)
	}
	archsimd.ClearAVXUpperBits()
}

// row32At advances and folds one row of m input weights' traces (direct
// term kq·x into c, dq·x into h), the last octet held as in column32At.
//
//go:noinline
func row32At(ph, pc, pz, px unsafe.Pointer, m int, s *colScalars, kq, dq float32, add bool) {
	vf, vA, vB, vE, vk, vD, vd, vc := bc(s.f), bc(s.A), bc(s.B), bc(s.E), bc(kq), bc(dq), bc(s.d), bc(s.c)
	m8 := m &^ 7
	step := func(k int) (cn, hn, zn f32x8) {
		xv, h := ldAt(px, k), ldAt(ph, k)
		cn = vf.MulAdd(ldAt(pc, k), vA.MulAdd(h, vk.Mul(xv)))
		hn = vB.MulAdd(cn, vE.MulAdd(h, vD.Mul(xv)))
		return cn, hn, fold(hn, ldAt(pz, k), vd, vc, add)
	}
	lc, lh, lz := step(m - 8)
	for k := 0; k < m8; k += 8 {
		cn, hn, zn := step(k)
		stAt(cn, pc, k)
		stAt(hn, ph, k)
		stAt(zn, pz, k)
	}
	stAt(lc, pc, m-8)
	stAt(lh, ph, m-8)
	stAt(lz, pz, m-8)
}

// tail32 advances and folds the last 8 entries of a block (u_q, b_q).
func tail32(ph, pc, pz unsafe.Pointer, m int, s *colScalars, add bool) {
	vf, vA, vB, vE := bc(s.f), bc(s.A), bc(s.B), bc(s.E)
	kc, kh := archsimd.LoadFloat32x8(&s.kc), archsimd.LoadFloat32x8(&s.kh)
	i := 4 * m
	h := ldAt(ph, i)
	cn := vf.MulAdd(ldAt(pc, i), vA.MulAdd(h, kc))
	stAt(cn, pc, i)
	hn := vB.MulAdd(cn, vE.MulAdd(h, kh))
	stAt(hn, ph, i)
	stAt(fold(hn, ldAt(pz, i), bc(s.d), bc(s.c), add), pz, i)
}
