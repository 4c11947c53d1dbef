package backward_test

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
)

// An LSTM with 2 hidden units on 3 inputs, learned online with truncation
// k = 4: at every step, predict, take the truncated gradient of the
// prediction, and move the parameters (in place) toward a target.
func ExampleTBPTT() {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	lstm := backward.NewTBPTT(shape, 4)
	p := lstm.Params()
	for i := range p {
		p[i] = 0.1 * float64(i%7-3) // a fixed, deterministic initialization
	}
	grad := make([]float64, lstm.NumParams())

	const target, stepSize = 0.5, 0.1
	x := []float64{1, 0, -1}
	var y float64
	for range 200 {
		y = lstm.Step(x)
		lstm.Grad(grad)
		for i := range p {
			p[i] += stepSize * (target - y) * grad[i] // SGD on (target−y)²/2
		}
	}
	fmt.Printf("parameters: %d, truncation: %d, operations per step: %d\n",
		lstm.NumParams(), lstm.Truncation(), lstm.OpsPerStep())
	fmt.Printf("prediction after 200 steps: %.3f\n", y)
	// 724 = 102 + 4·130 + 3·34, see Ops.
	// Output:
	// parameters: 50, truncation: 4, operations per step: 724
	// prediction after 200 steps: 0.500
}

// The float32 engine is the float64 one's twin: the same shapes, methods
// and parameter layout, with parameters and gradient in float32.
func ExampleNewTBPTT32() {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	lstm := backward.NewTBPTT32(shape, 4)
	p := lstm.Params()
	for i := range p {
		p[i] = 0.1 * float32(i%7-3)
	}
	grad := make([]float32, lstm.NumParams())

	const target, stepSize = 0.5, 0.1
	x := []float64{1, 0, -1}
	var y float64
	for range 200 {
		y = lstm.Step(x)
		lstm.Grad(grad)
		for i := range p {
			p[i] += float32(stepSize*(target-y)) * grad[i]
		}
	}
	fmt.Printf("parameters: %d, prediction after 200 steps: %.3f\n", lstm.NumParams(), y)
	// Output:
	// parameters: 50, prediction after 200 steps: 0.500
}
