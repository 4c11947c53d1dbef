package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
)

// tbptt32Cases are the shapes of TestCheckTBPTT32: the T-BPTT pairs of the
// Atari runs at 275 inputs (5:7, 15:2, 2:25), the trace-patterning ones,
// full BPTT, one unit on one input, and an input count with a lane tail.
var tbptt32Cases = []struct{ H, m, k, T int }{
	{7, 275, 5, 300}, {2, 275, 15, 300}, {25, 275, 2, 200},
	{4, 12, 15, 300}, {10, 12, 5, 300}, {3, 8, 0, 100}, {1, 1, 1, 200}, {5, 13, 3, 150},
}

// TestCheckTBPTT32 runs the float32 engine against the float64 one on six
// trajectories per case (both input kinds, the three parameter scales) and
// logs the worst ratio to the tolerance. The engines must differ somewhere
// (a float32 engine that computed in float64 would pass unnoticed).
func TestCheckTBPTT32(t *testing.T) {
	worst, differ := 0.0, 0.0
	for _, c := range tbptt32Cases {
		T := c.T
		if testing.Short() {
			T = min(T, 60)
		}
		for i := range 6 {
			rng := newRand(25, i)
			tr := randomTrajectory(rng, i, T, c.m)
			a := CheckTBPTT32(arch.Dense{Hidden: c.H, Inputs: c.m}, c.k, tr, rng, backward.NoDefect)
			if !a.Pass() {
				t.Errorf("H=%d m=%d k=%d %v scale %.1f: %.3g of the tolerance at step %d (rel %.3g, κ %.3g)",
					c.H, c.m, c.k, tr.Kind, tr.Scale, a.Worst, a.Step, a.StepRel, a.Kappa)
			}
			worst, differ = max(worst, a.Worst), max(differ, a.MaxRel)
		}
	}
	if differ == 0 {
		t.Error("the float32 and the float64 engine agree bitwise everywhere")
	}
	t.Logf("worst: %.3g of the tolerance (c = %d), largest rel_t %.3g", worst, TBPTT32Factor, differ)
}

// tbptt32Wrong is the float32 engine with a mistake of its kernels
// simulated around it: its input's last entry dropped (a lane tail lost in
// the forward pass), its gradient's last input column dropped (one lost in
// the outer products), or its gradient rounded to 16 significant bits.
type tbptt32Wrong struct {
	tbptt32Float
	mistake string
	x       []float64
}

func (e *tbptt32Wrong) Step(x []float64) float64 {
	if e.mistake != "drop last input" {
		return e.tbptt32Float.Step(x)
	}
	e.x = append(e.x[:0], x...)
	e.x[len(x)-1] = 0
	return e.tbptt32Float.Step(e.x)
}

func (e *tbptt32Wrong) grad(dst []float64) {
	e.tbptt32Float.grad(dst)
	shape := e.Shape()
	switch e.mistake {
	case "drop last gradient column":
		for r := range 4 * shape.Hidden {
			dst[r*shape.Inputs+shape.Inputs-1] = 0
		}
	case "11-bit gradient":
		for i, v := range dst {
			fr, exp := math.Frexp(v)
			dst[i] = math.Ldexp(math.Round(fr*(1<<11))/(1<<11), exp)
		}
	}
}

