package lanes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// TestColumnTraceBitwise checks ColumnTrace against the recurrence written
// out per parameter (gate q, direct term d), for input sizes with and
// without tails: both paths must give these values exactly.
func TestColumnTraceBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for m := 1; m <= 13; m++ {
		size := arch.ColumnParams(m)
		x := randVec(rng, m)
		h0, c0 := randVec(rng, size), randVec(rng, size)
		f, A, B, E, D := rng.Float64(), rng.NormFloat64(), rng.Float64(), rng.NormFloat64(), rng.NormFloat64()
		kappa := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), 0}
		hp := rng.NormFloat64()
		ht, ct := append([]float64(nil), h0...), append([]float64(nil), c0...)
		ColumnTrace(ht, ct, x, f, A, B, E, D, kappa[0], kappa[1], kappa[2], hp)
		check := func(p, q int, d float64) {
			cw := f*c0[p] + A*h0[p]
			if q != arch.GateO {
				cw += kappa[q] * d
			}
			hw := B*cw + E*h0[p]
			if q == arch.GateO {
				hw += D * d
			}
			if ct[p] != cw || ht[p] != hw {
				t.Errorf("m=%d parameter %d (gate %d): (h %v, c %v), want (%v, %v)", m, p, q, ht[p], ct[p], hw, cw)
			}
		}
		for q := range arch.NumGates {
			for k := range m {
				check(arch.ColIdxW(m, q, k), q, x[k])
			}
			check(arch.ColIdxU(m, q), q, hp)
			check(arch.ColIdxB(m, q), q, 1)
		}
	}
}

// TestPreact checks the pre-activations of stages of 1 to 6 columns against
// the formula summed here: within a few ulps of the sum of magnitudes (the
// bound for any summation order), with no mix-up of columns or gates.
func TestPreact(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for m := 1; m <= 41; m += 4 {
		for u := 1; u <= 6; u++ {
			size := arch.ColumnParams(m)
			x, h, p := randVec(rng, m), randVec(rng, u), randVec(rng, u*size)
			var a [4][]float64
			for q := range a {
				a[q] = make([]float64, u)
			}
			Preact(a[0], a[1], a[2], a[3], h, p, x)
			for j := range u {
				blk := p[j*size:]
				for q := range 4 {
					want := blk[arch.ColIdxB(m, q)] + blk[arch.ColIdxU(m, q)]*h[j]
					mag := math.Abs(blk[arch.ColIdxB(m, q)]) + math.Abs(blk[arch.ColIdxU(m, q)]*h[j])
					for k := range m {
						want += blk[arch.ColIdxW(m, q, k)] * x[k]
						mag += math.Abs(blk[arch.ColIdxW(m, q, k)] * x[k])
					}
					if d := math.Abs(a[q][j] - want); d > float64(m+2)*2.3e-16*mag {
						t.Errorf("m=%d u=%d column %d gate %d: %v, want %v", m, u, j, q, a[q][j], want)
					}
				}
			}
		}
	}
}

// TestCell checks the activations and state of stages of 1 to 9 columns
// (lane tails included) against math's functions, within the ulp bounds of
// activationCases, saturated gates included.
func TestCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for u := 1; u <= 9; u++ {
		var a, a0 [4][]float64
		for q := range a {
			a0[q] = make([]float64, u)
			for j := range u {
				a0[q][j] = 8 * rng.NormFloat64()
			}
			if u > 2 {
				a0[q][1] = 800 // saturated
				a0[q][2] = -800
			}
			a[q] = append([]float64(nil), a0[q]...)
		}
		cp := randVec(rng, u)
		c, tc, h := make([]float64, u), make([]float64, u), make([]float64, u)
		Cell(a[0], a[1], a[2], a[3], cp, c, tc, h)
		for j := range u {
			i, f, g, o := sigmoidRef(a0[0][j]), sigmoidRef(a0[1][j]), math.Tanh(a0[2][j]), sigmoidRef(a0[3][j])
			cw := f*cp[j] + i*g
			tw := math.Tanh(cw)
			for _, v := range [][2]float64{{a[0][j], i}, {a[1][j], f}, {a[2][j], g}, {a[3][j], o}, {tc[j], tw}, {h[j], o * tw}} {
				if d := math.Abs(v[0] - v[1]); d > 8e-16*math.Abs(v[1])+1e-300 {
					t.Errorf("u=%d column %d: %v, want %v (a = %v, %v, %v, %v; c_prev %v)", u, j, v[0], v[1], a0[0][j], a0[1][j], a0[2][j], a0[3][j], cp[j])
				}
			}
			if d := math.Abs(c[j] - cw); d > 8e-16*(math.Abs(f*cp[j])+math.Abs(i*g)) {
				t.Errorf("u=%d column %d: c = %v, want %v", u, j, c[j], cw)
			}
		}
	}
}

