package reference_test

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/reference"
)

// One unit with every weight zero except w_out = 1: i = f = o = ½, g = 0, so
// y_1 = 0 and ∂y_1/∂b_g = w_out·o·i = ¼.
func ExampleReference_Dense() {
	shape := arch.Dense{Hidden: 1, Inputs: 1}
	params := make([]float64, shape.NumParams())
	params[shape.IdxOut(0)] = 1
	r := reference.New()
	ys, grad, err := r.Dense(shape, params, [][]float64{{1}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("y_1 = %g, ∂y_1/∂b_g = %g\n", ys[0], grad[shape.IdxB(arch.GateG, 0)])
	// Output:
	// y_1 = 0, ∂y_1/∂b_g = 0.25
}

// Two steps of the same unit: with k = 1 the gradient of y_2 ignores the path
// through c_1 (∂c_2/∂b_g = ½ instead of ¾).
func ExampleReference_DenseTruncated() {
	shape := arch.Dense{Hidden: 1, Inputs: 1}
	params := make([]float64, shape.NumParams())
	params[shape.IdxOut(0)] = 1
	xs := [][]float64{{1}, {1}}
	r := reference.New()
	for _, k := range []int{1, 2} {
		_, grad, err := r.DenseTruncated(shape, params, xs, 2, k)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("k=%d: ∂y_2/∂b_g = %g\n", k, grad[shape.IdxB(arch.GateG, 0)])
	}
	// Output:
	// k=1: ∂y_2/∂b_g = 0.25
	// k=2: ∂y_2/∂b_g = 0.375
}

// A Columnar network of one column whose weights are all zero predicts its head
// bias, and ∂L/∂b = Σ_t a_t.
func ExampleReference_Network() {
	top := arch.Columnar(2, 1, arch.Normalization{})
	learnable := make([]float64, top.NumLearnable())
	learnable[top.OffHeadBias()] = 0.5
	r := reference.New()
	ys, grad, err := r.Network(top, nil, learnable, [][]float64{{1, 0}, {0, 1}}, []float64{1, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ys, grad[top.OffHeadBias()])
	// Output:
	// [0.5 0.5] 3
}
