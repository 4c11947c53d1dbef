package experiments

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/td"
)

// endToEnd is one configuration of BenchmarkEndToEnd: the learner is built
// from cfg and, for networks, advanced to its last stage before timing.
type endToEnd struct {
	name string
	cfg  RunConfig
}

var endToEndCases = []endToEnd{
	{"ccn16x4", RunConfig{Method: arch.MethodCCN, Features: 16, FeaturesPerStage: 4}},
	{"ccn20x4", RunConfig{Method: arch.MethodCCN, Features: 20, FeaturesPerStage: 4}},
	{"columnar7", RunConfig{Method: arch.MethodColumnar, Features: 7}},
	{"columnar10", RunConfig{Method: arch.MethodColumnar, Features: 10}},
	{"constructive5", RunConfig{Method: arch.MethodConstructive, Features: 5}},
	{"tbptt_h4_k15", RunConfig{Method: arch.MethodTBPTT, Hidden: 4, Truncation: 15}},
	{"tbptt_h10_k5", RunConfig{Method: arch.MethodTBPTT, Hidden: 10, Truncation: 5}},
	{"tbptt_h10_k15", RunConfig{Method: arch.MethodTBPTT, Hidden: 10, Truncation: 15}}, // truncation-h10, dependency-length
	{"tbptt_h2_k30", RunConfig{Method: arch.MethodTBPTT, Hidden: 2, Truncation: 30}},   // dependency-length: H < 4, the scalar kernels
}

// lastStageAgent returns the TD(λ) agent of the resolved cfg over learner
// l, with layout and opt as NewLearner or NewLearner32 made them; a network
// learner is first moved to its last stage (all features).
func lastStageAgent[T arch.Float](l arch.EngineOf[T], layout td.Layout, opt td.Optimizer[T], cfg RunConfig) *td.Agent[T] {
	if n, ok := l.(*forward.NetworkOf[T]); ok {
		for n.Features() < cfg.Features {
			n.AdvanceStage()
		}
		layout = td.NetworkLayout(n.Topology())
	}
	return td.New(l, layout, opt, cfg.Gamma, *cfg.Lambda)
}

// newFinalStageAgent returns the environment and a started agent for the
// resolved cfg, with a network learner moved to its last stage (all
// features): the float64 engine for T = float64, the float32 engine for
// T = float32.
func newFinalStageAgent[T arch.Float](tb testing.TB, cfg RunConfig) (*td.Agent[T], func(x []float64) (float64, float64)) {
	_, cfg.Float32 = any(T(0)).(float32)
	r, err := cfg.Resolve()
	if err != nil {
		tb.Fatal(err)
	}
	e := r.NewEnv()
	var a any
	if cfg.Float32 {
		l, layout, opt := r.NewLearner32(e.ObservationSize())
		a = lastStageAgent(l, layout, opt, r.Config())
	} else {
		l, layout, opt := r.NewLearner(e.ObservationSize())
		a = lastStageAgent(l, layout, opt, r.Config())
	}
	agent := a.(*td.Agent[T])
	x := make([]float64, e.ObservationSize())
	e.Next(x)
	agent.Start(x)
	return agent, e.Next
}

// BenchmarkEndToEnd measures one step of a run: environment, learner step and
// gradient, TD(λ) trace and optimizer update (the default optimizer).
func BenchmarkEndToEnd(b *testing.B) {
	for _, tc := range endToEndCases {
		b.Run(tc.name, func(b *testing.B) {
			a, next := newFinalStageAgent[float64](b, tc.cfg)
			x := make([]float64, 12)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c, _ := next(x)
				a.Step(x, c)
			}
		})
	}
}

func TestEndToEndZeroAllocs(t *testing.T) {
	for _, tc := range endToEndCases {
		for _, o := range []string{OptimizerAdam, OptimizerRMSProp} {
			cfg := tc.cfg
			cfg.Optimizer = o
			a, next := newFinalStageAgent[float64](t, cfg)
			x := make([]float64, 12)
			allocs := testing.AllocsPerRun(200, func() {
				c, _ := next(x)
				a.Step(x, c)
			})
			if allocs != 0 {
				t.Errorf("%s/%s: %v allocations per step", tc.name, o, allocs)
			}
		}
	}
}
