package experiments

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/td"
)

// syntheticCases are end-to-end configurations at the Atari benchmark's 275
// inputs, run on a synthetic stream (see syntheticStream) so that they time
// the learner, TD(λ) and the optimizer rather than an environment.
var syntheticCases = []endToEnd{
	{"atari_ccn15x5", RunConfig{Method: arch.MethodCCN, Features: 15, FeaturesPerStage: 5}},
	{"atari_columnar6", RunConfig{Method: arch.MethodColumnar, Features: 6}},
	{"atari_tbptt_h7_k5", RunConfig{Method: arch.MethodTBPTT, Hidden: 7, Truncation: 5}},
	{"atari_linear", RunConfig{Method: arch.MethodLinear}},
}

// syntheticInputs is the input size of the Atari benchmark's feature vector.
const syntheticInputs = 275

// syntheticStream cycles through 1,024 frames of 275 binary inputs (each 1
// with probability 0.1, from a fixed PCG seed); the cumulant is the first
// input. Copying a stored frame costs far less than a learner step.
type syntheticStream struct {
	frames [][]float64
	t      int
}

func newSyntheticStream() *syntheticStream {
	rng := rand.New(rand.NewPCG(11, 12))
	s := &syntheticStream{frames: make([][]float64, 1024)}
	for i := range s.frames {
		f := make([]float64, syntheticInputs)
		for k := range f {
			if rng.Float64() < 0.1 {
				f[k] = 1
			}
		}
		s.frames[i] = f
	}
	return s
}

func (s *syntheticStream) Next(x []float64) float64 {
	f := s.frames[s.t&1023]
	s.t++
	copy(x, f)
	return f[0]
}

// newSyntheticAgent returns a started agent for cfg at 275 inputs, a network
// learner moved to its last stage.
func newSyntheticAgent(tb testing.TB, cfg RunConfig) (*td.Agent[float64], *syntheticStream) {
	r := resolveSynthetic(tb, cfg)
	l, layout, opt := r.NewLearner(syntheticInputs)
	return startSynthetic(lastStageAgent(l, layout, opt, r.Config()))
}

// newSyntheticAgent32 is newSyntheticAgent for the float32 engine.
func newSyntheticAgent32(tb testing.TB, cfg RunConfig) (*td.Agent[float32], *syntheticStream) {
	cfg.Float32 = true
	r := resolveSynthetic(tb, cfg)
	l, layout, opt := r.NewLearner32(syntheticInputs)
	return startSynthetic(lastStageAgent(l, layout, opt, r.Config()))
}

// resolveSynthetic resolves cfg, failing tb if it is invalid.
func resolveSynthetic(tb testing.TB, cfg RunConfig) Resolved {
	r, err := cfg.Resolve()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// startSynthetic starts a on the first frame of a new synthetic stream.
func startSynthetic[T arch.Float](a *td.Agent[T]) (*td.Agent[T], *syntheticStream) {
	s := newSyntheticStream()
	x := make([]float64, syntheticInputs)
	s.Next(x)
	a.Start(x)
	return a, s
}

// benchmarkSynthetic times a step (stream, learner, TD(λ), optimizer) of
// each case's agent from newAgent.
func benchmarkSynthetic[T arch.Float](b *testing.B, cases []endToEnd, newAgent func(testing.TB, RunConfig) (*td.Agent[T], *syntheticStream)) {
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			a, s := newAgent(b, tc.cfg)
			x := make([]float64, syntheticInputs)
			b.ReportAllocs()
			for b.Loop() {
				a.Step(x, s.Next(x))
			}
		})
	}
}

// assertSyntheticZeroAllocs fails t for each case whose agent from newAgent
// allocates in a step.
func assertSyntheticZeroAllocs[T arch.Float](t *testing.T, cases []endToEnd, newAgent func(testing.TB, RunConfig) (*td.Agent[T], *syntheticStream)) {
	for _, tc := range cases {
		a, s := newAgent(t, tc.cfg)
		x := make([]float64, syntheticInputs)
		if allocs := testing.AllocsPerRun(50, func() { a.Step(x, s.Next(x)) }); allocs != 0 {
			t.Errorf("%s (%T): %v allocations per step", tc.name, *new(T), allocs)
		}
	}
}

// BenchmarkEndToEnd275 is BenchmarkEndToEnd for the Atari configurations.
func BenchmarkEndToEnd275(b *testing.B) { benchmarkSynthetic(b, syntheticCases, newSyntheticAgent) }

func TestEndToEnd275ZeroAllocs(t *testing.T) {
	assertSyntheticZeroAllocs(t, syntheticCases, newSyntheticAgent)
	assertSyntheticZeroAllocs(t, syntheticCases32, newSyntheticAgent32)
}

// syntheticCases32 are the configurations of the float32 engine
// (docs/performance.md, "The float32 engine") in BenchmarkEndToEnd275Float32.
var syntheticCases32 = syntheticCases[:2] // CCN 15 (5 per stage), Columnar 6

// BenchmarkEndToEnd275Float32 is BenchmarkEndToEnd275 for the float32
// engine: the same configurations, learner, stream and steps.
func BenchmarkEndToEnd275Float32(b *testing.B) {
	benchmarkSynthetic(b, syntheticCases32, newSyntheticAgent32)
}
