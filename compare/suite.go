package compare

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// Case is one row of the verification table: an engine, a cell or network
// shape, a trajectory length and a truncation (0: full BPTT).
type Case struct {
	Engine     string       // "forward" or "backward"
	Cell       string       // "column", "dense", "dense-diag", "linear", "rtu", "rtu-linear", "columnar", "constructive" or "ccn"
	Hidden     int          // H for dense cells and columns; units for RTUs; number of features for networks
	Inputs     int          // m
	Length     int          // T
	Truncation int          // k; 0 means full BPTT
	Net        arch.Network // the topology, for networks (the last one, for a staged case)
	Norm       string       // "off", "fast", "floor" (ε active) or "run", for networks, linear and RTUs
	OutBias    bool         // dense cells: the prediction has the output bias b_out
	// Staged, for a stage-change case: the network is followed from stage 0
	// through len(Staged.Segments)−1 stage changes (CheckStaged) and the
	// row compares the segment after the last one.
	Staged *StagedSpec
	// Auto, for a case whose stages freeze when learned: the network's
	// stages freeze at steps the forward.AutoFreeze test picks
	// (CheckAutoStaged); the row compares every prediction and the first
	// window of every stage.
	Auto *AutoStagedSpec
	// PixelInputs draws every trajectory's inputs PixelSparse (as sparse as
	// the pixel games'), for T-BPTT's sum of ∂W_ih over the nonzero inputs.
	PixelInputs bool
	// FrozenTraces, for a network case: the frozen columns keep their
	// traces (forward.NetworkConfig.FrozenTraces) and the row compares
	// FrozenGrad and Grad with the cut reference (CheckFrozenTraces).
	FrozenTraces bool
}

// Dense is the shape of a column or dense case.
func (c Case) Dense() arch.Dense {
	return arch.Dense{Hidden: c.Hidden, Inputs: c.Inputs, OutBias: c.OutBias}
}

// Linear is the shape of a linear case, normalized as its Norm names.
func (c Case) Linear() arch.Linear {
	l := arch.Linear{Inputs: c.Inputs}
	for _, n := range networkNorms {
		if n.name == c.Norm {
			l.Norm = n.norm
		}
	}
	return l
}

// trajectory draws the case's i-th trajectory from rng: the suite's cycle
// of input kinds, or pixel inputs on every one (PixelInputs).
func (c Case) trajectory(rng *rand.Rand, i int) Trajectory {
	if c.PixelInputs {
		return pixelTrajectory(rng, i, c.Length, c.Inputs)
	}
	return randomTrajectory(rng, i, c.Length, c.Inputs)
}

// CellName is the cell column of the verification table: Cell, with
// "+b_out" for a dense LSTM with the output bias and "/pixels" for a case
// with PixelInputs.
func (c Case) CellName() string {
	n := c.Cell
	if c.OutBias {
		n += "+b_out"
	}
	if c.PixelInputs {
		n += "/pixels"
	}
	if c.FrozenTraces {
		n += "+frozen-traces"
	}
	return n
}

// Params is the params column of the verification table: the number of
// parameters of the model the case ends with, every one of a cell, and of a
// network its frozen and learnable ones (a stage-change or auto case: the
// network after its last stage change).
func (c Case) Params() int {
	switch c.Cell {
	case "column", "dense", "dense-diag":
		return c.Dense().NumParams()
	case "linear":
		return c.Linear().NumParams()
	case CellRTU, CellRTULinear:
		return c.RTU().NumParams()
	default:
		return c.Net.NumFrozen() + c.Net.NumLearnable()
	}
}

