package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// StagedSpec is a Constructive or CCN network followed through stage changes:
// it starts at stage 0 and AdvanceStage is called after each segment, so the
// trajectory crosses len(Segments)−1 stage boundaries.
type StagedSpec struct {
	Inputs           int                // raw input size m
	FeaturesPerStage int                // columns each stage adds
	MaxFeatures      int                // total features; the last stage is cut short at it
	Norm             arch.Normalization // the features' online normalization
	Segments         []int              // steps spent in each stage, in order; at least two
	// From is the first segment compared with the reference; the engine and
	// the reference's plain pass step through the earlier ones only.
	From int
}

// topologies returns the topology of every segment of s.
func (s StagedSpec) topologies() []arch.Network {
	if len(s.Segments) < 2 || s.From < 0 || s.From >= len(s.Segments) {
		panic(fmt.Sprintf("compare: staged check with segments %v from %d", s.Segments, s.From))
	}
	top := arch.Network{Inputs: s.Inputs, Stages: []int{min(s.FeaturesPerStage, s.MaxFeatures)}, Norm: s.Norm}
	tops := []arch.Network{top}
	for range s.Segments[1:] {
		if top.Features() >= s.MaxFeatures {
			panic(fmt.Sprintf("compare: %d segments need more than MaxFeatures = %d features", len(s.Segments), s.MaxFeatures))
		}
		top = top.WithStage(min(s.FeaturesPerStage, s.MaxFeatures-top.Features()))
		tops = append(tops, top)
	}
	return tops
}

// transition names the stage change that opens segment i ≥ 1, "i-1->i".
func transition(i int) string { return fmt.Sprintf("%d->%d", i-1, i) }

// carried returns the frozen and learnable vectors that a stage change from
// topology top (vectors frozen, learn) to next = top.WithStage(u) must
// produce (paper §3.2, §3.3): the learning stage's blocks are appended to the
// frozen vector, the head weights of the existing features and the head bias
// are kept; the new columns' blocks are taken from fresh (their random
// initialization, the engine's own) and their head weights from newHead.
func carried(top, next arch.Network, frozen, learn, fresh, newHead []float64) (nextFrozen, nextLearn []float64) {
	nextFrozen = append(append(make([]float64, 0, next.NumFrozen()), frozen...), learn[:top.OffHead()]...)
	nextLearn = make([]float64, next.NumLearnable())
	copy(nextLearn[:next.OffHead()], fresh[:next.OffHead()])
	head := nextLearn[next.OffHead():next.OffHeadBias()]
	copy(head, learn[top.OffHead():top.OffHeadBias()])
	copy(head[top.Features():], newHead)
	nextLearn[next.OffHeadBias()] = learn[top.OffHeadBias()]
	return nextFrozen, nextLearn
}

// CheckStaged follows forward.Network through the stage changes of spec on
// the trajectory tr (length Σ Segments) and returns the agreement of every
// segment from spec.From on with the Gorgonia reference rebuilt after each
// change: the reference carries the parameters over by itself (carried) and
// enters each segment from the state and normalization statistics its own
// plain pass reached (reference.NetState.Grow: frozen columns continue, new
// columns start at zero). Parameters are drawn U(−tr.Scale, tr.Scale); at
// each change the new features' head weights, which the engine sets to 0, are
// drawn too and written into the engine, so that the learning columns'
// gradients are not trivially zero.
func CheckStaged(r *reference.Reference, spec StagedSpec, tr Trajectory, rng *rand.Rand, defect forward.Defect) ([]Agreement, error) {
	tops := spec.topologies()
	total := 0
	for _, n := range spec.Segments {
		total += n
	}
	if len(tr.Xs) != total {
		panic(fmt.Sprintf("compare: staged trajectory of %d steps for segments %v", len(tr.Xs), spec.Segments))
	}
	net := forward.NewNetwork(forward.NetworkConfig{
		Inputs:           spec.Inputs,
		FeaturesPerStage: spec.FeaturesPerStage,
		MaxFeatures:      spec.MaxFeatures,
		Norm:             spec.Norm,
	})
	net.Defect = defect
	fillUniform(rng, net.Params(), tr.Scale)
	frozen := append([]float64(nil), net.Frozen()...)
	learn := append([]float64(nil), net.Params()...)
	var start *reference.NetState
	var out []Agreement
	off := 0
	for i, top := range tops {
		if i > 0 {
			net.AdvanceStage()
			if got := net.Topology(); !slices.Equal(got.Stages, top.Stages) {
				return out, fmt.Errorf("stage change %s: engine has stages %v, want %v", transition(i), got.Stages, top.Stages)
			}
			newHead := make([]float64, top.Features()-tops[i-1].Features())
			fillUniform(rng, newHead, tr.Scale)
			frozen, learn = carried(tops[i-1], top, frozen, learn, net.Params(), newHead)
			copy(net.Params()[top.OffHead()+tops[i-1].Features():top.OffHeadBias()], newHead)
			start = start.Grow(top.Features())
		}
		xs := tr.Xs[off : off+spec.Segments[i]]
		off += spec.Segments[i]
		if i >= spec.From {
			ref, err := networkTruth(r, top, frozen, learn, start, xs)
			if err != nil {
				return out, fmt.Errorf("segment %d: %w", i, err)
			}
			a, err := agree(net.Step, net.Grad, top.NumLearnable(), xs, rng, ref)
			if err != nil {
				return out, fmt.Errorf("segment %d: %w", i, err)
			}
			out = append(out, a)
		} else {
			for _, x := range xs {
				net.Step(x)
			}
		}
		_, _, start = reference.NetworkForwardFrom(top, frozen, learn, start, xs, nil)
	}
	return out, nil
}

// networkTruth is the reference of a network at topology top entered from
// start (nil: the zero state) over xs.
func networkTruth(r *reference.Reference, top arch.Network, frozen, learn []float64, start *reference.NetState, xs [][]float64) (truth, error) {
	T := len(xs)
	ys, last, err := r.NetworkFrom(top, frozen, learn, start, xs, nil)
	if err != nil {
		return truth{}, err
	}
	return truth{
		ys: ys,
		at: func(t int) ([]float64, error) {
			if t == T { // the run that gave ys: a = nil is y_T
				return last, nil
			}
			_, g, err := r.NetworkFrom(top, frozen, learn, start, xs, oneHot(T, t))
			return g, err
		},
		combo: func(a []float64) ([]float64, error) {
			_, g, err := r.NetworkFrom(top, frozen, learn, start, xs, a)
			return g, err
		},
	}, nil
}
