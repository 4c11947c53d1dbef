package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance between a and b in units in the last place.
func ulps(a, b float64) float64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	return math.Abs(a-b) / ulpOf(b)
}

// ulpOf returns the spacing of float64 at x (the smallest subnormal for 0).
func ulpOf(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// TestRMSPropMatchesDirectFormula checks both paths against the direct
// formula with one division per entry: v bitwise, θ's step within 4 ulps.
// Lengths 1 to 13 exercise the tails.
func TestRMSPropMatchesDirectFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alpha, b, eps, s := 1e-3, 0.9999, 1e-8, -0.7 // variables: constant 1-b would be exact
	for n := 1; n <= 13; n++ {
		u := make([]float64, n)
		v := make([]float64, n)
		for i := range u {
			u[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			v[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
		}
		theta, vGot := make([]float64, n), append([]float64(nil), v...)
		RMSProp(theta, u, vGot, s, alpha, b, eps)
		for i := range u {
			g := s * u[i]
			vi := b*v[i] + (1-b)*g*g
			want := alpha * g / (math.Sqrt(vi) + eps)
			if vGot[i] != vi {
				t.Errorf("n=%d: v[%d] = %v, want %v", n, i, vGot[i], vi)
			}
			if d := ulps(theta[i], want); d > 4 {
				t.Errorf("n=%d: step[%d] = %v, want %v (%v ulps)", n, i, theta[i], want, d)
			}
		}
	}
}

// TestRMSPropFoldMatchesTwoCalls checks RMSPropFold against RMSProp followed
// by ScaleAdd, bitwise, for lengths 1 to 40 (the eight-lane loop, its
// leftover quad and the tails), over a few steps; and that the comparison
// sees a fold coefficient one ulp off.
func TestRMSPropFoldMatchesTwoCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(n int, cFold float64) (mism int) {
		theta1, u1, v1 := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range theta1 {
			theta1[i] = rng.NormFloat64()
			u1[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			v1[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
		}
		theta2, u2, v2 := append([]float64(nil), theta1...), append([]float64(nil), u1...), append([]float64(nil), v1...)
		for step := range 3 {
			tr := make([]float64, n)
			for i := range tr {
				tr[i] = rng.NormFloat64()
			}
			s, d, c := 0.3-0.4*float64(step), 0.891, -0.37
			RMSProp(theta1, u1, v1, s, 1e-3, 0.9999, 1e-8)
			ScaleAdd(u1, d, c, tr)
			if cFold == 0 {
				cFold = c
			}
			RMSPropFold(theta2, u2, v2, tr, s, 1e-3, 0.9999, 1e-8, d, cFold)
		}
		for i := range theta1 {
			if math.Float64bits(theta1[i]) != math.Float64bits(theta2[i]) || math.Float64bits(u1[i]) != math.Float64bits(u2[i]) ||
				math.Float64bits(v1[i]) != math.Float64bits(v2[i]) {
				mism++
			}
		}
		return mism
	}
	for n := 1; n <= 40; n++ {
		if d := run(n, 0); d != 0 {
			t.Errorf("n=%d: %d entries differ", n, d)
		}
	}
	if run(16, math.Nextafter(-0.37, 0)) == 0 {
		t.Error("a fold coefficient one ulp off went unnoticed")
	}
}

// TestRMSPropFloorKeepsTheta runs RMSProp and RMSPropFold with the
// accumulator floor and without it (τ = 0, the loops before it) on the same
// trajectory, bitwise: θ (and the fold's u) must agree at every step and v
// wherever either run holds at least 2⁻⁹⁰⁰. The trajectory is made to reach
// the floor: entries whose gradient is always 0 and whose v starts just
// above τ, at the subnormal fixed point of b·v or decays through both;
// traces that decay geometrically through the range where (1−b)·g² is near
// 2⁵⁴·τ; entries whose √v is near half an ulp of ε; and ordinary entries,
// over lengths that take the lane loops and their tails. That the floor
// acted is checked (v entries stored as 0 where the run without it holds
// subnormals), and that the comparison has teeth: a floor of 1e-40, far
// above where √v + ε stops noticing v, must change θ.
func TestRMSPropFloorKeepsTheta(t *testing.T) {
	const eps, alpha, b = 1e-8, 1e-3, 0.9
	tau := AccumulatorFloor(eps)
	if tau != 0x1p-1000 {
		t.Fatalf("AccumulatorFloor(1e-8) = %v, want 2^-1000", tau)
	}
	// run returns the accumulators without the floor and with it, how many
	// entries the floor stored as 0 where the other run holds a subnormal,
	// and the first step at which θ or u differ (−1: none).
	run := func(n int, fold bool, floor float64) (vRef, vGot []float64, zeroed, diffStep int) {
		rng := rand.New(rand.NewPCG(uint64(n), 11))
		theta, u, v := make([]float64, n), make([]float64, n), make([]float64, n)
		kind := make([]int, n)
		for i := range theta {
			theta[i] = rng.NormFloat64()
			kind[i] = rng.IntN(5)
			switch kind[i] {
			case 0: // gradient always 0, v at or near the floor or subnormal
				v[i] = math.Ldexp(1+rng.Float64(), -995-rng.IntN(80))
			case 1: // a trace decaying through tiny values
				u[i] = math.Ldexp(1, -120-rng.IntN(40))
				v[i] = math.Ldexp(1, -260-rng.IntN(40))
			case 2: // gradients whose squares are near 2⁵⁴·τ
				v[i] = math.Ldexp(rng.Float64(), -960)
			case 4: // √v near half an ulp of ε: what a floor too high would change
				v[i] = math.Ldexp(rng.Float64(), -160)
			default:
				v[i] = rng.Float64()
			}
		}
		theta2, u2, v2 := append([]float64(nil), theta...), append([]float64(nil), u...), append([]float64(nil), v...)
		diffStep = -1
		tr := make([]float64, n)
		for step := range 2000 {
			for i := range u {
				switch kind[i] {
				case 1:
					tr[i] = 0
					if !fold { // without the fold, decay by hand
						u[i] *= 0.97
						u2[i] = u[i]
					}
				case 2:
					tr[i] = math.Ldexp(rng.NormFloat64(), -470-rng.IntN(30))
				case 3:
					tr[i] = rng.NormFloat64()
				case 4:
					tr[i] = math.Ldexp(rng.NormFloat64(), -75-rng.IntN(10))
				default:
					tr[i] = 0
				}
				if !fold && kind[i] >= 2 {
					u[i], u2[i] = tr[i], tr[i]
				}
			}
			s := 0.5 + rng.Float64()
			if fold {
				rmspropFold(theta, u, v, tr, s, alpha, b, eps, 0.97, 1, 0)
				rmspropFold(theta2, u2, v2, tr, s, alpha, b, eps, 0.97, 1, floor)
			} else {
				rmsprop(theta, u, v, s, alpha, b, eps, 0)
				rmsprop(theta2, u2, v2, s, alpha, b, eps, floor)
			}
			for i := range theta {
				if diffStep < 0 && (math.Float64bits(theta[i]) != math.Float64bits(theta2[i]) ||
					math.Float64bits(u[i]) != math.Float64bits(u2[i])) {
					diffStep = step
				}
			}
		}
		for i := range v {
			if v2[i] == 0 && v[i] != 0 && v[i] < 0x1p-1022 {
				zeroed++
			}
		}
		return v, v2, zeroed, diffStep
	}
	for _, fold := range []bool{false, true} {
		for _, n := range []int{3, 8, 13, 40} {
			vRef, vGot, zeroed, diff := run(n, fold, tau)
			if diff >= 0 {
				t.Errorf("fold=%v n=%d: θ or u differ from step %d on", fold, n, diff)
			}
			for i := range vRef {
				if (vRef[i] >= 0x1p-900 || vGot[i] >= 0x1p-900) && math.Float64bits(vRef[i]) != math.Float64bits(vGot[i]) {
					t.Errorf("fold=%v n=%d: v[%d] = %v with the floor, %v without", fold, n, i, vGot[i], vRef[i])
				}
			}
			if n >= 8 && zeroed == 0 {
				t.Errorf("fold=%v n=%d: the floor never stored a 0 where the run without it holds a subnormal", fold, n)
			}
		}
	}
	for _, fold := range []bool{false, true} {
		if _, _, _, diff := run(40, fold, 1e-40); diff < 0 {
			t.Errorf("fold=%v: a floor of 1e-40 left θ unchanged: the comparison cannot see a floor that matters", fold)
		}
	}
}

// BenchmarkRMSPropSubnormalAccumulator times an RMSProp step of 7,932
// entries (T-BPTT 5:7 at the Atari inputs) where a quarter of the entries
// have a gradient of 0 and v stuck at the subnormal fixed point of b·v
// (4,000·2⁻¹⁰⁷⁴ for b = 0.9999), as the weights of never-lit pixels are
// after 7.1M steps: without the floor (τ = 0, each step pays the CPU's
// microcode assists) and with it (the first step stores those entries as 0).
func BenchmarkRMSPropSubnormalAccumulator(b *testing.B) {
	const n = 7932
	for _, c := range []struct {
		name string
		tau  float64
	}{{"no-floor", 0}, {"floor", AccumulatorFloor(1e-8)}} {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(12, 13))
			theta, u, v := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range u {
				theta[i] = rng.NormFloat64()
				if i%4 == 0 {
					v[i] = 4000 * 0x1p-1074
				} else {
					u[i], v[i] = rng.NormFloat64(), 1
				}
			}
			for b.Loop() {
				rmsprop(theta, u, v, 0.5, 1e-4, 0.9999, 1e-8, c.tau)
			}
		})
	}
}

