package experiments

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/td"
)

// Staged learners stay staged when their fused trace update is hidden.
type unfusedStaged struct {
	arch.Engine
	td.Staged
}

// plainOptimizer hides an optimizer's TraceFolder.
type plainOptimizer struct{ td.Optimizer[float64] }

// The fused trace updates change nothing: a network trained with the
// gradient folded into the trace by forward.Network.AccumulateGrad after the
// optimizer's pass, or from Grad's vector (folded into the trace in the
// optimizer's pass, TraceFolder, or added after it) ends with bitwise equal
// parameters, across stage changes, at 12 and at 275 inputs. A changed step
// size shows.
func TestTDFusedTraceMatchesGrad(t *testing.T) {
	for _, c := range []struct {
		cfg    RunConfig
		inputs int
	}{
		{RunConfig{Method: arch.MethodCCN, Steps: 3000, StepsPerStage: 700, Features: 8, FeaturesPerStage: 2, Seed: 4}, 0},
		{RunConfig{Method: arch.MethodCCN, Steps: 300, StepsPerStage: 100, Features: 4, FeaturesPerStage: 2, Seed: 4}, syntheticInputs},
	} {
		cfg := c.cfg.MustResolve()
		run := func(hideAcc, hideFold bool, alpha float64) []float64 {
			e := cfg.NewEnv()
			next := e.Next
			inputs := e.ObservationSize()
			if c.inputs > 0 {
				s := newSyntheticStream()
				next = func(x []float64) (float64, float64) { return s.Next(x), 0 }
				inputs = c.inputs
			}
			l, layout, opt := cfg.NewLearner(inputs)
			_, isAcc := l.(td.GradAccumulator[float64])
			require.True(t, isAcc)
			opt.(*td.RMSProp).StepSize *= alpha
			if hideAcc {
				l = unfusedStaged{l, l.(td.Staged)}
			}
			if hideFold {
				opt = plainOptimizer{opt}
			}
			a := td.New(l, layout, opt, 0.9, 0.99)
			x := make([]float64, inputs)
			next(x)
			a.Start(x)
			for i := 0; i < cfg.Config().Steps; i++ {
				cum, _ := next(x)
				a.Step(x, cum)
			}
			return append([]float64(nil), l.Params()...)
		}
		want := run(true, true, 1)
		assert.Equal(t, want, run(false, true, 1), "%+v: AccumulateGrad", c.cfg)
		assert.Equal(t, want, run(true, false, 1), "%+v: Grad and TraceFolder", c.cfg)
		assert.NotEqual(t, want, run(false, true, 1+0x1p-40), "%+v: a changed step size", c.cfg)
	}
}
