package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/internal/atomicfile"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/sweep"
)

// CaptionsFile is the file Render writes next to the figures: one line per
// drawn figure, "NAME: caption".
const CaptionsFile = "captions.txt"

// Options configures Render. Zero fields take the defaults given.
type Options struct {
	// Scale is the scale of the results to draw; "" means the only scale
	// the results directory holds.
	Scale string
	// StreamSteps is the length of the stream picture; 0 means
	// DefaultStreamSteps.
	StreamSteps int
	// StreamSeed is the seed of the stream picture (DefaultStreamSeed is 0).
	StreamSeed uint64
	// PredictionSteps is the number of final steps in the predictions
	// figure; 0 means DefaultPredictionSteps.
	PredictionSteps int
}

// Skip is a figure Render did not draw, and why.
type Skip struct {
	Name   string
	Reason string // what is missing
}

// Report lists what Render drew and skipped.
type Report struct {
	Scale   string
	Drawn   []Figure // Drawer set to nil once saved
	Skipped []Skip
}

// Builder draws one figure.
type Builder struct {
	Name    string   // the figure's file base name
	Studies []string // the studies whose results it reads
	Build   func() (Figure, error)
}

// Builders returns the figure builders in drawing order, for the results r
// and options o.
func Builders(r *Results, o Options) []Builder {
	streamSteps := o.StreamSteps
	if streamSteps == 0 {
		streamSteps = DefaultStreamSteps
	}
	predSteps := o.PredictionSteps
	if predSteps == 0 {
		predSteps = DefaultPredictionSteps
	}
	return []Builder{
		{NameStream, nil, func() (Figure, error) { return Stream(streamSteps, o.StreamSeed) }},
		{NameFrames, nil, func() (Figure, error) { return Frames(DefaultFrameSteps, o.StreamSeed) }},
		{NameLearningCurves, []string{StudyMain}, func() (Figure, error) { return LearningCurves(r) }},
		{NameComputeMatched, []string{StudyComputeMatch, StudyMain}, func() (Figure, error) { return ComputeMatched(r) }},
		{NameTruncationH10, []string{StudyTruncationH10, StudyMain}, func() (Figure, error) { return TruncationH10(r) }},
		{NamePredictions, []string{StudyMain}, func() (Figure, error) { return Predictions(r, predSteps) }},
		{NameNormalization, []string{StudyNormalization}, func() (Figure, error) { return Normalization(r) }},
		{NameAblations, []string{StudyFeatures, StudySteps}, func() (Figure, error) { return Ablations(r) }},
		{NameAtariNormalized, []string{StudyAtariMain}, func() (Figure, error) { return AtariNormalized(r) }},
		{NameAtariAverage, []string{StudyAtariMain}, func() (Figure, error) { return AtariAverage(r) }},
		{NameAtariPredictions, []string{StudyAtariMain}, func() (Figure, error) { return AtariPredictions(r, predSteps) }},
		{NameAtariCurves, []string{StudyAtariMain}, func() (Figure, error) { return AtariCurves(r) }},
		{NameAtariCapacity, []string{StudyAtariCapacity}, func() (Figure, error) { return AtariCapacity(r) }},
		{NameAtariNormalization, []string{StudyAtariNormalization, StudyAtariMain}, func() (Figure, error) { return AtariNormalization(r) }},
		{NameOnlineGradients, []string{StudyOnline}, func() (Figure, error) { return OnlineGradients(r) }},
		{NameGradientBias, nil, func() (Figure, error) { return GradientBias(r) }},
		{NameGradientEstimators, nil, func() (Figure, error) { return GradientEstimators(r) }},
		{NameCost, nil, func() (Figure, error) { return Cost(r) }},
		{NameDependency, []string{StudyDependency}, func() (Figure, error) { return DependencyLength(r) }},
		{NameDependencyCurves, []string{StudyDependency}, func() (Figure, error) { return DependencyCurves(r) }},
		{NameAutoFreezing, []string{StudyAutoFreezing}, func() (Figure, error) { return AutoFreezing(r, StudyAutoFreezing) }},
		{NameAutoFreezingStages, []string{StudyAutoFreezing}, func() (Figure, error) { return AutoFreezingStages(r, StudyAutoFreezing) }},
		{NameAutoFreezingAtari, []string{StudyAutoFreezingAtari}, func() (Figure, error) { return AutoFreezing(r, StudyAutoFreezingAtari) }},
		{NameAutoFreezingAtariStages, []string{StudyAutoFreezingAtari}, func() (Figure, error) {
			return AutoFreezingStages(r, StudyAutoFreezingAtari)
		}},
	}
}

