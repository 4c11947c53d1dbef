package forward

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/float"
	"github.com/ccn-go/ccn/internal/lanes"
)

// The traces of frozen columns (NetworkConfig.FrozenTraces). A frozen column
// k keeps the RTRL traces of its own parameters θ_k, with the recursion it
// had while it learned (its inputs, earlier features included, are direct
// terms), and FrozenGrad gives
//
//	g̃_k = w_k·scale_k·∂h_k/∂θ_k        scale_k = 1/max(ε, σ_k)
//
// the gradient of y along column k's own recurrence and head weight. The
// exact gradient adds the paths through the later columns that read ĥ_k;
// g̃ drops them (docs/stages.md, "Frozen features that keep learning").

// allocFrozenTraces allocates the frozen columns' traces of top, keeping
// those of old (a prefix of the layout) and taking the traces of old's
// learning columns, which top freezes, after them.
func (n *NetworkOf[T]) allocFrozenTraces(old, top arch.Network) {
	fh, fc := make([]T, top.NumFrozen()), make([]T, top.NumFrozen())
	if old.Stages != nil {
		copy(fh, n.fhTrace)
		copy(fc, n.fcTrace)
		if n.Defect != DropFrozenTracesAtStage {
			copy(fh[old.NumFrozen():], n.hTrace)
			copy(fc[old.NumFrozen():], n.cTrace)
		}
	}
	n.fhTrace, n.fcTrace = fh, fc
}

// frozenSpan is the range of frozen stage s's blocks in the frozen layout.
func (n *NetworkOf[T]) frozenSpan(s int) (lo, hi int) {
	return n.top.OffFrozen(s, 0), n.top.OffFrozen(s+1, 0)
}

// frozenTraces updates the traces of frozen stage s from what stepStage(s,
// xs, xs, true) left: the per-step scalars in n.traceCoef and the previous
// h and the f gate in n.gates, which the next stage overwrites.
func (n *NetworkOf[T]) frozenTraces(s int, xs []float64) {
	u := n.stageStart[s+1] - n.stageStart[s]
	lo, hi := n.frozenSpan(s)
	ht, ct := float.F64(n.fhTrace[lo:hi]), float.F64(n.fcTrace[lo:hi])
	lanes.StageTrace(ht, ct, xs, n.gates.a[arch.GateF][:u], n.gates.hp[:u], n.traceCoef)
}

// FrozenGrad writes into dst (length len(Frozen())) the gradient of the last
// Step's prediction with respect to the frozen parameters along each frozen
// column's own recurrence and head weight: for frozen column k's block
//
//	w_k·scale_k·∂h_k/∂θ_k
//
// with the head weight w_k of the last Step; the paths through later
// columns, which read ĥ_k, are left out, so this is not ∂y/∂θ_k unless no
// later column depends on ĥ_k. It panics unless the network keeps
// FrozenTraces.
func (n *NetworkOf[T]) FrozenGrad(dst []T) {
	if !n.cfg.FrozenTraces {
		panic("forward: FrozenGrad of a network without FrozenTraces")
	}
	if len(dst) != len(n.frozen) {
		panic(fmt.Sprintf("forward: frozen gradient has length %d, want %d", len(dst), len(n.frozen)))
	}
	for s := range n.top.Learning() {
		lo, hi := n.frozenSpan(s)
		lanes.ScaleBlocks(float.F64(dst[lo:hi]), n.fcoef[n.stageStart[s]:n.stageStart[s+1]], float.F64(n.fhTrace[lo:hi]))
	}
}
