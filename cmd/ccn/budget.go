package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/opcount"
)

// runBudget prints the paper's per-step operation count of one configuration
// (--method), or the compute-matched configurations of every method for a
// budget (--ops).
func runBudget(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("budget", stderr)
	paper, other := budgetMethods()
	method := fs.String("method", "", "one configuration: "+paper+", or (no paper model, implementation count only) "+other)
	hidden := intFlag(fs, "hidden", 0, "tbptt, rtrl, snap1, uoro: hidden units; rtu, rtu-linear: trace units")
	truncation := intFlag(fs, "truncation", 0, "tbptt: truncation length k")
	features := intFlag(fs, "features", 0, "columnar, constructive, ccn: number of features")
	perStage := intFlag(fs, "features-per-stage", 4, "ccn: features learned per stage u (with --ops: the u to match)")
	inputs := intFlag(fs, "inputs", 12, "input size |x|")
	noOutBias := fs.Bool("no-out-bias", false, "tbptt, rtrl, snap1, uoro: count without the output bias b_out, as ccn run --no-out-bias (implementation count only)")
	frozenScale := fs.Float64("frozen-step-scale", 0, "constructive, ccn: count the traces that frozen columns keep to go on learning, as ccn run --frozen-step-scale > 0 (implementation count only)")
	ops := intFlag(fs, "ops", 0, "compute matching: per-step budget in operations")
	truncations := fs.String("truncations", joinInts(opcount.PaperTruncations()), "with --ops: comma-separated T-BPTT truncations")
	nearest := fs.Bool("nearest", false, "with --ops: T-BPTT hidden size whose cost is nearest the budget (may exceed it) instead of the largest within it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if *inputs < 1 {
		return badInput("--inputs must be at least 1, got %d", *inputs)
	}
	if *perStage < 1 {
		return badInput("--features-per-stage must be at least 1, got %d", *perStage)
	}
	switch {
	case set["method"] && set["ops"]:
		return badInput("give either --method (one configuration) or --ops (compute matching), not both")
	case set["ops"]:
		for _, f := range []string{"hidden", "truncation", "features", "no-out-bias", "frozen-step-scale"} {
			if set[f] {
				return badInput("--%s applies to --method, not to --ops", f)
			}
		}
		if *ops < 1 {
			return badInput("--ops must be positive, got %d", *ops)
		}
		ks, err := parseTruncations(*truncations)
		if err != nil {
			return err
		}
		return printMatched(stdout, *ops, *inputs, ks, *perStage, *nearest)
	case set["method"]:
		if set["truncations"] || set["nearest"] {
			return badInput("--truncations and --nearest apply to --ops, not to --method")
		}
		c, err := budgetConfig(arch.Method(*method), set, *hidden, *truncation, *features, *perStage, *inputs)
		if err != nil {
			return err
		}
		if *noOutBias && !c.Dense() {
			return badInput("--no-out-bias applies to the dense methods tbptt, rtrl, snap1 and uoro only")
		}
		c.NoOutBias = *noOutBias
		if set["frozen-step-scale"] {
			if err := checkFrozenStepScale(c.Method, *frozenScale); err != nil {
				return err
			}
			c.FrozenTraces = *frozenScale > 0
		}
		return printConfig(stdout, c)
	}
	return badInput("give --method (one configuration) or --ops (compute matching)")
}

// budgetConfig checks the flags of one configuration against the sizes of
// its method's entry in the registry of methods (arch.MethodInfo.Sizes).
func budgetConfig(m arch.Method, set map[string]bool, hidden, truncation, features, perStage, inputs int) (opcount.Config, error) {
	c := opcount.Config{Method: m, Inputs: inputs}
	info, ok := arch.Info(m)
	if !ok {
		names := make([]string, 0, len(arch.Methods()))
		for _, m := range arch.Methods() {
			names = append(names, string(m))
		}
		return c, badInput("unknown method %q (want %s)", m, strings.Join(names, ", "))
	}
	value := map[string]int{"hidden": hidden, "truncation": truncation, "features": features, "features-per-stage": perStage}
	var takes []string
	for _, z := range info.Sizes {
		takes = append(takes, "--"+z.Flag())
	}
	for _, f := range []string{"hidden", "truncation", "features", "features-per-stage"} {
		if set[f] && !slices.Contains(takes, "--"+f) {
			if len(takes) == 0 {
				return c, badInput("method %s takes --inputs only, not --%s", m, f)
			}
			return c, badInput("method %s takes %s, not --%s", m, strings.Join(takes, " and "), f)
		}
	}
	for _, z := range info.Sizes {
		v := value[z.Flag()]
		if v < 1 {
			return c, badInput("method %s needs --%s ≥ 1, got %d", m, z.Flag(), v)
		}
		switch z {
		case arch.SizeTruncation:
			c.Truncation = v
		case arch.SizePerStage:
			c.PerStage = v
		default: // hidden units, trace units, features: opcount.Config.Features
			c.Features = v
		}
	}
	return c, nil
}

