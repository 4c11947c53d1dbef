//go:build goexperiment.simd && amd64 && linux

package f32step

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/internal/lanes"
)

// BenchmarkLearnerTBPTT times a T-BPTT learner's step at 275 sparse binary
// inputs with the engines of package backward: Step and Grad, then RMSProp
// with the fold of the gradient into the eligibility trace z as package td
// does it (the cells' parameters in one pass, the head's in another), in
// float64 (backward.TBPTT, lanes.RMSPropFold, lanes.RMSProp,
// lanes.ScaleAdd) and in float32 (backward.TBPTT32, this package's
// RMSPropFold32 and RMSProp32Shared, the head's fold in scalar code), for
// the pairs k:H 5:7, 15:2 and 2:25 with the output bias. The TD error is
// held at 0.5: the float32 learner of package td does not exist here, so
// this is the step it would take, not a measured run.
//
//	GOEXPERIMENT=simd go test -c -o f32step.test ./internal/spikes/f32step
//	taskset -c 1 ./f32step.test -test.run '^$' -test.bench BenchmarkLearnerTBPTT -test.benchtime 20000x -test.cpu 1
func BenchmarkLearnerTBPTT(b *testing.B) {
	x64, _ := frames()
	xs := make([][]float64, 16)
	for i := range xs {
		xs[i] = x64[i][:275]
	}
	const alpha, beta, eps, decay = 1e-4, 0.9999, 1e-8, 0.72
	for _, c := range []struct{ k, H int }{{5, 7}, {15, 2}, {2, 25}} {
		shape := arch.Dense{Hidden: c.H, Inputs: 275, OutBias: true}
		n := shape.NumParams()
		h0 := shape.OffOut()
		rng := rand.New(rand.NewPCG(41, 42))
		p32, p := fill32(rng, n, -0.1, 0.1)
		b.Run(fmt.Sprintf("%d:%d/f64", c.k, c.H), func(b *testing.B) {
			e := backward.NewTBPTT(shape, c.k)
			copy(e.Params(), p)
			th, g, z, v := e.Params(), make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range v {
				v[i] = 1
			}
			cpuLoop(b, func(i int) {
				e.Step(xs[i&15])
				e.Grad(g)
				lanes.RMSPropFold(th[:h0], z[:h0], v[:h0], g[:h0], 0.5, alpha, beta, eps, decay, 1)
				lanes.RMSProp(th[h0:], z[h0:], v[h0:], 0.5, alpha/float64(c.H), beta, eps)
				lanes.ScaleAdd(z[h0:], decay, 1, g[h0:])
			})
		})
		b.Run(fmt.Sprintf("%d:%d/f32", c.k, c.H), func(b *testing.B) {
			e := backward.NewTBPTT32(shape, c.k)
			copy(e.Params(), p32)
			th, g, z, v := e.Params(), make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range v {
				v[i] = 1
			}
			cpuLoop(b, func(i int) {
				e.Step(xs[i&15])
				e.Grad(g)
				RMSPropFold32(th[:h0], z[:h0], v[:h0], g[:h0], 0.5, alpha, beta, eps, decay, 1)
				RMSProp32Shared(th[h0:], z[h0:], v[h0:], 0.5, alpha/float64(c.H), beta, eps)
				for k := h0; k < n; k++ {
					z[k] = decay*z[k] + g[k]
				}
			})
		})
	}
}