// Checked is the checked column of the verification table: the number of
// gradient entries the case compares with the reference per step, the
// fewest and the most over its stages. A cell compares all its parameters;
// a network the learnable ones, its learning stage's columns and the head
// (frozen columns have no gradient); a stage-change case those of the
// segment after its last change, the only one it compares; an auto case
// those of every stage in turn (it reaches the last, see autoCases), so
// that lo and hi differ there: the learnable vector of stage s is
//
//	u_s·ColumnParams(m + F_s) + F_{s+1} + 1
//
// with u_s the columns of stage s, F_s the features before it.
func (c Case) Checked() (lo, hi int) {
	switch {
	case c.Cell == "column" || c.Cell == "dense" || c.Cell == "dense-diag" || c.Cell == "linear" || isRTU(c.Cell):
		n := c.Params()
		return n, n
	case c.FrozenTraces:
		n := c.Params()
		return n, n
	case c.Auto == nil:
		n := c.Net.NumLearnable()
		return n, n
	}
	lo = math.MaxInt
	for s := range c.Net.NumStages() {
		n := arch.Network{Inputs: c.Net.Inputs, Stages: c.Net.Stages[:s+1]}.NumLearnable()
		lo, hi = min(lo, n), max(hi, n)
	}
	return lo, hi
}

// Stage is the learning stage of a network case (0 for cells).
func (c Case) Stage() int {
	if c.Cell == "column" || c.Cell == "dense" || c.Cell == "dense-diag" || c.Cell == "linear" || isRTU(c.Cell) {
		return 0
	}
	return c.Net.Learning()
}

// StageName is the stage column of the verification table: the learning
// stage, or for a stage-change case the change it checks ("1->2").
func (c Case) StageName() string {
	if c.Auto != nil {
		return "auto"
	}
	if c.Staged != nil {
		return transition(len(c.Staged.Segments) - 1)
	}
	return fmt.Sprint(c.Stage())
}

// Result is the worst agreement of a case over its trajectories.
type Result struct {
	Case
	Agreement
	Trajectories int
	Err          error // a reference failure; the case then fails
	// UORO is the statistical check of a "uoro" case (Agreement is then
	// that of its exact parts: predictions and head gradients).
	UORO *UOROStats
}

// Pass reports whether the case ran and agreed within Tolerance (for a UORO
// case: passed CheckUORO).
func (r Result) Pass() bool {
	if r.UORO != nil {
		return r.Err == nil && r.UORO.Pass()
	}
	return r.Err == nil && r.Agreement.Pass()
}

// UORODraws is the number of independent UORO estimates a "uoro" case
// averages (CheckUORO).
const UORODraws = 20000

// SuiteConfig sizes the verification suite. Zero fields take the defaults.
type SuiteConfig struct {
	// Trajectories is the number of random trajectories per case; 0 means 3.
	// Trajectory i draws its parameters at the (i mod 3)-th of the scales
	// (0.1, 0.5 and 1.5, the last saturating the gates), so the default
	// runs every scale on every case.
	Trajectories  int
	Length        int       // longest trajectory for cells; 0 means 200
	NetworkLength int       // trajectory length for networks (per stage for stage changes); 0 means 30
	Seed          uint64    // seed of every random draw
	Cells         bool      // include the column, dense RTRL and T-BPTT cases
	Networks      bool      // include the Columnar, Constructive and CCN cases
	Inject        Injection // a mistake injected into the engines (InjectNone: none)
}

func (c SuiteConfig) withDefaults() SuiteConfig {
	if c.Trajectories == 0 {
		c.Trajectories = len(scales)
	}
	if c.Length == 0 {
		c.Length = 200
	}
	if c.NetworkLength == 0 {
		c.NetworkLength = 30
	}
	return c
}

// Normalization settings of the network cases: "fast" moves the statistics
// materially within a short trajectory; "floor" moves them and makes ε bind
// often; "run" is the runs' own setting (β = 0.99999, ε = 0.001), under which
// they barely move.
var networkNorms = []struct {
	name string
	norm arch.Normalization
}{
	{"off", arch.Normalization{}},
	{"fast", FastNorm},
	{"floor", arch.Normalization{Enabled: true, Decay: 0.5, Epsilon: 0.4}},
	{"run", arch.Normalization{Enabled: true}},
}

// FastNorm is the fast-moving normalization of the checks: β = 0.9 moves the
// statistics materially within a few steps.
var FastNorm = arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.001}

