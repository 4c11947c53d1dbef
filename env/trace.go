package env

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Observation layout of the trace patterning task.
const (
	// CSSize is the number of conditioned-stimulus bits, at indices 0 to CSSize−1.
	CSSize = 6
	// USIndex is the index of the unconditioned stimulus, which is also the cumulant.
	USIndex = 6
	// DistractorStart is the index of the first distractor bit.
	DistractorStart = 7

	// NumPatterns is the number of distinct CS patterns: three of the six CS
	// bits on, C(6,3) = 20.
	NumPatterns = 20
	// NumRewarded is the number of patterns followed by a US.
	NumRewarded = 10
)

// TraceConfig configures the trace patterning task. The zero value is the
// paper's setting (§4), DefaultTraceConfig.
type TraceConfig struct {
	// ISIMin is the smallest inter-stimulus interval, the number of steps
	// from a CS to its US. Zero means 24.
	ISIMin int
	// ISIMax is the largest inter-stimulus interval. Zero means 36.
	ISIMax int
	// ITIMin is the smallest inter-trial interval, the number of steps from
	// a US (or the step a US would have come) to the next CS. Zero means 80.
	ITIMin int
	// ITIMax is the largest inter-trial interval. Zero means 120.
	ITIMax int
	// Distractors is the number of distractor bits. Zero means 5.
	Distractors int
	// Gamma is the discount γ of the return, in [0, 1). Zero means 0.9.
	Gamma float64
}

// DefaultTraceConfig returns the paper's setting of trace patterning (§4):
// ISI in [24, 36], ITI in [80, 120], 5 distractors, γ = 0.9. Zero fields of
// a TraceConfig take these values; this is the one place they are written.
func DefaultTraceConfig() TraceConfig {
	return TraceConfig{ISIMin: 24, ISIMax: 36, ITIMin: 80, ITIMax: 120, Distractors: 5, Gamma: 0.9}
}

// WithDefaults returns cfg with zero fields replaced by DefaultTraceConfig.
func (cfg TraceConfig) WithDefaults() TraceConfig {
	d := DefaultTraceConfig()
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.ISIMin, d.ISIMin)
	def(&cfg.ISIMax, d.ISIMax)
	def(&cfg.ITIMin, d.ITIMin)
	def(&cfg.ITIMax, d.ITIMax)
	def(&cfg.Distractors, d.Distractors)
	if cfg.Gamma == 0 {
		cfg.Gamma = d.Gamma
	}
	return cfg
}

// ObservationSize returns the length of the task's observations: the CS
// bits, the US and the distractors (zero Distractors takes its default).
func (cfg TraceConfig) ObservationSize() int {
	d := cfg.Distractors
	if d == 0 {
		d = DefaultTraceConfig().Distractors
	}
	return DistractorStart + d
}

// Validate reports whether cfg, after zero fields take their defaults,
// describes a valid task: no negative field, every minimum at most its
// maximum, γ in [0, 1).
func (cfg TraceConfig) Validate() error {
	if cfg.ISIMin < 0 || cfg.ISIMax < 0 || cfg.ITIMin < 0 || cfg.ITIMax < 0 || cfg.Distractors < 0 {
		return fmt.Errorf("env: negative trace patterning parameter in %+v", cfg)
	}
	d := cfg.WithDefaults()
	switch {
	case d.ISIMin > d.ISIMax:
		return fmt.Errorf("env: ISI minimum %d above maximum %d", d.ISIMin, d.ISIMax)
	case d.ITIMin > d.ITIMax:
		return fmt.Errorf("env: ITI minimum %d above maximum %d", d.ITIMin, d.ITIMax)
	case !(d.Gamma >= 0 && d.Gamma < 1):
		return fmt.Errorf("env: gamma %v outside [0, 1)", d.Gamma)
	}
	return nil
}

// trial is one CS presentation and what follows it.
type trial struct {
	cs      int64 // step of the CS
	us      int64 // step of the US, or −1 when the pattern is not rewarded
	next    int64 // step of the next trial's CS
	pattern int   // index into TracePatterning.patterns
}