// Render draws every figure it can from the results directory dir into out
// (created when a figure is drawn) as NAME.png (300 dpi) and NAME.pdf, and writes
// captions.txt. A figure whose data are missing is skipped, with one line on
// log saying what is missing. The studies of dir that no figure of Builders
// reads (Unfigured) are drawn with StudyBuilders, each into out/STUDY with
// captions.txt of its own; their figures are named STUDY/NAME in the report.
// Render returns an error wrapping ErrNoResults
// if dir does not exist, one wrapping ErrScale for an ambiguous or absent
// scale, and any error reading results or writing figures.
func Render(dir, out string, o Options, log io.Writer) (Report, error) {
	r, err := Open(dir, o.Scale)
	if err != nil {
		return Report{}, err
	}
	builders := Builders(r, o)
	rep, err := drawAll(r.Scale, builders, out, log)
	if err != nil {
		return rep, err
	}
	for _, study := range Unfigured(r.Studies(), builders) {
		sub, err := drawAll(r.Scale, StudyBuilders(r, sweep.Study{Name: study}, StudyFile(study)), filepath.Join(out, study), log)
		for _, f := range sub.Drawn {
			f.Name = filepath.Join(study, f.Name)
			rep.Drawn = append(rep.Drawn, f)
		}
		for _, s := range sub.Skipped {
			s.Name = filepath.Join(study, s.Name)
			rep.Skipped = append(rep.Skipped, s)
		}
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// Unfigured returns the studies that no builder reads, in the order given:
// those Render draws with StudyBuilders, each into a folder of its own.
func Unfigured(studies []string, builders []Builder) []string {
	var out []string
	for _, s := range studies {
		if !slices.ContainsFunc(builders, func(b Builder) bool { return slices.Contains(b.Studies, s) }) {
			out = append(out, s)
		}
	}
	return out
}

// drawAll builds every figure of builders and saves it into out (created
// before the first figure is saved: nothing drawn, nothing created), skipping
// with one line on log each figure whose data are missing, then writes
// captions.txt if anything was drawn.
func drawAll(scale string, builders []Builder, out string, log io.Writer) (Report, error) {
	rep := Report{Scale: scale}
	for _, b := range builders {
		fig, err := b.Build()
		var m *plots.MissingError
		if errors.As(err, &m) {
			rep.Skipped = append(rep.Skipped, Skip{Name: b.Name, Reason: m.What})
			fmt.Fprintf(log, "skipped %s: missing %s\n", b.Name, m.What)
			continue
		}
		if err != nil {
			return rep, fmt.Errorf("report: figure %s: %w", b.Name, err)
		}
		if len(rep.Drawn) == 0 {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return rep, fmt.Errorf("report: %w", err)
			}
		}
		if err := plots.Save(fig.Drawer, filepath.Join(out, fig.Name)); err != nil {
			return rep, err
		}
		fig.Drawer = nil
		rep.Drawn = append(rep.Drawn, fig)
	}
	if len(rep.Drawn) == 0 {
		return rep, nil
	}
	var text strings.Builder
	for _, f := range rep.Drawn {
		fmt.Fprintf(&text, "%s: %s\n\n", f.Name, f.Caption)
	}
	if err := atomicfile.WriteFile(filepath.Join(out, CaptionsFile), []byte(text.String()), 0o644); err != nil {
		return rep, fmt.Errorf("report: %w", err)
	}
	return rep, nil
}
