package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/compare"
	"github.com/ccn-go/ccn/experiments"
)

// Exit statuses of ccn run besides 0 (success or skipped) and 2 (bad input).
const (
	exitRunFailed   = 1   // the gradient gate refused, or an I/O error
	exitDiverged    = 3   // a prediction or parameter became NaN or ±Inf; files written, diverged: true
	exitInterrupted = 130 // SIGINT: stopped, nothing complete written
)

// positiveKeys are the settings whose zero value means "the method's default"
// in experiments.RunConfig; written explicitly as 0 they are refused rather
// than silently replaced.
var positiveKeys = []string{"steps", "step-size", "gamma", "features", "features-per-stage",
	"steps-per-stage", "hidden", "truncation", "epsilon", "norm-decay", "window", "log-every"}

// runRun learns online on an environment and writes a run directory.
//
// Exit status: 0 done (or skipped: the directory already holds a complete
// summary), 1 the gradient gate failed or an I/O error, 2 bad input (nothing
// is created), 3 the run diverged (files written with diverged: true), 130
// interrupted.
func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stderr)
	var c experiments.RunConfig
	fs.StringVar(&c.Env, "env", experiments.EnvTracePatterning, "environment (trace-patterning)")
	method := fs.String("method", string(arch.MethodCCN), "learner: ccn, columnar, constructive, tbptt or rtrl")
	fs.IntVar(&c.Steps, "steps", 0, "steps to learn (default 10,000,000)")
	fs.Uint64Var(&c.Seed, "seed", 0, "seed of the environment and the initialization")
	out := fs.String("out", "", "run directory to write (required)")
	fs.Float64Var(&c.StepSize, "step-size", 0, "step size α (default per method and optimizer)")
	lambda := fs.Float64("lambda", 0.99, "trace decay λ in [0, 1]")
	fs.Float64Var(&c.Gamma, "gamma", 0, "discount γ in (0, 1) (default 0.9)")
	fs.IntVar(&c.Features, "features", 0, "features of ccn (16), columnar (10), constructive (5)")
	fs.IntVar(&c.FeaturesPerStage, "features-per-stage", 0, "columns per stage (ccn 4, constructive 1)")
	fs.IntVar(&c.StepsPerStage, "steps-per-stage", 0, "steps between stages (ccn 2.5M, constructive 1M, scaled by steps/10M)")
	fs.IntVar(&c.Hidden, "hidden", 0, "LSTM units of tbptt and rtrl (4)")
	fs.IntVar(&c.Truncation, "truncation", 0, "T-BPTT truncation k ≥ 1 (15)")
	fs.BoolVar(&c.NoOutBias, "no-out-bias", false, "tbptt and rtrl: predict y = w_out·h without the output bias (the authors' baseline)")
	fs.Float64Var(&c.Epsilon, "epsilon", 0, "floor ε on a feature's σ in the normalization (0.001)")
	fs.Float64Var(&c.NormDecay, "norm-decay", 0, "decay β of the normalization statistics (0.99999)")
	fs.BoolVar(&c.NoNorm, "no-norm", false, "turn feature normalization off")
	fs.StringVar(&c.Optimizer, "optimizer", "", "adam or rmsprop (default "+experiments.DefaultOptimizer+")")
	fs.IntVar(&c.Window, "window", 0, "steps the error curve averages over (100000)")
	fs.IntVar(&c.LogEvery, "log-every", 0, "steps between curve points (10000)")
	config := fs.String("config", "", "JSON or YAML file with the same keys as the flags; flags given too override it")
	force := fs.Bool("force", false, "rerun even if the directory holds a complete summary")
	noGate := fs.Bool("no-gate", false, "skip the gradient check against the reference before the run")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.Method = arch.Method(*method)
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["lambda"] {
		c.Lambda = lambda
	}
	for _, k := range positiveKeys {
		if set[k] && fs.Lookup(k).Value.String() == "0" {
			return badInput("--%s must be positive, got 0", k)
		}
	}
	if *config != "" {
		fc, err := readRunConfig(*config)
		if err != nil {
			return err
		}
		c = merge(fc, c, set)
	}
	if *out == "" {
		return badInput("--out DIR is required")
	}
	c = c.Resolve()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := experiments.Options{Force: *force, Progress: stderr, Terminal: isTerminal(stderr)}
	if !*noGate {
		opts.Gate = gate
	}
	s, err := experiments.Run(ctx, c, *out, opts)
	switch {
	case errors.Is(err, experiments.ErrInvalid):
		return usageError{fmt.Errorf("%s", strings.TrimPrefix(err.Error(), experiments.ErrInvalid.Error()+": "))}
	case errors.Is(err, experiments.ErrDiverged):
		return exitError{exitDiverged, fmt.Sprintf("diverged after %d steps; %s records diverged: true", s.Steps, filepath.Join(*out, experiments.SummaryFile))}
	case errors.Is(err, context.Canceled):
		return exitError{exitInterrupted, "interrupted; no complete results written"}
	case err != nil:
		return exitError{exitRunFailed, err.Error()}
	case s.Skipped:
		fmt.Fprintf(stdout, "%s: complete run present (final error %.6g), skipped; use --force to rerun\n", *out, s.FinalError)
		return nil
	}
	fmt.Fprintf(stdout, "%s: %s seed %d, %d steps, final error %.6g, lifetime error %.6g, %.0f steps/s\n",
		*out, c.Method, c.Seed, s.Steps, s.FinalError, s.LifetimeError, s.StepsPerSecond)
	return nil
}