// checkFrozenStepScale refuses --frozen-step-scale where ccn run would: for a
// method it does not apply to or outside its range (the run setting's own
// checks, experiments.Lookup).
func checkFrozenStepScale(m arch.Method, scale float64) error {
	const key = "frozen-step-scale"
	s, _ := experiments.Lookup(key)
	if !s.Applies(m) {
		return badInput("--%s does not apply to method %s", key, m)
	}
	if msg := s.Check(&experiments.RunConfig{Method: m, FrozenStepScale: scale}); msg != "" {
		return badInput("--%s %g %s", key, scale, msg)
	}
	return nil
}

// budgetMethods lists the methods of the registry the paper's compute model
// counts, and the others.
func budgetMethods() (paper, other string) {
	var p, o []string
	for _, m := range arch.Methods() {
		if info, _ := arch.Info(m); info.PaperModel {
			p = append(p, string(m))
		} else {
			o = append(o, string(m))
		}
	}
	return strings.Join(p, ", "), strings.Join(o, ", ")
}

func parseTruncations(s string) ([]int, error) {
	var ks []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, badInput("--truncations: %q is not a positive integer", f)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func printConfig(stdout io.Writer, c opcount.Config) error {
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "method\t%s\n", c.Method)
	info, _ := arch.Info(c.Method)
	for _, z := range info.Sizes {
		n := z.Of(c.Spec())
		switch z {
		case arch.SizeTraceUnits:
			fmt.Fprintf(w, "units\t%d (%d features)\n", n, 2*n)
		case arch.SizePerStage:
			fmt.Fprintf(w, "features per stage\t%d\n", n)
		default:
			fmt.Fprintf(w, "%s\t%d\n", z.Flag(), n)
		}
	}
	fmt.Fprintf(w, "inputs\t%d\n", c.Inputs)
	switch {
	case info.PaperOps == nil:
		fmt.Fprintf(w, "paper ops/step\t- (the paper's compute model, Appendix A.7, has none for %s)\n", c.Method)
	case c.FrozenTraces:
		fmt.Fprintf(w, "paper ops/step\t%d (frozen columns without traces, as the paper's)\n", c.Ops())
	default:
		fmt.Fprintf(w, "paper ops/step\t%d\n", c.Ops())
	}
	if n, ok := c.Implementation(); ok {
		fmt.Fprintf(w, "implementation ops/step\t%d\n", n)
	}
	return w.Flush()
}

func printMatched(stdout io.Writer, budget, inputs int, truncations []int, perStage int, nearest bool) error {
	cs := opcount.Matched(budget, inputs, truncations, []int{perStage}) // features column: RTU's trace units
	if nearest {
		for i, c := range cs {
			if c.Method == arch.MethodTBPTT {
				cs[i].Features = opcount.NearestTBPTT(budget, inputs, c.Truncation)
			}
		}
	}
	rule := "largest within the budget"
	if nearest {
		rule = "T-BPTT nearest the budget, others largest within it"
	}
	fmt.Fprintf(stdout, "budget %d ops/step, %d inputs (%s; paper Appendix A.7)\n", budget, inputs, rule)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprint(w, "method\tfeatures\ttruncation\tper stage\tpaper ops\tof budget\timplementation ops\n")
	for _, c := range cs {
		k, u := "-", "-"
		info, _ := arch.Info(c.Method)
		if info.Takes(arch.SizeTruncation) {
			k = strconv.Itoa(c.Truncation)
		}
		if info.PerStage != nil {
			u = strconv.Itoa(info.PerStage(c.Spec()))
		}
		impl := "-"
		if n, ok := c.Implementation(); ok {
			impl = strconv.Itoa(n)
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%d\t%.1f%%\t%s\n",
			c.Method, c.Features, k, u, c.Ops(), 100*float64(c.Ops())/float64(budget), impl)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(cs) == 0 {
		fmt.Fprintln(stdout, "no method affords a single feature")
	}
	if budget == 4000 && inputs == 12 {
		fmt.Fprintln(stdout, "\npaper's compute-matched T-BPTT pairs (Table 1; hand-picked: no single rounding rule of the formula gives all eight):")
		fmt.Fprintf(w, "k:H\tpaper ops\tof budget\n")
		for _, c := range opcount.PaperTBPTTPairs() {
			fmt.Fprintf(w, "%d:%d\t%d\t%.1f%%\n", c.Truncation, c.Features, c.Ops(), 100*float64(c.Ops())/float64(budget))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return nil
}
