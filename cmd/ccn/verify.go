package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ccn-go/ccn/compare"
	"github.com/ccn-go/ccn/internal/lanes"
)

// runVerify runs the comparison suite and prints one row per case. It fails
// (exit 1) if any case disagrees with the reference beyond compare.Tolerance.
// Its params column is compare.Case.Params (the model's parameters, frozen
// ones too), its checked column compare.Case.Checked (the gradient entries
// compared per step; lo-hi when they differ over an auto row's stages).
func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", stderr)
	trajectories := intFlag(fs, "trajectories", 0, "random trajectories per case (default 3: one per parameter scale 0.1, 0.5, 1.5)")
	length := intFlag(fs, "length", 200, "longest trajectory for the column, dense RTRL, T-BPTT and RTU cases (≥ 1; RTU rows stop at 50)")
	netLength := intFlag(fs, "network-length", 30, "trajectory length for the network cases (≥ 1)")
	seed := uint64Flag(fs, "seed", 1, "seed of the random parameters and trajectories")
	suite := fs.String("suite", "all", "which cases: cells, networks or all")
	inject := fs.String("inject", "", "inject a known mistake into the engines, to see the checks fail: "+injectionNames())
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	in, err := compare.ParseInjection(*inject)
	if err != nil {
		return badInput("--inject: %s", strings.TrimPrefix(err.Error(), "compare: "))
	}
	cfg := compare.SuiteConfig{Trajectories: *trajectories, Length: *length, NetworkLength: *netLength, Seed: *seed, Inject: in}
	switch *suite {
	case "cells":
		cfg.Cells = true
	case "networks":
		cfg.Networks = true
	case "all":
		cfg.Cells, cfg.Networks = true, true
	default:
		return badInput("--suite must be cells, networks or all, got %q", *suite)
	}
	if *trajectories < 0 || *length < 1 || *netLength < 1 {
		return badInput("--trajectories must be at least 0 (0: the default), --length and --network-length at least 1")
	}
	start := time.Now()
	if in != compare.InjectNone {
		fmt.Fprintf(stdout, "injected: %s (the cases whose engine makes this mistake must FAIL)\n", in)
	}
	fmt.Fprintf(stdout, "%-8s  %-26s  %4s  %4s  %5s  %6s  %4s  %-5s  %6s  %7s  %10s  %10s  %s\n",
		"engine", "cell", "H", "m", "stage", "norm", "T", "k", "params", "checked", "max abs", "max rel", "result")
	failed := 0
	var worst compare.Agreement
	results := compare.Run(cfg, func(done, total int, r compare.Result) {
		k := "full"
		if r.Truncation > 0 {
			k = fmt.Sprint(r.Truncation)
		}
		norm := r.Norm
		if norm == "" {
			norm = "-"
		}
		stat := "" // a UORO row's statistics; its max abs, max rel are those of the exact parts
		if r.UORO != nil {
			stat = fmt.Sprintf(" (mean of %d draws: max z %.2f, limit %d; T² %.1f, limit %.1f)", r.UORO.Draws, r.UORO.MaxZ, compare.UOROMaxZ, r.UORO.T2, r.UORO.Threshold)
		}
		verdict := "PASS" + stat
		if !r.Pass() {
			verdict = "FAIL" + stat
			failed++
			if r.Err != nil {
				verdict = "FAIL: " + r.Err.Error()
			}
		}
		worst = worst.Worst(r.Agreement)
		lo, hi := r.Checked()
		checked := fmt.Sprint(lo)
		if hi != lo {
			checked = fmt.Sprintf("%d-%d", lo, hi)
		}
		fmt.Fprintf(stdout, "%-8s  %-26s  %4d  %4d  %5s  %6s  %4d  %-5s  %6d  %7s  %10.3g  %10.3g  %s\n",
			r.Engine, r.CellName(), r.Hidden, r.Inputs, r.StageName(), norm, r.Length, k, r.Params(), checked, r.MaxAbs, r.MaxRel, verdict)
	})
	f32failed := 0
	if cfg.Networks {
		f32failed = verifyFloat32(stdout, *seed, *trajectories, in)
	}
	// The kernels are those of every engine in this binary (internal/lanes):
	// simd in a GOEXPERIMENT=simd build on a CPU with AVX2 and FMA, else scalar.
	fmt.Fprintf(stdout, "\n%d cases, %d failed; worst max abs %.3g, worst max rel %.3g (tolerance %g); %.1fs; kernels: %s\n",
		len(results), failed, worst.MaxAbs, worst.MaxRel, compare.Tolerance, time.Since(start).Seconds(), lanes.Path())
	if failed+f32failed > 0 {
		msg := fmt.Sprintf("%d of %d cases disagree with the reference", failed, len(results))
		if f32failed > 0 {
			msg = fmt.Sprintf("%d of %d cases disagree with the reference, %d float32 rows with the float64 engine", failed, len(results), f32failed)
		}
		if in != compare.InjectNone {
			msg += fmt.Sprintf(" (with %s injected)", in)
		}
		return exitError{code: 1, msg: msg}
	}
	return nil
}

// injectionNames lists the names --inject accepts.
func injectionNames() string {
	var names []string
	for _, in := range compare.Injections() {
		names = append(names, string(in))
	}
	return strings.Join(names, ", ")
}

// verifyFloat32 prints the rows of the float32 engine held to the float64
// engine (compare.Float32Suite) and returns the number that failed.
func verifyFloat32(stdout io.Writer, seed uint64, trajectories int, in compare.Injection) int {
	start := time.Now()
	fmt.Fprintf(stdout, "\nfloat32 engine against the float64 engine (tolerance at step t: networks learning by TD(λ) and RMSProp (t+m)·ε₃₂, m the widest column's inputs; T-BPTT 2·2⁻²⁴·(κ_t + w_t·(4H+8)), κ_t the largest pre-activation's sum of magnitudes, w_t the window):\n")
	fmt.Fprintf(stdout, "%-18s  %-13s  %5s  %4s  %10s  %10s  %9s  %s\n", "engine/inputs", "kind", "scale", "T", "worst rel", "tolerance", "of tol", "result")
	failed, worst := 0, 0.0
	rs := compare.Float32Suite(seed, trajectories, in)
	for _, r := range rs {
		verdict := "PASS"
		if !r.Pass() {
			verdict = "FAIL"
			failed++
		}
		worst = max(worst, r.Worst)
		fmt.Fprintf(stdout, "%-18s  %-13s  %5g  %4d  %10.3g  %10.3g  %9.3g  %s (step %d)\n",
			r.Name, r.Kind, r.Scale, r.Steps, r.MaxRel, r.Tol, r.Worst, verdict, r.Step)
	}
	fmt.Fprintf(stdout, "%d float32 rows, %d failed; worst %.3g of the tolerance; %.1fs; numerics: %s\n",
		len(rs), failed, worst, time.Since(start).Seconds(), lanes.Float32Numerics(lanes.Numerics()))
	return failed
}
