package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/truncation"
)

// runTruncation runs the truncation study (the errors of T-BPTT, SnAp-1 and
// UORO against the exact gradient with their cost per step, and cost per step
// against size) and writes its CSVs and figures into --out.
func runTruncation(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("truncation", stderr)
	out := fs.String("out", "", "directory for gradient_bias.csv, cost.csv and the figures (required)")
	quick := fs.Bool("quick", false, "a smaller study (about 10 s on two cores)")
	seeds := intFlag(fs, "seeds", 0, "networks and streams per H in the gradient-bias study (0: the default, 10; 3 with --quick)")
	points := intFlag(fs, "points", 0, "trajectories per seed (0: the default, 40; 20 with --quick)")
	maxK := intFlag(fs, "max-k", 0, "largest truncation length k (0: 60)")
	steps := intFlag(fs, "steps", 0, "trajectory length T, above --max-k (0: 120)")
	var hidden sizeList
	fs.Var(&hidden, "hidden", "LSTM sizes H of the gradient-bias study, comma separated (default 2,4,10)")
	var features sizeList
	fs.Var(&features, "features", "Columnar and CCN feature counts timed, comma separated")
	var tbpttHidden sizeList
	fs.Var(&tbpttHidden, "tbptt-hidden", "T-BPTT sizes H timed, comma separated")
	var rtrlHidden sizeList
	fs.Var(&rtrlHidden, "rtrl-hidden", "dense exact RTRL sizes H timed, comma separated")
	var ks sizeList
	fs.Var(&ks, "ks", "T-BPTT truncation lengths timed, comma separated")
	scale := fs.Float64("scale", 0, "half-width s of the U(-s, s) parameters of the fixed networks (0: 1)")
	forgetBias := fs.Float64("forget-bias", 0, "added to every forget-gate bias: longer memory, as after learning (default 0)")
	draws := intFlag(fs, "draws", 0, "UORO estimates per trajectory in the gradient-bias study (0: the default, 20)")
	costMS := intFlag(fs, "cost-ms", 0, "milliseconds per timed run (0: 200 in the cost part, 50 for the estimators of the gradient-bias study; 30 and 10 with --quick)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return badInput("--out is required")
	}
	for _, v := range []struct {
		name string
		v    int
	}{{"--seeds", *seeds}, {"--points", *points}, {"--max-k", *maxK}, {"--steps", *steps}, {"--draws", *draws}, {"--cost-ms", *costMS}} {
		if v.v < 0 {
			return badInput("%s must not be negative, got %d", v.name, v.v)
		}
	}

	var cfg truncation.Config
	if *quick {
		cfg = truncation.Quick()
	}
	b := &cfg.Bias
	setInt(&b.Seeds, *seeds)
	setInt(&b.Points, *points)
	setInt(&b.MaxK, *maxK)
	setInt(&b.Steps, *steps)
	setInt(&b.Draws, *draws)
	if hidden != nil {
		b.Hidden = hidden
	}
	if *scale < 0 || math.IsNaN(*scale) || math.IsInf(*scale, 0) || math.IsNaN(*forgetBias) || math.IsInf(*forgetBias, 0) {
		return badInput("--scale must be finite and not negative, --forget-bias finite")
	}
	b.Scale, b.ForgetBias = *scale, *forgetBias
	c := &cfg.Cost
	for _, l := range []struct {
		dst *[]int
		v   sizeList
	}{{&c.Features, features}, {&c.Hidden, tbpttHidden}, {&c.RTRLHidden, rtrlHidden}, {&c.Ks, ks}} {
		if l.v != nil {
			*l.dst = l.v
		}
	}
	if *costMS > 0 {
		c.Duration = time.Duration(*costMS) * time.Millisecond
		b.Timing = c.Duration
	}
	if err := cfg.Validate(); err != nil {
		return badInput("%v", err)
	}
	b.Progress, c.Progress = stderr, stderr

	start := time.Now()
	if err := truncation.Run(*out, cfg); err != nil {
		return err
	}
	if _, err := report.RenderTruncation(*out, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "truncation study written to %s in %.1fs: %s, %s, %s.{png,pdf}, %s.{png,pdf}, %s.{png,pdf}\n",
		*out, time.Since(start).Seconds(), truncation.BiasCSV, truncation.CostCSV,
		report.NameGradientBias, report.NameGradientEstimators, report.NameCost)
	return nil
}

// setInt sets *dst to v when v is not 0 (0 keeps the configuration's value).
func setInt(dst *int, v int) {
	if v != 0 {
		*dst = v
	}
}

// sizeList is a flag of comma-separated positive integers.
type sizeList []int

func (l *sizeList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *sizeList) Set(s string) error {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	*l = out
	return nil
}
