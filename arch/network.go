package arch

import (
	"fmt"
	"slices"
)

// Normalization configures online feature normalization (paper §3.4, Equation 11):
//
//	μ_t  = β·μ_{t-1} + (1-β)·h_t                         μ_0 = 0
//	σ²_t = β·σ²_{t-1} + (1-β)·(μ_t - h_t)·(μ_{t-1} - h_t)  σ²_0 = 1
//	ĥ_t  = (h_t - μ_t) / max(ε, σ_t)
//
// The statistics are constants for the gradient. When Enabled is false, ĥ = h.
type Normalization struct {
	Enabled bool
	Decay   float64 // β; if 0 it defaults to DefaultNormDecay
	Epsilon float64 // ε, the floor on σ; if 0 it defaults to DefaultNormEpsilon
}

// The paper's normalization constants (§3.4), the one place they are written.
const (
	DefaultNormDecay   = 0.99999 // β
	DefaultNormEpsilon = 0.001   // ε
)

// DecayOrDefault returns β with the zero value replaced by DefaultNormDecay.
func (n Normalization) DecayOrDefault() float64 {
	if n.Decay == 0 {
		return DefaultNormDecay
	}
	return n.Decay
}

// EpsilonOrDefault returns ε with the zero value replaced by DefaultNormEpsilon.
func (n Normalization) EpsilonOrDefault() float64 {
	if n.Epsilon == 0 {
		return DefaultNormEpsilon
	}
	return n.Epsilon
}

// Network is the topology of a Columnar, Constructive or CCN network at one
// moment of its life (paper §3): Stages[s] columns were introduced at stage s,
// the last stage is the one learning, and every earlier stage is frozen.
//
//   - Columnar d:                 Stages = [d]
//   - Constructive at stage s:    Stages = [1, 1, …, 1] (s+1 entries)
//   - CCN, u per stage, stage s:  Stages = [u, u, …, u] (s+1 entries)
//
// Within a step the stages are computed in order. A column of stage s reads
//
//	[x (Inputs values), ĥ of every feature of stages 0..s-1, in order]
//
// at the current step, and the prediction reads every feature:
//
//	y = Σ_k w_k·ĥ_k + b
//
// Two flat vectors hold the parameters. The frozen vector holds, stage by stage
// and column by column, the blocks of the columns of stages 0..S-2 (each block in
// the column layout of ColumnParams). The learnable vector holds the blocks of
// the learning stage's columns, then the head weights w (one per feature), then
// the head bias b.
type Network struct {
	Inputs int   // raw input size m ≥ 1
	Stages []int // columns per stage, each ≥ 1; at least one stage
	Norm   Normalization
}

// Validate panics with an arch-prefixed message if n is not a usable topology.
func (n Network) Validate() {
	if n.Inputs < 1 {
		panic(fmt.Sprintf("arch: network needs at least one input, got %d", n.Inputs))
	}
	if len(n.Stages) == 0 {
		panic("arch: network needs at least one stage")
	}
	for s, u := range n.Stages {
		if u < 1 {
			panic(fmt.Sprintf("arch: stage %d has %d columns", s, u))
		}
	}
}

// NumStages is the number of stages introduced so far.
func (n Network) NumStages() int { return len(n.Stages) }

// Learning is the index of the learning stage (the last one).
func (n Network) Learning() int { return len(n.Stages) - 1 }

// Features is the number of features (columns) introduced so far.
func (n Network) Features() int { return n.FirstFeature(len(n.Stages)) }

// FirstFeature is the index of the first feature of stage s (features are
// numbered stage by stage); FirstFeature(NumStages()) is Features().
func (n Network) FirstFeature(s int) int {
	f := 0
	for _, u := range n.Stages[:s] {
		f += u
	}
	return f
}

// ColumnInputs is the input size of a column of stage s: Inputs + FirstFeature(s).
func (n Network) ColumnInputs(s int) int { return n.Inputs + n.FirstFeature(s) }

// NumFrozen is the length of the frozen parameter vector.
func (n Network) NumFrozen() int { return n.OffFrozen(n.Learning(), 0) }

// OffFrozen is the offset of the block of column j of frozen stage s in the
// frozen vector. OffFrozen(Learning(), 0) is NumFrozen().
func (n Network) OffFrozen(s, j int) int {
	off := 0
	for t := 0; t < s; t++ {
		off += n.Stages[t] * ColumnParams(n.ColumnInputs(t))
	}
	return off + j*ColumnParams(n.ColumnInputs(s))
}

// LearningColumnInputs is the input size of the learning stage's columns.
func (n Network) LearningColumnInputs() int { return n.ColumnInputs(n.Learning()) }

// LearningColumns is the number of columns learning now.
func (n Network) LearningColumns() int { return n.Stages[n.Learning()] }

// OffLearn is the offset of learning column j's block in the learnable vector.
func (n Network) OffLearn(j int) int { return j * ColumnParams(n.LearningColumnInputs()) }

// OffHead is the offset of the head weights w in the learnable vector.
func (n Network) OffHead() int { return n.OffLearn(n.LearningColumns()) }

// OffHeadBias is the index of the head bias b in the learnable vector.
func (n Network) OffHeadBias() int { return n.OffHead() + n.Features() }

// NumLearnable is the length of the learnable parameter vector.
func (n Network) NumLearnable() int { return n.OffHeadBias() + 1 }

// Block returns the parameter block of column j of stage s: a view into
// learnable when s is the learning stage, into frozen otherwise (their
// layouts are OffLearn and OffFrozen). It is the one lookup of a column's
// parameters that every engine uses.
func (n Network) Block(frozen, learnable []float64, s, j int) []float64 {
	size := ColumnParams(n.ColumnInputs(s))
	if s == n.Learning() {
		off := n.OffLearn(j)
		return learnable[off : off+size : off+size]
	}
	off := n.OffFrozen(s, j)
	return frozen[off : off+size : off+size]
}

// Remap says where each entry of the learnable vector of next came from in
// the learnable vector of n: from[i] is the old index of new entry i, or −1
// for an entry that did not exist (a new column's parameters, a new
// feature's head weight).
//
// When a stage is added the old learning columns are frozen, so their
// entries are dropped; the head weights of the old features and the bias
// keep their values (and, in a learner, their traces and optimizer state) at
// their new positions. When the stages are unchanged the map is the
// identity.
func (n Network) Remap(next Network) []int {
	from := make([]int, next.NumLearnable())
	for i := range from {
		from[i] = -1
	}
	if slices.Equal(n.Stages, next.Stages) && n.Inputs == next.Inputs {
		for i := range from {
			from[i] = i
		}
		return from
	}
	for k := range min(n.Features(), next.Features()) {
		from[next.OffHead()+k] = n.OffHead() + k
	}
	from[next.OffHeadBias()] = n.OffHeadBias()
	return from
}

// WithStage returns a copy of n with one more stage of u columns appended.
func (n Network) WithStage(u int) Network {
	st := make([]int, len(n.Stages), len(n.Stages)+1)
	copy(st, n.Stages)
	n.Stages = append(st, u)
	return n
}

// Columnar returns the topology of d independent columns on m inputs.
func Columnar(m, d int, norm Normalization) Network {
	return Network{Inputs: m, Stages: []int{d}, Norm: norm}
}

// CCN returns the topology of a CCN with u columns per stage at stage s (0-based).
// Constructive networks are CCN(m, 1, s, norm).
func CCN(m, u, s int, norm Normalization) Network {
	st := make([]int, s+1)
	for i := range st {
		st[i] = u
	}
	return Network{Inputs: m, Stages: st, Norm: norm}
}
