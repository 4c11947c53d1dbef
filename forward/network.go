package forward

import (
	"fmt"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/float"
	"github.com/ccn-go/ccn/internal/lanes"
)

// DefaultInitScale is the half-width of the uniform distribution that new
// columns' parameters are drawn from when NetworkConfig.InitScale is 0.
const DefaultInitScale = 0.1

// NetworkConfig configures a Network. Columnar, Constructive and CCN networks
// are three settings of it:
//
//	Columnar d:        FeaturesPerStage = MaxFeatures = d, StepsPerStage = 0
//	Constructive:      FeaturesPerStage = 1
//	CCN:               FeaturesPerStage = u > 1
type NetworkConfig struct {
	// Inputs is the raw input size m ≥ 1.
	Inputs int
	// FeaturesPerStage is the number u ≥ 1 of columns each stage adds.
	FeaturesPerStage int
	// MaxFeatures is the total number of features; no stage is added once it
	// is reached, and the last stage is cut short so as not to exceed it.
	// If 0 it defaults to FeaturesPerStage (a single stage: Columnar).
	MaxFeatures int
	// StepsPerStage is the number of steps after which the learning stage is
	// frozen and a new one added. If 0 stages advance only via AdvanceStage
	// (or AutoFreeze).
	StepsPerStage int
	// AutoFreeze, if set, freezes the learning stage when its features have
	// converged instead of after StepsPerStage steps (which must then be 0).
	AutoFreeze AutoFreeze
	// Norm configures the online normalization of the features (paper §3.4).
	Norm arch.Normalization
	// NormalizeInputs also normalizes the raw inputs with running statistics
	// (the authors' code does; off by default). It uses the decay and ε of
	// Norm, whether or not Norm is enabled, and its statistics are constants
	// for the gradient.
	NormalizeInputs bool
	// FrozenTraces keeps the RTRL traces of the frozen columns too (float64
	// only), so that FrozenGrad can give the gradient of the prediction with
	// respect to the frozen parameters along each column's own recurrence
	// and head weight (frozen features that keep learning slowly: the
	// paper's §6). Off, frozen columns cost the forward pass only (the
	// paper's CCN); on, they cost what learning columns do (OpsPerStep).
	FrozenTraces bool
	// InitScale is the half-width s of the distribution U(-s, s) of every
	// parameter of a new column (weights, recurrent scalars and biases). If 0
	// it defaults to DefaultInitScale. Head weights and bias start at 0.
	InitScale float64
	// Seed seeds the PCG generator that initializes new columns.
	Seed uint64
}

// Network is the float64 network, the engine of every run unless the
// float32 engine is asked for.
type Network = NetworkOf[float64]

