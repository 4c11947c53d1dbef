package truncation

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/forward"
)

// CostConfig configures the cost measurement. Zero fields take the defaults
// written in their comments.
type CostConfig struct {
	// Features are the feature counts of Columnar and CCN networks. If nil:
	// 4, 8, 16, 32, 64, 128.
	Features []int
	// Hidden are the T-BPTT LSTM sizes. If nil: 2, 4, 8, 16, 32, 64.
	Hidden []int
	// RTRLHidden are the dense exact RTRL sizes (cost O(H⁴) per step). If
	// nil: 2, 4, 8, 16, 24.
	RTRLHidden []int
	// Ks are the T-BPTT truncation lengths. If nil: 1, 10, 30.
	Ks []int
	// PerStage is the number of features per CCN stage. If 0: 4.
	PerStage int
	// Duration is the wall time of one timed run. If 0: 200ms.
	Duration time.Duration
	// Repeats is the number of timed runs of which the median is kept. If
	// 0: 3.
	Repeats int
	// Progress, if not nil, receives one line per measurement.
	Progress io.Writer
}

func (c CostConfig) withDefaults() CostConfig {
	if c.Features == nil {
		c.Features = []int{4, 8, 16, 32, 64, 128}
	}
	if c.Hidden == nil {
		c.Hidden = []int{2, 4, 8, 16, 32, 64}
	}
	if c.RTRLHidden == nil {
		c.RTRLHidden = []int{2, 4, 8, 16, 24}
	}
	if c.Ks == nil {
		c.Ks = []int{1, 10, 30}
	}
	if c.PerStage == 0 {
		c.PerStage = 4
	}
	if c.Duration == 0 {
		c.Duration = 200 * time.Millisecond
	}
	if c.Repeats == 0 {
		c.Repeats = 3
	}
	return c
}

// Validate reports whether cfg, after zero fields take their defaults, can
// be measured: every size, k and count at least 1, a positive duration.
func (c CostConfig) Validate() error {
	c = c.withDefaults()
	for _, v := range slices.Concat(c.Features, c.Hidden, c.RTRLHidden, c.Ks, []int{c.PerStage, c.Repeats}) {
		if v < 1 {
			return fmt.Errorf("truncation: size, k or count %d in cost configuration", v)
		}
	}
	if c.Duration < 0 {
		return fmt.Errorf("truncation: negative timing duration %v", c.Duration)
	}
	return nil
}

// CostPoint is the measured cost of one learner: the median over repeats of
// the wall time of Step followed by Grad, in microseconds.
type CostPoint struct {
	Method arch.Method // arch.MethodColumnar, arch.MethodCCN, arch.MethodTBPTT or arch.MethodRTRL
	Label  string      // e.g. "T-BPTT k=10"; points with one label form a series
	Size   int         // features (Columnar, CCN) or hidden units (T-BPTT, RTRL)
	Params int         // every parameter of the network, frozen ones included
	Micros float64
}

// Cost measures the cost per step of every configured learner, on
// observations of the trace patterning stream. Learners start from random
// parameters; each runs long enough to fill its history (T-BPTT's window)
// before it is timed.
func Cost(cfg CostConfig) []CostPoint {
	if err := cfg.Validate(); err != nil {
		panic(err.Error())
	}
	cfg = cfg.withDefaults()
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 1), 1024)
	rng := rand.New(rand.NewPCG(1, 1))
	var out []CostPoint
	measure := func(method arch.Method, label string, size, params int, l arch.Engine, warm int) {
		us := timePerStep(l, xs, warm, cfg.Duration, cfg.Repeats)
		out = append(out, CostPoint{Method: method, Label: label, Size: size, Params: params, Micros: us})
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "truncation: cost %-22s size %4d: %7d params, %10.2f µs/step\n", label, size, params, us)
		}
	}
	for _, d := range cfg.Features {
		n := forward.NewNetwork(forward.NetworkConfig{Inputs: inputs, FeaturesPerStage: d, MaxFeatures: d, Seed: 1})
		randomize(rng, n.Params())
		measure(arch.MethodColumnar, "Columnar RTRL", d, n.NumParams(), n, 1)
	}
	for _, d := range cfg.Features {
		if d < cfg.PerStage {
			continue
		}
		n := forward.NewNetwork(forward.NetworkConfig{Inputs: inputs, FeaturesPerStage: cfg.PerStage, MaxFeatures: d, Seed: 1})
		for n.Features() < d {
			n.AdvanceStage()
		}
		randomize(rng, n.Params())
		label := fmt.Sprintf("CCN (%d per stage)", cfg.PerStage)
		measure(arch.MethodCCN, label, d, len(n.Frozen())+n.NumParams(), n, 1)
	}
	for _, k := range cfg.Ks {
		for _, h := range cfg.Hidden {
			e := backward.NewTBPTT(arch.Dense{Hidden: h, Inputs: inputs}, k)
			randomize(rng, e.Params())
			measure(arch.MethodTBPTT, fmt.Sprintf("T-BPTT k=%d", k), h, e.NumParams(), e, k)
		}
	}
	for _, h := range cfg.RTRLHidden {
		e := forward.NewDenseRTRL(arch.Dense{Hidden: h, Inputs: inputs})
		randomize(rng, e.Params())
		measure(arch.MethodRTRL, "dense exact RTRL", h, e.NumParams(), e, 1)
	}
	return out
}

// randomize fills p from U(−0.5, 0.5): the cost of a step does not depend on
// the values, but saturated or zero states are not representative.
func randomize(rng *rand.Rand, p []float64) {
	for i := range p {
		p[i] = rng.Float64() - 0.5
	}
}

// timePerStep runs warm steps of l, then repeats times runs Step and Grad on
// the inputs xs (cycled) for at least d, and returns the median of the mean
// microseconds per step of the runs.
func timePerStep(l arch.Engine, xs [][]float64, warm int, d time.Duration, repeats int) float64 {
	g := make([]float64, l.NumParams())
	t := 0
	step := func() {
		l.Step(xs[t%len(xs)])
		l.Grad(g)
		t++
	}
	for range warm {
		step()
	}
	runs := make([]float64, repeats)
	for r := range runs {
		n := 0
		start := time.Now()
		for {
			// Check the clock every few steps only: time.Since is not free
			// next to the step of a small network.
			for range 8 {
				step()
			}
			n += 8
			if el := time.Since(start); el >= d {
				runs[r] = el.Seconds() * 1e6 / float64(n)
				break
			}
		}
	}
	slices.Sort(runs)
	return runs[len(runs)/2]
}
