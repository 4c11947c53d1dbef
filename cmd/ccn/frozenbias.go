package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/compare"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// runFrozenBias measures, along a run, how far the gradient that frozen
// columns learn with (their own traces: frozen-step-scale) is from the exact
// gradient (docs/stages.md, "Frozen features that keep learning").
func runFrozenBias(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("frozen-bias", stderr)
	var flags experiments.RunConfig
	settingFlags(fs, &flags)
	length := intFlag(fs, "length", 30, "steps of each measured trajectory, from the zero state (the reference unrolls them in one graph)")
	every := intFlag(fs, "every", 0, "steps between measurements (0: a tenth of --steps)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var c experiments.RunConfig
	if err := applySettingFlags(set, &flags, &c); err != nil {
		return err
	}
	r, err := c.Resolve()
	if err != nil {
		return configError(err, "")
	}
	cfg := r.Config()
	if info, _ := arch.Info(cfg.Method); !info.Staged() || cfg.Float32 {
		return badInput("--method %s has no frozen stages to measure (want ccn or constructive, float64)", cfg.Method)
	}
	if *length < 2 {
		return badInput("--length must be at least 2, got %d", *length)
	}
	if set["every"] && *every < 1 {
		return badInput("--every must be at least 1, got %d", *every)
	}
	if *every == 0 {
		*every = max(1, cfg.Steps/10)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ref := reference.New()
	pe := r.NewEnv() // the measured trajectories: the task's stream, window after window
	defer catalog.Close(pe)
	fmt.Fprintf(stdout, "%s seed %d, frozen-step-scale %g: the gradient of y_T after %d steps from the zero state, along each frozen column's own traces against the exact one\n",
		cfg.Method, cfg.Seed, cfg.FrozenStepScale, *length)
	fmt.Fprintf(stdout, "%10s  %-14s  %6s  %10s  %8s\n", "steps", "stages", "frozen", "rel-error", "cosine")
	err = experiments.Probe(ctx, r, *every, func(steps int, learner any) error {
		net := learner.(*forward.Network)
		xs := make([][]float64, *length)
		for t := range xs {
			xs[t] = make([]float64, pe.ObservationSize())
			pe.Next(xs[t])
		}
		top := net.Topology()
		if top.Learning() == 0 {
			return nil
		}
		bias, err := compare.FrozenBias(ref, top, net.Frozen(), net.Params(), xs, nil)
		if err != nil {
			return err
		}
		sizes := make([]string, len(top.Stages))
		for i, u := range top.Stages {
			sizes[i] = strconv.Itoa(u)
		}
		stages := strings.Join(sizes, "+")
		for _, b := range bias {
			fmt.Fprintf(stdout, "%10d  %-14s  %6d  %10.3g  %8.4f\n", steps, stages, b.Stage, b.RelErr, b.Cosine)
		}
		return nil
	})
	switch {
	case errors.Is(err, experiments.ErrDiverged):
		return exitError{exitDiverged, err.Error()}
	case errors.Is(err, context.Canceled):
		return exitError{exitInterrupted, "interrupted"}
	case err != nil:
		return exitError{exitRunFailed, err.Error()}
	}
	return nil
}
