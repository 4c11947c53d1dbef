package graph

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// letVector binds a fresh copy of data to the vector node n: the graph never
// shares memory with the caller.
func letVector(n *gorgonia.Node, data []float64) error {
	backing := make([]float64, len(data))
	copy(backing, data)
	return gorgonia.Let(n, tensor.New(tensor.WithShape(len(data)), tensor.WithBacking(backing)))
}

// letMatrix binds a fresh copy of the row-major rows×cols data to the matrix node n.
func letMatrix(n *gorgonia.Node, rows, cols int, data []float64) error {
	if len(data) != rows*cols {
		panic(fmt.Sprintf("graph: matrix data has length %d, want %d×%d", len(data), rows, cols))
	}
	backing := make([]float64, len(data))
	copy(backing, data)
	return gorgonia.Let(n, tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(backing)))
}

// letRows binds the rows of xs (each of length cols) to the matrix node n.
func letRows(n *gorgonia.Node, xs [][]float64, cols int) error {
	backing := make([]float64, 0, len(xs)*cols)
	for t, x := range xs {
		if len(x) != cols {
			panic(fmt.Sprintf("graph: row %d has length %d, want %d", t, len(x), cols))
		}
		backing = append(backing, x...)
	}
	return gorgonia.Let(n, tensor.New(tensor.WithShape(len(xs), cols), tensor.WithBacking(backing)))
}

// Floats returns a fresh copy of the float64 value held by n (a scalar gives
// one element). It returns an error if n holds no value yet, for instance
// before the graph has run.
func Floats(n *gorgonia.Node) ([]float64, error) {
	v := n.Value()
	if v == nil {
		return nil, fmt.Errorf("graph: node %s has no value", n.Name())
	}
	switch v := v.(type) {
	case *gorgonia.F64:
		return []float64{float64(*v)}, nil
	case tensor.Tensor:
		data, ok := v.Data().([]float64)
		if !ok {
			if f, ok := v.Data().(float64); ok {
				return []float64{f}, nil
			}
			return nil, fmt.Errorf("graph: node %s holds %T, want float64 data", n.Name(), v.Data())
		}
		out := make([]float64, len(data))
		copy(out, data)
		return out, nil
	default:
		return nil, fmt.Errorf("graph: node %s holds %T, want float64 value", n.Name(), v)
	}
}

// build runs f, turning the panics of gorgonia.Must into an error: a failure
// while building a graph is a bug of this package, reported with context.
func build(what string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("graph: build %s: %v", what, r)
		}
	}()
	f()
	return nil
}
