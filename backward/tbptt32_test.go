package backward

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/arch"
)

// TestTBPTT32ZeroAllocs checks that the float32 engine's Step and Grad
// allocate nothing, at the trace-patterning size and at 275 inputs.
func TestTBPTT32ZeroAllocs(t *testing.T) {
	for _, c := range []struct{ H, m, k int }{{4, 12, 1}, {4, 12, 15}, {7, 275, 5}, {25, 275, 2}} {
		d := arch.Dense{Hidden: c.H, Inputs: c.m}
		p, xs := randomCase(rand.New(rand.NewPCG(1, uint64(c.k))), d, 2*c.k+2, 0.5)
		e := NewTBPTT32(d, c.k)
		for i, v := range p {
			e.Params()[i] = float32(v)
		}
		g := make([]float32, e.NumParams())
		for _, x := range xs[:c.k+1] {
			e.Step(x)
			e.Grad(g)
		}
		i := 0
		allocs := testing.AllocsPerRun(50, func() {
			e.Step(xs[i%len(xs)])
			e.Grad(g)
			i++
		})
		assert.Zero(t, allocs, "H=%d m=%d k=%d", c.H, c.m, c.k)
	}
}

// TestTBPTT32Reset checks that the float32 engine is deterministic and that
// Reset clears its state and history: a second run from Reset gives the
// first run's bits, and its predictions follow the float64 engine's
// closely (package compare bounds the difference: CheckTBPTT32).
func TestTBPTT32Reset(t *testing.T) {
	for _, k := range []int{0, 1, 3} {
		d := arch.Dense{Hidden: 3, Inputs: 9, OutBias: true}
		p, xs := randomCase(rand.New(rand.NewPCG(2, uint64(k))), d, 12, 0.5)
		e, e64 := NewTBPTT32(d, k), NewTBPTT(d, k)
		for i, v := range p {
			e.Params()[i] = float32(v)
			e64.Params()[i] = float64(float32(v))
		}
		run := func() (ys []float64, gs [][]float32) {
			for _, x := range xs {
				ys = append(ys, e.Step(x))
				g := make([]float32, e.NumParams())
				e.Grad(g)
				gs = append(gs, g)
			}
			return ys, gs
		}
		ys, gs := run()
		assert.Equal(t, len(xs), e.Steps())
		e.Reset()
		assert.Zero(t, e.Steps())
		assert.Equal(t, make([]float32, 3), e.H())
		ys2, gs2 := run()
		assert.Equal(t, ys, ys2, "k=%d", k)
		assert.Equal(t, gs, gs2, "k=%d", k)
		for i, x := range xs {
			assert.InDelta(t, e64.Step(x), ys[i], 1e-5, "k=%d step %d", k, i+1)
		}
		assert.False(t, math.IsNaN(ys[len(ys)-1]))
	}
}