// TracePatterning is the trace patterning task (paper §4; docs/equations.md lists what the paper leaves open).
//
// Timing convention, with steps t = 0, 1, 2, …: the stream starts with an
// inter-trial interval, as if a trial had ended without US at step 0, so the
// first CS is at step ITI₀. A trial whose CS is at step s has its US (when
// its pattern is rewarded) at step s + ISI, and the next CS at step
// s + ISI + ITI, with ISI and ITI drawn uniformly per trial:
//
//	t:   s        s+ISI           s+ISI+ITI
//	     CS ····· US (or none) ·· next CS
//
// Observation: indices 0-5 the CS (three bits on at a CS step, all off
// otherwise), index 6 the US, which is also the cumulant c_t, indices 7… the
// distractors; distractor k = 1…D is on at each step independently with
// probability 1/(10k).
//
// The return G_t = Σ_{j>t} γ^(j−t−1)·c_j is exact to float64 rounding: the
// trial schedule is generated ahead of the observations far enough that the
// part of the sum not yet generated is below 2⁻⁶⁰ relative to G_t (or below
// 2⁻⁶⁰ absolutely when no US lies within the horizon).
type TracePatterning struct {
	cfg TraceConfig

	patterns [NumPatterns][CSSize]bool
	rewarded [NumPatterns]bool
	// distractorP[k−1] is the probability that distractor k is on.
	distractorP []float64

	// trials draws the schedule (patterns, ISI, ITI); noise draws the
	// distractors. Two streams keep the observations independent of how far
	// ahead the schedule is generated.
	trials, noise *rand.Rand

	// horizon H is the smallest integer with γ^H/(1−γ) ≤ 2⁻⁶⁰.
	horizon int64
	// powers[k] is math.Pow(γ, k), for the exponents the returns take (up
	// to the span of the trial buffer, at most maxPowers of them).
	powers []float64

	// ring holds the generated trials whose next CS is after the current
	// step, oldest first.
	ring       []trial
	head, size int
	// nextCS is the CS step of the next trial to generate: every event
	// before it is known.
	nextCS int64

	// usFrom and usSum cache Σ_u γ^(u−usFrom) over the pending US steps u;
	// usSum is stale when usFrom < 0.
	usFrom int64
	usSum  float64

	t int64 // step of the next call to Next
}

var _ Named = (*TracePatterning)(nil)

