package experiments

import (
	"fmt"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env/minatar"
)

// atariCases are the paper's Atari configurations (§5, Table 3) at 275
// inputs, in their last stage: the main comparison's methods with every
// compute-matched T-BPTT pair k:H, and the normalization ablation's CCN.
var atariCases = []endToEnd{
	{"ccn15x5", RunConfig{Method: arch.MethodCCN, Features: 15, FeaturesPerStage: 5}},
	{"columnar6", RunConfig{Method: arch.MethodColumnar, Features: 6}},
	{"constructive10", RunConfig{Method: arch.MethodConstructive, Features: 10}},
	{"tbptt_h2_k15", RunConfig{Method: arch.MethodTBPTT, Hidden: 2, Truncation: 15}},
	{"tbptt_h5_k8", RunConfig{Method: arch.MethodTBPTT, Hidden: 5, Truncation: 8}},
	{"tbptt_h7_k5", RunConfig{Method: arch.MethodTBPTT, Hidden: 7, Truncation: 5}},
	{"tbptt_h10_k4", RunConfig{Method: arch.MethodTBPTT, Hidden: 10, Truncation: 4}},
	{"tbptt_h25_k2", RunConfig{Method: arch.MethodTBPTT, Hidden: 25, Truncation: 2}},
	{"ccn16x4", RunConfig{Method: arch.MethodCCN, Features: 16, FeaturesPerStage: 4}},
}

// newGameAgent returns a started agent for cfg on a game's 275-input stream
// and a step function that plays one step, learns from it and ends the
// episode where the game does.
func newGameAgent(tb testing.TB, cfg RunConfig, game string) func() {
	cfg.Gamma = 0.98
	r, err := cfg.Resolve()
	if err != nil {
		tb.Fatal(err)
	}
	e, err := minatar.New(game, 1, minatar.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	l, layout, opt := r.NewLearner(e.ObservationSize())
	a := lastStageAgent(l, layout, opt, r.Config())
	x := make([]float64, e.ObservationSize())
	e.Next(x)
	a.Start(x)
	return func() {
		c, _ := e.Next(x)
		a.Step(x, c)
		if e.Done() {
			a.EndEpisode()
		}
	}
}

// BenchmarkAtariEndToEnd measures one step of learning on breakout: the game
// (played, drawn, downscaled), the learner's step and gradient, TD(λ) with
// episode ends and the default optimizer.
func BenchmarkAtariEndToEnd(b *testing.B) {
	for _, tc := range atariCases {
		b.Run(tc.name, func(b *testing.B) { benchmarkGame(b, tc.cfg) })
	}
}

// BenchmarkAtariCapacity is BenchmarkAtariEndToEnd for the networks of the
// Atari capacity study (§5, Figure 11): T-BPTT with k = 8 and H = 2..15, and
// with H = 8 and k = 2..15 (k = 8, H = 8 once).
func BenchmarkAtariCapacity(b *testing.B) {
	for h := 2; h <= 15; h++ {
		b.Run(fmt.Sprintf("tbptt_h%d_k8", h), func(b *testing.B) {
			benchmarkGame(b, RunConfig{Method: arch.MethodTBPTT, Hidden: h, Truncation: 8})
		})
	}
	for k := 2; k <= 15; k++ {
		if k == 8 {
			continue
		}
		b.Run(fmt.Sprintf("tbptt_h8_k%d", k), func(b *testing.B) {
			benchmarkGame(b, RunConfig{Method: arch.MethodTBPTT, Hidden: 8, Truncation: k})
		})
	}
}

// benchmarkGame times steps of cfg learning on breakout.
func benchmarkGame(b *testing.B, cfg RunConfig) {
	step := newGameAgent(b, cfg, "breakout")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		step()
	}
}

func TestAtariEndToEndZeroAllocs(t *testing.T) {
	for _, tc := range atariCases {
		step := newGameAgent(t, tc.cfg, "seaquest")
		for range 2000 {
			step()
		}
		if allocs := testing.AllocsPerRun(200, step); allocs != 0 {
			t.Errorf("%s: %v allocations per step", tc.name, allocs)
		}
	}
}
