package backward

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// BenchmarkStepGrad measures one Step plus one Grad (the per-step cost of
// online T-BPTT) with a full window, at the paper's trace-patterning sizes
// (m = 12: H=4 k=15 the best T-BPTT, H=10 k=5 from the extra-compute study)
// and at m = 28.
func BenchmarkStepGrad(b *testing.B) {
	for _, c := range []struct{ H, k, m int }{
		{4, 15, 12},
		{10, 5, 12},
		{4, 15, 28},
	} {
		b.Run(fmt.Sprintf("H=%d/k=%d/m=%d", c.H, c.k, c.m), func(b *testing.B) {
			d := arch.Dense{Hidden: c.H, Inputs: c.m}
			rng := rand.New(rand.NewPCG(1, 2))
			p, xs := randomCase(rng, d, 64, 0.5)
			e := NewTBPTT(d, c.k)
			copy(e.Params(), p)
			benchLoop(b, e, xs)
		})
	}
}

// benchLoop times Step plus Grad of e on the inputs xs, cycled, after k+1
// steps (a full window), and reports the engine's operations per step.
func benchLoop(b *testing.B, e *TBPTT, xs [][]float64) {
	g := make([]float64, e.NumParams())
	for _, x := range xs[:e.Truncation()+1] {
		e.Step(x)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Step(xs[i%len(xs)])
		e.Grad(g)
	}
	b.ReportMetric(float64(e.OpsPerStep()), "ops/op")
}

// onOff sets every input of xs to 1 with probability pct/100, else to 0:
// binary inputs of a given density.
func onOff(rng *rand.Rand, xs [][]float64, pct int) {
	for _, x := range xs {
		for j := range x {
			x[j] = 0
			if rng.IntN(100) < pct {
				x[j] = 1
			}
		}
	}
}
