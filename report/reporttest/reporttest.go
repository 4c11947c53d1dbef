// Package reporttest writes small but real results directories for the tests
// of package figures and of ccn plot: the experiment files of
// experiments/configs expanded at a tiny scale by package sweep, every
// selected run computed by experiments.Run, and the truncation study's CSVs
// written by package truncation's writers.
package reporttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/sweep"
	"github.com/ccn-go/ccn/truncation"
)

// Scale is the name of the tiny scale Tiny adds to every study.
const Scale = "test"

// Tiny is a scale of 400 steps with a window of 100 and a curve point every
// 50 steps, two sweep seeds, three final seeds (two shared with the sweep) and
// two step sizes for every group that tunes one (ε fixed at 0.001), so that
// the sweep stage really selects.
func Tiny() sweep.Scale {
	return sweep.Scale{
		Steps:      400,
		SweepSeeds: sweep.Seeds{0, 1},
		FinalSeeds: sweep.Seeds{0, 1, 2},
		Set:        map[string]any{"window": 100, "log-every": 50},
		Grid:       map[string][]any{"step-size": {1e-3, 3e-4}, "epsilon": {0.001}},
	}
}

// DependencyTiny is the scale of the dependency-length study: Tiny over
// 2,000 steps with the error window the whole run, so that every stream, at
// every ISI up to 96-144 (a trial about every 500 steps), holds rewarded
// trials and its return a positive variance to divide by; over the groups of
// CCN, T-BPTT 15:4 and T-BPTT 30:2 (which has no ISI 8-12) only.
func DependencyTiny() sweep.Scale {
	sc := Tiny()
	sc.Steps = 2000
	sc.Set = map[string]any{"window": 2000, "log-every": 250}
	for _, isi := range []string{"8-12", "24-36", "48-72", "96-144"} {
		sc.Only = append(sc.Only, "ccn/isi="+isi, "tbptt-15:4/isi="+isi)
		if isi != "8-12" {
			sc.Only = append(sc.Only, "tbptt-30:2/isi="+isi)
		}
	}
	return sc
}

// AutoFreezingTiny is the scale of the auto-freezing study: Tiny over 2,000
// steps with the error window the whole run (so that the return has a
// positive variance to divide by); its stages are 100 (0.5M), 200, 500 and
// 1,000 steps long, the auto schedule's between 100 and 1,000.
func AutoFreezingTiny() sweep.Scale {
	sc := Tiny()
	sc.Steps = 2000
	sc.Set = map[string]any{"window": 2000, "log-every": 250}
	return sc
}

// AutoFreezingAtariTiny is the scale of the auto-freezing-atari study: 1,000
// steps on the file's game with the error window the whole run, nothing
// tuned, two final seeds.
func AutoFreezingAtariTiny() sweep.Scale {
	sc := AtariTiny(nil)
	sc.Envs = nil
	sc.Steps = 1000
	sc.Set = map[string]any{"window": 1000, "log-every": 250}
	return sc
}

// Stage says how far WriteStudy goes.
type Stage int

// Stages of a study's results.
const (
	PlanOnly  Stage = iota // the plan, no run
	SweepOnly              // the plan and the sweep runs, no final run
	Complete               // every run of the sweep and of the selected configurations
)

// AllStudies are the studies of experiments/configs that figures reads.
var AllStudies = []string{"main-comparison", "compute-matched-tbptt", "truncation-h10",
	"normalization-ablation", "ccn-features-per-stage", "ccn-steps-per-stage", "online-gradients",
	"dependency-length", "auto-freezing"}

// WriteStudy expands configs/STUDY.yaml at scale (added to the study under
// the name Scale) into the results directory dir and computes its runs up to
// stage.
func WriteStudy(dir, configs, study string, scale sweep.Scale, stage Stage) error {
	s, err := sweep.Load(filepath.Join(configs, study+".yaml"))
	if err != nil {
		return err
	}
	s.Scales[Scale] = scale
	p, err := s.Plan(Scale)
	if err != nil {
		return err
	}
	if err := sweep.SavePlan(dir, p); err != nil {
		return err
	}
	if stage == PlanOnly {
		return nil
	}
	look := func(id string) sweep.Outcome { return sweep.Look(dir, id, sweep.DefaultMaxAttempts) }
	run := func(t sweep.Task) error {
		// Ungated (no Options.Gate): these runs are fixtures for the
		// tables and figures; the gradients are compare's tests' subject,
		// and the gate of every study's architecture would add seconds to
		// each fixture. Results for use are computed by sweep.Pool or the
		// CLI, which gate.
		_, err := experiments.Run(context.Background(), t.Config, sweep.RunDir(dir, t.ID), experiments.Options{})
		if err != nil && !errors.Is(err, experiments.ErrDiverged) {
			return fmt.Errorf("figurestest: run %s: %w", t.ID, err)
		}
		return nil
	}
	for g := range p.Groups {
		for _, t := range p.SweepTasks(g) {
			if err := run(t); err != nil {
				return err
			}
		}
		if stage == SweepOnly {
			continue
		}
		best, ok := p.Best(g, look)
		if !ok {
			return fmt.Errorf("figurestest: %s group %s: sweep not settled", study, p.Groups[g].Name)
		}
		for _, t := range p.FinalTasks(g, best) {
			if err := run(t); err != nil {
				return err
			}
		}
	}
	return nil
}

