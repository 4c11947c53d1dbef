package td

import (
	"github.com/ccn-go/ccn/arch"
)

// GradAccumulator is implemented by learners that can fold the gradient of
// their latest prediction into an eligibility trace in one pass,
//
//	z ← decay·z + ∇v
//
// reading only what Step stored, so that the parameters may change between
// Step and AccumulateGrad (forward.Network). TD uses it to save a pass over
// the parameters per step; the result is the same as Grad followed by the sum.
type GradAccumulator[T arch.Float] interface {
	AccumulateGrad(z []T, decay float64)
}

// Staged is implemented by learners whose learnable vector changes size and
// meaning when a stage is added (forward.Network): Stage is the index of the
// learning stage and Topology the current arch.Network, whose offsets say
// where the head lies.
type Staged interface {
	Stage() int
	Topology() arch.Network
}

// NetworkLayout is the Layout of the learnable vector of network n: the
// learning columns' blocks, then one head weight per feature, then the bias.
func NetworkLayout(n arch.Network) Layout {
	return Layout{Size: n.NumLearnable(), HeadStart: n.OffHead(), HeadEnd: n.NumLearnable(), Features: n.Features()}
}

// DenseLayout is the Layout of a dense LSTM's vector: its head is w_out and
// b_out if d has the output bias.
func DenseLayout(d arch.Dense) Layout {
	return Layout{Size: d.NumParams(), HeadStart: d.OffOut(), HeadEnd: d.NumParams(), Features: d.Hidden}
}

// RTULayout is the Layout of an RTU layer's vector: its head is w_out (2n
// features) and b_out.
func RTULayout(s arch.RTU) Layout {
	return Layout{Size: s.NumParams(), HeadStart: s.OffOut(), HeadEnd: s.NumParams(), Features: s.Features()}
}
