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

func BenchmarkColumn(b *testing.B) {
	for _, m := range []int{12, 28} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			col := NewColumn(m)
			fillUniform(rand.New(rand.NewPCG(3, 4)), col.Params(), 0.3)
			xs := benchInputs(m)
			dst := make([]float64, col.NumParams())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				col.Step(xs[i&63])
				col.Grad(dst)
			}
			b.ReportMetric(float64(col.OpsPerStep()), "ops/step")
		})
	}
}

func BenchmarkDenseRTRL(b *testing.B) {
	shape := arch.Dense{Hidden: 4, Inputs: 12}
	d := NewDenseRTRL(shape)
	fillUniform(rand.New(rand.NewPCG(3, 4)), d.Params(), 0.3)
	xs := benchInputs(12)
	dst := make([]float64, d.NumParams())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.Step(xs[i&63])
		d.Grad(dst)
	}
	b.ReportMetric(float64(d.OpsPerStep()), "ops/step")
}

// BenchmarkSnAp1 sizes SnAp-1 from the runs' H = 4 to wider networks: the
// time per step grows with the parameters, 4H(m+H+1).
func BenchmarkSnAp1(b *testing.B) {
	for _, h := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("H=%d", h), func(b *testing.B) {
			shape := arch.Dense{Hidden: h, Inputs: 12, OutBias: true}
			s := NewSnAp1(shape)
			fillUniform(rand.New(rand.NewPCG(3, 4)), s.Params(), 0.3)
			xs := benchInputs(12)
			dst := make([]float64, s.NumParams())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s.Step(xs[i&63])
				s.Grad(dst)
			}
			b.ReportMetric(float64(s.OpsPerStep()), "ops/step")
			reportGFLOPS(b, s.OpsPerStep())
		})
	}
}

// BenchmarkUORO sizes UORO as BenchmarkSnAp1.
func BenchmarkUORO(b *testing.B) {
	for _, h := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("H=%d", h), func(b *testing.B) {
			shape := arch.Dense{Hidden: h, Inputs: 12, OutBias: true}
			u := NewUORO(shape, 1)
			fillUniform(rand.New(rand.NewPCG(3, 4)), u.Params(), 0.3)
			xs := benchInputs(12)
			dst := make([]float64, u.NumParams())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				u.Step(xs[i&63])
				u.Grad(dst)
			}
			b.ReportMetric(float64(u.OpsPerStep()), "ops/step")
			reportGFLOPS(b, u.OpsPerStep())
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
	n := NewNetworkAt(top, NetworkConfig{Seed: 1})
	fillUniform(rand.New(rand.NewPCG(3, 4)), n.Params(), 0.3)
	xs := benchInputs(top.Inputs)
	dst := make([]float64, n.NumParams())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		n.Step(xs[i&63])
		n.Grad(dst)
	}
	b.ReportMetric(float64(n.OpsPerStep()), "ops/step")
	reportGFLOPS(b, n.OpsPerStep())
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
			top := arch.Columnar(12, d, arch.Normalization{Enabled: true})
			n := NewNetworkAt(top, NetworkConfig{Seed: 1})
			fillUniform(rand.New(rand.NewPCG(3, 4)), n.Params(), 0.3)
			xs := benchInputs(12)
			dst := make([]float64, n.NumParams())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				n.Step(xs[i&63])
				n.Grad(dst)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n.NumParams()), "ns/param")
			reportGFLOPS(b, n.OpsPerStep())
		})
	}
}