// TestRMSProp32Floor checks the float32 floor in RMSProp32, RMSPropFold32
// and RMSPropHead32, over lengths that take the octet loops, the last
// partial octet and the masked short path: an entry whose gradient is 0 and
// whose v sits at a float32 subnormal (where the unfloored b·v stays) is
// stored as 0 and its θ is unchanged; an entry above τ with a gradient of 0
// keeps b·v; an ordinary entry's θ, u and v are bitwise those of the same
// call without the floor.
func TestRMSProp32Floor(t *testing.T) {
	const eps, alpha, b, s = 1e-8, 1e-3, 0.9999, 0.7
	tau := AccumulatorFloor32(eps)
	if tau != 0x1p-120 {
		t.Fatalf("AccumulatorFloor32(1e-8) = %v, want 2^-120", tau)
	}
	for _, call := range []string{"RMSProp32", "RMSPropFold32", "RMSPropHead32"} {
		for _, n := range []int{3, 8, 13, 24} {
			if call == "RMSPropHead32" && n > 8 {
				continue
			}
			theta, u, v := make([]float32, n), make([]float32, n), make([]float32, n)
			tr := make([]float32, n)
			for i := range theta {
				theta[i] = float32(i) - 2.5
				switch i % 3 {
				case 0:
					v[i] = 3000 * 0x1p-149 // subnormal, gradient 0
				case 1:
					v[i] = 0x1p-119 // above τ, gradient 0
				default:
					u[i], v[i], tr[i] = float32(i)/7, 0.5, float32(i)
				}
			}
			theta0, v0 := append([]float32(nil), theta...), append([]float32(nil), v...)
			thetaRef, uRef, vRef := append([]float32(nil), theta...), append([]float32(nil), u...), append([]float32(nil), v...)
			switch call {
			case "RMSProp32":
				RMSProp32(theta, u, v, s, alpha, b, eps)
				rmsprop32(thetaRef, uRef, vRef, s, alpha, b, eps, 0)
			case "RMSPropFold32":
				RMSPropFold32(theta, u, v, tr, s, alpha, b, eps, 0.9, 1)
				rmspropFold32(thetaRef, uRef, vRef, tr, s, alpha, b, eps, 0.9, 1, 0)
			default:
				RMSPropHead32(theta, u, v, n/2, s, 2*alpha, alpha, b, eps)
				rmspropHead32(thetaRef, uRef, vRef, n/2, s, 2*alpha, alpha, b, eps, 0)
			}
			for i := range theta {
				switch i % 3 {
				case 0:
					if v[i] != 0 || theta[i] != theta0[i] || vRef[i] == 0 {
						t.Errorf("%s n=%d: entry %d: v %g θ %g (without the floor v %g), want v 0 θ %g",
							call, n, i, v[i], theta[i], vRef[i], theta0[i])
					}
				case 1:
					if v[i] != vRef[i] || v[i] == 0 || v[i] >= v0[i] || theta[i] != theta0[i] {
						t.Errorf("%s n=%d: entry %d: v %g θ %g, want v %g (b·%g) θ %g", call, n, i, v[i], theta[i], vRef[i], v0[i], theta0[i])
					}
				default:
					if math.Float32bits(theta[i]) != math.Float32bits(thetaRef[i]) || math.Float32bits(u[i]) != math.Float32bits(uRef[i]) ||
						math.Float32bits(v[i]) != math.Float32bits(vRef[i]) || theta[i] == theta0[i] {
						t.Errorf("%s n=%d: entry %d: θ %g u %g v %g, without the floor θ %g u %g v %g", call, n, i,
							theta[i], u[i], v[i], thetaRef[i], uRef[i], vRef[i])
					}
				}
			}
		}
	}
}

