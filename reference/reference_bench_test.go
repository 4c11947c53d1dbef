package reference

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// BenchmarkReferenceDenseStep measures the autodiff ground truth per step of a
// trajectory (H = 4, m = 12, T = 200, graph prebuilt): ns/step = ns/op / T.
func BenchmarkReferenceDenseStep(b *testing.B) {
	const steps = 200
	shape := arch.Dense{Hidden: 4, Inputs: 12}
	rng := rand.New(rand.NewPCG(1, 1))
	params := uniform(rng, shape.NumParams(), 0.5)
	xs := inputs(rng, steps, 12)
	a := uniform(rng, steps, 1)
	r := New()
	if _, _, err := r.Dense(shape, params, xs, a); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := r.Dense(shape, params, xs, a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/steps, "ns/step")
}

// BenchmarkReferenceBuild measures building, compiling and running once, on a
// fresh Reference, the largest graphs the compare package uses.
func BenchmarkReferenceBuild(b *testing.B) {
	b.Run("dense H=4 m=12 T=200", func(b *testing.B) {
		const steps = 200
		shape := arch.Dense{Hidden: 4, Inputs: 12}
		rng := rand.New(rand.NewPCG(2, 2))
		params := uniform(rng, shape.NumParams(), 0.5)
		xs := inputs(rng, steps, 12)
		for b.Loop() {
			if _, _, err := New().Dense(shape, params, xs, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ccn 3×4 m=64 T=50", func(b *testing.B) {
		const steps = 50
		top := arch.CCN(64, 4, 2, arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.01})
		rng := rand.New(rand.NewPCG(3, 3))
		frozen := uniform(rng, top.NumFrozen(), 0.3)
		learnable := uniform(rng, top.NumLearnable(), 0.3)
		xs := inputs(rng, steps, 64)
		for b.Loop() {
			if _, _, err := New().Network(top, frozen, learnable, xs, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReferenceNetworkRun measures a run of a prebuilt CCN graph
// (3 stages × 4 columns, m = 64, T = 50).
func BenchmarkReferenceNetworkRun(b *testing.B) {
	const steps = 50
	top := arch.CCN(64, 4, 2, arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.01})
	rng := rand.New(rand.NewPCG(3, 3))
	frozen := uniform(rng, top.NumFrozen(), 0.3)
	learnable := uniform(rng, top.NumLearnable(), 0.3)
	xs := inputs(rng, steps, 64)
	r := New()
	if _, _, err := r.Network(top, frozen, learnable, xs, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := r.Network(top, frozen, learnable, xs, nil); err != nil {
			b.Fatal(err)
		}
	}
}
