package arch

import "fmt"

// Normalization configures online feature normalization (paper §3.4, Equation 11):
//
//	μ_t  = β·μ_{t-1} + (1-β)·h_t                         μ_0 = 0
//	σ²_t = β·σ²_{t-1} + (1-β)·(μ_t - h_t)·(μ_{t-1} - h_t)  σ²_0 = 1
//	ĥ_t  = (h_t - μ_t) / max(ε, σ_t)
//
// The statistics are constants for the gradient. When Enabled is false, ĥ = h.
type Normalization struct {
	Enabled bool
	Decay   float64 // β; if 0 it defaults to 0.99999 (the paper's value)
	Epsilon float64 // ε, the floor on σ; if 0 it defaults to 0.001
}

// DecayOrDefault returns β with the zero value replaced by the paper's 0.99999.
func (n Normalization) DecayOrDefault() float64 {
	if n.Decay == 0 {
		return 0.99999
	}
	return n.Decay
}

// EpsilonOrDefault returns ε with the zero value replaced by 0.001.
func (n Normalization) EpsilonOrDefault() float64 {
	if n.Epsilon == 0 {
		return 0.001
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
