package lanes

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// TestElementwiseKernelsBitwise checks the element-wise kernels against the
// formulas written out here, bitwise, for lengths 0..13 (both paths must
// give these exact bits).
func TestElementwiseKernelsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 13; n++ {
		x := randVec(rng, n)
		h0 := randVec(rng, n)
		f, A := rng.Float64(), rng.NormFloat64()
		z := append([]float64(nil), h0...)
		ScaleAdd(z, f, A, x)
		for i := range x {
			if w := f*h0[i] + A*x[i]; z[i] != w {
				t.Errorf("ScaleAdd n=%d [%d] = %v, want %v", n, i, z[i], w)
			}
		}
		z = append([]float64(nil), h0...)
		AddScaled(z, A, x)
		for i := range x {
			if w := h0[i] + A*x[i]; z[i] != w {
				t.Errorf("AddScaled n=%d [%d] = %v, want %v", n, i, z[i], w)
			}
		}
	}
}

// TestDot4 checks the four row sums against a compensated sum: within a few
// ulps of Σ|w·x| (the bound for any summation order), and that the rows are
// not mixed up.
func TestDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for m := 1; m <= 41; m++ {
		x, w := randVec(rng, m), randVec(rng, 4*m)
		init := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		a := init
		Dot4(&a, w, x)
		for q := range 4 {
			want, mag := init[q], math.Abs(init[q])
			for k := range m {
				want += w[q*m+k] * x[k]
				mag += math.Abs(w[q*m+k] * x[k])
			}
			if d := math.Abs(a[q] - want); d > float64(m+1)*2.3e-16*mag {
				t.Errorf("m=%d row %d: %v, want %v (|Δ| %v, bound %v)", m, q, a[q], want, d, float64(m+1)*2.3e-16*mag)
			}
		}
	}
}

// TestNormalizeBitwise checks Normalize against its formula written out,
// bitwise, with variances on both sides of ε² (the floor) and a NaN.
func TestNormalizeBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	beta, eps := 0.99, 0.01
	oneMinus := 1 - beta
	for n := 0; n <= 13; n++ {
		h, mean := randVec(rng, n), randVec(rng, n)
		v := make([]float64, n)
		for k := range v {
			v[k] = math.Ldexp(rng.Float64(), -rng.IntN(30))
		}
		if n > 5 {
			h[5] = math.NaN()
		}
		out, scale := make([]float64, n), make([]float64, n)
		m2, v2 := append([]float64(nil), mean...), append([]float64(nil), v...)
		Normalize(out, h, m2, v2, scale, beta, oneMinus, eps)
		for k := range h {
			mu := beta*mean[k] + oneMinus*h[k]
			vk := beta*v[k] + oneMinus*(mu-h[k])*(mean[k]-h[k])
			sd := math.Sqrt(vk)
			if sd < eps {
				sd = eps
			}
			s := 1 / sd
			want := (h[k] - mu) * s
			same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
			if !same(m2[k], mu) || !same(v2[k], vk) || !same(scale[k], s) || !same(out[k], want) {
				t.Errorf("n=%d [%d]: (μ %v σ² %v scale %v out %v), want (%v %v %v %v)", n, k, m2[k], v2[k], scale[k], out[k], mu, vk, s, want)
			}
		}
	}
}