// AtariInputs is the input size of the paper's Atari streams (§5).
const AtariInputs = 275

// Cases lists the rows of the suite.
func Cases(cfg SuiteConfig) []Case {
	cfg = cfg.withDefaults()
	var cs []Case
	if cfg.Cells {
		cs = append(cs, cellCases(cfg.Length)...)
		cs = append(cs, rtuCases(cfg.Length)...)
	}
	if cfg.Networks {
		cs = append(cs, networkCases(cfg.NetworkLength)...)
	}
	if cfg.Cells { // last, so that the rows before keep their trajectories
		cs = append(cs, pixelCases(cfg.Length)...)
	}
	if cfg.Networks { // after them, for the same reason
		cs = append(cs, frozenCases(cfg.NetworkLength)...)
	}
	return cs
}

// frozenCases are the rows of networks whose frozen columns keep their
// traces (the frozen-step-scale runs): Constructive and CCN on 12 inputs
// with one to three frozen stages under the normalizations, and the
// paper's Atari CCN on 275 inputs, min(20, T) steps each (the reference
// is one graph over the whole trajectory).
func frozenCases(T int) []Case {
	T = min(20, T)
	var cs []Case
	add := func(cell string, net arch.Network, norm int) {
		c := networkCase(cell, net, norm, T)
		c.FrozenTraces = true
		cs = append(cs, c)
	}
	for s := 1; s <= 3; s++ {
		add("constructive", arch.CCN(12, 1, s, arch.Normalization{}), s)
		add("ccn", arch.CCN(12, 4, s, arch.Normalization{}), s+1)
	}
	add("ccn", arch.CCN(AtariInputs, 5, 2, arch.Normalization{}), 3)
	return cs
}

// pixelCases are T-BPTT rows on inputs as sparse as the pixel games'
// (PixelInputs), where ∂W_ih is summed over the nonzero inputs only: the
// paper's best Atari pair k:H = 5:7 and the capacity study's k = 15, H = 8
// on 275 inputs.
func pixelCases(L int) []Case {
	return []Case{
		{Engine: "backward", Cell: "dense", Hidden: 7, Inputs: AtariInputs, Length: min(20, L), Truncation: 5, OutBias: true, PixelInputs: true},
		{Engine: "backward", Cell: "dense", Hidden: 8, Inputs: AtariInputs, Length: min(20, L), Truncation: 15, OutBias: true, PixelInputs: true},
	}
}

// cellCases are the column, dense RTRL and T-BPTT rows, trajectories up to L.
func cellCases(L int) []Case {
	lengths := uniq(1, min(20, L), L)
	var cs []Case
	for _, m := range []int{1, 12, 28} {
		for _, T := range lengths {
			cs = append(cs, Case{Engine: "forward", Cell: "column", Hidden: 1, Inputs: m, Length: T})
		}
	}
	cs = append(cs, Case{Engine: "forward", Cell: "column", Hidden: 1, Inputs: AtariInputs, Length: min(20, L)})
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
	// The paper's best Atari pair, k:H = 5:7 on 275 inputs.
	cs = append(cs, Case{Engine: "backward", Cell: "dense", Hidden: 7, Inputs: AtariInputs, Length: min(20, L), Truncation: 5, OutBias: true})
	// UORO, statistically, on one trajectory each (Gaussian inputs, scale
	// 0.5). Its estimates span at most 2H·T dimensions, so T > P/(2H): 20
	// steps for (2, 3) (P = 48), 50 for (4, 12) (P = 272).
	cs = append(cs, Case{Engine: "uoro", Cell: "dense", Hidden: 2, Inputs: 3, Length: 20, OutBias: true},
		Case{Engine: "uoro", Cell: "dense", Hidden: 4, Inputs: 12, Length: 50, OutBias: true})
	// SnAp-1: exact for H = 1 and for a diagonal W_hh ("dense-diag", against
	// the reference); otherwise against MaskedRTRL.
	for _, d := range []struct {
		cell string
		denseShape
	}{{"dense", denseShape{1, 3, true}}, {"dense-diag", denseShape{2, 3, false}}, {"dense-diag", denseShape{4, 12, true}},
		{"dense", denseShape{2, 3, false}}, {"dense", denseShape{4, 12, true}}} {
		for _, T := range lengths {
			cs = append(cs, Case{Engine: "snap1", Cell: d.cell, Hidden: d.h, Inputs: d.m, Length: T, OutBias: d.bias})
		}
	}
	// The memoryless control (linear TD on the observation) under every
	// normalization, on 12 inputs and on the Atari 275.
	for _, n := range networkNorms {
		for _, T := range lengths {
			cs = append(cs, Case{Engine: "forward", Cell: "linear", Inputs: 12, Length: T, Norm: n.name})
		}
		cs = append(cs, Case{Engine: "forward", Cell: "linear", Inputs: AtariInputs, Length: min(20, L), Norm: n.name})
	}
	return cs
}

