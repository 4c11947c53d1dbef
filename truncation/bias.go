package truncation

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/reference"
)

// BiasConfig configures the gradient-bias study. Zero fields take the
// defaults written in their comments.
type BiasConfig struct {
	// Hidden are the LSTM sizes H studied. If nil: 2, 4, 10.
	Hidden []int
	// MaxK is the largest truncation length; k runs over 1..MaxK. If 0: 60.
	MaxK int
	// Steps is the length T of every trajectory; the gradient compared is the
	// one of y_T. One length for every trajectory, so the reference compiles
	// one graph per H. If 0: 120. It must exceed MaxK.
	Steps int
	// Points is the number of trajectories (time points) per seed. If 0: 40.
	Points int
	// Seeds is the number of networks and streams per H. If 0: 10.
	Seeds int
	// Span is the length of the stretch of stream the trajectories are drawn
	// from, at uniform random offsets. If 0: 20,000 steps.
	Span int
	// Scale is the half-width s of the uniform distribution U(−s, s) of every
	// parameter of the fixed networks. If 0: 1.
	Scale float64
	// ForgetBias is added to every forget-gate bias: a positive value gives
	// the networks longer memory (f = σ(a_f) closer to 1), as learning on
	// trace patterning would. 0 means none.
	ForgetBias float64
	// Progress, if not nil, receives one line per (H, seed).
	Progress io.Writer
}

func (c BiasConfig) withDefaults() BiasConfig {
	if c.Hidden == nil {
		c.Hidden = []int{2, 4, 10}
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MaxK, 60)
	def(&c.Steps, 120)
	def(&c.Points, 40)
	def(&c.Seeds, 10)
	def(&c.Span, 20000)
	if c.Scale == 0 {
		c.Scale = 1
	}
	return c
}

// Validate reports whether cfg, after zero fields take their defaults,
// describes a study that can run.
func (c BiasConfig) Validate() error {
	c = c.withDefaults()
	switch {
	case len(c.Hidden) == 0:
		return errors.New("truncation: no hidden sizes")
	case c.MaxK < 1 || c.Points < 1 || c.Seeds < 1 || c.Steps < 1 || c.Span < 1 || c.Scale < 0:
		return fmt.Errorf("truncation: negative or zero size in bias configuration %+v", c)
	case math.IsNaN(c.Scale) || math.IsInf(c.Scale, 0) || math.IsNaN(c.ForgetBias) || math.IsInf(c.ForgetBias, 0):
		return fmt.Errorf("truncation: scale %v or forget bias %v not finite", c.Scale, c.ForgetBias)
	case c.Steps <= c.MaxK:
		return fmt.Errorf("truncation: trajectories of %d steps cannot show k up to %d", c.Steps, c.MaxK)
	case c.Span < c.Steps:
		return fmt.Errorf("truncation: span %d shorter than a trajectory of %d steps", c.Span, c.Steps)
	}
	for _, h := range c.Hidden {
		if h < 1 {
			return fmt.Errorf("truncation: hidden size %d", h)
		}
	}
	return nil
}

// BiasPoint is the bias of the k-truncated gradient of networks with Hidden
// units (Params parameters): mean and standard error of the relative error
// and of the cosine similarity over Samples gradients from Seeds seeds.
type BiasPoint struct {
	Hidden   int
	Params   int
	K        int
	RelErr   float64
	RelErrSE float64
	Cos      float64
	CosSE    float64
	Samples  int
	Seeds    int
}