// TestOuterSumSparseBitwise checks OuterSumSparse against OuterSum, bitwise,
// on windows of mostly zero vectors (some zeros −0) into a gradient cleared to
// +0 and into one of random values, with coefficients that include ±0; and
// that the check can fail: an index list missing one nonzero entry, and a −0
// in g (outside the documented condition), each change the bits.
func TestOuterSumSparseBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	sparse := func(m int) []float64 {
		v := make([]float64, m)
		for j := range v {
			switch u := rng.IntN(20); {
			case u == 0:
				v[j] = math.Copysign(0, -1)
			case u < 3:
				v[j] = rng.Float64()
			}
		}
		v[rng.IntN(m)] = 0.5 // at least one nonzero entry
		return v
	}
	for _, shape := range [][2]int{{1, 1}, {4, 3}, {16, 4}, {28, 7}, {20, 13}, {28, 275}, {60, 275}} {
		R, m := shape[0], shape[1]
		for _, w := range []int{1, 2, 5, 15} {
			d := randVec(rng, w*R)
			d[0], d[len(d)-1] = 0, math.Copysign(0, -1)
			x := make([][]float64, w)
			nz := make([][]int32, w)
			for n := range x {
				x[n] = sparse(m)
				nz[n] = nonzeroIndices(x[n])
			}
			for _, g0 := range [][]float64{make([]float64, R*m), randVec(rng, R*m)} {
				want := append([]float64(nil), g0...)
				OuterSum(want, d, x)
				got := append([]float64(nil), g0...)
				OuterSumSparse(got, d, x, nz)
				if i := firstBitsDiff(got, want); i >= 0 {
					t.Fatalf("R=%d m=%d w=%d: entry %d = %v, OuterSum %v", R, m, w, i, got[i], want[i])
				}
				short := append([][]int32(nil), nz...)
				short[w-1] = nz[w-1][1:] // drops the first nonzero of the oldest vector
				got = append(got[:0], g0...)
				OuterSumSparse(got, d, x, short)
				if firstBitsDiff(got, want) < 0 && d[(w-1)*R] != 0 {
					t.Errorf("R=%d m=%d w=%d: a missing index went unnoticed", R, m, w)
				}
			}
		}
	}
	// Outside the condition: −0 plus a skipped +0 product stays −0 here, is
	// +0 in OuterSum.
	g, x := []float64{math.Copysign(0, -1)}, [][]float64{{0}}
	want := []float64{g[0]}
	OuterSum(want, []float64{1}, x)
	OuterSumSparse(g, []float64{1}, x, [][]int32{nonzeroIndices(x[0])})
	if math.Signbit(want[0]) || !math.Signbit(g[0]) {
		t.Errorf("−0 in g: OuterSum %v, OuterSumSparse %v; want +0 and −0", want[0], g[0])
	}
}

// nonzeroIndices returns the indices of x's nonzero entries: the index list
// of OuterSumSparse.
func nonzeroIndices(x []float64) []int32 {
	var nz []int32
	for j, v := range x {
		if v != 0 {
			nz = append(nz, int32(j))
		}
	}
	return nz
}

// firstBitsDiff returns the first index where a and b differ in their bits,
// or −1.
func firstBitsDiff(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestOuterSumAndAddMulTBitwise checks OuterSum and AddMulT against their
// loops written out, bitwise, for shapes with and without tails (and rows of
// more than 16 entries, the lane path's register blocks) and windows of 1 to
// 3 vectors.
func TestOuterSumAndAddMulTBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, shape := range [][2]int{{1, 1}, {8, 2}, {40, 3}, {3, 4}, {16, 4}, {16, 12}, {28, 7}, {40, 23}, {5, 13}, {3, 37}, {2, 275}} {
		rows, m := shape[0], shape[1]
		for w := 1; w <= 3; w++ {
			d, g0 := randVec(rng, w*rows), randVec(rng, rows*m)
			x := make([][]float64, w)
			for n := range x {
				x[n] = randVec(rng, m)
			}
			g := append([]float64(nil), g0...)
			OuterSum(g, d, x)
			for r := range rows {
				for j := range m {
					want := g0[r*m+j]
					for n := range w {
						want += d[n*rows+r] * x[n][j]
					}
					if g[r*m+j] != want {
						t.Errorf("OuterSum %v w=%d [%d,%d] = %v, want %v", shape, w, r, j, g[r*m+j], want)
					}
				}
			}
		}
		d, g0 := randVec(rng, rows), randVec(rng, rows*m)
		z0 := randVec(rng, m)
		z := append([]float64(nil), z0...)
		AddMulT(z, g0, d)
		want := append([]float64(nil), z0...)
		for r := range rows {
			for j := range m {
				want[j] += d[r] * g0[r*m+j]
			}
		}
		for j := range m {
			if z[j] != want[j] {
				t.Errorf("AddMulT %v [%d] = %v, want %v", shape, j, z[j], want[j])
			}
		}
	}
}

// lstmBackwardRef is LSTMBackward's recursion written out: δa of every step
// of the window, newest first; with cut, the carry f·δc is dropped after
// every step (a wrong recursion, to show that the comparison sees it).
func lstmBackwardRef(dh0, whh []float64, gates, tc, cp [][]float64, cut bool) []float64 {
	H := len(dh0)
	dh, carry := append([]float64(nil), dh0...), make([]float64, H)
	da := make([]float64, 4*H*len(gates))
	for n := range gates {
		a := da[n*4*H : (n+1)*4*H]
		for j := range H {
			i, f, g, o := gates[n][j], gates[n][H+j], gates[n][2*H+j], gates[n][3*H+j]
			t := tc[n][j]
			dc := dh[j]*o*(1-t*t) + carry[j]
			carry[j] = dc * f
			a[j] = dc * g * i * (1 - i)
			a[H+j] = dc * cp[n][j] * f * (1 - f)
			a[2*H+j] = dc * i * (1 - g*g)
			a[3*H+j] = dh[j] * t * o * (1 - o)
			if cut {
				carry[j] = 0
			}
		}
		next := make([]float64, H)
		for r := range 4 * H {
			for j := range H {
				next[j] += a[r] * whh[r*H+j]
			}
		}
		dh = next
	}
	return da
}

