package compare

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/reference"
)

// Case is one row of the verification table: an engine, a cell or network
// shape, a trajectory length and a truncation (0: full BPTT).
type Case struct {
	Engine     string       // "forward" or "backward"
	Cell       string       // "column", "dense", "columnar", "constructive" or "ccn"
	Hidden     int          // H for dense cells and columns; number of features for networks
	Inputs     int          // m
	Length     int          // T
	Truncation int          // k; 0 means full BPTT
	Net        arch.Network // the topology, for networks
	Norm       string       // "off", "on" or "floor" (ε active), for networks
	OutBias    bool         // dense cells: the prediction has the output bias b_out
}

// Dense is the shape of a column or dense case.
func (c Case) Dense() arch.Dense {
	return arch.Dense{Hidden: c.Hidden, Inputs: c.Inputs, OutBias: c.OutBias}
}

// CellName is the cell column of the verification table: Cell, with
// "+b_out" for a dense LSTM with the output bias.
func (c Case) CellName() string {
	if c.OutBias {
		return c.Cell + "+b_out"
	}
	return c.Cell
}

// Params is the number of parameters whose gradient the case compares.
func (c Case) Params() int {
	switch c.Cell {
	case "column", "dense":
		return c.Dense().NumParams()
	default:
		return c.Net.NumLearnable()
	}
}

// Stage is the learning stage of a network case (0 for cells).
func (c Case) Stage() int {
	if c.Cell == "column" || c.Cell == "dense" {
		return 0
	}
	return c.Net.Learning()
}

// Result is the worst agreement of a case over its trajectories.
type Result struct {
	Case
	Agreement
	Trajectories int
	Err          error // a reference failure; the case then fails
}

// Pass reports whether the case ran and agreed within Tolerance.
func (r Result) Pass() bool { return r.Err == nil && r.Agreement.Pass() }

// SuiteConfig sizes the verification suite. Zero fields take the defaults.
type SuiteConfig struct {
	Trajectories  int    // random trajectories per case; 0 means 2
	Length        int    // longest trajectory for cells; 0 means 200
	NetworkLength int    // trajectory length for networks; 0 means 30
	Seed          uint64 // seed of every random draw
	Cells         bool   // include the column, dense RTRL and T-BPTT cases
	Networks      bool   // include the Columnar, Constructive and CCN cases
}

func (c SuiteConfig) withDefaults() SuiteConfig {
	if c.Trajectories == 0 {
		c.Trajectories = 2
	}
	if c.Length == 0 {
		c.Length = 200
	}
	if c.NetworkLength == 0 {
		c.NetworkLength = 30
	}
	return c
}

// Normalization settings of the network cases: "on" moves the statistics fast
// enough to matter within a short trajectory; "floor" makes ε bind often.
var networkNorms = []struct {
	name string
	norm arch.Normalization
}{
	{"off", arch.Normalization{}},
	{"on", arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.001}},
	{"floor", arch.Normalization{Enabled: true, Decay: 0.5, Epsilon: 0.4}},
}

// Cases lists the rows of the suite.
func Cases(cfg SuiteConfig) []Case {
	cfg = cfg.withDefaults()
	L := cfg.Length
	lengths := uniq(1, min(20, L), L)
	var cs []Case
	if cfg.Cells {
		for _, m := range []int{1, 12, 28} {
			for _, T := range lengths {
				cs = append(cs, Case{Engine: "forward", Cell: "column", Hidden: 1, Inputs: m, Length: T})
			}
		}
		// Dense shapes: the runs' H = 4, m = 12 with the output bias (their
		// default), a small one with and without it (the authors' head).
		type denseShape struct {
			h, m int
			bias bool
		}
		for _, d := range []denseShape{{2, 3, false}, {2, 3, true}, {4, 12, true}} {
			for _, T := range lengths {
				cs = append(cs, Case{Engine: "forward", Cell: "dense", Hidden: d.h, Inputs: d.m, Length: T, OutBias: d.bias})
			}
		}
		for _, d := range []denseShape{{1, 3, false}, {1, 3, true}, {4, 12, true}} {
			for _, k := range []int{1, 2, 5, 15, 0} {
				for _, T := range uniq(min(20, L), L) {
					cs = append(cs, Case{Engine: "backward", Cell: "dense", Hidden: d.h, Inputs: d.m, Length: T, Truncation: k, OutBias: d.bias})
				}
			}
		}
	}
	if cfg.Networks {
		T := cfg.NetworkLength
		for d := 1; d <= 10; d++ {
			n := networkNorms[d%len(networkNorms)]
			cs = append(cs, Case{Engine: "forward", Cell: "columnar", Hidden: d, Inputs: 12, Length: T,
				Net: arch.Columnar(12, d, n.norm), Norm: n.name})
		}
		for _, m := range []int{12, 64} {
			for u := 1; u <= 5; u++ {
				if m == 64 && u != 1 && u != 4 {
					continue
				}
				cell := "ccn"
				if u == 1 {
					cell = "constructive"
				}
				for s := 0; s <= 3; s++ {
					for _, n := range networkNorms {
						net := arch.CCN(m, u, s, n.norm)
						cs = append(cs, Case{Engine: "forward", Cell: cell, Hidden: net.Features(), Inputs: m,
							Length: T, Net: net, Norm: n.name})
					}
				}
			}
		}
	}
	return cs
}

// uniq returns its arguments without repeats, in order.
func uniq(xs ...int) []int {
	var out []int
	for _, x := range xs {
		dup := false
		for _, y := range out {
			dup = dup || x == y
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}

// RunCase checks one case on cfg.Trajectories random trajectories.
func RunCase(r *reference.Reference, c Case, cfg SuiteConfig, index int) Result {
	cfg = cfg.withDefaults()
	res := Result{Case: c, Trajectories: cfg.Trajectories}
	for i := 0; i < cfg.Trajectories; i++ {
		rng := NewRand(cfg.Seed, index*1000+i)
		tr := RandomTrajectory(rng, i, c.Length, c.Inputs)
		var a Agreement
		var err error
		switch {
		case c.Cell == "column":
			a, err = CheckColumn(r, c.Inputs, tr, rng, 0)
		case c.Cell == "dense" && c.Engine == "forward":
			a, err = CheckDenseRTRL(r, c.Dense(), tr, rng, 0)
		case c.Cell == "dense":
			a, err = CheckTBPTT(r, c.Dense(), c.Truncation, tr, rng, 0)
		default:
			a, err = CheckNetwork(r, c.Net, tr, rng, 0)
		}
		if err != nil {
			res.Err = fmt.Errorf("trajectory %d: %w", i, err)
			return res
		}
		res.Agreement = res.Agreement.Worst(a)
	}
	return res
}

// Run checks every case of the suite, calling progress (if not nil) after each.
func Run(cfg SuiteConfig, progress func(done, total int, r Result)) []Result {
	cases := Cases(cfg)
	r := reference.New()
	out := make([]Result, len(cases))
	for i, c := range cases {
		out[i] = RunCase(r, c, cfg, i)
		if progress != nil {
			progress(i+1, len(cases), out[i])
		}
	}
	return out
}
