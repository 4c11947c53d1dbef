package forward

import (
	"fmt"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/float"
	"github.com/ccn-go/ccn/internal/lanes"
)

// pcgStream is the fixed second word of the PCG state; the seed is the first.
const pcgStream = 0x9e3779b97f4a7c15

// build allocates a network at topology top. Buffers indexed by feature are
// sized for cfg.MaxFeatures so that stage changes only allocate parameter
// vectors and traces.
func build[T arch.Float](top arch.Network, cfg NetworkConfig) *NetworkOf[T] {
	m, maxF := top.Inputs, cfg.MaxFeatures
	n := &NetworkOf[T]{
		cfg:       cfg,
		top:       top,
		rng:       rand.New(rand.NewPCG(cfg.Seed, pcgStream)),
		cols:      make([]netColumn[T], 0, maxF),
		in:        make([]float64, m+maxF),
		prevIn:    make([]float64, m+maxF),
		inputNorm: newNormalizer(cfg.Norm, cfg.NormalizeInputs, m),
		featNorm:  newNormalizer(top.Norm, top.Norm.Enabled, maxF),
		coef:      make([]float64, maxF),
		gates:     newStageGates(maxF),
		traceCoef: lanes.NewTraceCoef(maxF),
	}
	if float.Is32[T]() {
		n.in32 = make([]float32, lanes.Padded32(m+maxF))
	}
	n.frozen = make([]T, top.NumFrozen())
	n.learn = make([]T, top.NumLearnable())
	n.allocTraces(top)
	if cfg.FrozenTraces {
		n.allocFrozenTraces(arch.Network{}, top)
		n.fcoef = make([]float64, maxF)
	}
	for s, u := range top.Stages {
		for j := 0; j < u; j++ {
			n.cols = append(n.cols, netColumn[T]{params: block(top, n.frozen, n.learn, s, j)})
			n.randomize(n.cols[len(n.cols)-1].params)
		}
	}
	n.layout()
	n.ends = make([]int, 0, (maxF+cfg.FeaturesPerStage-1)/cfg.FeaturesPerStage)
	n.startDrift()
	return n
}

// allocTraces allocates the traces of top's learning stage, its columns'
// blocks one after the other (the layout of their parameters), so that
// lanes.StageTrace and the gradient take them in one call.
func (n *NetworkOf[T]) allocTraces(top arch.Network) {
	size := top.LearningColumns() * arch.ColumnParams(top.LearningColumnInputs())
	n.hTrace, n.cTrace = make([]T, size), make([]T, size)
}

// block is arch.Network.Block for vectors of element type T: the block of
// column j of stage s, a view into frozen or learn.
func block[T arch.Float](top arch.Network, frozen, learn []T, s, j int) []T {
	size := arch.ColumnParams(top.ColumnInputs(s))
	if s == top.Learning() {
		off := top.OffLearn(j)
		return learn[off : off+size : off+size]
	}
	off := top.OffFrozen(s, j)
	return frozen[off : off+size : off+size]
}

// randomize fills a new column's block from U(-s, s) (drawn in float64,
// then rounded to T).
func (n *NetworkOf[T]) randomize(p []T) {
	s := n.cfg.InitScale
	for k := range p {
		p[k] = T(s * (2*n.rng.Float64() - 1))
	}
}

// layout recomputes the offsets derived from the topology.
func (n *NetworkOf[T]) layout() {
	n.stageStart = n.stageStart[:0]
	for s := range n.top.Stages {
		n.stageStart = append(n.stageStart, n.top.FirstFeature(s))
	}
	n.stageStart = append(n.stageStart, n.top.Features())
	n.stageBlocks = n.stageBlocks[:0]
	L := n.top.Learning()
	for s, u := range n.top.Stages {
		size := arch.ColumnParams(n.top.ColumnInputs(s))
		if s == L {
			n.stageBlocks = append(n.stageBlocks, n.learn[:u*size:u*size])
			continue
		}
		off := n.top.OffFrozen(s, 0)
		n.stageBlocks = append(n.stageBlocks, n.frozen[off:off+u*size:off+u*size])
	}
	n.offHead = n.top.OffHead()
	n.offBias = n.top.OffHeadBias()
}

// AdvanceStage freezes the learning stage and adds a new learning stage of
// FeaturesPerStage columns (fewer if MaxFeatures would be exceeded). The new
// columns read x and every existing feature; their parameters are drawn from
// U(-InitScale, InitScale), their state and traces are zero, and their head
// weights are 0. Existing features keep their parameters, state,
// normalization statistics and head weights, and the head bias is kept.
// Both parameter vectors are replaced: fetch Params and Frozen again.
// AdvanceStage panics if the network already has MaxFeatures features.
func (n *NetworkOf[T]) AdvanceStage() {
	F := len(n.cols)
	if F >= n.cfg.MaxFeatures {
		panic(fmt.Sprintf("forward: network already has MaxFeatures = %d features", n.cfg.MaxFeatures))
	}
	u := min(n.cfg.FeaturesPerStage, n.cfg.MaxFeatures-F)
	old, oldLearn := n.top, n.learn
	top := old.WithStage(u)
	if n.cfg.FrozenTraces {
		// The newly frozen columns keep their traces: finish the last
		// Step's update first.
		n.applyTraces(nil, 0, false)
		n.allocFrozenTraces(old, top)
	}

	frozen := make([]T, top.NumFrozen())
	copy(frozen, n.frozen)
	copy(frozen[old.NumFrozen():], oldLearn[:old.OffHead()])
	learn := make([]T, top.NumLearnable())
	for i, f := range old.Remap(top) {
		if f >= 0 {
			learn[i] = oldLearn[f]
		}
	}

	// Re-point the existing columns at the new frozen vector; the formerly
	// learning ones drop their traces (allocTraces).
	k := 0
	for s, us := range old.Stages {
		for j := 0; j < us; j++ {
			n.cols[k].params = block(top, frozen, nil, s, j)
			k++
		}
	}
	n.allocTraces(top)
	for j := 0; j < u; j++ {
		n.cols = append(n.cols, netColumn[T]{params: block(top, frozen, learn, top.Learning(), j)})
		n.randomize(n.cols[len(n.cols)-1].params)
	}
	n.top, n.frozen, n.learn = top, frozen, learn
	n.pending = false // the former learning columns' traces are dropped
	n.layout()
	n.ends = append(n.ends, n.total)
	n.steps = 0
	n.startDrift()
	switch n.Defect {
	case RestartStatsAtStage:
		n.featNorm.reset()
	case RestartStateAtStage:
		for k := range n.cols[:F] {
			n.cols[k].h, n.cols[k].c = 0, 0
		}
	}
}
