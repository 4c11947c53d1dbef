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
	"github.com/ccn-go/ccn/forward"
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
	// Draws is the number of independent UORO estimates of every
	// trajectory's gradient (UORO is random). If 0: 20.
	Draws int
	// Timing is the wall time of one timed run of an estimator's Step and
	// Grad, of which the median of three is kept. If 0: 50ms.
	Timing time.Duration
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
	def(&c.Draws, 20)
	if c.Timing == 0 {
		c.Timing = 50 * time.Millisecond
	}
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
	case c.MaxK < 1 || c.Points < 1 || c.Seeds < 1 || c.Steps < 1 || c.Span < 1 || c.Draws < 1 || c.Scale < 0 || c.Timing < 0:
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

// BiasPoint is the error of one gradient estimator of networks with Hidden
// units (Params parameters) against the exact gradient: mean and standard
// error of the relative error and of the cosine similarity over Samples
// trajectories from Seeds seeds, and the estimator's cost per step.
//
// Method is arch.MethodTBPTT (truncated at K), arch.MethodSnAp1,
// arch.MethodUORO or arch.MethodRTRL (dense exact RTRL, a third witness of the
// exact gradient: its error is rounding). K is 0 except for T-BPTT. UORO is
// random: each trajectory's gradient is estimated Draws times (1 for the
// others), RelErr and Cos are the means over trajectories of each
// trajectory's mean over draws, RelErrSE and CosSE their standard errors over
// trajectories, and RelErrSD and CosSD the spread over draws, the root mean
// over trajectories of the variance over draws (0 for the deterministic
// estimators).
//
// Ops is the estimator's own count of the arithmetic operations of one Step
// and Grad in steady state (OpsPerStep of packages backward and forward; the
// two count nonlinearities differently, see there), Nanos the measured wall
// time of one Step and Grad in nanoseconds, median of three timed runs.
type BiasPoint struct {
	Method   arch.Method
	Hidden   int
	Params   int
	K        int
	Draws    int
	RelErr   float64
	RelErrSE float64
	RelErrSD float64
	Cos      float64
	CosSE    float64
	CosSD    float64
	Samples  int
	Seeds    int
	Ops      int
	Nanos    float64
}