// GradientBias runs the gradient-bias study. For each H and seed it draws a
// network from U(−Scale, Scale) and a trace patterning stream, and for each
// of Points trajectories of Steps steps at random offsets compares the
// k-truncated gradient of the last prediction (k = 1..MaxK) with the exact
// full-BPTT gradient of the reference. Points are ordered by H, then k. It
// panics if cfg is not valid (Validate); errors come from the reference, or
// from a disagreement between the reference and full BPTT.
func GradientBias(cfg BiasConfig) ([]BiasPoint, error) {
	if err := cfg.Validate(); err != nil {
		panic(err.Error())
	}
	cfg = cfg.withDefaults()
	ref := reference.New()
	var out []BiasPoint
	for _, hid := range cfg.Hidden {
		shape := arch.Dense{Hidden: hid, Inputs: inputs}
		probe := NewProbe(ref, shape, cfg.MaxK)
		rel := make([][]float64, cfg.MaxK+1)
		cos := make([][]float64, cfg.MaxK+1)
		rs, cs := make([]float64, cfg.MaxK+1), make([]float64, cfg.MaxK+1)
		params := make([]float64, shape.NumParams())
		for seed := 1; seed <= cfg.Seeds; seed++ {
			start := time.Now()
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(hid)))
			for i := range params {
				params[i] = cfg.Scale * (2*rng.Float64() - 1)
			}
			for j := range hid {
				params[shape.IdxB(arch.GateF, j)] += cfg.ForgetBias
			}
			stream := record(env.NewTracePatterning(env.TraceConfig{}, uint64(seed)), cfg.Span)
			for range cfg.Points {
				off := rng.IntN(cfg.Span - cfg.Steps + 1)
				if err := probe.Measure(rs, cs, params, stream[off:off+cfg.Steps]); err != nil {
					return nil, fmt.Errorf("truncation: H=%d seed %d offset %d: %w", hid, seed, off, err)
				}
				for k := 1; k <= cfg.MaxK; k++ {
					rel[k] = append(rel[k], rs[k])
					cos[k] = append(cos[k], cs[k])
				}
			}
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "truncation: gradient bias H=%d seed %d/%d: %d trajectories in %.1fs\n",
					hid, seed, cfg.Seeds, cfg.Points, time.Since(start).Seconds())
			}
		}
		for k := 1; k <= cfg.MaxK; k++ {
			p := BiasPoint{Hidden: hid, Params: shape.NumParams(), K: k, Samples: len(rel[k]), Seeds: cfg.Seeds}
			p.RelErr, p.RelErrSE = stats.MeanSE(rel[k])
			p.Cos, p.CosSE = stats.MeanSE(cos[k])
			out = append(out, p)
		}
	}
	return out, nil
}

// Probe measures the bias of the truncated gradients of one dense shape on
// one trajectory at a time, for k = 1..MaxK.
type Probe struct {
	ref   *reference.Reference
	shape arch.Dense
	// engines[k] truncates at k; engines[0] is full BPTT, a second witness of
	// the exact gradient, so a wrong reference cannot pass as a bias of
	// T-BPTT.
	engines []*backward.TBPTT
	g       []float64
}

// NewProbe returns a probe of shape for k = 1..maxK that takes its exact
// gradients from ref.
func NewProbe(ref *reference.Reference, shape arch.Dense, maxK int) *Probe {
	shape.Validate()
	if maxK < 1 {
		panic(fmt.Sprintf("truncation: probe up to k = %d", maxK))
	}
	p := &Probe{ref: ref, shape: shape, engines: make([]*backward.TBPTT, maxK+1), g: make([]float64, shape.NumParams())}
	for k := range p.engines {
		p.engines[k] = backward.NewTBPTT(shape, k)
	}
	return p
}

// Measure writes into rel[k] and cos[k] (k = 1..maxK; index 0 is left alone)
// the relative error and cosine similarity of the k-truncated gradient of
// y_T, T = len(xs), against the exact gradient of the reference, both from
// zero state at the start of xs. It returns an error when the reference
// fails, when its gradient is zero or not finite, or when it disagrees with
// full BPTT beyond rounding. It panics if rel or cos is shorter than maxK+1.
func (p *Probe) Measure(rel, cos, params []float64, xs [][]float64) error {
	if len(rel) < len(p.engines) || len(cos) < len(p.engines) {
		panic(fmt.Sprintf("truncation: %d and %d slots for k up to %d", len(rel), len(cos), len(p.engines)-1))
	}
	_, exact, err := p.ref.Dense(p.shape, params, xs, nil)
	if err != nil {
		return fmt.Errorf("exact gradient: %w", err)
	}
	for k, e := range p.engines {
		copy(e.Params(), params)
		e.Reset()
		for _, x := range xs {
			e.Step(x)
		}
		e.Grad(p.g)
		r, c := compareGrads(p.g, exact)
		switch {
		case math.IsInf(r, 0) || math.IsNaN(r) || math.IsNaN(c):
			return errors.New("exact gradient is zero or not finite")
		case k == 0 && r > fullTol:
			return fmt.Errorf("reference and full BPTT disagree over T=%d steps (relative difference %.3g)", len(xs), r)
		case k > 0:
			rel[k], cos[k] = r, c
		}
	}
	return nil
}

// fullTol is the largest relative difference accepted between the
// reference's exact gradient and full BPTT: both are exact, so only rounding
// separates them.
const fullTol = 1e-8

// inputs is the observation size of the trace patterning task.
const inputs = 12

// record returns the first n observations of e.
func record(e env.Env, n int) [][]float64 {
	m := e.ObservationSize()
	flat := make([]float64, n*m)
	out := make([][]float64, n)
	for t := range out {
		out[t] = flat[t*m : (t+1)*m : (t+1)*m]
		e.Next(out[t])
	}
	return out
}