// TestLSTMBackwardAndSumWindowBitwise checks LSTMBackward and SumWindow
// against their loops written out, bitwise, for unit counts with and without
// tails (the lane path's whole-window loop takes multiples of 4), windows of
// 1 to 4 steps; and that the comparison sees a recursion without the carry.
func TestLSTMBackwardAndSumWindowBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	unit := func(n int) []float64 { // activations in (0, 1) and tanh values in (−1, 1)
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64()*2 - 1
		}
		return v
	}
	for _, H := range []int{1, 3, 4, 7, 8, 10, 12} {
		for w := 1; w <= 4; w++ {
			gates, tc, cp := make([][]float64, w), make([][]float64, w), make([][]float64, w)
			for n := range w {
				gates[n], tc[n], cp[n] = unit(4*H), unit(H), randVec(rng, H)
			}
			whh, dh0 := randVec(rng, 4*H*H), randVec(rng, H)
			want := lstmBackwardRef(dh0, whh, gates, tc, cp, false)
			da := make([]float64, 4*H*w)
			dh, carry, next := append([]float64(nil), dh0...), randVec(rng, H), make([]float64, H)
			LSTMBackward(da, dh, carry, next, whh, gates, tc, cp)
			for i := range da {
				if da[i] != want[i] {
					t.Errorf("LSTMBackward H=%d w=%d: δa[%d] = %v, want %v", H, w, i, da[i], want[i])
					break
				}
			}
			if w > 1 {
				cut := lstmBackwardRef(dh0, whh, gates, tc, cp, true)
				same := true
				for i := range da {
					same = same && da[i] == cut[i]
				}
				if same {
					t.Errorf("LSTMBackward H=%d w=%d: the recursion without the carry gives the same δa", H, w)
				}
			}
			g0 := randVec(rng, 4*H)
			g := append([]float64(nil), g0...)
			d := randVec(rng, 4*H*w)
			SumWindow(g, d)
			for r := range g {
				want := g0[r]
				for n := range w {
					want += d[n*4*H+r]
				}
				if g[r] != want {
					t.Errorf("SumWindow H=%d w=%d [%d] = %v, want %v", H, w, r, g[r], want)
				}
			}
		}
	}
}

// TestBlockKernelsBitwise checks ScaleAddBlocks and ScaleBlocks against the
// formulas written out here, bitwise (the sign of zero included), for 1 to
// 4 blocks of 1 to 13 entries (whole registers, pairs of them, and tails).
func TestBlockKernelsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for nb := 1; nb <= 4; nb++ {
		for n := 1; n <= 13; n++ {
			c, tv, z0 := randVec(rng, nb), randVec(rng, nb*n), randVec(rng, nb*n)
			tv[0], c[0] = 0, -math.Abs(c[0]) // c·t = −0
			d := rng.Float64()
			z := append([]float64(nil), z0...)
			ScaleAddBlocks(z, d, c, tv)
			for p := range z {
				if w := d*z0[p] + c[p/n]*tv[p]; math.Float64bits(z[p]) != math.Float64bits(w) {
					t.Errorf("ScaleAddBlocks %d blocks of %d [%d] = %v, want %v", nb, n, p, z[p], w)
				}
			}
			ScaleBlocks(z, c, tv)
			for p := range z {
				var zero float64
				if w := 0*zero + c[p/n]*tv[p]; math.Float64bits(z[p]) != math.Float64bits(w) {
					t.Errorf("ScaleBlocks %d blocks of %d [%d] = %v, want %v (into zeros with d = 0)", nb, n, p, z[p], w)
				}
			}
		}
	}
	for name, f := range map[string]func(){
		"5 entries in 2 blocks": func() { ScaleBlocks(make([]float64, 5), make([]float64, 2), make([]float64, 5)) },
		"t longer than z":       func() { ScaleAddBlocks(make([]float64, 4), 1, make([]float64, 2), make([]float64, 6)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