// gate checks the configured architecture (at its final stage) against the
// autodiff reference before a run.
func gate(c experiments.RunConfig) error {
	inputs := c.NewEnv().ObservationSize()
	spec := compare.GateSpec{Seed: c.Seed}
	if n, ok := c.Network(inputs); ok {
		spec.Net = &n
	} else {
		d, _ := c.Dense(inputs)
		spec.Dense = &d
		if c.Method == arch.MethodTBPTT {
			spec.Truncation = c.Truncation
		} else {
			spec.RTRL = true
		}
	}
	return compare.Gate(spec)
}

// readRunConfig reads a JSON (.json) or YAML file into a RunConfig, refusing
// unknown keys, wrong types and explicit zeros where zero means "default".
func readRunConfig(path string) (experiments.RunConfig, error) {
	var c experiments.RunConfig
	b, err := os.ReadFile(path)
	if err != nil {
		return c, badInput("config: %v", err)
	}
	raw := map[string]any{}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return c, badInput("config %s: %v", path, err)
		}
		if dec.More() {
			return c, badInput("config %s: trailing data after the JSON object", path)
		}
		_ = json.Unmarshal(b, &raw)
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return c, badInput("config %s: %v", path, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		_ = yaml.Unmarshal(b, &raw)
	}
	for _, k := range positiveKeys {
		if v, ok := raw[k]; ok && fmt.Sprint(v) == "0" {
			return c, badInput("config %s: %s must be positive, got 0", path, k)
		}
	}
	return c, nil
}

// merge returns the file's configuration with every explicitly set flag
// taking precedence.
func merge(file, flags experiments.RunConfig, set map[string]bool) experiments.RunConfig {
	pick := func(name string, dst any, src any) {
		if !set[name] {
			return
		}
		switch d := dst.(type) {
		case *string:
			*d = *src.(*string)
		case *arch.Method:
			*d = *src.(*arch.Method)
		case *int:
			*d = *src.(*int)
		case *uint64:
			*d = *src.(*uint64)
		case *float64:
			*d = *src.(*float64)
		case *bool:
			*d = *src.(*bool)
		case **float64:
			*d = *src.(**float64)
		}
	}
	pick("env", &file.Env, &flags.Env)
	pick("method", &file.Method, &flags.Method)
	pick("steps", &file.Steps, &flags.Steps)
	pick("seed", &file.Seed, &flags.Seed)
	pick("step-size", &file.StepSize, &flags.StepSize)
	pick("lambda", &file.Lambda, &flags.Lambda)
	pick("gamma", &file.Gamma, &flags.Gamma)
	pick("features", &file.Features, &flags.Features)
	pick("features-per-stage", &file.FeaturesPerStage, &flags.FeaturesPerStage)
	pick("steps-per-stage", &file.StepsPerStage, &flags.StepsPerStage)
	pick("hidden", &file.Hidden, &flags.Hidden)
	pick("truncation", &file.Truncation, &flags.Truncation)
	pick("no-out-bias", &file.NoOutBias, &flags.NoOutBias)
	pick("epsilon", &file.Epsilon, &flags.Epsilon)
	pick("norm-decay", &file.NormDecay, &flags.NormDecay)
	pick("no-norm", &file.NoNorm, &flags.NoNorm)
	pick("optimizer", &file.Optimizer, &flags.Optimizer)
	pick("window", &file.Window, &flags.Window)
	pick("log-every", &file.LogEvery, &flags.LogEvery)
	return file
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