// NetworkOf is a Columnar, Constructive or CCN network (paper §3) with
// exact RTRL gradients, its parameters, RTRL traces and the gradient of
// element type T. Under float32 the pre-activations are also computed in
// float32 (from a float32 copy of the normalized inputs and features); the
// states, activations, normalization, head sum and prediction stay float64
// (docs/performance.md, "The float32 engine"). Its topology is an
// arch.Network: stages of columns, the last stage learning and the earlier
// ones frozen. Within a step, stages are
// computed in order; a column of stage s reads
//
//	[x, ĥ of every feature of stages 0..s-1 at the current step]
//
// and the prediction is
//
//	y = Σ_k w_k·ĥ_k + b
//
// with ĥ the normalized features (ĥ = h without normalization). As learning
// columns feed no other column and the statistics of the normalization are
// constants, the gradient of y with respect to the parameters of learning
// column k is w_k·(1/max(ε, σ_k))·∂h_k/∂θ, with ∂h_k/∂θ the column's RTRL trace.
//
// Parameters live in two flat vectors, in the layout of arch.Network: Frozen
// holds the frozen columns, Params the learning columns, the head weights and
// the head bias. Both are read at every step. A stage change (AdvanceStage, or
// Step when StepsPerStage is reached) replaces both vectors: views obtained from
// Params and Frozen must be fetched again after it.
type NetworkOf[T arch.Float] struct {
	// Defect injects a deliberate mistake for tests of the comparison only.
	// Network honours PreviousStepFeatures (float64 only), DropRecurrentTerm
	// (in its learning columns, and its frozen ones with FrozenTraces),
	// RestartStatsAtStage, RestartStateAtStage, Float32StaleInput (float32
	// only), DropFrozenRecurrentTerm and DropFrozenTracesAtStage
	// (FrozenTraces only).
	Defect Defect

	cfg NetworkConfig // defaults resolved
	top arch.Network
	rng *rand.Rand

	frozen, learn []T
	hTrace        []T            // the learning columns' ∂h/∂θ, their blocks one after the other
	cTrace        []T            // the learning columns' ∂c/∂θ
	fhTrace       []T            // FrozenTraces: the frozen columns' ∂h/∂θ, in the layout of frozen
	fcTrace       []T            // FrozenTraces: the frozen columns' ∂c/∂θ
	fcoef         []float64      // FrozenTraces: per frozen column w_k/max(ε, σ_k) of the last step
	cols          []netColumn[T] // every feature, stage by stage; capacity MaxFeatures
	stageStart    []int          // first feature of each stage, then Features()
	stageBlocks   [][]T          // the parameter blocks of each stage's columns, one after the other
	offHead       int            // offset of the head weights in learn
	offBias       int            // index of the head bias in learn

	in        []float64 // Inputs + MaxFeatures: (normalized) x, then ĥ
	in32      []float32 // float32: in rounded, Padded32(Inputs + MaxFeatures) long; else nil
	prevIn    []float64 // like in, holding the previous step's ĥ (PreviousStepFeatures)
	inputNorm normalizer
	featNorm  normalizer
	coef      []float64  // per learning column: w_k/max(ε, σ_k) of the last step
	gates     stageGates // scratch of stepStage
	traceCoef lanes.TraceCoef
	// pending is set when the learning stage's trace update of the last
	// Step is still to be done (applyTraces): Step leaves it to the
	// gradient, which folds the new ∂h/∂θ as it computes them (each trace
	// read once per step), or else to the next Step.
	pending bool
	steps   int   // steps taken in the current stage
	total   int   // steps taken since the network was made
	ends    []int // total at each stage's freeze (StageEnds)
	drift   drift // the AutoFreeze test of the learning stage
}

// NewNetwork returns a network at stage 0 with min(FeaturesPerStage,
// MaxFeatures) columns initialized from the seeded generator, head weights and
// bias 0, and zero state.
func NewNetwork(cfg NetworkConfig) *Network { return NewNetworkOf[float64](cfg) }

// NewNetworkOf is NewNetwork for element type T: NewNetworkOf[float32] is
// the float32 engine, its parameters drawn as NewNetwork's and rounded.
func NewNetworkOf[T arch.Float](cfg NetworkConfig) *NetworkOf[T] {
	if cfg.MaxFeatures == 0 {
		cfg.MaxFeatures = cfg.FeaturesPerStage
	}
	cfg = resolve[T](cfg)
	top := arch.Network{
		Inputs: cfg.Inputs,
		Stages: []int{min(cfg.FeaturesPerStage, cfg.MaxFeatures)},
		Norm:   cfg.Norm,
	}
	return build[T](top, cfg)
}

// NewNetworkAt returns a network built directly at topology top, every column
// initialized from the seeded generator, head weights and bias 0, and zero
// state. top.Inputs and top.Norm take the place of cfg.Inputs and cfg.Norm; a
// zero FeaturesPerStage becomes the size of top's last stage, and MaxFeatures is
// raised to top.Features() if smaller. Tests use it to set every parameter
// through Frozen and Params.
func NewNetworkAt(top arch.Network, cfg NetworkConfig) *Network {
	return NewNetworkAtOf[float64](top, cfg)
}

// NewNetworkAtOf is NewNetworkAt for element type T.
func NewNetworkAtOf[T arch.Float](top arch.Network, cfg NetworkConfig) *NetworkOf[T] {
	top.Validate()
	top.Stages = append([]int(nil), top.Stages...)
	cfg.Inputs = top.Inputs
	cfg.Norm = top.Norm
	if cfg.FeaturesPerStage == 0 {
		cfg.FeaturesPerStage = top.LearningColumns()
	}
	cfg.MaxFeatures = max(cfg.MaxFeatures, top.Features())
	return build[T](top, resolve[T](cfg))
}

