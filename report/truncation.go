package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/truncation"
)

// TruncationDir is the subdirectory of a results directory that holds the
// truncation study (ccn truncation --out DIR/truncation).
const TruncationDir = "truncation"

// GradientBias draws the truncation study's gradient-bias figure from
// DIR/truncation/gradient_bias.csv.
func GradientBias(r *Results) (Figure, error) {
	const fig = truncation.BiasFigBase
	path := filepath.Join(r.Dir, TruncationDir, truncation.BiasCSV)
	f, err := openStudyFile(fig, r.Dir, path)
	if err != nil {
		return Figure{}, err
	}
	points, err := truncation.ReadBiasCSV(f)
	f.Close()
	if err != nil {
		return Figure{}, fmt.Errorf("figures: %s: %w", path, err)
	}
	if len(points) == 0 {
		return Figure{}, missing(fig, "%s has no rows", path)
	}
	g, err := truncation.BiasFigure(points)
	if err != nil {
		return Figure{}, err
	}
	var hs []string
	maxK, samples, seeds := 0, 0, 0
	for _, p := range points {
		if h := fmt.Sprint(p.Hidden); !slices.Contains(hs, h) {
			hs = append(hs, h)
		}
		maxK, samples, seeds = max(maxK, p.K), p.Samples, p.Seeds
	}
	return Figure{Name: fig, Drawer: g, Caption: fmt.Sprintf(
		"Truncation study, gradient bias: relative error ‖g_k − g‖/‖g‖ and cosine similarity of the T-BPTT gradient g_k "+
			"(k = 1..%d) against the exact full-BPTT gradient g from the Gorgonia reference, for fixed random LSTMs with H = %s on "+
			"trace patterning streams; mean ± s.e. over %d trajectories (%d seeds) per point; the ISI band %d to %d steps is shaded",
		maxK, strings.Join(hs, ", "), samples, seeds, truncation.ISIMin, truncation.ISIMax)}, nil
}

// Cost draws the truncation study's cost figure from DIR/truncation/cost.csv.
func Cost(r *Results) (Figure, error) {
	const fig = truncation.CostFigBase
	path := filepath.Join(r.Dir, TruncationDir, truncation.CostCSV)
	f, err := openStudyFile(fig, r.Dir, path)
	if err != nil {
		return Figure{}, err
	}
	points, err := truncation.ReadCostCSV(f)
	f.Close()
	if err != nil {
		return Figure{}, fmt.Errorf("figures: %s: %w", path, err)
	}
	if len(points) == 0 {
		return Figure{}, missing(fig, "%s has no rows", path)
	}
	p, err := truncation.CostFigure(points)
	if err != nil {
		return Figure{}, err
	}
	var labels []string
	for _, pt := range points {
		if !slices.Contains(labels, pt.Label) {
			labels = append(labels, pt.Label)
		}
	}
	return Figure{Name: fig, Drawer: p, Caption: fmt.Sprintf(
		"Truncation study, cost: measured wall-clock microseconds per step (forward step and gradient) against the number of "+
			"parameters, log-log, for %s; Columnar and CCN grow linearly with the parameters, dense exact RTRL as their square. "+
			"Timings on the machine that ran ccn truncation",
		strings.Join(labels, ", "))}, nil
}

// openStudyFile opens a file of the truncation study, or returns a
// missing-data error for figure fig that says how to make it.
func openStudyFile(fig, dir, path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, missing(fig, "%s not found (run: ccn truncation --out %s)", path, filepath.Join(dir, TruncationDir))
	}
	if err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	return f, nil
}
