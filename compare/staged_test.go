package compare

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// Constructive and CCN networks agree with the reference rebuilt after every
// stage change, on trajectories crossing two and three boundaries, with
// normalization off, moving fast, and at the run's decay; the last stage of
// the CCN is cut short at MaxFeatures.
func TestStagedAgreeAcrossTransitions(t *testing.T) {
	r := reference.New()
	tests := []struct {
		name string
		spec StagedSpec
	}{
		{"constructive/off", StagedSpec{Inputs: 5, FeaturesPerStage: 1, MaxFeatures: 4, Segments: []int{8, 9, 10, 11}}},
		{"constructive/fast", StagedSpec{Inputs: 5, FeaturesPerStage: 1, MaxFeatures: 4, Norm: FastNorm, Segments: []int{8, 9, 10, 11}}},
		{"ccn/fast", StagedSpec{Inputs: 4, FeaturesPerStage: 3, MaxFeatures: 8, Norm: FastNorm, Segments: []int{10, 10, 10}}},
		{"ccn/run-decay", StagedSpec{Inputs: 4, FeaturesPerStage: 2, MaxFeatures: 6, Norm: arch.Normalization{Enabled: true}, Segments: []int{10, 10, 10}}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for traj := range 3 {
				rng := newRand(40, 10*i+traj)
				total := 0
				for _, n := range tt.spec.Segments {
					total += n
				}
				start := time.Now()
				as, err := CheckStaged(r, tt.spec, randomTrajectory(rng, traj, total, tt.spec.Inputs), rng, forward.NoDefect)
				require.NoError(t, err)
				require.Len(t, as, len(tt.spec.Segments))
				for seg, a := range as {
					assert.True(t, a.Pass(), "trajectory %d segment %d: max rel %.3g", traj, seg, a.MaxRel)
				}
				t.Logf("trajectory %d (scale %g): worst %.2g, %v", traj, scales[traj], worst(as).MaxRel, time.Since(start))
			}
		})
	}
}

func worst(as []Agreement) Agreement {
	var w Agreement
	for _, a := range as {
		w = w.Worst(a)
	}
	return w
}

// The staged check has teeth: an engine that restarts the normalization
// statistics or the frozen columns' state at a stage change fails from the
// segment after the change on, while every earlier segment passes.
func TestStagedTransitionDefectsAreCaught(t *testing.T) {
	r := reference.New()
	spec := StagedSpec{Inputs: 4, FeaturesPerStage: 2, MaxFeatures: 6, Norm: FastNorm, Segments: []int{12, 12, 12}}
	for _, d := range []forward.Defect{forward.RestartStatsAtStage, forward.RestartStateAtStage} {
		t.Run(d.String(), func(t *testing.T) {
			rng := newRand(41, int(d))
			as, err := CheckStaged(r, spec, randomTrajectory(rng, 1, 36, 4), rng, d)
			require.NoError(t, err)
			require.Len(t, as, 3)
			assert.True(t, as[0].Pass(), "before the first change: max rel %.3g", as[0].MaxRel)
			for seg := 1; seg < 3; seg++ {
				assert.False(t, as[seg].Pass(), "segment %d passed with %v: max rel %.3g", seg, d, as[seg].MaxRel)
			}
			t.Logf("%v: %.2g %.2g %.2g", d, as[0].MaxRel, as[1].MaxRel, as[2].MaxRel)
		})
	}
}

// carried is the reference's own statement of a stage change: it must not
// simply copy what the engine did. Checked on a hand-made layout.
func TestCarried(t *testing.T) {
	top := arch.CCN(1, 1, 0, arch.Normalization{}) // one column on 1 input: block 12, head 1, bias 1
	next := top.WithStage(1)                       // frozen 12; learning block 4·2+8 = 16, head 2, bias 1
	learn := make([]float64, top.NumLearnable())   // 14
	for i := range learn {
		learn[i] = float64(i + 1)
	}
	fresh := make([]float64, next.NumLearnable())
	for i := range fresh {
		fresh[i] = -float64(i + 1)
	}
	f, l := carried(top, next, nil, learn, fresh, []float64{0.5})
	assert.Equal(t, learn[:12], f)
	assert.Equal(t, fresh[:16], l[:16])
	assert.Equal(t, []float64{13, 0.5, 14}, l[16:])
}
