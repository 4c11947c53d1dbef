package graph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"

	"github.com/ccn-go/ccn/arch"
)

func runGraph(t *testing.T, g *gorgonia.ExprGraph, watch ...*gorgonia.Node) {
	t.Helper()
	list := make([]interface{}, len(watch))
	for i, n := range watch {
		list[i] = n
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.TraceExec(), gorgonia.WithWatchlist(list...))
	defer vm.Close()
	require.NoError(t, vm.RunAll())
}

// With every weight zero, i = f = o = 1/2, g = 0, so c_t = h_t = 0, and through
// the cell alone ∂c_t/∂b_g = ½·∂c_{t-1}/∂b_g + ½: 1/2, 3/4, 7/8. With w_out = 1
// and a = 1, ∂L/∂b_g = Σ_t ½·∂c_t/∂b_g = 17/16 and ∂L/∂w_out = Σ h_t = 0;
// likewise ∂c_t/∂W_g[k] = ½·∂c_{t-1}/∂W_g[k] + ½·x_t[k].
func TestDenseHandComputed(t *testing.T) {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	d, err := NewDense(shape, 3)
	require.NoError(t, err)
	params := make([]float64, shape.NumParams())
	for j := 0; j < 2; j++ {
		params[shape.IdxOut(j)] = 1
	}
	xs := [][]float64{{1, 2, 3}, {-1, 0, 1}, {0.5, 0.5, 0.5}}
	require.NoError(t, d.Bind(params, nil, nil, xs, []float64{1, 1, 1}))
	runGraph(t, d.Graph, append(append(gorgonia.Nodes(nil), d.Y...), d.Grads...)...)

	ys, err := d.Outputs()
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0, 0}, ys)
	grad, err := d.Gradient()
	require.NoError(t, err)
	require.Len(t, grad, shape.NumParams())
	for j := 0; j < 2; j++ {
		assert.InDelta(t, 17.0/16, grad[shape.IdxB(arch.GateG, j)], 1e-15)
		// Input k = 0 (x = 1, -1, 1/2): ∂c_t = 1/2, -1/4, 1/8; ∂L = ½·Σ = 3/16.
		assert.InDelta(t, 3.0/16, grad[shape.IdxWIH(arch.GateG, j, 0)], 1e-15)
		assert.Zero(t, grad[shape.IdxOut(j)])
		assert.Zero(t, grad[shape.IdxB(arch.GateO, j)], "tanh(c) = 0 blocks the output gate")
	}
}

// With every column weight zero, h = 0, so ĥ_k = (0 - μ)·inv and y_t = b + Σ_k w_k·ĥ_k.
func TestNetworkHandComputed(t *testing.T) {
	for _, norm := range []bool{false, true} {
		top := arch.CCN(2, 2, 1, arch.Normalization{Enabled: norm})
		n, err := NewNetwork(top, 2)
		require.NoError(t, err)
		frozen := make([]float64, top.NumFrozen())
		learnable := make([]float64, top.NumLearnable())
		for k := 0; k < top.Features(); k++ {
			learnable[top.OffHead()+k] = 1
		}
		learnable[top.OffHeadBias()] = 0.5
		mean := [][]float64{{0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}}
		scale := [][]float64{{2, 2, 2, 2}, {2, 2, 2, 2}}
		a := []float64{1, 3}
		require.NoError(t, n.Bind(frozen, learnable, [][]float64{{1, 2}, {3, 4}}, a, mean, scale))
		runGraph(t, n.Graph, append(append(gorgonia.Nodes(nil), n.Y...), n.Grads...)...)

		hat := 0.0 // ĥ of every feature
		if norm {
			hat = (0 - 0.5) / 2
		}
		ys, err := n.Outputs()
		require.NoError(t, err)
		assert.InDeltaSlice(t, []float64{0.5 + 4*hat, 0.5 + 4*hat}, ys, 1e-15, "norm=%t", norm)
		grad, err := n.Gradient()
		require.NoError(t, err)
		require.Len(t, grad, top.NumLearnable())
		assert.InDelta(t, 4.0, grad[top.OffHeadBias()], 1e-15, "∂L/∂b = Σ a")
		for k := 0; k < top.Features(); k++ {
			assert.InDelta(t, 4*hat, grad[top.OffHead()+k], 1e-15, "∂L/∂w_k = Σ a·ĥ_k")
		}
		// Bias of gate g of a learning column: ∂c_t = 1/2, 3/4 (as in the dense
		// case), ∂ĥ = inv·½·∂c_t, so ∂L/∂b_g = w·inv·½·(1·½ + 3·¾).
		inv := 1.0
		if norm {
			inv = 0.5
		}
		m := top.LearningColumnInputs()
		for j := 0; j < top.LearningColumns(); j++ {
			assert.InDelta(t, inv*0.5*(0.5+3*0.75), grad[top.OffLearn(j)+arch.ColIdxB(m, arch.GateG)], 1e-15)
		}
	}
}

func TestBindPanics(t *testing.T) {
	shape := arch.Dense{Hidden: 1, Inputs: 2}
	d, err := NewDense(shape, 2)
	require.NoError(t, err)
	params := make([]float64, shape.NumParams())
	assert.PanicsWithValue(t, "graph: dense window of 2 steps bound to 1 inputs and 2 weights",
		func() { d.Bind(params, nil, nil, [][]float64{{1, 2}}, []float64{1, 1}) })
	assert.PanicsWithValue(t, "graph: input 1 has length 1, want 2",
		func() { d.Bind(params, nil, nil, [][]float64{{1, 2}, {1}}, []float64{1, 1}) })
	assert.PanicsWithValue(t, "graph: dense state has lengths 2, 1, want 1",
		func() { d.Bind(params, []float64{0, 0}, nil, [][]float64{{1, 2}, {1, 2}}, []float64{1, 1}) })
	assert.PanicsWithValue(t, "graph: dense window of 0 steps", func() { NewDense(shape, 0) })

	top := arch.Columnar(2, 2, arch.Normalization{Enabled: true})
	n, err := NewNetwork(top, 1)
	require.NoError(t, err)
	learnable := make([]float64, top.NumLearnable())
	assert.PanicsWithValue(t, "graph: network window of 1 steps bound to 1, 0 statistics",
		func() { n.Bind(nil, learnable, [][]float64{{1, 2}}, []float64{1}, [][]float64{{0, 0}}, nil) })
}

func TestOutputsBeforeRunIsError(t *testing.T) {
	d, err := NewDense(arch.Dense{Hidden: 1, Inputs: 1}, 1)
	require.NoError(t, err)
	_, err = d.Outputs()
	assert.Error(t, err)
	_, err = d.Gradient()
	assert.Error(t, err)
}
