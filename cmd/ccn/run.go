package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

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

// runRun learns online on an environment and writes a run directory. Its
// settings flags are the rows of experiments.Settings.
//
// Exit status: 0 done (or skipped: the directory already holds a complete
// run of the same resolved configuration), 1 the gradient gate failed or an
// I/O error, 2 bad input (nothing is created; also a directory holding a run
// of another configuration), 3 the run diverged (files written with
// diverged: true), 130 interrupted.
func runRun(args []string, stdout, stderr io.Writer) (retErr error) {
	fs := newFlagSet("run", stderr)
	var flags experiments.RunConfig
	settingFlags(fs, &flags)
	out := fs.String("out", "", "run directory to write (required; its parent must exist)")
	config := fs.String("config", "", "JSON or YAML file with the same keys as the flags, or a run's summary.json (its config: the run again); flags given too override it")
	force := fs.Bool("force", false, "rerun even if the directory holds a complete run (of any configuration)")
	noGate := fs.Bool("no-gate", false, "skip the gradient check against the reference before the run")
	inject := fs.String("inject", "", "inject a known mistake into the engines the gate checks, to see it refuse the run: "+injectionNames())
	profile := fs.String("cpuprofile", "", "write a Go CPU profile of the run to this file (for go tool pprof)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c := experiments.RunConfig{}
	if *config != "" {
		fc, err := readRunConfig(*config)
		if err != nil {
			return err
		}
		c = fc
	}
	if err := applySettingFlags(set, &flags, &c); err != nil {
		return err
	}
	if *out == "" {
		return badInput("--out DIR is required")
	}
	r, err := c.Resolve()
	if err != nil {
		return configError(err, "")
	}
	in, err := compare.ParseInjection(*inject)
	if err == nil {
		err = in.CheckRun(r.Config().Method)
	}
	switch {
	case err != nil:
		return badInput("--inject: %s", strings.TrimPrefix(err.Error(), "compare: "))
	case in != compare.InjectNone && *noGate:
		return badInput("--inject needs the gate (drop --no-gate)")
	case in == compare.InjectDropNormScale && r.Config().NoNorm:
		return badInput("--inject %s changes only a normalized RTU (drop --no-norm)", in)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := experiments.Options{Force: *force, Progress: stderr, Terminal: isTerminal(stderr)}
	if !*noGate {
		opts.Gate = func(r experiments.Resolved) error { return compare.RunGateInjected(r, in) }
	}
	prof, err := startCPUProfile(*profile)
	if err != nil {
		return err
	}
	defer func() { retErr = prof.stop(retErr) }()
	s, err := experiments.Run(ctx, r, *out, opts)
	var other *experiments.OtherRunError
	switch {
	case errors.As(err, &other):
		return badInput("%s holds a complete run with %s %s, not %s; use --force to replace it, or another --out",
			other.Dir, other.Key, other.Stored, other.Requested)
	case errors.Is(err, experiments.ErrInvalid):
		return configError(err, "")
	case errors.Is(err, experiments.ErrDiverged):
		return exitError{exitDiverged, fmt.Sprintf("diverged after %d steps; %s records diverged: true", s.Steps, filepath.Join(*out, experiments.SummaryFile))}
	case errors.Is(err, context.Canceled):
		return exitError{exitInterrupted, "interrupted; no complete results written"}
	case err != nil:
		return exitError{exitRunFailed, err.Error()}
	case s.Skipped:
		fmt.Fprintf(stdout, "%s: complete run of this configuration present (final error %.6g), skipped; use --force to rerun\n", *out, s.FinalError)
		return nil
	}
	fmt.Fprintf(stdout, "%s: %s seed %d, %d steps, final error %.6g, lifetime error %.6g, %.0f steps/s\n",
		*out, r.Config().Method, r.Config().Seed, s.Steps, s.FinalError, s.LifetimeError, s.StepsPerSecond)
	return nil
}

// configError turns an experiments.ConfigError into bad input, its problem
// prefixed by prefix ("--" when it came from a flag); any other error is
// returned as bad input unchanged.
func configError(err error, prefix string) error {
	var ce *experiments.ConfigError
	if errors.As(err, &ce) {
		return badInput("%s%s", prefix, ce.Problem)
	}
	return usageError{err}
}

// applySettingFlags copies into c the run settings whose flags were set
// (set, by name), parsed into flags, each checked as a value given
// explicitly (experiments.CheckExplicit).
func applySettingFlags(set map[string]bool, flags, c *experiments.RunConfig) error {
	for _, s := range experiments.Settings {
		if set[s.Key] {
			if err := experiments.CheckExplicit(flags, s.Key); err != nil {
				return configError(err, "--")
			}
			s.Copy(c, flags)
		}
	}
	return nil
}

// settingFlags defines one flag per run setting on fs, writing into c; the
// usage line is the setting's help, unit and default (per method when the
// methods differ).
func settingFlags(fs *flag.FlagSet, c *experiments.RunConfig) {
	for _, s := range experiments.Settings {
		settingFlag(fs, c, s.Key)
	}
}

// settingFlag defines the flag of setting key on fs, writing into c, with the
// usage line settingFlags describes.
func settingFlag(fs *flag.FlagSet, c *experiments.RunConfig, key string) {
	s, ok := experiments.Lookup(key)
	if !ok {
		panic("ccn: no setting " + key)
	}
	usage := s.Help
	if s.Unit != "" {
		usage += " [" + s.Unit + "]"
	}
	if d := s.DefaultText(); d != "" {
		usage += " (default " + d + ")"
	}
	if s.For != nil {
		var ms []string
		for _, m := range arch.Methods() {
			if s.Applies(m) {
				ms = append(ms, string(m))
			}
		}
		usage += "; " + strings.Join(ms, ", ") + " only"
	}
	fs.Var(settingValue{s, c}, s.Key, usage)
}

// settingValue is a flag.Value for one setting of a RunConfig.
type settingValue struct {
	s experiments.Setting
	c *experiments.RunConfig
}

func (v settingValue) String() string {
	if v.c == nil || v.s.IsZero(v.c) {
		return "" // the default is in the usage text
	}
	return v.s.Format(v.c)
}

func (v settingValue) Set(text string) error { return v.s.Parse(v.c, text) }

// IsBoolFlag lets a bool setting be given as --no-norm without a value.
func (v settingValue) IsBoolFlag() bool {
	_, ok := v.s.Field(&experiments.RunConfig{}).(*bool)
	return ok
}

// readRunConfig reads a JSON (.json) or YAML file of run settings, refusing
// unknown keys, wrong types and explicit zeros where zero means "default".
func readRunConfig(path string) (experiments.RunConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return experiments.RunConfig{}, badInput("--config: %v", err)
	}
	c, _, err := experiments.DecodeFile(b, strings.EqualFold(filepath.Ext(path), ".json"))
	if err != nil {
		var ce *experiments.ConfigError
		if errors.As(err, &ce) {
			return c, badInput("--config %s: %s", path, ce.Problem)
		}
		return c, badInput("--config %s: %s", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return c, nil
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
