package compare

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
)

// float32NetCases are the networks of the float32 engine's check: Columnar,
// Constructive and CCN through stage changes, small and at the Atari input
// size, with normalization off, on and moving fast.
var float32NetCases = []struct {
	name string
	spec Float32NetSpec
}{
	{"columnar1/m1", Float32NetSpec{Inputs: 1, FeaturesPerStage: 1, MaxFeatures: 1, Segments: []int{60}}},
	{"columnar3/m7", Float32NetSpec{Inputs: 7, FeaturesPerStage: 3, MaxFeatures: 3, Norm: arch.Normalization{Enabled: true}, Segments: []int{300}}},
	{"constructive3/m12", Float32NetSpec{Inputs: 12, FeaturesPerStage: 1, MaxFeatures: 3, Norm: FastNorm, Segments: []int{40, 40, 40}}},
	{"ccn6x2/m9", Float32NetSpec{Inputs: 9, FeaturesPerStage: 2, MaxFeatures: 6, Norm: arch.Normalization{Enabled: true}, Segments: []int{50, 50, 50}, StepSize: 1e-2}},
	{"columnar6/m275", Float32NetSpec{Inputs: 275, FeaturesPerStage: 6, MaxFeatures: 6, Norm: arch.Normalization{Enabled: true}, Segments: []int{100}}},
	{"ccn15x5/m275", Float32NetSpec{Inputs: 275, FeaturesPerStage: 5, MaxFeatures: 15, Norm: arch.Normalization{Enabled: true}, Segments: []int{30, 30, 40}}},
}

// TestCheckFloat32Network holds the float32 engine to the float64 one
// within Float32Tolerance on random trajectories of both input kinds at
// every scale, and proves the check's teeth at the gate's scales (0.5 and
// 1.5): a float32 engine that drops the recurrent term of its traces, or
// restarts the feature statistics at a stage change, fails it. (At scale
// 0.1 the recurrent weights |u_q| ≤ 0.1 make the dropped term about as
// small as float32's rounding over these short trajectories.)
func TestCheckFloat32Network(t *testing.T) {
	for ci, tc := range float32NetCases {
		total := 0
		for _, s := range tc.spec.Segments {
			total += s
		}
		for i := range 3 {
			rng := newRand(25, 10*ci+i)
			tr := randomTrajectory(rng, i, total, tc.spec.Inputs)
			a := CheckFloat32Network(tc.spec, tr, uint64(ci*10+i), forward.NoDefect)
			if !a.Pass() {
				t.Errorf("%s (%v, scale %g): step %d rel %.3g, %.3g of the tolerance", tc.name, tr.Kind, tr.Scale, a.Step, a.MaxRel, a.Worst)
			}
			t.Logf("%s (%v, scale %g): worst rel %.3g = %.3g of the tolerance at step %d", tc.name, tr.Kind, tr.Scale, a.MaxRel, a.Worst, a.Step)
			defects := []forward.Defect{forward.DropRecurrentTerm}
			if len(tc.spec.Segments) > 1 && tc.spec.Norm.Enabled {
				defects = append(defects, forward.RestartStatsAtStage)
			}
			if tr.Scale < 0.5 {
				continue
			}
			for _, d := range defects {
				if a := CheckFloat32Network(tc.spec, tr, uint64(ci*10+i), d); a.Pass() {
					t.Errorf("%s (%v, scale %g): defect %v passes (%.3g of the tolerance)", tc.name, tr.Kind, tr.Scale, d, a.Worst)
				}
			}
		}
	}
}
