//go:build goexperiment.simd && amd64

package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
	"unsafe"

	"github.com/ccn-go/ccn/arch"
)

// traceFold32Case is a StageTraceFold32 call's arguments drawn from rng
// (normal traces, x and coefficients, f in (0, 1)).
type traceFold32Case struct {
	ht, ct, x, z []float32
	f, hp, c     []float64
	k            TraceCoef
	d            float64
}

func newTraceFold32Case(rng *rand.Rand, m, u int) traceFold32Case {
	size := arch.ColumnParams(m)
	tc := traceFold32Case{d: float64(float32(0.81)), k: NewTraceCoef(u)}
	tc.ht, _ = f32s(rng, u*size, 1)
	tc.ct, _ = f32s(rng, u*size, 1)
	tc.z, _ = f32s(rng, u*size, 1)
	tc.x, _ = f32s(rng, m, 1)
	tc.f, tc.hp, tc.c = make([]float64, u), make([]float64, u), make([]float64, u)
	for j := range u {
		tc.f[j], tc.hp[j], tc.c[j] = rng.Float64(), rng.NormFloat64(), rng.NormFloat64()
		tc.k.A[j], tc.k.B[j], tc.k.E[j] = rng.NormFloat64(), rng.Float64(), rng.NormFloat64()
		for _, i := range []int{0, 1, 2, 7} {
			tc.k.K[8*j+i] = rng.NormFloat64()
		}
	}
	return tc
}

func (tc traceFold32Case) clone() traceFold32Case {
	c := tc
	c.ht, c.ct, c.z = append([]float32(nil), tc.ht...), append([]float32(nil), tc.ct...), append([]float32(nil), tc.z...)
	return c
}

// same32 returns an error naming the first entry where a and b differ
// other than in the sign of a zero.
func same32(name string, a, b []float32) error {
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(float64(a[i])) && math.IsNaN(float64(b[i]))) {
			return fmt.Errorf("%s[%d]: %v vs %v", name, i, a[i], b[i])
		}
	}
	return nil
}

// The flat kernel of narrow columns takes the row kernel's operations on
// every entry: the two agree bitwise (up to the sign of zero) at every
// width both take (8 ≤ m ≤ flatMaxM32, with and without a last octet
// straddling two gates' rows), folding with and without the old z; and a
// flat kernel with a lane's gate off by one (the teeth) does not.
func TestStageTraceFold32FlatMatchesRows(t *testing.T) {
	for m := 8; m <= flatMaxM32; m++ {
		for _, u := range []int{1, 4, 7} {
			for _, add := range []bool{true, false} {
				rng := rand.New(rand.NewPCG(uint64(m), uint64(u)))
				flat := newTraceFold32Case(rng, m, u)
				rows := flat.clone()
				stageTraceFold32Flat(flat.ht, flat.ct, flat.x, flat.f, flat.hp, flat.k, flat.z, flat.d, flat.c, add)
				stageTraceFold32Lanes(rows.ht, rows.ct, rows.x, rows.f, rows.hp, rows.k, rows.z, rows.d, rows.c, add)
				for _, err := range []error{same32("ht", flat.ht, rows.ht), same32("ct", flat.ct, rows.ct), same32("z", flat.z, rows.z)} {
					if err != nil {
						t.Fatalf("m %d u %d add %v: %v", m, u, add, err)
					}
				}
			}
		}
	}
	// Teeth: gate f's κ in a lane of gate i.
	rng := rand.New(rand.NewPCG(1, 2))
	flat := newTraceFold32Case(rng, 12, 2)
	rows := flat.clone()
	scalarGates32[0] = 1
	defer func() { scalarGates32[0] = 0 }()
	stageTraceFold32Flat(flat.ht, flat.ct, flat.x, flat.f, flat.hp, flat.k, flat.z, flat.d, flat.c, true)
	stageTraceFold32Lanes(rows.ht, rows.ct, rows.x, rows.f, rows.hp, rows.k, rows.z, rows.d, rows.c, true)
	if same32("ct", flat.ct, rows.ct) == nil {
		t.Error("a flat kernel with a lane of the wrong gate matches the row kernel")
	}
}