// idleCase returns θ, u, v and a trace t of n entries in groups of w (the
// unit whose square roots share a division: 8 entries in the lane loops, 4
// in the scalar one), the groups in turn, from a random one on, ordinary,
// idle (u = ±0, t = 0, so g = s·u is ±0 and the loops may skip the square
// roots), idle in one half only, or idle but for one accumulator entry of
// +∞ or NaN (the skip must not be taken: the full step makes a NaN of θ).
// θ is −0 in a third of the idle entries, where adding +0 and adding −0
// differ.
func idleCase(rng *rand.Rand, n, w int) (theta, u, v, tr []float64) {
	theta, u, v, tr = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	first := rng.IntN(5)
	for g := 0; g < n; g += w {
		kind := (first + g/w) % 5
		for i := g; i < min(g+w, n); i++ {
			theta[i] = rng.NormFloat64()
			v[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
			idle := kind == 1 || kind == 2 && i-g < w/2 || kind == 3 && i-g >= w/2 || kind == 4
			if !idle {
				u[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
				tr[i] = rng.NormFloat64()
				continue
			}
			u[i] = math.Copysign(0, float64(i%2*2-1)) // −0 and +0 in turn
			if i%3 == 0 {
				theta[i] = math.Copysign(0, -1)
			}
		}
		if kind == 4 {
			v[g+rng.IntN(min(w, n-g))] = []float64{math.Inf(1), math.NaN()}[rng.IntN(2)]
		}
	}
	return theta, u, v, tr
}

// firstMismatch returns the first index where got and want hold different
// bits (sameBits: NaNs of any payload count as equal), or -1.
func firstMismatch(got, want []float64) int {
	for i := range want {
		if !sameBits(got[i], want[i]) {
			return i
		}
	}
	return -1
}

// TestRMSPropScalarSkipsIdleGroups checks the scalar loop bitwise against
// its arithmetic written out for every group of four (quartetStep), which
// takes no shortcut, on idleCase's groups over a few steps of either sign
// and a step of NaN, at step sizes of either sign and 0; and that the data
// and the comparison have teeth: each wrongShortcut, taken by the
// reference, makes it differ.
func TestRMSPropScalarSkipsIdleGroups(t *testing.T) {
	const b, eps = 0.9999, 1e-8
	tau := AccumulatorFloor(eps)
	// run returns the first entry of θ or v that differs after a step, or "".
	run := func(n int, alpha float64, wrong wrongShortcut, steps []float64) string {
		rng := rand.New(rand.NewPCG(uint64(n), 21))
		theta, u, v, _ := idleCase(rng, n, 4)
		thetaRef, vRef := append([]float64(nil), theta...), append([]float64(nil), v...)
		for k, s := range steps {
			rmspropScalar(theta, u, v, s, alpha, b, eps, tau)
			quartetStep(thetaRef, u, vRef, s, alpha, b, eps, tau, wrong)
			if m := mismatchText(theta, thetaRef, v, vRef); m != "" {
				return fmt.Sprintf("step %d: %s", k, m) // a zero's sign can heal at a later step
			}
		}
		return ""
	}
	for n := 1; n <= 41; n++ {
		for _, alpha := range []float64{1e-3, -1e-3, 0} {
			if d := run(n, alpha, noShortcut, []float64{0.3, -0.7, 1.1}); d != "" {
				t.Errorf("n=%d, α=%v: %s", n, alpha, d)
			}
		}
		if d := run(n, 1e-3, noShortcut, []float64{0.3, math.NaN()}); d != "" {
			t.Errorf("n=%d, a step of NaN: %s", n, d)
		}
	}
	for _, wrong := range []wrongShortcut{keepingTheta, ignoringV, halfGroup} {
		if run(80, 1e-3, wrong, []float64{0.3, -0.7, 1.1}) == "" {
			t.Errorf("the shortcut %v went unnoticed", wrong)
		}
	}
}

// mismatchText names the first entry where θ or v differ from the
// reference's, or is "".
func mismatchText(theta, thetaRef, v, vRef []float64) string {
	if i := firstMismatch(theta, thetaRef); i >= 0 {
		return fmt.Sprintf("θ[%d] = %v (%#x), want %v (%#x)", i, theta[i], math.Float64bits(theta[i]), thetaRef[i], math.Float64bits(thetaRef[i]))
	}
	if i := firstMismatch(v, vRef); i >= 0 {
		return fmt.Sprintf("v[%d] = %v, want %v", i, v[i], vRef[i])
	}
	return ""
}

// wrongShortcut is a shortcut for idle groups that changes θ's bits, taken
// by the references of the idle-group tests to show that their data and
// comparison would see it.
type wrongShortcut int

const (
	noShortcut   wrongShortcut = iota // the references' own arithmetic
	keepingTheta                      // θ kept rather than θ + g (differs where θ = −0, g = +0)
	ignoringV                         // taken though an accumulator entry is +∞ or NaN
	halfGroup                         // taken when the first half of the group is idle
)

func (w wrongShortcut) String() string {
	return [...]string{"none", "keeping θ", "ignoring v", "half group"}[w]
}

// take applies the wrong shortcut to a group (θ, its scaled gradients g and
// new accumulator entries v) and reports whether it did.
func (w wrongShortcut) take(theta, g, v []float64) bool {
	if w == noShortcut {
		return false
	}
	zeros := g
	if w == halfGroup {
		zeros = g[:len(g)/2]
	}
	for _, x := range zeros {
		if x != 0 {
			return false
		}
	}
	for _, x := range v {
		if w != ignoringV && !(x < math.Inf(1)) {
			return false
		}
	}
	if w != keepingTheta {
		for i := range theta {
			theta[i] += g[i]
		}
	}
	return true
}

// quartetStep is rmspropScalar's arithmetic without its shortcut (or with
// a wrong one): the square roots of each group of four share one division,
// the tail takes one each. The conversions keep the compiler from fusing a
// product into a sum, as it may with GOAMD64=v3.
func quartetStep(theta, u, v []float64, s, alpha, b, eps, tau float64, wrong wrongShortcut) {
	n := len(u) &^ 3
	for i := 0; i < n; i += 4 {
		groupStep(theta[i:i+4], u[i:i+4], v[i:i+4], s, alpha, b, eps, tau, wrong, func(theta, g, a []float64) {
			p01, p23 := float64(a[0]*a[1]), float64(a[2]*a[3])
			inv := alpha / float64(p01*p23)
			i01, i23 := float64(inv*p23), float64(inv*p01)
			theta[0] += float64(float64(g[0]*a[1]) * i01)
			theta[1] += float64(float64(g[1]*a[0]) * i01)
			theta[2] += float64(float64(g[2]*a[3]) * i23)
			theta[3] += float64(float64(g[3]*a[2]) * i23)
		})
	}
	tailStep(theta[n:], u[n:], v[n:], s, alpha, b, eps, tau)
}

// groupStep is one group's step (up to eight entries) without the loops'
// shortcut, or with a wrong one: the scaled gradients g, the accumulator
// (stored floored) and a = √v + ε, then θ's update by share, which spreads
// the group's divisions as the loop under test does.
func groupStep(theta, u, v []float64, s, alpha, b, eps, tau float64, wrong wrongShortcut, share func(theta, g, a []float64)) {
	c := 1 - b
	var g, a, vn [8]float64
	for j := range u {
		g[j] = s * u[j]
		vn[j] = float64(b*v[j]) + float64(float64(c*g[j])*g[j])
		v[j] = floorAccumulator(vn[j], tau)
		a[j] = float64(math.Sqrt(vn[j])) + eps
	}
	w := len(u)
	if !wrong.take(theta, g[:w], vn[:w]) {
		share(theta, g[:w], a[:w])
	}
}

// tailStep is the arithmetic of the loops' tails: one division per entry.
func tailStep(theta, u, v []float64, s, alpha, b, eps, tau float64) {
	c := 1 - b
	for i := range u {
		g := s * u[i]
		vi := float64(b*v[i]) + float64(float64(c*g)*g)
		v[i] = floorAccumulator(vi, tau)
		theta[i] += float64(alpha*g) / (math.Sqrt(vi) + eps)
	}
}

// BenchmarkRMSPropIdleGroups times an RMSProp step of 7,932 entries (T-BPTT
// 5:7 at the Atari inputs) with no idle group of eight and with a third of
// them idle (u = 0, at pseudo-random places that stay put from step to step,
// as the weights of pixels that stay off do): the loops skip those groups'
// square roots and division. On Atari runs a fifth to a third of the
// groups are idle (docs/performance.md, "Idle groups").
func BenchmarkRMSPropIdleGroups(b *testing.B) {
	const n = 7932
	for _, c := range []struct {
		name string
		idle int // one group in idle is idle; 0: none
	}{{"dense", 0}, {"third-idle", 3}} {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(14, 15))
			theta, u, v := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range u {
				theta[i], v[i] = rng.NormFloat64(), 1
				if c.idle == 0 || (i/8*7919)%c.idle != 0 {
					u[i] = rng.NormFloat64()
				}
			}
			for b.Loop() {
				RMSProp(theta, u, v, 0.5, 1e-4, 0.9999, 1e-8)
			}
		})
	}
}
