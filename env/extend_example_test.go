package env_test

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/env"
)

// blink is a stream whose one input is on every period steps; the cumulant
// is that input, so the return at step t is known in closed form: with the
// next "on" d steps ahead and one every period steps after it,
//
//	G_t = Σ_{j>t} γ^(j−t−1)·c_j = γ^(d−1) / (1 − γ^period)
type blink struct {
	period, t int
	gamma     float64
}

var _ env.Named = (*blink)(nil)

func (b *blink) ObservationSize() int       { return 1 }
func (b *blink) ObservationNames() []string { return []string{"on"} }

func (b *blink) Next(dst []float64) (cumulant, ret float64) {
	b.t++
	dst[0] = 0
	if b.t%b.period == 0 {
		dst[0] = 1
	}
	d := b.period - b.t%b.period
	return dst[0], math.Pow(b.gamma, float64(d-1)) / (1 - math.Pow(b.gamma, float64(b.period)))
}

// A new environment is an env.Env: its observation size and a Next that
// writes x_t and returns c_t and the exact return G_t. Naming its inputs
// (env.Named) gives ccn stream its column names.
func Example_environment() {
	e := &blink{period: 3, gamma: 0.5}
	fmt.Println(env.ObservationNames(e))
	x := make([]float64, e.ObservationSize())
	for range 4 {
		c, g := e.Next(x)
		fmt.Printf("x=%v c=%v G=%.4f\n", x[0], c, g)
	}
	// Output:
	// [on]
	// x=0 c=0 G=0.5714
	// x=0 c=0 G=1.1429
	// x=1 c=1 G=0.2857
	// x=0 c=0 G=0.5714
}