// TestCheckTBPTT32Teeth shows the check failing on the float32 engine with
// each defect of package backward where it acts (DropForgetPath: k ≠ 1;
// OffByOneWindow: full windows of at most 5 steps, beyond which the oldest
// step's share of the gradient can vanish at the small parameter scale),
// and with each simulated kernel mistake of tbptt32Wrong.
func TestCheckTBPTT32Teeth(t *testing.T) {
	least := map[string]float64{}
	for _, c := range tbptt32Cases {
		shape := arch.Dense{Hidden: c.H, Inputs: c.m}
		for i := range 6 {
			name := fmt.Sprintf("H=%d m=%d k=%d trajectory %d", c.H, c.m, c.k, i)
			tr := randomTrajectory(newRand(26, i), i, 40, c.m)
			if c.k != 1 {
				for _, d := range []backward.Defect{backward.DropForgetPath, backward.OffByOneWindow} {
					if d == backward.OffByOneWindow && (c.k == 0 || c.k > 5) {
						continue
					}
					a := CheckTBPTT32(shape, c.k, tr, newRand(27, i), d)
					if a.Pass() {
						t.Errorf("%s: %v passes (%.3g of the tolerance)", name, d, a.Worst)
					}
					if l, ok := least[d.String()]; !ok || a.Worst < l {
						least[d.String()] = a.Worst
					}
				}
			}
			for _, mistake := range []string{"drop last input", "drop last gradient column", "11-bit gradient"} {
				if mistake == "drop last input" && tr.Kind == SparseBinary {
					// The last input may be 0 throughout: set it once.
					tr.Xs[len(tr.Xs)/2][c.m-1] = 1
				}
				e64, e32 := backward.NewTBPTT(shape, c.k), backward.NewTBPTT32(shape, c.k)
				wrong := &tbptt32Wrong{tbptt32Float: tbptt32Float{e32, make([]float32, e32.NumParams())}, mistake: mistake}
				a := checkTBPTT32(e64, tbptt64Engine{e64}, wrong, e32.Params(), c.k, tr, newRand(27, i))
				if a.Pass() {
					t.Errorf("%s: %s passes (%.3g of the tolerance)", name, mistake, a.Worst)
				}
				if l, ok := least[mistake]; !ok || a.Worst < l {
					least[mistake] = a.Worst
				}
			}
		}
	}
	for name, l := range least {
		t.Logf("%-26s at least %.3g times the tolerance", name, l)
	}
}

// The gate of a float32 T-BPTT run holds the float32 engine to the float64
// one: it passes a correct engine and refuses one with the forget path
// dropped, naming the float32 check.
func TestGateTBPTT32(t *testing.T) {
	rng := newRand(5, 0)
	xs := randomTrajectory(rng, 0, GateLength, 20).Xs
	spec := GateSpec{Xs: xs, Seed: 5, Float32: true, Dense: &arch.Dense{Hidden: 3, Inputs: 20}, Truncation: 4}
	require.NoError(t, gateTBPTT32(spec))
	spec.Inject = InjectDropForgetPath
	err := gateTBPTT32(spec)
	var ge *GateError
	require.ErrorAs(t, err, &ge)
	assert.True(t, ge.Float32)
	assert.Contains(t, err.Error(), "float32 T-BPTT")
	assert.Contains(t, err.Error(), "float64 engine")
	assert.Greater(t, ge.Agreement.MaxRel, ge.Tol)
}

// Gate runs the float32 T-BPTT check, at both scales, for a float32 T-BPTT
// spec only (and after the float64 engine passed).
func TestGateRunsTBPTT32(t *testing.T) {
	calls := 0
	saved := gateCheckTBPTT32
	t.Cleanup(func() { gateCheckTBPTT32 = saved })
	gateCheckTBPTT32 = func(shape arch.Dense, k int, tr Trajectory, rng *rand.Rand, d backward.Defect) TBPTT32Agreement {
		calls++
		return saved(shape, k, tr, rng, d)
	}
	rng := newRand(6, 0)
	xs := randomTrajectory(rng, 0, GateLength, 8).Xs
	spec := GateSpec{Xs: xs, Seed: 6, Dense: &arch.Dense{Hidden: 2, Inputs: 8}, Truncation: 3}
	require.NoError(t, Gate(spec))
	assert.Zero(t, calls, "a float64 run's gate")
	spec.Float32 = true
	require.NoError(t, Gate(spec))
	assert.Equal(t, len(gateScales), calls, "a float32 run's gate")
}