// TestCellOneColumnMatchesStage checks that a stage of one column (whose
// lane path shares one register among the four gates) gives bitwise the
// values of the same column in a stage of two (a lane per gate), over
// activationInputs for every gate.
func TestCellOneColumnMatchesStage(t *testing.T) {
	xs := activationInputs()
	rng := rand.New(rand.NewPCG(19, 20))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	for _, x := range xs {
		var a [4]float64
		for q := range a {
			a[q] = xs[rng.IntN(len(xs))]
		}
		a[rng.IntN(4)] = x
		cp := rng.NormFloat64()
		one := [8][]float64{{a[0]}, {a[1]}, {a[2]}, {a[3]}, {cp}, {0}, {0}, {0}}
		two := [8][]float64{{a[0], 1}, {a[1], 2}, {a[2], 3}, {a[3], 4}, {cp, 5}, {0, 0}, {0, 0}, {0, 0}}
		Cell(one[0], one[1], one[2], one[3], one[4], one[5], one[6], one[7])
		Cell(two[0], two[1], two[2], two[3], two[4], two[5], two[6], two[7])
		for k := range one {
			if !same(one[k][0], two[k][0]) {
				t.Fatalf("a = %v, c_prev %v: output %d is %v alone, %v in a stage of two", a, cp, k, one[k][0], two[k][0])
			}
		}
	}
}

// TestStageIsPreactThenCell checks Stage bitwise against Preact followed by
// Cell for stages of 1 to 13 columns (one column, and whole registers of
// four or eight, take their own lane paths).
func TestStageIsPreactThenCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, m := range []int{1, 4, 7, 12, 16, 275} {
		for u := 1; u <= 13; u++ {
			x, hp, cp, p := randVec(rng, m), randVec(rng, u), randVec(rng, u), randVec(rng, u*arch.ColumnParams(m))
			var got, want [7][]float64
			for k := range got {
				got[k], want[k] = make([]float64, u), make([]float64, u)
			}
			Stage(got[0], got[1], got[2], got[3], hp, cp, got[4], got[5], got[6], p, x)
			Preact(want[0], want[1], want[2], want[3], hp, p, x)
			Cell(want[0], want[1], want[2], want[3], cp, want[4], want[5], want[6])
			for k := range got {
				for j := range u {
					if math.Float64bits(got[k][j]) != math.Float64bits(want[k][j]) {
						t.Errorf("m=%d u=%d output %d column %d: %v, want %v", m, u, k, j, got[k][j], want[k][j])
					}
				}
			}
		}
	}
}

// TestTraceScalarsBitwise checks TraceScalars against the formulas written
// out here, bitwise, for stages of 1 to 9 columns (lane registers and
// tails), and that no column's recurrent weights are mixed up.
func TestTraceScalarsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, m := range []int{1, 5, 12} {
		for u := 1; u <= 9; u++ {
			size := arch.ColumnParams(m)
			blocks := randVec(rng, u*size)
			var act [4][]float64
			for q := range act {
				act[q] = make([]float64, u)
				for j := range act[q] {
					act[q][j] = rng.Float64()
				}
			}
			cp, tc := randVec(rng, u), randVec(rng, u)
			k := NewTraceCoef(u)
			TraceScalars(k, act[0], act[1], act[2], act[3], cp, tc, blocks, m)
			for j := range u {
				i, f, g, o := act[0][j], act[1][j], act[2][j], act[3][j]
				ui, uf, ug, uo := blocks[j*size+arch.ColIdxU(m, arch.GateI)], blocks[j*size+arch.ColIdxU(m, arch.GateF)],
					blocks[j*size+arch.ColIdxU(m, arch.GateG)], blocks[j*size+arch.ColIdxU(m, arch.GateO)]
				ki, kf, kg := g*(i*(1-i)), cp[j]*(f*(1-f)), i*(1-g*g)
				D := tc[j] * (o * (1 - o))
				want := [11]float64{kf*uf + kg*ug + ki*ui, o * (1 - tc[j]*tc[j]), D * uo, ki, kf, kg, 0, 0, 0, 0, D}
				got := [11]float64{k.A[j], k.B[j], k.E[j]}
				copy(got[3:], k.K[8*j:8*j+8])
				if got != want {
					t.Errorf("m=%d u=%d column %d: A, B, E, K = %v, want %v", m, u, j, got, want)
				}
			}
		}
	}
}

