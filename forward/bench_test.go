package forward

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// Every benchmark op is one Step followed by one Grad, on inputs drawn once.

func benchInputs(m int) [][]float64 {
	xs := randomInputs(rand.New(rand.NewPCG(1, 2)), 64, m)
	return xs
}

// stepGrader is an engine as these benchmarks time it.
type stepGrader interface {
	Step(x []float64) float64
	Grad(dst []float64)
	Params() []float64
	NumParams() int
	OpsPerStep() int
}

// benchStepGrad times Step and Grad of e on m inputs, its parameters drawn
// from U(±0.3), and reports its operations per step and GFLOP/s.
func benchStepGrad(b *testing.B, e stepGrader, m int) {
	fillUniform(rand.New(rand.NewPCG(3, 4)), e.Params(), 0.3)
	benchStepGradAsIs(b, e, m)
}

// benchStepGradAsIs is benchStepGrad with e's own parameters.
func benchStepGradAsIs(b *testing.B, e stepGrader, m int) {
	xs := benchInputs(m)
	dst := make([]float64, e.NumParams())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Step(xs[i&63])
		e.Grad(dst)
	}
	b.ReportMetric(float64(e.OpsPerStep()), "ops/step")
	reportGFLOPS(b, e.OpsPerStep())
}

func BenchmarkColumn(b *testing.B) {
	for _, m := range []int{12, 28} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) { benchStepGrad(b, NewColumn(m), m) })
	}
}

func BenchmarkDenseRTRL(b *testing.B) {
	benchStepGrad(b, NewDenseRTRL(arch.Dense{Hidden: 4, Inputs: 12}), 12)
}

// BenchmarkSnAp1 sizes SnAp-1 from the runs' H = 4 to wider networks: the
// time per step grows with the parameters, 4H(m+H+1).
func BenchmarkSnAp1(b *testing.B) {
	for _, h := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("H=%d", h), func(b *testing.B) {
			benchStepGrad(b, NewSnAp1(arch.Dense{Hidden: h, Inputs: 12, OutBias: true}), 12)
		})
	}
}

// BenchmarkUORO sizes UORO as BenchmarkSnAp1.
func BenchmarkUORO(b *testing.B) {
	for _, h := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("H=%d", h), func(b *testing.B) {
			benchStepGrad(b, NewUORO(arch.Dense{Hidden: h, Inputs: 12, OutBias: true}, 1), 12)
		})
	}
}

// benchNetworks are the paper's trace-patterning configurations (12 inputs),
// each in its last stage.
var benchNetworks = []struct {
	name string
	top  arch.Network
}{
	{"CCN16_u4", arch.CCN(12, 4, 3, arch.Normalization{Enabled: true})},
	{"CCN20_u4", arch.CCN(12, 4, 4, arch.Normalization{Enabled: true})},
	{"Columnar7", arch.Columnar(12, 7, arch.Normalization{Enabled: true})},
	{"Columnar10", arch.Columnar(12, 10, arch.Normalization{Enabled: true})},
	{"Constructive5", arch.CCN(12, 1, 4, arch.Normalization{Enabled: true})},
}

func benchNetwork(b *testing.B, top arch.Network) {
	benchStepGrad(b, NewNetworkAt(top, NetworkConfig{Seed: 1}), top.Inputs)
}

// reportGFLOPS reports the engine's own operation count per second (Step
// plus Grad, OpsPerStep), in GFLOP/s.
func reportGFLOPS(b *testing.B, ops int) {
	b.ReportMetric(float64(ops)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
}

func BenchmarkNetwork(b *testing.B) {
	for _, bn := range benchNetworks {
		b.Run(bn.name, func(b *testing.B) { benchNetwork(b, bn.top) })
	}
}

// BenchmarkColumnarScaling shows that the cost of a Columnar network is linear
// in its number of parameters: ns/param stays flat from 10 to 100,000 columns.
func BenchmarkColumnarScaling(b *testing.B) {
	for _, d := range []int{10, 100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("columns=%d", d), func(b *testing.B) {
			n := NewNetworkAt(arch.Columnar(12, d, arch.Normalization{Enabled: true}), NetworkConfig{Seed: 1})
			benchStepGrad(b, n, 12)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n.NumParams()), "ns/param")
		})
	}
}

// frozenTraced is a network with FrozenTraces as the benchmarks time it:
// Grad is Grad and FrozenGrad.
type frozenTraced struct {
	*Network
	frozen []float64
}

func (f frozenTraced) Grad(dst []float64) {
	f.Network.Grad(dst)
	f.FrozenGrad(f.frozen)
}

// BenchmarkNetworkFrozenTraces times the trace-patterning CCN 16 in its last
// stage with and without its frozen columns' traces (frozen-step-scale):
// Step, Grad and, with them, FrozenGrad.
func BenchmarkNetworkFrozenTraces(b *testing.B) {
	top := benchNetworks[0].top
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("frozen-traces=%t", on), func(b *testing.B) {
			n := NewNetworkAt(top, NetworkConfig{Seed: 1, FrozenTraces: on})
			fillUniform(rand.New(rand.NewPCG(3, 4)), n.Frozen(), 0.3)
			var e stepGrader = n
			if on {
				e = frozenTraced{n, make([]float64, len(n.Frozen()))}
			}
			benchStepGrad(b, e, top.Inputs)
		})
	}
}
