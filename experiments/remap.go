package experiments

import (
	"slices"

	"github.com/ccn-go/ccn/arch"
)

// NetworkRemap says where each entry of the learnable vector of next came from
// in the learnable vector of prev: from[i] is the old index of new entry i, or
// −1 for an entry that did not exist (a new column's parameters, a new
// feature's head weight).
//
// When a stage is added the old learning columns are frozen, so their entries
// are dropped; the head weights of the old features and the bias keep their
// values, traces and optimizer state at their new positions. When the stages
// are unchanged the map is the identity.
func NetworkRemap(prev, next arch.Network) []int {
	from := make([]int, next.NumLearnable())
	for i := range from {
		from[i] = -1
	}
	if slices.Equal(prev.Stages, next.Stages) && prev.Inputs == next.Inputs {
		for i := range from {
			from[i] = i
		}
		return from
	}
	for k := range min(prev.Features(), next.Features()) {
		from[next.OffHead()+k] = prev.OffHead() + k
	}
	from[next.OffHeadBias()] = prev.OffHeadBias()
	return from
}