// resolve checks cfg and fills its defaults.
func resolve[T arch.Float](cfg NetworkConfig) NetworkConfig {
	switch {
	case cfg.Inputs < 1:
		panic(fmt.Sprintf("forward: network needs at least one input, got %d", cfg.Inputs))
	case cfg.FeaturesPerStage < 1:
		panic(fmt.Sprintf("forward: FeaturesPerStage %d, want ≥ 1", cfg.FeaturesPerStage))
	case cfg.MaxFeatures < 1:
		panic(fmt.Sprintf("forward: MaxFeatures %d, want ≥ 1", cfg.MaxFeatures))
	case cfg.StepsPerStage < 0:
		panic(fmt.Sprintf("forward: StepsPerStage %d, want ≥ 0", cfg.StepsPerStage))
	case cfg.InitScale < 0:
		panic(fmt.Sprintf("forward: InitScale %v, want ≥ 0", cfg.InitScale))
	case cfg.FrozenTraces && float.Is32[T]():
		panic("forward: FrozenTraces needs the float64 engine")
	case cfg.AutoFreeze.On() && cfg.StepsPerStage != 0:
		panic(fmt.Sprintf("forward: StepsPerStage %d with AutoFreeze, want 0", cfg.StepsPerStage))
	}
	cfg.AutoFreeze.check()
	if cfg.InitScale == 0 {
		cfg.InitScale = DefaultInitScale
	}
	return cfg
}

// Config returns the configuration with its defaults resolved.
func (n *NetworkOf[T]) Config() NetworkConfig { return n.cfg }

// Topology returns the current topology (a copy).
func (n *NetworkOf[T]) Topology() arch.Network {
	t := n.top
	t.Stages = append([]int(nil), n.top.Stages...)
	return t
}

// Stage returns the index of the learning stage (0 for the first).
func (n *NetworkOf[T]) Stage() int { return n.top.Learning() }

// StepsInStage returns the number of steps taken since the learning stage began
// (or since the last Reset).
func (n *NetworkOf[T]) StepsInStage() int { return n.steps }

// Features returns the number of features introduced so far.
func (n *NetworkOf[T]) Features() int { return len(n.cols) }

// NumParams returns the length of the learnable vector, Topology().NumLearnable().
func (n *NetworkOf[T]) NumParams() int { return len(n.learn) }

// Params returns the learnable vector: the learning columns' blocks, the head
// weights (one per feature), the head bias. It is a writable view, valid until
// the next stage change.
func (n *NetworkOf[T]) Params() []T { return n.learn }

// Frozen returns the frozen vector: the blocks of the frozen columns, stage by
// stage. It is a writable view, valid until the next stage change.
func (n *NetworkOf[T]) Frozen() []T { return n.frozen }

// NormalizedFeatures returns ĥ_t, the normalized features of the last step (a view; do not
// modify it).
func (n *NetworkOf[T]) NormalizedFeatures() []float64 {
	m := n.top.Inputs
	return n.in[m : m+len(n.cols)]
}

// FeatureScales returns 1/max(ε, σ_k) of every feature at the last step, the
// factor by which the normalization multiplies a feature's departure from its
// running mean (paper §3.4; 1 without normalization). It is a view; do not
// modify it.
//
//	ĥ_k = (h_k − μ_k)·scale_k        scale_k = 1/max(ε, σ_k)
func (n *NetworkOf[T]) FeatureScales() []float64 {
	return n.featNorm.scale[:len(n.cols)]
}

// Reset zeroes the state and traces of every column, restores the
// normalization statistics to μ = 0, σ² = 1 and restarts the count of steps in
// the stage. Parameters, stage and topology are unchanged.
func (n *NetworkOf[T]) Reset() {
	n.pending = false
	for k := range n.cols {
		n.cols[k].h, n.cols[k].c = 0, 0
	}
	clear(n.hTrace)
	clear(n.cTrace)
	clear(n.fhTrace)
	clear(n.fcTrace)
	clear(n.fcoef)
	n.inputNorm.reset()
	n.featNorm.reset()
	clear(n.in)
	clear(n.in32)
	clear(n.prevIn)
	clear(n.coef)
	n.steps = 0
	n.startDrift()
}

