//go:build goexperiment.simd && amd64 && linux

package f32step

import (
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// threadCPU returns the calling thread's CPU time in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID), as BenchmarkSteadyStep in package experiments.
func threadCPU() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// cpuLoop runs step b.N times and reports the thread CPU time per call
// (cpu-ns/op).
func cpuLoop(b *testing.B, step func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i := range 100 {
		step(i)
	}
	b.ResetTimer()
	start := threadCPU()
	for i := 0; i < b.N; i++ {
		step(i)
	}
	b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
}

// netShape is a network in its last stage at 275 inputs: the inputs of
// each stage (the frozen stages' too), the learning stage's columns, and
// RMSProp's blocks (the columns' parameters, the head, the bias).
type netShape struct {
	name   string
	stages []struct{ u, m int }
	rms    []int
}

var netShapes = []netShape{
	{"columnar6", []struct{ u, m int }{{6, 275}}, []int{6 * arch.ColumnParams(275), 6, 1}},
	{"ccn15x5", []struct{ u, m int }{{5, 275}, {5, 280}, {5, 285}}, []int{5 * arch.ColumnParams(285), 15, 1}},
	{"ccn15x5_stage1", []struct{ u, m int }{{5, 275}}, []int{5 * arch.ColumnParams(275), 5, 1}},
	{"ccn15x5_stage2", []struct{ u, m int }{{5, 275}, {5, 280}}, []int{5 * arch.ColumnParams(280), 10, 1}},
}

// frames are 16 inputs of 285 entries, a tenth of them 1 (the benchmarks'
// stream), in float64 and float32. Every input is 1 in one frame at least:
// the trace of an input that stays 0 decays into subnormal numbers, where
// rounding holds it (0.6 times the least subnormal rounds to it), and the
// float64 trace update then runs up to 1.6 times slower (measured) while the
// synthetic stream of BenchmarkEndToEnd275 has none.
func frames() ([][]float64, [][]float32) {
	rng := rand.New(rand.NewPCG(13, 14))
	f64, f32 := make([][]float64, 16), make([][]float32, 16)
	for i := range f64 {
		f64[i], f32[i] = make([]float64, 288), make([]float32, 288)
		for k := range 285 {
			if rng.Float64() < 0.1 || k%16 == i {
				f64[i][k], f32[i][k] = 1, 1
			}
		}
	}
	return f64, f32
}

// BenchmarkPasses times each pass of the learner step at 275 inputs in
// float64 (the lane kernels of package lanes the engine calls) and in
// float32 (this package), one after the other: the forward pre-activations
// of every stage (for float32 with the conversion of the 275 inputs), the
// learning stage's trace update with its fold into z, and RMSProp over the
// learnable parameters' three blocks (float32 with a division per octet,
// and shared between two octets).
func BenchmarkPasses(b *testing.B) {
	x64, x32f := frames()
	for _, sh := range netShapes {
		rng := rand.New(rand.NewPCG(15, 16))
		b.Run(sh.name+"/forward/f64", func(b *testing.B) {
			var blocks [][]float64
			for _, st := range sh.stages {
				_, p := fill32(rng, st.u*arch.ColumnParams(st.m), -0.1, 0.1)
				blocks = append(blocks, p)
			}
			_, h := fill32(rng, 5+1, -1, 1)
			a := make([][]float64, 4)
			for q := range a {
				a[q] = make([]float64, 6)
			}
			cpuLoop(b, func(i int) {
				x := x64[i&15]
				for s, st := range sh.stages {
					lanes.Preact(a[0][:st.u], a[1][:st.u], a[2][:st.u], a[3][:st.u], h[:st.u], blocks[s], x[:st.m])
				}
			})
		})
		b.Run(sh.name+"/forward/f32", func(b *testing.B) {
			var blocks [][]float32
			for _, st := range sh.stages {
				p, _ := fill32(rng, st.u*arch.ColumnParams(st.m), -0.1, 0.1)
				blocks = append(blocks, p)
			}
			h, _ := fill32(rng, 6, -1, 1)
			a := make([][]float32, 4)
			for q := range a {
				a[q] = make([]float32, 6)
			}
			xin := make([]float32, 296)
			cpuLoop(b, func(i int) {
				x := x64[i&15]
				Input32(xin, x[:275])
				copy(xin[275:285], x32f[i&15][275:285]) // the earlier stages' features
				for s, st := range sh.stages {
					Preact32(a[0][:st.u], a[1][:st.u], a[2][:st.u], a[3][:st.u], h[:st.u], blocks[s], xin, st.m)
				}
			})
		})
		last := sh.stages[len(sh.stages)-1]
		b.Run(sh.name+"/trace/f64", func(b *testing.B) {
			t := benchTraceCase(last.u, last.m)
			cpuLoop(b, func(i int) {
				lanes.StageTraceFold(t.ht64, t.ct64, x64[i&15][:last.m], t.f, t.hp, t.k, t.z6, t.d, t.c, true)
			})
		})
		b.Run(sh.name+"/trace/f32", func(b *testing.B) {
			t := benchTraceCase(last.u, last.m)
			cpuLoop(b, func(i int) {
				StageTraceFold32(t.ht, t.ct, x32f[i&15][:last.m], t.f, t.hp, t.k, t.z, t.d, t.c, true)
			})
		})
		b.Run(sh.name+"/trace/f32rows", func(b *testing.B) {
			t := benchTraceCase(last.u, last.m)
			cpuLoop(b, func(i int) {
				StageTraceFold32Rows(t.ht, t.ct, x32f[i&15][:last.m], t.f, t.hp, t.k, t.z, t.d, t.c, true)
			})
		})
		for _, v := range []struct {
			name string
			f32  func(theta, u, v []float32, s, alpha, b, eps float64)
		}{{"f64", nil}, {"f32", RMSProp32}, {"f32shared", RMSProp32Shared}} {
			b.Run(sh.name+"/rmsprop/"+v.name, func(b *testing.B) {
				n := 0
				for _, k := range sh.rms {
					n += k
				}
				t32, t64 := fill32(rng, n, -0.1, 0.1)
				z32, z64 := fill32(rng, n, -1, 1)
				v32, v64 := fill32(rng, n, 0.5, 1)
				cpuLoop(b, func(int) {
					o := 0
					for j, k := range sh.rms {
						alpha := 1e-4
						if j == 1 {
							alpha /= float64(k)
						}
						if v.f32 == nil {
							lanes.RMSProp(t64[o:o+k], z64[o:o+k], v64[o:o+k], 0.5, alpha, 0.9999, 1e-8)
						} else {
							v.f32(t32[o:o+k], z32[o:o+k], v32[o:o+k], 0.5, alpha, 0.9999, 1e-8)
						}
						o += k
					}
				})
			})
		}
	}
}

// benchTraceCase is a traceCase whose traces stay finite and normal under
// repeated steps: fixed coefficients of a stable recurrence (f = 0.6, A =
// 0.05, B = 0.5, E = 0.02, κ_q = D = 0.1), z decaying by γλ = 0.72.
func benchTraceCase(u, m int) *traceCase {
	t := newTraceCase(rand.New(rand.NewPCG(17, 18)), u, m)
	for j := range u {
		t.f[j], t.k.A[j], t.k.B[j], t.k.E[j], t.c[j] = 0.6, 0.05, 0.5, 0.02, 1
		kj := t.k.K[8*j : 8*j+8]
		kj[0], kj[1], kj[2], kj[7] = 0.1, 0.1, 0.1, 0.1
	}
	t.d = 0.72
	return t
}

// BenchmarkPassesTBPTT times T-BPTT 5:7's passes at 275 inputs (28 rows of
// input weights, a window of 5) in float64 and float32, one after the
// other: the input weights' pre-activations (for float32 with the input's
// conversion), the gradient (cleared, then the window's outer products
// summed into the input weights' block) and RMSProp with the fold of the
// gradient into z over the learnable parameters (7,924 entries, then the
// head's 8).
func BenchmarkPassesTBPTT(b *testing.B) {
	const R, m, w, n, head = 28, 275, 5, 7924, 8
	x64, x32f := frames()
	rng := rand.New(rand.NewPCG(27, 28))
	wih32, wih := fill32(rng, R*m, -0.1, 0.1)
	b.Run("tbptt5x7/forward/f64", func(b *testing.B) {
		var a [4]float64
		cpuLoop(b, func(i int) {
			x := x64[i&15][:m]
			for row := 0; row < R; row += 4 {
				lanes.Dot4(&a, wih[row*m:(row+4)*m], x)
			}
		})
	})
	b.Run("tbptt5x7/forward/f32", func(b *testing.B) {
		xin := make([]float32, Padded(m))
		var s f32x4
		cpuLoop(b, func(i int) {
			Input32(xin, x64[i&15][:m])
			for row := 0; row < R; row += 4 {
				s = s.Add(dot4x8(unsafe.Pointer(&wih32[row*m]), base(xin), m))
			}
		})
	})
	d32, d := fill32(rng, R*w, -1, 1)
	b.Run("tbptt5x7/grad/f64", func(b *testing.B) {
		g := make([]float64, n+head)
		xw := make([][]float64, w)
		cpuLoop(b, func(i int) {
			for k := range w {
				xw[k] = x64[(i+k)&15][:m]
			}
			clear(g)
			lanes.OuterSum(g[:R*m], d, xw)
		})
	})
	b.Run("tbptt5x7/grad/f32", func(b *testing.B) {
		g := make([]float32, n+head)
		xw := make([][]float32, w)
		pad := make([][]float32, 16) // the frames' first 275 inputs, zero after
		for k := range pad {
			pad[k] = make([]float32, Padded(m))
			copy(pad[k], x32f[k][:m])
		}
		cpuLoop(b, func(i int) {
			for k := range w {
				xw[k] = pad[(i+k)&15]
			}
			clear(g)
			OuterSum32(g, d32, xw, m)
		})
	})
	b.Run("tbptt5x7/rmsprop/f64", func(b *testing.B) {
		_, th := fill32(rng, n+head, -0.1, 0.1)
		_, z := fill32(rng, n+head, -1, 1)
		_, v := fill32(rng, n+head, 0.5, 1)
		_, g := fill32(rng, n+head, -1, 1)
		cpuLoop(b, func(int) {
			lanes.RMSPropFold(th[:n], z[:n], v[:n], g[:n], 0.5, 1e-4, 0.9999, 1e-8, 0.72, 1)
			lanes.RMSProp(th[n:], z[n:], v[n:], 0.5, 1e-4/7, 0.9999, 1e-8)
			lanes.ScaleAdd(z[n:], 0.72, 1, g[n:])
		})
	})
	b.Run("tbptt5x7/rmsprop/f32", func(b *testing.B) {
		th, _ := fill32(rng, n+head, -0.1, 0.1)
		z, _ := fill32(rng, n+head, -1, 1)
		v, _ := fill32(rng, n+head, 0.5, 1)
		g, _ := fill32(rng, n+head, -1, 1)
		cpuLoop(b, func(int) {
			RMSPropFold32(th[:n], z[:n], v[:n], g[:n], 0.5, 1e-4, 0.9999, 1e-8, 0.72, 1)
			RMSProp32Shared(th[n:], z[n:], v[n:], 0.5, 1e-4/7, 0.9999, 1e-8)
			for k := n; k < n+head; k++ {
				z[k] = 0.72*z[k] + g[k]
			}
		})
	})
}

// BenchmarkComposed runs the passes of BenchmarkPasses in one step, in the
// engine's order and on shared vectors (the learning stage's parameters are
// the forward pass's and RMSProp's θ; its eligibility trace z is RMSProp's
// direction and the fold's destination): the forward pre-activations of
// every stage, RMSProp (float32: shared divisions), then the trace update
// with its fold (float32: row by row). It checks that the passes' times
// add up when they follow one another, as in a learner's step.
func BenchmarkComposed(b *testing.B) {
	x64, x32f := frames()
	for _, sh := range netShapes[:2] {
		rng := rand.New(rand.NewPCG(29, 30))
		last := sh.stages[len(sh.stages)-1]
		nl := last.u * arch.ColumnParams(last.m)
		n := 0
		for _, k := range sh.rms {
			n += k
		}
		b.Run(sh.name+"/f64", func(b *testing.B) {
			var blocks [][]float64
			for _, st := range sh.stages[:len(sh.stages)-1] {
				_, p := fill32(rng, st.u*arch.ColumnParams(st.m), -0.1, 0.1)
				blocks = append(blocks, p)
			}
			_, theta := fill32(rng, n, -0.1, 0.1)
			_, v := fill32(rng, n, 0.5, 1)
			blocks = append(blocks, theta[:nl])
			_, h := fill32(rng, 6, -1, 1)
			a := make([][]float64, 4)
			for q := range a {
				a[q] = make([]float64, 6)
			}
			t := benchTraceCase(last.u, last.m)
			z := append(t.z6, make([]float64, n-nl)...)
			cpuLoop(b, func(i int) {
				x := x64[i&15]
				for s, st := range sh.stages {
					lanes.Preact(a[0][:st.u], a[1][:st.u], a[2][:st.u], a[3][:st.u], h[:st.u], blocks[s], x[:st.m])
				}
				o := 0
				for j, k := range sh.rms {
					alpha := 1e-4
					if j == 1 {
						alpha /= float64(k)
					}
					lanes.RMSProp(theta[o:o+k], z[o:o+k], v[o:o+k], 0.5, alpha, 0.9999, 1e-8)
					o += k
				}
				lanes.StageTraceFold(t.ht64, t.ct64, x[:last.m], t.f, t.hp, t.k, z[:nl], t.d, t.c, true)
			})
		})
		b.Run(sh.name+"/f32", func(b *testing.B) {
			var blocks [][]float32
			for _, st := range sh.stages[:len(sh.stages)-1] {
				p, _ := fill32(rng, st.u*arch.ColumnParams(st.m), -0.1, 0.1)
				blocks = append(blocks, p)
			}
			theta, _ := fill32(rng, n, -0.1, 0.1)
			v, _ := fill32(rng, n, 0.5, 1)
			blocks = append(blocks, theta[:nl])
			h, _ := fill32(rng, 6, -1, 1)
			a := make([][]float32, 4)
			for q := range a {
				a[q] = make([]float32, 6)
			}
			t := benchTraceCase(last.u, last.m)
			z := append(t.z, make([]float32, n-nl)...)
			xin := make([]float32, 296)
			cpuLoop(b, func(i int) {
				Input32(xin, x64[i&15][:275])
				copy(xin[275:285], x32f[i&15][275:285])
				for s, st := range sh.stages {
					Preact32(a[0][:st.u], a[1][:st.u], a[2][:st.u], a[3][:st.u], h[:st.u], blocks[s], xin, st.m)
				}
				o := 0
				for j, k := range sh.rms {
					alpha := 1e-4
					if j == 1 {
						alpha /= float64(k)
					}
					RMSProp32Shared(theta[o:o+k], z[o:o+k], v[o:o+k], 0.5, alpha, 0.9999, 1e-8)
					o += k
				}
				StageTraceFold32Rows(t.ht, t.ct, x32f[i&15][:last.m], t.f, t.hp, t.k, z[:nl], t.d, t.c, true)
			})
		})
	}
}

// BenchmarkComposedTBPTT is BenchmarkComposed for T-BPTT 5:7: the input
// weights' pre-activations, the gradient (cleared, the window's outer
// products) and RMSProp with the fold, on shared vectors (θ's first block
// is the input weights, the gradient is the fold's).
func BenchmarkComposedTBPTT(b *testing.B) {
	const R, m, w, n, head = 28, 275, 5, 7924, 8
	x64, x32f := frames()
	rng := rand.New(rand.NewPCG(31, 32))
	d32, d := fill32(rng, R*w, -1, 1)
	b.Run("tbptt5x7/f64", func(b *testing.B) {
		_, th := fill32(rng, n+head, -0.1, 0.1)
		_, z := fill32(rng, n+head, -1, 1)
		_, v := fill32(rng, n+head, 0.5, 1)
		g := make([]float64, n+head)
		xw := make([][]float64, w)
		var a [4]float64
		cpuLoop(b, func(i int) {
			x := x64[i&15][:m]
			for row := 0; row < R; row += 4 {
				lanes.Dot4(&a, th[row*m:(row+4)*m], x)
			}
			for k := range w {
				xw[k] = x64[(i+k)&15][:m]
			}
			clear(g)
			lanes.OuterSum(g[:R*m], d, xw)
			lanes.RMSPropFold(th[:n], z[:n], v[:n], g[:n], 0.5, 1e-4, 0.9999, 1e-8, 0.72, 1)
			lanes.RMSProp(th[n:], z[n:], v[n:], 0.5, 1e-4/7, 0.9999, 1e-8)
			lanes.ScaleAdd(z[n:], 0.72, 1, g[n:])
		})
	})
	b.Run("tbptt5x7/f32", func(b *testing.B) {
		th, _ := fill32(rng, n+head, -0.1, 0.1)
		z, _ := fill32(rng, n+head, -1, 1)
		v, _ := fill32(rng, n+head, 0.5, 1)
		g := make([]float32, n+head)
		xw := make([][]float32, w)
		pad := make([][]float32, 16)
		for k := range pad {
			pad[k] = make([]float32, Padded(m))
			copy(pad[k], x32f[k][:m])
		}
		xin := make([]float32, Padded(m))
		var s f32x4
		cpuLoop(b, func(i int) {
			Input32(xin, x64[i&15][:m])
			for row := 0; row < R; row += 4 {
				s = s.Add(dot4x8(unsafe.Pointer(&th[row*m]), base(xin), m))
			}
			for k := range w {
				xw[k] = pad[(i+k)&15]
			}
			clear(g)
			OuterSum32(g, d32, xw, m)
			RMSPropFold32(th[:n], z[:n], v[:n], g[:n], 0.5, 1e-4, 0.9999, 1e-8, 0.72, 1)
			RMSProp32Shared(th[n:], z[n:], v[n:], 0.5, 1e-4/7, 0.9999, 1e-8)
			for k := n; k < n+head; k++ {
				z[k] = 0.72*z[k] + g[k]
			}
		})
	})
}