// GradientBias runs the gradient-bias study. For each H and seed it draws a
// network from U(−Scale, Scale) and a trace patterning stream, and for each
// of Points trajectories of Steps steps at random offsets compares the
// estimates of the gradient of the last prediction, k-truncated (k =
// 1..MaxK), SnAp-1, UORO (Draws times) and dense RTRL, with the exact gradient
// of full BPTT over the trajectory from the reference; then it times every
// estimator on the last seed's network. Points are ordered by H, then T-BPTT
// by k, SnAp-1, UORO, RTRL. It panics if cfg is not valid (Validate); errors
// come from the reference, or from a disagreement between the reference and
// an exact engine (full BPTT, dense RTRL).
func GradientBias(cfg BiasConfig) ([]BiasPoint, error) {
	if err := cfg.Validate(); err != nil {
		panic(err.Error())
	}
	cfg = cfg.withDefaults()
	ref := reference.New()
	var out []BiasPoint
	for _, hid := range cfg.Hidden {
		shape := arch.Dense{Hidden: hid, Inputs: inputs}
		probe := NewProbe(ref, shape, cfg.MaxK, cfg.Draws, uint64(hid))
		m := probe.NewMeasurement()
		// Per estimator (T-BPTT at k in 1..MaxK, then snapIdx, uoroIdx,
		// rtrlIdx): per trajectory relative errors and cosines (UORO: means
		// over draws), and for UORO the variances over draws.
		snapIdx, uoroIdx, rtrlIdx := cfg.MaxK+1, cfg.MaxK+2, cfg.MaxK+3
		rel := make([][]float64, cfg.MaxK+4)
		cos := make([][]float64, cfg.MaxK+4)
		var relVar, cosVar []float64
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
				if err := probe.Measure(m, params, stream[off:off+cfg.Steps]); err != nil {
					return nil, fmt.Errorf("truncation: H=%d seed %d offset %d: %w", hid, seed, off, err)
				}
				for k := 1; k <= cfg.MaxK; k++ {
					rel[k] = append(rel[k], m.Rel[k])
					cos[k] = append(cos[k], m.Cos[k])
				}
				rel[snapIdx], cos[snapIdx] = append(rel[snapIdx], m.SnAp1Rel), append(cos[snapIdx], m.SnAp1Cos)
				rel[rtrlIdx], cos[rtrlIdx] = append(rel[rtrlIdx], m.RTRLRel), append(cos[rtrlIdx], m.RTRLCos)
				mr, vr := meanVar(m.UORORel)
				mc, vc := meanVar(m.UOROCos)
				rel[uoroIdx], cos[uoroIdx] = append(rel[uoroIdx], mr), append(cos[uoroIdx], mc)
				relVar, cosVar = append(relVar, vr), append(cosVar, vc)
			}
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "truncation: gradient bias H=%d seed %d/%d: %d trajectories in %.1fs\n",
					hid, seed, cfg.Seeds, cfg.Points, time.Since(start).Seconds())
			}
		}
		ops, nanos := probe.Cost(params, cfg.Timing)
		point := func(method arch.Method, k, idx, draws int) BiasPoint {
			p := BiasPoint{Method: method, Hidden: hid, Params: shape.NumParams(), K: k, Draws: draws,
				Samples: len(rel[idx]), Seeds: cfg.Seeds, Ops: ops[idx], Nanos: nanos[idx]}
			p.RelErr, p.RelErrSE = stats.MeanSE(rel[idx])
			p.Cos, p.CosSE = stats.MeanSE(cos[idx])
			return p
		}
		for k := 1; k <= cfg.MaxK; k++ {
			out = append(out, point(arch.MethodTBPTT, k, k, 1))
		}
		out = append(out, point(arch.MethodSnAp1, 0, snapIdx, 1))
		u := point(arch.MethodUORO, 0, uoroIdx, cfg.Draws)
		u.RelErrSD, u.CosSD = math.Sqrt(mean(relVar)), math.Sqrt(mean(cosVar))
		out = append(out, u)
		out = append(out, point(arch.MethodRTRL, 0, rtrlIdx, 1))
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "truncation: gradient bias H=%d: estimators timed\n", hid)
		}
	}
	return out, nil
}

// Probe measures the errors of the gradient estimators of one dense shape on
// one trajectory at a time: T-BPTT for k = 1..MaxK, SnAp-1, UORO and dense
// RTRL.
type Probe struct {
	ref   *reference.Reference
	shape arch.Dense
	// engines[k] truncates at k; engines[0] is full BPTT, a second witness of
	// the exact gradient, so a wrong reference cannot pass as a bias of
	// T-BPTT.
	engines []*backward.TBPTT
	snap    *forward.SnAp1
	uoro    *forward.UORO
	rtrl    *forward.DenseRTRL
	draws   int
	g       []float64
}

// NewProbe returns a probe of shape for k = 1..maxK and draws UORO estimates
// per trajectory (signs from a generator seeded with seed) that takes its
// exact gradients from ref. It panics if maxK or draws is below 1.
func NewProbe(ref *reference.Reference, shape arch.Dense, maxK, draws int, seed uint64) *Probe {
	shape.Validate()
	if maxK < 1 || draws < 1 {
		panic(fmt.Sprintf("truncation: probe up to k = %d with %d UORO draws", maxK, draws))
	}
	p := &Probe{ref: ref, shape: shape, engines: make([]*backward.TBPTT, maxK+1), g: make([]float64, shape.NumParams()),
		snap: forward.NewSnAp1(shape), uoro: forward.NewUORO(shape, seed), rtrl: forward.NewDenseRTRL(shape), draws: draws}
	for k := range p.engines {
		p.engines[k] = backward.NewTBPTT(shape, k)
	}
	return p
}

// Measurement holds what Probe.Measure finds on one trajectory.
type Measurement struct {
	// Rel[k] and Cos[k] are the relative error and cosine similarity of the
	// k-truncated gradient, k = 1..maxK (index 0 unused).
	Rel, Cos []float64
	// Those of SnAp-1 and dense RTRL.
	SnAp1Rel, SnAp1Cos float64
	RTRLRel, RTRLCos   float64
	// Those of each UORO draw.
	UORORel, UOROCos []float64
}

