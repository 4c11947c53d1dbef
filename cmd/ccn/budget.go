package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/compute"
)

// runBudget prints the paper's per-step operation count of one configuration
// (--method), or the compute-matched configurations of every method for a
// budget (--ops).
func runBudget(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("budget", stderr)
	method := fs.String("method", "", "one configuration: tbptt, columnar, constructive, ccn, rtu, rtu-linear, or (no paper model, implementation count only) rtrl, snap1, uoro, linear")
	hidden := intFlag(fs, "hidden", 0, "tbptt, rtrl, snap1, uoro: hidden units; rtu, rtu-linear: trace units")
	truncation := intFlag(fs, "truncation", 0, "tbptt: truncation length k")
	features := intFlag(fs, "features", 0, "columnar, constructive, ccn: number of features")
	perStage := intFlag(fs, "features-per-stage", 4, "ccn: features learned per stage u (with --ops: the u to match)")
	inputs := intFlag(fs, "inputs", 12, "input size |x|")
	noOutBias := fs.Bool("no-out-bias", false, "tbptt, rtrl, snap1, uoro: count without the output bias b_out, as ccn run --no-out-bias (implementation count only)")
	ops := intFlag(fs, "ops", 0, "compute matching: per-step budget in operations")
	truncations := fs.String("truncations", joinInts(compute.PaperTruncations()), "with --ops: comma-separated T-BPTT truncations")
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
		for _, f := range []string{"hidden", "truncation", "features", "no-out-bias"} {
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
		return printConfig(stdout, c)
	}
	return badInput("give --method (one configuration) or --ops (compute matching)")
}

// budgetConfig checks the flags of one configuration.
func budgetConfig(m arch.Method, set map[string]bool, hidden, truncation, features, perStage, inputs int) (compute.Config, error) {
	c := compute.Config{Method: m, Inputs: inputs}
	switch f := m.Family(); {
	case m == arch.MethodTBPTT:
		if set["features"] || set["features-per-stage"] {
			return c, badInput("method tbptt takes --hidden and --truncation, not --features or --features-per-stage")
		}
		if hidden < 1 || truncation < 1 {
			return c, badInput("method tbptt needs --hidden ≥ 1 and --truncation ≥ 1, got %d and %d", hidden, truncation)
		}
		c.Features, c.Truncation = hidden, truncation
	case f == arch.FamilyDense || f == arch.FamilyRTU:
		if set["features"] || set["features-per-stage"] || set["truncation"] {
			return c, badInput("method %s takes --hidden, not --features, --features-per-stage or --truncation", m)
		}
		if hidden < 1 {
			return c, badInput("method %s needs --hidden ≥ 1, got %d", m, hidden)
		}
		c.Features = hidden
	case f == arch.FamilyNetwork:
		if set["hidden"] || set["truncation"] {
			return c, badInput("method %s takes --features, not --hidden or --truncation", m)
		}
		if features < 1 {
			return c, badInput("method %s needs --features ≥ 1, got %d", m, features)
		}
		if m != arch.MethodCCN && set["features-per-stage"] {
			return c, badInput("--features-per-stage applies to method ccn only")
		}
		c.Features = features
		if m == arch.MethodCCN {
			c.PerStage = perStage
		}
	case f == arch.FamilyLinear:
		for _, f := range []string{"hidden", "truncation", "features", "features-per-stage", "no-out-bias"} {
			if set[f] {
				return c, badInput("method linear takes --inputs only, not --%s", f)
			}
		}
	case f == arch.FamilyOther: // registered (arch.Register): its Ops reads Inputs and Hidden
		for _, f := range []string{"truncation", "features", "features-per-stage", "no-out-bias"} {
			if set[f] {
				return c, badInput("method %s takes --inputs and --hidden only, not --%s", m, f)
			}
		}
		c.Features = hidden
	default:
		return c, badInput("unknown method %q (want tbptt, columnar, constructive, ccn, rtu, rtu-linear, rtrl, snap1, uoro or linear)", m)
	}
	return c, nil
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

func printConfig(stdout io.Writer, c compute.Config) error {
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "method\t%s\n", c.Method)
	switch f := c.Method.Family(); {
	case c.Method == arch.MethodTBPTT:
		fmt.Fprintf(w, "hidden\t%d\ntruncation\t%d\n", c.Features, c.Truncation)
	case c.Method == arch.MethodCCN:
		fmt.Fprintf(w, "features\t%d\nfeatures per stage\t%d\n", c.Features, c.PerStage)
	case f == arch.FamilyDense:
		fmt.Fprintf(w, "hidden\t%d\n", c.Features)
	case f == arch.FamilyRTU:
		fmt.Fprintf(w, "units\t%d (%d features)\n", c.Features, 2*c.Features)
	case f == arch.FamilyLinear:
	default:
		fmt.Fprintf(w, "features\t%d\n", c.Features)
	}
	fmt.Fprintf(w, "inputs\t%d\n", c.Inputs)
	if noPaperModel(c.Method) {
		fmt.Fprintf(w, "paper ops/step\t- (the paper's compute model, Appendix A.7, has none for %s)\n", c.Method)
	} else {
		fmt.Fprintf(w, "paper ops/step\t%d\n", c.Ops())
	}
	if n, ok := c.Implementation(); ok {
		fmt.Fprintf(w, "implementation ops/step\t%d\n", n)
	}
	return w.Flush()
}

func printMatched(stdout io.Writer, budget, inputs int, truncations []int, perStage int, nearest bool) error {
	cs := compute.Matched(budget, inputs, truncations, []int{perStage})
	if n := compute.LargestRTU(budget, inputs); n > 0 { // beyond the paper; features column: units
		cs = append(cs, compute.Config{Method: arch.MethodRTU, Features: n, Inputs: inputs})
	}
	if nearest {
		for i, c := range cs {
			if c.Method == arch.MethodTBPTT {
				cs[i].Features = compute.NearestTBPTT(budget, inputs, c.Truncation)
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
		switch c.Method {
		case arch.MethodTBPTT:
			k = strconv.Itoa(c.Truncation)
		case arch.MethodCCN:
			u = strconv.Itoa(c.PerStage)
		case arch.MethodConstructive:
			u = "1"
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
		for _, c := range compute.PaperTBPTTPairs() {
			fmt.Fprintf(w, "%d:%d\t%d\t%.1f%%\n", c.Truncation, c.Features, c.Ops(), 100*float64(c.Ops())/float64(budget))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// noPaperModel reports whether m is a method the paper's compute model does
// not cover (the dense LSTM learned by exact RTRL, SnAp-1 or UORO, and the
// linear control).
func noPaperModel(m arch.Method) bool {
	info, _ := arch.Info(m)
	return !info.PaperModel
}