// networkCases are the Columnar, Constructive and CCN rows, T steps each (T
// per stage for stage changes). Normalization settings rotate so that each
// appears about equally often.
func networkCases(T int) []Case {
	var cs []Case
	cellOf := func(u int) string {
		if u == 1 {
			return "constructive"
		}
		return "ccn"
	}
	add := func(cell string, net arch.Network, norm int) { cs = append(cs, networkCase(cell, net, norm, T)) }
	for d := 1; d <= 10; d++ {
		add("columnar", arch.Columnar(12, d, arch.Normalization{}), d)
	}
	i := 0
	for _, m := range []int{12, 64} {
		for u := 1; u <= 5; u++ {
			if m == 64 && u != 1 && u != 4 {
				continue
			}
			for s := 0; s <= 3; s++ {
				add(cellOf(u), arch.CCN(m, u, s, arch.Normalization{}), i)
				add(cellOf(u), arch.CCN(m, u, s, arch.Normalization{}), i+2)
				i++
			}
		}
	}
	// The paper's Atari networks (§5) on 275 inputs, at a late stage.
	add("columnar", arch.Columnar(AtariInputs, 6, arch.Normalization{}), 3)
	add("constructive", arch.CCN(AtariInputs, 1, 3, arch.Normalization{}), 1)
	add("ccn", arch.CCN(AtariInputs, 5, 2, arch.Normalization{}), 2)

	// Stage changes: Constructive and a CCN whose last stage is cut short,
	// under every normalization; the Atari CCN under the runs' own.
	staged := func(m, u, maxF, changes, norm int) {
		n := networkNorms[norm%len(networkNorms)]
		spec := StagedSpec{Inputs: m, FeaturesPerStage: u, MaxFeatures: maxF, Norm: n.norm, From: changes}
		for range changes + 1 {
			spec.Segments = append(spec.Segments, T)
		}
		tops := spec.topologies()
		net := tops[len(tops)-1]
		cs = append(cs, Case{Engine: "forward", Cell: cellOf(u), Hidden: net.Features(), Inputs: m,
			Length: T * (changes + 1), Net: net, Norm: n.name, Staged: &spec})
	}
	for norm := range networkNorms {
		for changes := 1; changes <= 3; changes++ {
			staged(12, 1, 4, changes, norm)
			staged(12, 4, 14, changes, norm)
		}
	}
	for changes := 1; changes <= 2; changes++ {
		staged(AtariInputs, 5, 15, changes, 3)
	}
	cs = append(cs, autoCases(T)...)
	return cs
}

// networkCase is the row of network net over T steps under the
// normalization networkNorms[norm], cycled.
func networkCase(cell string, net arch.Network, norm, T int) Case {
	n := networkNorms[norm%len(networkNorms)]
	net.Norm = n.norm
	return Case{Engine: "forward", Cell: cell, Hidden: net.Features(), Inputs: net.Inputs, Length: T, Net: net, Norm: n.name}
}

