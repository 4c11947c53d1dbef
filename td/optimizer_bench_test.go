package td

import (
	"fmt"
	"math"
	"testing"
)

func BenchmarkOptimizerUpdate(b *testing.B) {
	for _, n := range []int{500, 5000} {
		for _, o := range []Optimizer[float64]{&Adam{StepSize: 1e-4}, &RMSProp{StepSize: 1e-4}} {
			b.Run(fmt.Sprintf("%T/%d", o, n), func(b *testing.B) {
				o.Reset(Layout{Size: n, HeadStart: n - 21, HeadEnd: n, Features: 20})
				theta, d := make([]float64, n), make([]float64, n)
				for i := range d {
					d[i] = float64(i%7) - 3
				}
				b.ReportAllocs()
				for b.Loop() {
					o.Update(theta, d, 0.5)
				}
			})
		}
	}
}

// exactRMS is the direct formula, for comparison with RMSProp's Newton path.
func exactRMS(theta, d, v []float64, alpha, b, eps float64) {
	for i, g := range d {
		vi := b*v[i] + (1-b)*g*g
		v[i] = vi
		theta[i] += alpha * g / (math.Sqrt(vi) + eps)
	}
}

func BenchmarkExactRMS(b *testing.B) {
	n := 500
	theta, d, v := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range d {
		d[i] = float64(i%7) - 3
		v[i] = 1
	}
	for b.Loop() {
		exactRMS(theta, d, v, 1e-4, 0.9999, 1e-8)
	}
}