// NewMeasurement returns a measurement sized for p.
func (p *Probe) NewMeasurement() *Measurement {
	n := len(p.engines)
	return &Measurement{Rel: make([]float64, n), Cos: make([]float64, n),
		UORORel: make([]float64, p.draws), UOROCos: make([]float64, p.draws)}
}

// Measure writes into m the relative errors and cosine similarities of the
// estimates of the gradient of y_T, T = len(xs), against the exact gradient
// of the reference, all from zero state at the start of xs. It returns an
// error when the reference fails, when its gradient is zero or not finite, or
// when full BPTT or dense RTRL disagrees with it beyond rounding. It panics
// if m was not made by p.NewMeasurement.
func (p *Probe) Measure(m *Measurement, params []float64, xs [][]float64) error {
	if len(m.Rel) != len(p.engines) || len(m.Cos) != len(p.engines) || len(m.UORORel) != p.draws || len(m.UOROCos) != p.draws {
		panic(fmt.Sprintf("truncation: measurement of %d truncations and %d draws for a probe of %d and %d",
			len(m.Rel)-1, len(m.UORORel), len(p.engines)-1, p.draws))
	}
	_, exact, err := p.ref.Dense(p.shape, params, xs, nil)
	if err != nil {
		return fmt.Errorf("exact gradient: %w", err)
	}
	// run runs e over xs from zero state and compares its gradient.
	run := func(e arch.Engine, reset func()) (float64, float64, error) {
		copy(e.Params(), params)
		reset()
		for _, x := range xs {
			e.Step(x)
		}
		e.Grad(p.g)
		r, c := compareGrads(p.g, exact)
		if math.IsInf(r, 0) || math.IsNaN(r) || math.IsNaN(c) {
			return 0, 0, errors.New("exact gradient is zero or not finite")
		}
		return r, c, nil
	}
	for k, e := range p.engines {
		r, c, err := run(e, e.Reset)
		switch {
		case err != nil:
			return err
		case k == 0 && r > fullTol:
			return fmt.Errorf("reference and full BPTT disagree over T=%d steps (relative difference %.3g)", len(xs), r)
		case k > 0:
			m.Rel[k], m.Cos[k] = r, c
		}
	}
	if m.RTRLRel, m.RTRLCos, err = run(p.rtrl, p.rtrl.Reset); err != nil {
		return err
	}
	if m.RTRLRel > fullTol {
		return fmt.Errorf("reference and dense RTRL disagree over T=%d steps (relative difference %.3g)", len(xs), m.RTRLRel)
	}
	if m.SnAp1Rel, m.SnAp1Cos, err = run(p.snap, p.snap.Reset); err != nil {
		return err
	}
	for d := range p.draws {
		// Reset does not reseed: successive runs are independent draws.
		if m.UORORel[d], m.UOROCos[d], err = run(p.uoro, p.uoro.Reset); err != nil {
			return err
		}
	}
	return nil
}

// Cost returns the operation counts and measured nanoseconds per step (Step
// then Grad, median of three runs of at least d each) of p's estimators with
// parameters params, indexed as the gradient-bias study indexes them: k =
// 1..maxK for T-BPTT (index 0 unused), then SnAp-1, UORO and dense RTRL.
func (p *Probe) Cost(params []float64, d time.Duration) (ops []int, nanos []float64) {
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 1), 1024)
	maxK := len(p.engines) - 1
	ops, nanos = make([]int, maxK+4), make([]float64, maxK+4)
	time1 := func(i int, e arch.Engine, reset func(), warm int) {
		copy(e.Params(), params)
		reset()
		nanos[i] = 1e3 * timePerStep(e, xs, warm, d, 3)
	}
	for k := 1; k <= maxK; k++ {
		e := p.engines[k]
		time1(k, e, e.Reset, k)
		ops[k] = e.OpsPerStep()
	}
	time1(maxK+1, p.snap, p.snap.Reset, 1)
	ops[maxK+1] = p.snap.OpsPerStep()
	time1(maxK+2, p.uoro, p.uoro.Reset, 1)
	ops[maxK+2] = p.uoro.OpsPerStep()
	time1(maxK+3, p.rtrl, p.rtrl.Reset, 1)
	ops[maxK+3] = p.rtrl.OpsPerStep()
	return ops, nanos
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