// NewTracePatterning returns the trace patterning stream for cfg (zero fields
// take the paper's defaults) and seed. It panics if cfg is invalid (see
// TraceConfig.Validate).
func NewTracePatterning(cfg TraceConfig, seed uint64) *TracePatterning {
	if err := cfg.Validate(); err != nil {
		panic(err.Error())
	}
	cfg = cfg.WithDefaults()
	e := &TracePatterning{
		cfg:         cfg,
		distractorP: make([]float64, cfg.Distractors),
		trials:      rand.New(rand.NewPCG(seed, 0x7472_6961_6c73)), // "trials"
		noise:       rand.New(rand.NewPCG(seed, 0x6e6f_6973_65)),   // "noise"
		usFrom:      -1,
	}
	for k := range e.distractorP {
		e.distractorP[k] = 1 / (10 * float64(k+1))
	}

	n := 0
	for a := 0; a < CSSize; a++ {
		for b := a + 1; b < CSSize; b++ {
			for c := b + 1; c < CSSize; c++ {
				e.patterns[n][a], e.patterns[n][b], e.patterns[n][c] = true, true, true
				n++
			}
		}
	}
	order := [NumPatterns]int{}
	for i := range order {
		order[i] = i
	}
	e.trials.Shuffle(NumPatterns, func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, p := range order[:NumRewarded] {
		e.rewarded[p] = true
	}

	e.horizon = horizon(cfg.Gamma)
	// Generation keeps nextCS ≤ t + 2H + ISIMax + maxTrial (see generate),
	// and the ring holds trials whose next CS is after t.
	minTrial := int64(cfg.ISIMin + cfg.ITIMin)
	maxTrial := int64(cfg.ISIMax + cfg.ITIMax)
	span := 2*e.horizon + int64(cfg.ISIMax) + 2*maxTrial
	e.ring = make([]trial, span/minTrial+4)

	e.nextCS = int64(cfg.ITIMin + e.trials.IntN(cfg.ITIMax-cfg.ITIMin+1))
	e.powers = make([]float64, min(span+1, maxPowers))
	for k := range e.powers {
		e.powers[k] = math.Pow(cfg.Gamma, float64(k))
	}
	return e
}

// maxPowers bounds the table of powers of γ (32 kB).
const maxPowers = 4096

// pow returns γ^k (k ≥ 0), math.Pow's value: from the table, which saves
// a math.Pow per step (5% of a Columnar 7 step of a run), or computed.
func (e *TracePatterning) pow(k int64) float64 {
	if k < int64(len(e.powers)) {
		return e.powers[k]
	}
	return math.Pow(e.cfg.Gamma, float64(k))
}

// horizon returns the smallest H ≥ 1 with γ^H/(1−γ) ≤ 2⁻⁶⁰.
func horizon(gamma float64) int64 {
	if gamma == 0 {
		return 1
	}
	h := math.Ceil((-60*math.Ln2 + math.Log1p(-gamma)) / math.Log(gamma))
	for math.Pow(gamma, h)/(1-gamma) > 0x1p-60 {
		h++
	}
	return max(int64(h), 1)
}

// Config returns the configuration in use, defaults filled in.
func (e *TracePatterning) Config() TraceConfig { return e.cfg }

// Gamma returns the discount of the returns.
func (e *TracePatterning) Gamma() float64 { return e.cfg.Gamma }

// ObservationSize returns 7 + the number of distractors (12 by default).
func (e *TracePatterning) ObservationSize() int { return e.cfg.ObservationSize() }

// ObservationNames returns the names of the observation's entries: cs0 to
// cs5 for the CS bits, us for the US, d1 to dD for the distractors (d_k is on
// with probability 1/(10k)).
func (e *TracePatterning) ObservationNames() []string {
	names := make([]string, 0, e.ObservationSize())
	for i := range CSSize {
		names = append(names, fmt.Sprintf("cs%d", i))
	}
	names = append(names, "us")
	for k := 1; k <= e.cfg.Distractors; k++ {
		names = append(names, fmt.Sprintf("d%d", k))
	}
	return names
}

// Next writes x_t into dst and returns c_t and G_t. It panics if
// len(dst) != ObservationSize(). It does not allocate.
func (e *TracePatterning) Next(dst []float64) (cumulant, ret float64) {
	if len(dst) != e.ObservationSize() {
		panic(fmt.Sprintf("env: observation length %d, want %d", len(dst), e.ObservationSize()))
	}
	t := e.t
	for e.size > 0 && e.ring[e.head].next <= t {
		e.pop()
	}
	e.generate(t)

	clear(dst[:DistractorStart])
	if tr := &e.ring[e.head]; tr.cs == t {
		for i, on := range e.patterns[tr.pattern] {
			if on {
				dst[i] = 1
			}
		}
	} else if tr.us == t {
		dst[USIndex] = 1
		cumulant = 1
	}
	for k, p := range e.distractorP {
		dst[DistractorStart+k] = 0
		if e.noise.Float64() < p {
			dst[DistractorStart+k] = 1
		}
	}

	if u1 := e.firstUS(t); u1 >= 0 {
		if u1 != e.usFrom {
			e.sumUS(u1)
		}
		ret = e.pow(u1-t-1) * e.usSum
	}
	e.t++
	return cumulant, ret
}

// generate draws trials until the schedule is known H steps past the first
// US after t (or past t when none is pending), so that the ungenerated tail
// of G_t is negligible. When it stops, the first pending US u₁ has its CS at
// most t + H (it was drawn while nextCS ≤ t + H, since no earlier US is
// pending), so nextCS ≤ u₁ + H + maxTrial ≤ t + 2H + ISIMax + maxTrial.
func (e *TracePatterning) generate(t int64) {
	for {
		need := t + e.horizon
		if u1 := e.firstUS(t); u1 >= 0 {
			need = u1 + e.horizon
		}
		if e.nextCS > need {
			return
		}
		cfg := &e.cfg
		tr := trial{
			cs:      e.nextCS,
			us:      -1,
			pattern: e.trials.IntN(NumPatterns),
		}
		isi := int64(cfg.ISIMin + e.trials.IntN(cfg.ISIMax-cfg.ISIMin+1))
		iti := int64(cfg.ITIMin + e.trials.IntN(cfg.ITIMax-cfg.ITIMin+1))
		if e.rewarded[tr.pattern] {
			tr.us = tr.cs + isi
			e.usFrom = -1
		}
		tr.next = tr.cs + isi + iti
		e.nextCS = tr.next
		e.push(tr)
	}
}

// firstUS returns the first generated US step after t, or −1. (The ring
// index wraps by a comparison: head < len(ring) and size ≤ len(ring), and
// an integer division per trial was a measurable part of Next.)
func (e *TracePatterning) firstUS(t int64) int64 {
	j, n := e.head, len(e.ring)
	for range e.size {
		if u := e.ring[j].us; u > t {
			return u
		}
		if j++; j == n {
			j = 0
		}
	}
	return -1
}

// sumUS caches Σ_u γ^(u−u1) over the generated US steps u ≥ u1.
func (e *TracePatterning) sumUS(u1 int64) {
	s := 0.0
	for i := 0; i < e.size; i++ {
		if u := e.ring[(e.head+i)%len(e.ring)].us; u >= u1 {
			s += e.pow(u - u1)
		}
	}
	e.usFrom, e.usSum = u1, s
}

func (e *TracePatterning) push(tr trial) {
	if e.size == len(e.ring) {
		panic("env: internal error: trial buffer overflow")
	}
	e.ring[(e.head+e.size)%len(e.ring)] = tr
	e.size++
}

func (e *TracePatterning) pop() {
	e.head = (e.head + 1) % len(e.ring)
	e.size--
}
