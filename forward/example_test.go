package forward_test

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
)

// A column whose only non-zero parameter is b_g = 1: every sigmoid gate is 1/2,
// so after one step c = tanh(1)/2 and h = tanh(c)/2, and the traces hold the
// chain rule ∂h/∂b_g = o·(1-tanh²c)·i·(1-g²) and ∂h/∂b_o = tanh(c)·o(1-o).
func ExampleColumn() {
	const m = 2
	col := forward.NewColumn(m)
	col.Params()[arch.ColIdxB(m, arch.GateG)] = 1
	h := col.Step([]float64{0.7, -0.3})
	fmt.Printf("params %d\n", col.NumParams())
	fmt.Printf("h = %.6f\n", h)
	fmt.Printf("dh/db_g = %.6f\n", col.Trace()[arch.ColIdxB(m, arch.GateG)])
	fmt.Printf("dh/db_o = %.6f\n", col.Trace()[arch.ColIdxB(m, arch.GateO)])
	// Output:
	// params 16
	// h = 0.181700
	// dh/db_g = 0.091128
	// dh/db_o = 0.090850
}

// A CCN with 4 columns per stage on 12 inputs grows by one stage every 1000
// steps until it has 16 features; the learning stage then reads the 12 inputs
// and the 12 frozen features, so it learns 4·(4·24+8) column parameters, 16
// head weights and the bias, while 4·56 + 4·72 + 4·88 parameters are frozen.
func ExampleNetwork() {
	net := forward.NewNetwork(forward.NetworkConfig{
		Inputs:           12,
		FeaturesPerStage: 4,
		MaxFeatures:      16,
		StepsPerStage:    1000,
		Norm:             arch.Normalization{Enabled: true},
		Seed:             1,
	})
	x := make([]float64, 12)
	for t := 0; t < 5000; t++ {
		x[t%12] = 1
		net.Step(x)
		x[t%12] = 0
	}
	grad := make([]float64, net.NumParams())
	net.Grad(grad)
	fmt.Println("stage", net.Stage(), "features", net.Features())
	fmt.Println("learnable", net.NumParams(), "frozen", len(net.Frozen()))
	fmt.Println("bias gradient", grad[len(grad)-1])
	// Output:
	// stage 3 features 16
	// learnable 433 frozen 864
	// bias gradient 1
}

// Exact RTRL of a dense LSTM: the gradient covers every parameter, the output
// weights' part being h_t itself.
func ExampleDenseRTRL() {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	d := forward.NewDenseRTRL(shape)
	d.Params()[shape.IdxB(arch.GateG, 0)] = 1
	d.Params()[shape.IdxOut(0)] = 2
	y := d.Step([]float64{1, 0, 0})
	grad := make([]float64, d.NumParams())
	d.Grad(grad)
	fmt.Println("params", d.NumParams())
	fmt.Printf("y = %.6f = 2·h_0 = 2·%.6f\n", y, grad[shape.IdxOut(0)])
	// Output:
	// params 50
	// y = 0.363399 = 2·h_0 = 2·0.181700
}