// startDrift begins the AutoFreeze test of the learning stage.
func (n *NetworkOf[T]) startDrift() {
	if a := n.cfg.AutoFreeze; a.On() {
		driftStart(&n.drift, n.learn[:n.offHead], a.Window)
	}
}

// Step advances the network by one step on the raw input x (length Inputs) and
// returns the prediction y_t. If StepsPerStage steps have been taken in the
// learning stage, or AutoFreeze finds it converged, and fewer than
// MaxFeatures features exist, Step first advances the stage (see
// AdvanceStage); Grad always refers to the topology of the last Step.
func (n *NetworkOf[T]) Step(x []float64) float64 {
	m := n.top.Inputs
	if len(x) != m {
		panic(fmt.Sprintf("forward: network input has length %d, want %d", len(x), m))
	}
	n.applyTraces(nil, 0, false)
	if len(n.cols) < n.cfg.MaxFeatures {
		switch {
		case n.cfg.StepsPerStage > 0 && n.steps >= n.cfg.StepsPerStage:
			n.AdvanceStage()
		case n.cfg.AutoFreeze.On() && freezeDue(&n.drift, n.cfg.AutoFreeze, n.steps, n.learn[:n.offHead]):
			n.AdvanceStage()
		}
	}
	in := n.in
	for k, xk := range x {
		in[k] = n.inputNorm.update(k, xk)
	}
	if n.in32 != nil && (n.Defect != Float32StaleInput || n.total%2 == 0) {
		lanes.Input32(n.in32[:m], in[:m])
	}
	L := n.top.Learning()
	for s := 0; s < L; s++ {
		xs := in[:m+n.stageStart[s]]
		n.stepStage(s, xs, xs, n.cfg.FrozenTraces)
		if n.cfg.FrozenTraces {
			n.frozenTraces(s, xs)
		}
	}
	lo, hi := n.stageStart[L], n.stageStart[L+1]
	xd := in[:m+lo]
	xf := xd
	if n.Defect == PreviousStepFeatures {
		copy(n.prevIn[:m], in[:m])
		xf = n.prevIn[:m+lo]
	}
	n.stepStage(L, xf, xd, true)
	n.pending = true
	if n.Defect == PreviousStepFeatures {
		copy(n.prevIn[m:m+hi], in[m:m+hi])
	}

	// Head: 2 operations per feature, 1 per learning column for coef.
	w := n.learn[n.offHead : n.offHead+hi]
	y := float64(n.learn[n.offBias])
	for k, wk := range w {
		y += float64(wk) * in[m+k]
	}
	for j := range n.coef[:hi-lo] {
		n.coef[j] = float64(w[lo+j]) * n.featNorm.scale[lo+j]
	}
	if n.cfg.FrozenTraces {
		for k := range n.fcoef[:lo] {
			n.fcoef[k] = float64(w[k]) * n.featNorm.scale[k]
		}
	}
	n.steps++
	n.total++
	return y
}

// stepStage runs the columns of stage s on xf (direct terms xd, see
// Column.step) in calls for the whole stage: the pre-activations,
// activations and state (lanes.Stage, the stage's columns in lanes), then,
// if learn is set, the per-step scalars of the traces (lanes.TraceScalars);
// the traces themselves are left to the caller (the learning stage's are
// left pending for applyTraces, a frozen stage's done by frozenTraces). It
// stores the normalized features in n.in.
func (n *NetworkOf[T]) stepStage(s int, xf, xd []float64, learn bool) {
	lo, hi := n.stageStart[s], n.stageStart[s+1]
	u := hi - lo
	cols := n.cols[lo:hi]
	g := &n.gates
	ai, af, ag, ao := g.a[arch.GateI][:u], g.a[arch.GateF][:u], g.a[arch.GateG][:u], g.a[arch.GateO][:u]
	hp, cp, cn, tc, h := g.hp[:u], g.cp[:u], g.c[:u], g.tc[:u], g.h[:u]
	for j := range cols {
		hp[j], cp[j] = cols[j].h, cols[j].c
	}
	blocks := n.stageBlocks[s]
	if float.Is32[T]() {
		lanes.Stage32(ai, af, ag, ao, hp, cp, cn, tc, h, float.F32(blocks), n.in32, len(xf))
	} else {
		lanes.Stage(ai, af, ag, ao, hp, cp, cn, tc, h, float.F64(blocks), xf)
	}
	for j := range cols {
		cols[j].h, cols[j].c = h[j], cn[j]
	}
	if learn {
		k := n.traceCoef
		if float.Is32[T]() {
			lanes.TraceScalars32(k, ai, af, ag, ao, cp, tc, float.F32(blocks), len(xd))
		} else {
			lanes.TraceScalars(k, ai, af, ag, ao, cp, tc, float.F64(blocks), len(xd))
		}
		if n.Defect == DropRecurrentTerm || (n.Defect == DropFrozenRecurrentTerm && s < n.top.Learning()) {
			clear(k.A[:u])
			clear(k.E[:u])
		}
	}
	m := n.top.Inputs
	if n.in32 != nil {
		n.featNorm.updateAll32(lo, h, n.in[m+lo:])
		lanes.Input32(n.in32[m+lo:m+hi], n.in[m+lo:m+hi])
	} else {
		n.featNorm.updateAll(lo, h, n.in[m+lo:])
	}
}