// TestStageTraceIsColumnTrace checks StageTrace bitwise against ColumnTrace
// of each column's block, for stages of 1 to 6 columns with and without
// input tails (a mix-up of blocks or coefficients fails it).
func TestStageTraceIsColumnTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, m := range []int{1, 4, 7, 12} {
		for u := 1; u <= 6; u++ {
			size := arch.ColumnParams(m)
			x, f, hp := randVec(rng, m), randVec(rng, u), randVec(rng, u)
			k := NewTraceCoef(u)
			for _, s := range [][]float64{k.A, k.B, k.E} {
				copy(s, randVec(rng, u))
			}
			for j := range u { // κ_i, κ_f, κ_g, 0, 0, 0, 0, D
				copy(k.K[8*j:8*j+3], randVec(rng, 3))
				k.K[8*j+7] = rng.NormFloat64()
			}
			ht, ct := randVec(rng, u*size), randVec(rng, u*size)
			wh, wc := append([]float64(nil), ht...), append([]float64(nil), ct...)
			StageTrace(ht, ct, x, f, hp, k)
			for j := range u {
				b := j * size
				kj := k.K[8*j:]
				ColumnTrace(wh[b:b+size], wc[b:b+size], x, f[j], k.A[j], k.B[j], k.E[j], kj[7], kj[0], kj[1], kj[2], hp[j])
			}
			for p := range ht {
				if ht[p] != wh[p] || ct[p] != wc[p] {
					t.Fatalf("m=%d u=%d entry %d: (h %v, c %v), want (%v, %v)", m, u, p, ht[p], ct[p], wh[p], wc[p])
				}
			}
		}
	}
}

// TestStageTraceFoldIsTraceThenFold checks StageTraceFold bitwise against
// StageTrace followed by ScaleAddBlocks (add) or ScaleBlocks, for stages of
// 1 to 6 columns and input sizes with every tail (275: the Atari inputs);
// and that the comparison sees a fold coefficient one ulp off.
func TestStageTraceFoldIsTraceThenFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	run := func(m, u int, add, perturb bool) (mism int) {
		size := arch.ColumnParams(m)
		x, f, hp, c := randVec(rng, m), randVec(rng, u), randVec(rng, u), randVec(rng, u)
		k := NewTraceCoef(u)
		for _, s := range [][]float64{k.A, k.B, k.E} {
			copy(s, randVec(rng, u))
		}
		for j := range u {
			copy(k.K[8*j:8*j+3], randVec(rng, 3))
			k.K[8*j+7] = rng.NormFloat64()
		}
		ht, ct, z := randVec(rng, u*size), randVec(rng, u*size), randVec(rng, u*size)
		wh, wc, wz := append([]float64(nil), ht...), append([]float64(nil), ct...), append([]float64(nil), z...)
		StageTrace(wh, wc, x, f, hp, k)
		if add {
			ScaleAddBlocks(wz, 0.891, c, wh)
		} else {
			ScaleBlocks(wz, c, wh)
		}
		if perturb {
			c[u-1] = math.Nextafter(c[u-1], 0)
		}
		StageTraceFold(ht, ct, x, f, hp, k, z, 0.891, c, add)
		for p := range ht {
			if math.Float64bits(z[p]) != math.Float64bits(wz[p]) || ht[p] != wh[p] || ct[p] != wc[p] {
				mism++
			}
		}
		return mism
	}
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 275} {
		for u := 1; u <= 6; u++ {
			for _, add := range []bool{true, false} {
				if d := run(m, u, add, false); d != 0 {
					t.Errorf("m=%d u=%d add=%v: %d entries differ", m, u, add, d)
				}
			}
		}
	}
	if run(7, 3, true, true) == 0 {
		t.Error("a fold coefficient one ulp off went unnoticed")
	}
}