// AtariStudies are the Atari studies of experiments/configs, and the groups
// AtariTiny runs of each.
var AtariStudies = map[string][]string{
	"atari-main-comparison":        {"ccn", "columnar", "constructive", "tbptt/15:2", "tbptt/5:7"},
	"atari-tbptt-capacity":         {"capacity/H=2", "capacity/H=15", "truncation/k=2", "truncation/k=15"},
	"atari-normalization-ablation": nil,
}

// AtariTiny is a scale of 200 steps on two games, nothing tuned, two final
// seeds, over the groups only.
func AtariTiny(only []string) sweep.Scale {
	return sweep.Scale{
		Steps:      200,
		FinalSeeds: sweep.Seeds{0, 1},
		Set:        map[string]any{"window": 100, "log-every": 50},
		Grid:       map[string][]any{"step-size": {3e-4}, "epsilon": {0.001}},
		Envs:       []string{"breakout", "freeway"},
		Only:       only,
	}
}

// WriteAll writes every study of AllStudies, complete, at Tiny scale
// (dependency-length at DependencyTiny, auto-freezing at AutoFreezingTiny),
// the Atari studies at AtariTiny, auto-freezing-atari at
// AutoFreezingAtariTiny, and the truncation study's CSVs.
func WriteAll(dir, configs string) error {
	for _, s := range AllStudies {
		sc := Tiny()
		switch s {
		case "dependency-length":
			sc = DependencyTiny()
		case "auto-freezing":
			sc = AutoFreezingTiny()
		}
		if err := WriteStudy(dir, configs, s, sc, Complete); err != nil {
			return err
		}
	}
	for s, only := range AtariStudies {
		if err := WriteStudy(dir, configs, s, AtariTiny(only), Complete); err != nil {
			return err
		}
	}
	if err := WriteStudy(dir, configs, "auto-freezing-atari", AutoFreezingAtariTiny(), Complete); err != nil {
		return err
	}
	return WriteTruncation(filepath.Join(dir, "truncation"))
}

// WriteTruncation writes a small truncation study (gradient bias of H = 2 and
// 4 for T-BPTT k = 1..40, SnAp-1, UORO and dense RTRL, cost of four learners) into dir with the truncation
// package's writers. The numbers are made up but shaped like the real ones:
// the relative error falls and the cosine rises with k.
func WriteTruncation(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var bias []truncation.BiasPoint
	for _, h := range []int{2, 4} {
		params := 4*h*h + 4*h*12 + 4*h + h
		point := func(m arch.Method, k, draws int, e, sd float64, ops int) truncation.BiasPoint {
			return truncation.BiasPoint{Method: m, Hidden: h, Params: params, K: k, Draws: draws,
				RelErr: e, RelErrSE: e / 10, RelErrSD: sd, Cos: 1 - e, CosSE: e / 20, CosSD: sd / 2,
				Samples: 20, Seeds: 2, Ops: ops, Nanos: float64(ops) / 2}
		}
		for k := 1; k <= 40; k++ {
			bias = append(bias, point(arch.MethodTBPTT, k, 1, 1/float64(k+h), 0, (k+1)*params*4))
		}
		bias = append(bias,
			point(arch.MethodSnAp1, 0, 1, 0.3/float64(h), 0, 12*params),
			point(arch.MethodUORO, 0, 10, 1.5, 0.4, 10*params),
			point(arch.MethodRTRL, 0, 1, 1e-15, 0, params*params))
	}
	var cost []truncation.CostPoint
	for _, size := range []int{4, 16, 64} {
		p := 4 * (12 + 2) * size
		cost = append(cost,
			truncation.CostPoint{Method: arch.MethodColumnar, Label: "Columnar", Size: size, Params: p, Micros: 0.01 * float64(p)},
			truncation.CostPoint{Method: arch.MethodCCN, Label: "CCN", Size: size, Params: p, Micros: 0.012 * float64(p)},
			truncation.CostPoint{Method: arch.MethodTBPTT, Label: "T-BPTT k=10", Size: size, Params: p, Micros: 0.11 * float64(p)},
			truncation.CostPoint{Method: arch.MethodRTRL, Label: "RTRL", Size: size, Params: p, Micros: 1e-4 * float64(p*p)})
	}
	var buf bytes.Buffer
	if err := truncation.WriteBiasCSV(&buf, bias); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, truncation.BiasCSV), buf.Bytes(), 0o644); err != nil {
		return err
	}
	buf.Reset()
	if err := truncation.WriteCostCSV(&buf, cost); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, truncation.CostCSV), buf.Bytes(), 0o644)
}
