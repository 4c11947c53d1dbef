package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/sweep"
)

// runPlot draws every figure it can from a results directory of ccn sweep
// (and ccn truncation in DIR/truncation) into --out, without running
// anything: the paper's figures and, each into --out/STUDY, the figures of
// report.StudyBuilders for every study of the results that no paper figure
// reads; or with --study FILE those of one study into --out. A figure whose
// data are missing is skipped with one line on stderr.
//
// Exit status: 0 when at least one figure was drawn, 1 when none was or an
// I/O error occurred, 2 on bad input (no results directory, an ambiguous or
// absent --scale).
func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", stderr)
	results := fs.String("results", "", "results directory of ccn sweep (required)")
	out := fs.String("out", "figures", "directory for the figures (NAME.png at 300 dpi, NAME.pdf) and captions.txt")
	scale := fs.String("scale", "", "scale of the results to draw (default: the only one in --results)")
	streamSteps := intFlag(fs, "stream-steps", report.DefaultStreamSteps, "steps of the trace patterning stream in the stream picture")
	streamSeed := uint64Flag(fs, "stream-seed", report.DefaultStreamSeed, "seed of the stream picture")
	predSteps := intFlag(fs, "prediction-steps", report.DefaultPredictionSteps, "final steps shown in the predictions figure (at most 2000 are kept per run)")
	study := fs.String("study", "", "experiment `file` of any study: draw its learning curves, final errors and sensitivity to each swept setting instead of the paper's figures")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *results == "":
		return badInput("--results DIR is required")
	case *out == "":
		return badInput("--out DIR must not be empty")
	case *streamSteps < 1:
		return badInput("--stream-steps must be at least 1, got %d", *streamSteps)
	case *predSteps < 1:
		return badInput("--prediction-steps must be at least 1, got %d", *predSteps)
	}
	start := time.Now()
	var rep report.Report
	var err error
	if *study != "" {
		rep, err = report.RenderStudy(*study, *results, *scale, *out, stderr)
	} else {
		rep, err = report.Render(*results, *out, report.Options{Scale: *scale, StreamSteps: *streamSteps,
			StreamSeed: *streamSeed, PredictionSteps: *predSteps}, stderr)
	}
	switch {
	case errors.Is(err, sweep.ErrInvalid):
		return studyError(err)
	case errors.Is(err, report.ErrNoResults) || errors.Is(err, report.ErrScale):
		return usageError{err}
	case err != nil:
		return err
	case len(rep.Drawn) == 0:
		return exitError{1, "no figure drawn"}
	}
	drawnScale := rep.Scale
	if drawnScale == "" {
		drawnScale = "none"
	}
	for _, f := range rep.Drawn {
		fmt.Fprintf(stdout, "%s.png %s.pdf\n", filepath.Join(*out, f.Name), filepath.Join(*out, f.Name))
	}
	fmt.Fprintf(stdout, "%d figures drawn, %d skipped (scale %s) into %s in %.1fs; captions in %s\n", len(rep.Drawn), len(rep.Skipped),
		drawnScale, *out, time.Since(start).Seconds(), filepath.Join(*out, report.CaptionsFile))
	return nil
}