// autoCases are the rows of stages that freeze when learned: Constructive
// (4 features) and CCN (4 per stage, the last cut short at 14) on 12 inputs
// under each normalization, whose stages last T/3 to T steps as the
// AutoFreeze test (window max(2, T/6), τ = 0, β = 0.5) picks, over 4T steps.
func autoCases(T int) []Case {
	window := max(2, T/6)
	freeze := forward.AutoFreeze{Min: max(window, T/3), Max: max(window, T/3, T), Window: window, Decay: 0.5}
	var cs []Case
	for _, n := range networkNorms {
		for _, u := range []int{1, 4} {
			maxF := map[int]int{1: 4, 4: 14}[u]
			spec := AutoStagedSpec{Inputs: 12, FeaturesPerStage: u, MaxFeatures: maxF, Norm: n.norm, Freeze: freeze, Rate: 0.5}
			cell := "ccn"
			if u == 1 {
				cell = "constructive"
			}
			net := arch.Network{Inputs: 12, Norm: n.norm}
			for f := 0; f < maxF; f += u {
				net.Stages = append(net.Stages, min(u, maxF-f))
			}
			cs = append(cs, Case{Engine: "forward", Cell: cell, Hidden: maxF, Inputs: 12, Length: 4 * T, Net: net, Norm: n.name, Auto: &spec})
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

// runCase checks one case on cfg.Trajectories random trajectories.
func runCase(r *reference.Reference, c Case, cfg SuiteConfig, index int) Result {
	cfg = cfg.withDefaults()
	res := Result{Case: c, Trajectories: cfg.Trajectories}
	if c.Engine == "uoro" {
		// Trajectory 4 of the cycle: Gaussian inputs at scale 0.5.
		rng := newRand(cfg.Seed, index*1000)
		tr := randomTrajectory(rng, 4, c.Length, c.Inputs)
		params := make([]float64, c.Dense().NumParams())
		fillUniform(rng, params, tr.Scale)
		// UORO honours InjectAsymmetricUORO's defect and ignores the others.
		st, err := CheckUORO(c.Dense(), params, tr.Xs, UORODraws, cfg.Seed, cfg.Inject.Forward())
		res.Trajectories, res.Agreement, res.Err, res.UORO = 1, st.Exact, err, &st
		return res
	}
	for i := 0; i < cfg.Trajectories; i++ {
		rng := newRand(cfg.Seed, index*1000+i)
		tr := c.trajectory(rng, i)
		var a Agreement
		var err error
		fd, bd := cfg.Inject.Forward(), cfg.Inject.Backward()
		switch {
		case c.Engine == "snap1":
			a, err = CheckSnAp1(r, c.Dense(), c.Cell == "dense-diag", tr, rng, fd)
		case isRTU(c.Cell):
			a, err = CheckRTU(r, c.RTU(), tr, rng, fd)
		case c.Cell == "column":
			a, err = CheckColumn(r, c.Inputs, tr, rng, fd)
		case c.Cell == "linear":
			a, err = CheckLinear(r, c.Linear(), tr, rng, fd)
		case c.Cell == "dense" && c.Engine == "forward":
			a, err = CheckDenseRTRL(r, c.Dense(), tr, rng, fd)
		case c.Cell == "dense":
			a, err = CheckTBPTT(r, c.Dense(), c.Truncation, tr, rng, bd)
		case c.FrozenTraces:
			a, err = CheckFrozenTraces(r, c.Net, tr, rng, fd)
		case c.Auto != nil:
			var res AutoStaged
			res, err = CheckAutoStaged(r, *c.Auto, tr, rng, fd)
			a = res.Worst()
		case c.Staged != nil:
			var as []Agreement
			as, err = CheckStaged(r, *c.Staged, tr, rng, fd)
			for _, x := range as {
				a = a.Worst(x)
			}
		default:
			a, err = CheckNetwork(r, c.Net, tr, rng, fd)
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
		out[i] = runCase(r, c, cfg, i)
		if progress != nil {
			progress(i+1, len(cases), out[i])
		}
	}
	return out
}