// applyTraces does the learning stage's pending trace update of the last
// Step (lanes.StageTrace on what Step left: the direct terms xd in n.in,
// the previous h and f of the learning columns in n.gates and the scalars
// in n.traceCoef; nothing writes them before the next Step, which applies
// the update first). With z not nil it folds the new traces into z's
// learning blocks as it computes them (lanes.StageTraceFold with the
// coefficients n.coef: d·z + coef·∂h/∂θ if add, else coef·∂h/∂θ + 0). It
// reports whether an update was pending.
func (n *NetworkOf[T]) applyTraces(z []T, d float64, add bool) bool {
	if !n.pending {
		return false
	}
	n.pending = false
	L := n.top.Learning()
	lo, hi := n.stageStart[L], n.stageStart[L+1]
	u := hi - lo
	xd := n.in[:n.top.Inputs+lo]
	hp, f := n.gates.hp[:u], n.gates.a[arch.GateF][:u]
	if float.Is32[T]() {
		ht, ct, xd32 := float.F32(n.hTrace), float.F32(n.cTrace), n.in32[:len(xd)]
		if z == nil {
			lanes.StageTrace32(ht, ct, xd32, f, hp, n.traceCoef)
			return true
		}
		lanes.StageTraceFold32(ht, ct, xd32, f, hp, n.traceCoef, float.F32(z), d, n.coef[:u], add)
		return true
	}
	if z == nil {
		lanes.StageTrace(float.F64(n.hTrace), float.F64(n.cTrace), xd, f, hp, n.traceCoef)
		return true
	}
	lanes.StageTraceFold(float.F64(n.hTrace), float.F64(n.cTrace), xd, f, hp, n.traceCoef, float.F64(z), d, n.coef[:u], add)
	return true
}

// Grad writes ∂y_t/∂θ of the last Step into dst (length NumParams), in the
// layout of Params: for learning column k's block w_k·scale_k·∂h_k/∂θ with
// scale_k = 1/max(ε, σ_k) (1 without normalization), then ĥ_k for every head
// weight, then 1 for the head bias. The weights are those used by the last Step.
func (n *NetworkOf[T]) Grad(dst []T) {
	if len(dst) != len(n.learn) {
		panic(fmt.Sprintf("forward: network gradient has length %d, want %d", len(dst), len(n.learn)))
	}
	// AccumulateGrad into zeros: d·0 + c·t is c·t + 0 (ScaleBlocks), 1·ĥ_k
	// is ĥ_k, and the bias gets 1.
	L := n.top.Learning()
	lo, hi := n.stageStart[L], n.stageStart[L+1]
	if !n.applyTraces(dst[:n.offHead], 0, false) {
		if float.Is32[T]() {
			lanes.ScaleBlocks32(float.F32(dst[:n.offHead]), n.coef[:hi-lo], float.F32(n.hTrace))
		} else {
			lanes.ScaleBlocks(float.F64(dst[:n.offHead]), n.coef[:hi-lo], float.F64(n.hTrace))
		}
	}
	m := n.top.Inputs
	for k, hk := range n.in[m : m+hi] {
		dst[n.offHead+k] = T(hk + 0)
	}
	dst[n.offBias] = 1
}

