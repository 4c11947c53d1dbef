package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// gradCase is the JSON input of ccn grad. Pointer fields tell a missing field
// from a zero one.
type gradCase struct {
	Hidden     *int        `json:"hidden"`
	Truncation *int        `json:"truncation"`
	WIH        [][]float64 `json:"W_ih"`
	WHH        [][]float64 `json:"W_hh"`
	B          []float64   `json:"b"`
	WOut       []float64   `json:"w_out"`
	BOut       *float64    `json:"b_out"` // optional; absent means 0
	X          [][]float64 `json:"x"`
}

// gradOutput is the JSON output of ccn grad.
type gradOutput struct {
	Engine string    `json:"engine"`
	Y      []float64 `json:"y"`
	Grad   gradBlock `json:"grad"`
}

type gradBlock struct {
	WIH  [][]float64 `json:"W_ih"`
	WHH  [][]float64 `json:"W_hh"`
	B    []float64   `json:"b"`
	WOut []float64   `json:"w_out"`
	BOut float64     `json:"b_out"`
}

// runGrad prints the gradient of the last prediction y_T of a user's case.
func runGrad(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grad", stderr)
	path := fs.String("case", "", "JSON file with hidden, truncation, W_ih, W_hh, b, w_out, optional b_out, x (required)")
	engine := fs.String("engine", "reference", "reference, forward or backward")
	truncation := intFlag(fs, "truncation", 0, "truncation k ≥ 0 overriding the case's (0: full BPTT, the one the forward engine computes); default: the case's")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	overrideK := false
	fs.Visit(func(f *flag.Flag) { overrideK = overrideK || f.Name == "truncation" })
	if overrideK && *truncation < 0 {
		return badInput("--truncation must be 0 or more, got %d", *truncation)
	}
	if *path == "" {
		return badInput("--case FILE.json is required")
	}
	switch *engine {
	case "reference", "forward", "backward":
	default:
		return badInput("unknown engine %q (want reference, forward or backward)", *engine)
	}
	data, err := os.ReadFile(*path)
	if err != nil {
		return badInput("read case: %v", err)
	}
	shape, params, xs, k, err := parseGradCase(data)
	if err != nil {
		return badInput("case %s: %v", *path, err)
	}
	if overrideK {
		k = *truncation
	}
	if *engine == "forward" && k != 0 && k < len(xs) {
		return badInput("case %s: engine forward computes exact (untruncated) gradients only; truncation %d needs engine backward or reference (or --truncation 0)", *path, k)
	}
	ys, grad, err := gradOf(*engine, shape, params, xs, k)
	if err != nil {
		return err
	}
	wih, whh, b, wout := shape.Split(grad)
	out := gradOutput{Engine: *engine, Y: ys, Grad: gradBlock{
		WIH: rows(wih, shape.Inputs), WHH: rows(whh, shape.Hidden), B: b, WOut: wout, BOut: shape.OutBiasOf(grad)}}
	enc, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", enc)
	return err
}

// gradOf runs one engine over the case.
func gradOf(engine string, shape arch.Dense, params []float64, xs [][]float64, k int) (ys, grad []float64, err error) {
	T := len(xs)
	if engine == "reference" {
		r := reference.New()
		ys, _, err = r.Dense(shape, params, xs, nil)
		if err != nil {
			return nil, nil, err
		}
		_, grad, err = r.DenseTruncated(shape, params, xs, T, k)
		return ys, grad, err
	}
	var e arch.Engine
	if engine == "forward" {
		e = forward.NewDenseRTRL(shape)
	} else {
		e = backward.NewTBPTT(shape, k)
	}
	copy(e.Params(), params)
	ys = make([]float64, T)
	for t, x := range xs {
		ys[t] = e.Step(x)
	}
	grad = make([]float64, shape.NumParams())
	e.Grad(grad)
	return ys, grad, nil
}

// parseGradCase decodes and validates a case; errors name the field.
func parseGradCase(data []byte) (arch.Dense, []float64, [][]float64, int, error) {
	var c gradCase
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&c); err != nil {
		return arch.Dense{}, nil, nil, 0, fmt.Errorf("malformed JSON: %v", err)
	}
	fail := func(format string, args ...any) (arch.Dense, []float64, [][]float64, int, error) {
		return arch.Dense{}, nil, nil, 0, fmt.Errorf(format, args...)
	}
	switch {
	case c.Hidden == nil:
		return fail("missing field \"hidden\"")
	case c.Truncation == nil:
		return fail("missing field \"truncation\" (0 means full BPTT)")
	case c.WIH == nil:
		return fail("missing field \"W_ih\"")
	case c.WHH == nil:
		return fail("missing field \"W_hh\"")
	case c.B == nil:
		return fail("missing field \"b\"")
	case c.WOut == nil:
		return fail("missing field \"w_out\"")
	case c.X == nil:
		return fail("missing field \"x\"")
	}
	H, k := *c.Hidden, *c.Truncation
	if H < 1 {
		return fail("field \"hidden\" must be at least 1, got %d", H)
	}
	if k < 0 {
		return fail("field \"truncation\" must be ≥ 0 (0 means full BPTT), got %d", k)
	}
	if len(c.X) == 0 {
		return fail("field \"x\" is empty: need at least one step")
	}
	m := len(c.X[0])
	if m == 0 {
		return fail("field \"x\": row 0 is empty")
	}
	// The case always has the output bias: an absent b_out is 0, which
	// gives the authors' head y = w_out·h and the same y as before.
	shape := arch.Dense{Hidden: H, Inputs: m, OutBias: true}
	if err := checkMatrix("x", c.X, len(c.X), m); err != nil {
		return fail("%v", err)
	}
	if err := checkMatrix("W_ih", c.WIH, 4*H, m); err != nil {
		return fail("%v", err)
	}
	if err := checkMatrix("W_hh", c.WHH, 4*H, H); err != nil {
		return fail("%v", err)
	}
	if err := checkVector("b", c.B, 4*H); err != nil {
		return fail("%v", err)
	}
	if err := checkVector("w_out", c.WOut, H); err != nil {
		return fail("%v", err)
	}
	params := make([]float64, 0, shape.NumParams())
	for _, r := range c.WIH {
		params = append(params, r...)
	}
	for _, r := range c.WHH {
		params = append(params, r...)
	}
	params = append(params, c.B...)
	params = append(params, c.WOut...)
	bOut := 0.0
	if c.BOut != nil {
		bOut = *c.BOut
		if math.IsNaN(bOut) || math.IsInf(bOut, 0) {
			return fail("field \"b_out\" is not finite")
		}
	}
	params = append(params, bOut)
	return shape, params, c.X, k, nil
}

func checkMatrix(name string, a [][]float64, rows, cols int) error {
	if len(a) != rows {
		return fmt.Errorf("field %q has %d rows, want %d", name, len(a), rows)
	}
	for i, r := range a {
		if len(r) != cols {
			return fmt.Errorf("field %q row %d has %d values, want %d", name, i, len(r), cols)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("field %q[%d][%d] is not finite", name, i, j)
			}
		}
	}
	return nil
}

func checkVector(name string, a []float64, n int) error {
	if len(a) != n {
		return fmt.Errorf("field %q has %d values, want %d", name, len(a), n)
	}
	for i, v := range a {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("field %q[%d] is not finite", name, i)
		}
	}
	return nil
}

// rows reshapes a row-major block into rows of cols values.
func rows(flat []float64, cols int) [][]float64 {
	out := make([][]float64, len(flat)/cols)
	for i := range out {
		out[i] = flat[i*cols : (i+1)*cols]
	}
	return out
}