// BenchmarkStageTraceFold32Narrow times the flat and the row kernel of
// StageTraceFold32 beside the float64 kernel at trace patterning's widths
// (Columnar 7 on 12 inputs; CCN's last stage of 4 columns on 28):
//
//	GOEXPERIMENT=simd go test -run '^$' -bench StageTraceFold32Narrow ./internal/lanes
func BenchmarkStageTraceFold32Narrow(b *testing.B) {
	for _, sh := range []struct{ m, u int }{{12, 7}, {28, 4}, {13, 7}, {12, 1}} {
		rng := rand.New(rand.NewPCG(1, 2))
		tc := newTraceFold32Case(rng, sh.m, sh.u)
		size := arch.ColumnParams(sh.m)
		ht64, ct64, z64, x64 := make([]float64, sh.u*size), make([]float64, sh.u*size), make([]float64, sh.u*size), make([]float64, sh.m)
		for i := range ht64 {
			ht64[i], ct64[i], z64[i] = float64(tc.ht[i]), float64(tc.ct[i]), float64(tc.z[i])
		}
		for i := range x64 {
			x64[i] = float64(tc.x[i])
		}
		name := fmt.Sprintf("m%d_u%d", sh.m, sh.u)
		b.Run(name+"/flat", func(b *testing.B) {
			for b.Loop() {
				stageTraceFold32Flat(tc.ht, tc.ct, tc.x, tc.f, tc.hp, tc.k, tc.z, 0.9, tc.c, true)
			}
		})
		b.Run(name+"/rows", func(b *testing.B) {
			for b.Loop() {
				stageTraceFold32Lanes(tc.ht, tc.ct, tc.x, tc.f, tc.hp, tc.k, tc.z, 0.9, tc.c, true)
			}
		})
		b.Run(name+"/float64", func(b *testing.B) {
			for b.Loop() {
				StageTraceFold(ht64, ct64, x64, tc.f, tc.hp, tc.k, z64, 0.9, tc.c, true)
			}
		})
	}
}

// preact32PerColumn is the lane path of Preact32 one column at a time
// (gatePreacts32 per column), the reference of preact32Cols.
func preact32PerColumn(ai, af, ag, ao, h []float64, blocks, x []float32, m int) {
	size := arch.ColumnParams(m)
	pb, px := base32(blocks), base32(x)
	m8 := m &^ 7
	xt := lastOctet32(px, m, m8)
	var a [4]float32
	for j, hj := range h {
		gatePreacts32(unsafe.Add(pb, 4*j*size), px, xt, m, m8, archsimd.BroadcastFloat32x4(float32(hj))).Store(&a)
		ai[j], af[j], ag[j], ao[j] = float64(a[0]), float64(a[1]), float64(a[2]), float64(a[3])
	}
}

// Preact32's lane path, all columns in one function, gives the bits of the
// column-at-a-time path it replaced at every width (with and without a
// partial last octet); a version that read the wrong column's h (the
// teeth) does not.
func TestPreact32ColsIsPerColumn(t *testing.T) {
	for m := 1; m <= 40; m++ {
		for _, u := range []int{1, 4, 7, 9} {
			rng := rand.New(rand.NewPCG(uint64(m), uint64(u)))
			b, _ := f32s(rng, u*arch.ColumnParams(m), 0.5)
			x, _ := f32s(rng, Padded32(m), 1)
			h := make([]float64, u)
			for j := range h {
				h[j] = rng.NormFloat64()
			}
			var g1, g2 [4][]float64
			for q := range 4 {
				g1[q], g2[q] = make([]float64, u), make([]float64, u)
			}
			preact32Lanes(g1[0], g1[1], g1[2], g1[3], h, b, x, m)
			preact32PerColumn(g2[0], g2[1], g2[2], g2[3], h, b, x, m)
			for q := range 4 {
				for j := range u {
					if math.Float64bits(g1[q][j]) != math.Float64bits(g2[q][j]) {
						t.Fatalf("m %d u %d gate %d column %d: %v vs %v", m, u, q, j, g1[q][j], g2[q][j])
					}
				}
			}
			if u > 1 {
				preact32PerColumn(g2[0], g2[1], g2[2], g2[3], append(h[1:], h[0]), b, x, m)
				if math.Float64bits(g1[0][0]) == math.Float64bits(g2[0][0]) {
					t.Errorf("m %d u %d: the wrong column's h gives the same pre-activation", m, u)
				}
			}
		}
	}
}