// AccumulateGrad folds the gradient of the latest prediction into an
// eligibility trace z (learnable layout) in one pass:
//
//	z ← decay·z + ∂y_t/∂θ
//
// Grad is AccumulateGrad into a zeroed vector. Like
// Grad it reads only what Step stored, so the parameters may change between
// Step and AccumulateGrad (an optimizer step in TD(λ)).
func (n *NetworkOf[T]) AccumulateGrad(z []T, decay float64) {
	if len(z) != len(n.learn) {
		panic(fmt.Sprintf("forward: network trace has length %d, want %d", len(z), len(n.learn)))
	}
	L := n.top.Learning()
	lo, hi := n.stageStart[L], n.stageStart[L+1]
	m := n.top.Inputs
	if float.Is32[T]() {
		if !n.applyTraces(z[:n.offHead], decay, true) {
			lanes.ScaleAddBlocks32(float.F32(z[:n.offHead]), decay, n.coef[:hi-lo], float.F32(n.hTrace))
		}
		lanes.ScaleAdd32(float.F32(z[n.offHead:n.offBias]), decay, 1, n.in[m:m+hi])
		z[n.offBias] = T(decay*float64(z[n.offBias]) + 1)
		return
	}
	if !n.applyTraces(z[:n.offHead], decay, true) {
		lanes.ScaleAddBlocks(float.F64(z[:n.offHead]), decay, n.coef[:hi-lo], float.F64(n.hTrace))
	}
	// 1·ĥ_k is ĥ_k exactly.
	lanes.ScaleAdd(float.F64(z[n.offHead:n.offBias]), decay, 1, n.in[m:m+hi])
	z[n.offBias] = T(decay*float64(z[n.offBias]) + 1)
}

// OpsPerStep returns the floating-point additions, subtractions,
// multiplications and divisions of one Step followed by one Grad (and one
// FrozenGrad with FrozenTraces) at the current topology, counted from the code (exponentials, tanh, square roots, max and
// negations not counted). With F features, u learning columns reading m_L
// inputs, and ν = 12 if normalization is on, else 0:
//
//	input normalization   12·Inputs if NormalizeInputs
//	frozen columns        Σ u_s·(8·m_s + 18)      (forward only)
//	  with FrozenTraces   Σ u_s·(44·m_s + 108)    (traces, FrozenGrad and its coefficient)
//	learning columns      u·(40·m_L + 99)         (Column.OpsPerStep)
//	feature normalization ν·F
//	head                  2F + u
//	Grad                  u·(4·m_L + 8)
func (n *NetworkOf[T]) OpsPerStep() int {
	ops := n.inputNorm.ops() * n.top.Inputs
	L := n.top.Learning()
	for s := 0; s < L; s++ {
		u, ms := n.top.Stages[s], n.top.ColumnInputs(s)
		if n.cfg.FrozenTraces {
			ops += u * (columnStepOps(ms) + arch.ColumnParams(ms) + 1)
			continue
		}
		ops += u * columnFrozenOps(ms)
	}
	u, mL := n.top.LearningColumns(), n.top.LearningColumnInputs()
	F := n.top.Features()
	ops += u * columnStepOps(mL)
	ops += n.featNorm.ops() * F
	ops += 2*F + u
	ops += u * arch.ColumnParams(mL)
	return ops
}

// stageGates is the scratch of one stage's step, one entry per column: the
// pre-activations a[q], turned into activations in place, the previous
// hidden and cell states hp, cp, the new cell states c, tanh(c) and the
// hidden states h.
type stageGates struct {
	a                [arch.NumGates][]float64
	hp, cp, c, tc, h []float64
}

func newStageGates(n int) stageGates {
	var g stageGates
	for q := range g.a {
		g.a[q] = make([]float64, n)
	}
	g.hp, g.cp = make([]float64, n), make([]float64, n)
	g.c, g.tc, g.h = make([]float64, n), make([]float64, n), make([]float64, n)
	return g
}

// netColumn is a column of a network: its parameter block (a view into the
// network's frozen or learnable vector) and its state. Its traces, if it
// learns, are its block of the network's traces.
type netColumn[T arch.Float] struct {
	params []T
	h, c   float64
}
