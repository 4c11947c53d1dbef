package backward

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// BenchmarkAtari measures one Step plus one Grad of T-BPTT at the paper's
// 275 Atari inputs, for its best pair k:H = 5:7 and the pair 15:2 (§5,
// Table 3), on Gaussian inputs and (/pixels) on inputs as sparse as the
// pixel games' (5% on), where Grad sums ∂W_ih over the nonzero inputs.
func BenchmarkAtari(b *testing.B) {
	for _, c := range []struct{ H, k int }{{7, 5}, {2, 15}} {
		for _, pixels := range []bool{false, true} {
			name := fmt.Sprintf("H=%d/k=%d", c.H, c.k)
			if pixels {
				name += "/pixels"
			}
			b.Run(name, func(b *testing.B) {
				d := arch.Dense{Hidden: c.H, Inputs: 275}
				rng := rand.New(rand.NewPCG(1, 2))
				p, xs := randomCase(rng, d, 64, 0.5)
				if pixels {
					onOff(rng, xs, 5)
				}
				e := NewTBPTT(d, c.k)
				copy(e.Params(), p)
				benchLoop(b, e, xs)
			})
		}
	}
}

// BenchmarkSparseThreshold measures Step plus Grad at 275 inputs with the
// sum of ∂W_ih over the nonzero inputs (sparse) and over every input
// (dense, denseOnly), on binary inputs of several densities: the evidence
// for sparseWorth's threshold of one nonzero input in eight.
func BenchmarkSparseThreshold(b *testing.B) {
	for _, c := range []struct{ H, k int }{{7, 5}, {2, 15}, {25, 2}} {
		for _, pct := range []int{2, 5, 8, 12, 16, 25} {
			for _, dense := range []bool{false, true} {
				name := fmt.Sprintf("H=%d/k=%d/on=%d%%/sparse", c.H, c.k, pct)
				if dense {
					name = fmt.Sprintf("H=%d/k=%d/on=%d%%/dense", c.H, c.k, pct)
				}
				b.Run(name, func(b *testing.B) {
					d := arch.Dense{Hidden: c.H, Inputs: 275}
					rng := rand.New(rand.NewPCG(3, 4))
					p, xs := randomCase(rng, d, 64, 0.5)
					onOff(rng, xs, pct)
					e := NewTBPTT(d, c.k)
					e.denseOnly = dense
					e.sparseAlways = !dense
					copy(e.Params(), p)
					benchLoop(b, e, xs)
				})
			}
		}
	}
}