// Normalize32 gives Normalize's bits at every length (partial octets,
// several octets, a NaN feature); one that used the wrong decay (the
// teeth) does not.
func TestNormalize32IsNormalize(t *testing.T) {
	for n := 0; n <= 19; n++ {
		rng := rand.New(rand.NewPCG(uint64(n), 4))
		var a, b [5][]float64
		for q := range a {
			a[q] = make([]float64, n)
			for j := range a[q] {
				a[q][j] = rng.NormFloat64()
				if q == 3 {
					a[q][j] = math.Abs(a[q][j]) * 1e-3 // variances, some below ε²
				}
			}
			b[q] = append([]float64(nil), a[q]...)
		}
		if n > 6 {
			a[1][6], b[1][6] = math.NaN(), math.NaN()
		}
		Normalize32(a[0], a[1], a[2], a[3], a[4], 0.99, 1-0.99, 0.01)
		Normalize(b[0], b[1], b[2], b[3], b[4], 0.99, 1-0.99, 0.01)
		for q := range a {
			for j := range a[q] {
				if !sameBits(a[q][j], b[q][j]) {
					t.Fatalf("n %d slice %d value %d: %v vs %v", n, q, j, a[q][j], b[q][j])
				}
			}
		}
		if n > 4 && eightLanes {
			Normalize32(a[0], a[1], a[2], a[3], a[4], 0.9, 1-0.99, 0.01)
			Normalize(b[0], b[1], b[2], b[3], b[4], 0.99, 1-0.99, 0.01)
			if sameBits(a[2][0], b[2][0]) {
				t.Errorf("n %d: a Normalize32 with another decay gives Normalize's mean", n)
			}
		}
	}
}

// Stage32 gives the bits of Preact32 followed by Cell32 at every width of
// four columns' inputs (with and without a partial last octet); one that
// read the wrong column's previous cell state (the teeth) does not.
func TestStage32IsPreactCell(t *testing.T) {
	const u = 4
	for m := 1; m <= 40; m++ {
		rng := rand.New(rand.NewPCG(uint64(m), 9))
		b, _ := f32s(rng, u*arch.ColumnParams(m), 0.5)
		x, _ := f32s(rng, Padded32(m), 1)
		hp, cp := make([]float64, u), make([]float64, u)
		for j := range u {
			hp[j], cp[j] = rng.NormFloat64(), rng.NormFloat64()
		}
		run := func(stage bool, cp []float64) [7][]float64 {
			var g [7][]float64
			for q := range g {
				g[q] = make([]float64, u)
			}
			if stage {
				Stage32(g[0], g[1], g[2], g[3], hp, cp, g[4], g[5], g[6], b, x, m)
			} else {
				Preact32(g[0], g[1], g[2], g[3], hp, b, x, m)
				Cell32(g[0], g[1], g[2], g[3], cp, g[4], g[5], g[6])
			}
			return g
		}
		got, want := run(true, cp), run(false, cp)
		for q := range got {
			for j := range u {
				if math.Float64bits(got[q][j]) != math.Float64bits(want[q][j]) {
					t.Fatalf("m %d slice %d column %d: %v vs %v", m, q, j, got[q][j], want[q][j])
				}
			}
		}
		if bad := run(true, append(cp[1:], cp[0])); bad[4][0] == want[4][0] {
			t.Errorf("m %d: Stage32 on the wrong column's cell state gives the same c", m)
		}
	}
}

// RMSPropHead32 gives the bits of RMSProp32 on the head and then on the
// rest at every length and split; one with the two step sizes swapped (the
// teeth) does not.
func TestRMSPropHead32IsTwoCalls(t *testing.T) {
	for n := 0; n <= 12; n++ {
		for nh := 0; nh <= n; nh++ {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(nh)))
			th1, _ := f32s(rng, n, 1)
			u, _ := f32s(rng, n, 1)
			v1 := make([]float32, n)
			for i := range v1 {
				v1[i] = float32(rng.Float64())
			}
			th2, v2 := append([]float32(nil), th1...), append([]float32(nil), v1...)
			RMSPropHead32(th1, u, v1, nh, 0.3, 1e-3/7, 1e-3, 0.9999, 1e-8)
			RMSProp32(th2[:nh], u[:nh], v2[:nh], 0.3, 1e-3/7, 0.9999, 1e-8)
			RMSProp32(th2[nh:], u[nh:], v2[nh:], 0.3, 1e-3, 0.9999, 1e-8)
			if err := same32("θ", th1, th2); err != nil {
				t.Fatalf("n %d head %d: %v", n, nh, err)
			}
			if err := same32("v", v1, v2); err != nil {
				t.Fatalf("n %d head %d: %v", n, nh, err)
			}
			if nh > 0 && nh < n {
				RMSPropHead32(th1, u, v1, nh, 0.3, 1e-3, 1e-3/7, 0.9999, 1e-8)
				RMSProp32(th2[:nh], u[:nh], v2[:nh], 0.3, 1e-3/7, 0.9999, 1e-8)
				RMSProp32(th2[nh:], u[nh:], v2[nh:], 0.3, 1e-3, 0.9999, 1e-8)
				if same32("θ", th1, th2) == nil {
					t.Errorf("n %d head %d: swapped step sizes give the same θ", n, nh)
				}
			}
		}
	}
}
