package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/truncation"
)

// TruncationDir is the subdirectory of a results directory that holds the
// truncation study (ccn truncation --out DIR/truncation).
const TruncationDir = "truncation"

// Names of the truncation study's figures (file base names).
const (
	NameGradientBias       = "gradient_bias"
	NameGradientEstimators = "gradient_estimators"
	NameCost               = "cost"
)

// GradientBias draws the truncation study's gradient-bias figure from
// DIR/truncation/gradient_bias.csv.
func GradientBias(r *Results) (Figure, error) {
	return gradientBias(filepath.Join(r.Dir, TruncationDir))
}

// GradientEstimators draws the truncation study's estimator figure from
// DIR/truncation/gradient_bias.csv.
func GradientEstimators(r *Results) (Figure, error) {
	return gradientEstimators(filepath.Join(r.Dir, TruncationDir))
}

// Cost draws the truncation study's cost figure from DIR/truncation/cost.csv.
func Cost(r *Results) (Figure, error) {
	return cost(filepath.Join(r.Dir, TruncationDir))
}

// RenderTruncation draws the three figures of the truncation study whose CSV
// files are in dir (what ccn truncation --out dir writes) into out, as
// NAME.png and NAME.pdf, and returns them (Drawer set to nil once saved).
// Missing CSV files are a *plots.MissingError.
func RenderTruncation(dir, out string) ([]Figure, error) {
	var drawn []Figure
	for _, build := range []func(string) (Figure, error){gradientBias, gradientEstimators, cost} {
		fig, err := build(dir)
		if err != nil {
			return drawn, err
		}
		if err := plots.Save(fig.Drawer, filepath.Join(out, fig.Name)); err != nil {
			return drawn, err
		}
		fig.Drawer = nil
		drawn = append(drawn, fig)
	}
	return drawn, nil
}

func gradientBias(dir string) (Figure, error) {
	const fig = NameGradientBias
	all, path, err := readBias(fig, dir)
	if err != nil {
		return Figure{}, err
	}
	var points []truncation.BiasPoint
	for _, p := range all {
		if p.Method == arch.MethodTBPTT {
			points = append(points, p)
		}
	}
	if len(points) == 0 {
		return Figure{}, missing(fig, "%s has no T-BPTT rows", path)
	}
	isi := env.NewTracePatterning(env.TraceConfig{}, 0).Config()
	g, err := biasFigure(points, isi.ISIMin, isi.ISIMax)
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
		maxK, strings.Join(hs, ", "), samples, seeds, isi.ISIMin, isi.ISIMax)}, nil
}

func cost(dir string) (Figure, error) {
	const fig = NameCost
	path := filepath.Join(dir, truncation.CostCSV)
	f, err := openStudyFile(fig, dir, path)
	if err != nil {
		return Figure{}, err
	}
	points, err := truncation.ReadCostCSV(f)
	f.Close()
	if err != nil {
		return Figure{}, fmt.Errorf("report: %s: %w", path, err)
	}
	if len(points) == 0 {
		return Figure{}, missing(fig, "%s has no rows", path)
	}
	p, err := costFigure(points)
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

// readBias reads the gradient-bias study's rows from dir for figure fig, and
// returns them with the file's path.
func readBias(fig, dir string) ([]truncation.BiasPoint, string, error) {
	path := filepath.Join(dir, truncation.BiasCSV)
	f, err := openStudyFile(fig, dir, path)
	if err != nil {
		return nil, path, err
	}
	points, err := truncation.ReadBiasCSV(f)
	f.Close()
	if err != nil {
		return nil, path, fmt.Errorf("report: %s: %w", path, err)
	}
	if len(points) == 0 {
		return nil, path, missing(fig, "%s has no rows", path)
	}
	return points, path, nil
}

// openStudyFile opens a file of the truncation study in dir, or returns a
// missing-data error for figure fig that says how to make it.
func openStudyFile(fig, dir, path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, missing(fig, "%s not found (run: ccn truncation --out %s)", path, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return f, nil
}

// biasFigure draws the gradient-bias points: relative error and cosine
// similarity against k, one series per H, the band isiMin..isiMax shaded.
func biasFigure(points []truncation.BiasPoint, isiMin, isiMax int) (*plots.Grid, error) {
	var hidden []int
	for _, p := range points {
		if !slices.Contains(hidden, p.Hidden) {
			hidden = append(hidden, p.Hidden)
		}
	}
	slices.Sort(hidden)
	var series []plots.BiasSeries
	for _, h := range hidden {
		var s plots.BiasSeries
		for _, p := range points {
			if p.Hidden != h {
				continue
			}
			s.Label = fmt.Sprintf("H = %d (%d params)", h, p.Params)
			s.K = append(s.K, float64(p.K))
			s.RelErr = append(s.RelErr, p.RelErr)
			s.RelErrSE = append(s.RelErrSE, p.RelErrSE)
			s.Cos = append(s.Cos, p.Cos)
			s.CosSE = append(s.CosSE, p.CosSE)
			s.Samples, s.Seeds = p.Samples, p.Seeds
		}
		series = append(series, s)
	}
	return plots.GradientBias("T-BPTT gradient bias on trace patterning", series, float64(isiMin), float64(isiMax))
}

// costFigure draws the cost points: µs per step against parameters, one
// series per label in order of first appearance, points sorted by size.
func costFigure(points []truncation.CostPoint) (*plot.Plot, error) {
	var labels []string
	for _, p := range points {
		if !slices.Contains(labels, p.Label) {
			labels = append(labels, p.Label)
		}
	}
	var series []plots.CostSeries
	for _, l := range labels {
		var ps []truncation.CostPoint
		for _, p := range points {
			if p.Label == l {
				ps = append(ps, p)
			}
		}
		slices.SortFunc(ps, func(a, b truncation.CostPoint) int { return a.Params - b.Params })
		s := plots.CostSeries{Label: l, Method: string(ps[0].Method)}
		for _, p := range ps {
			s.Params = append(s.Params, float64(p.Params))
			s.Micros = append(s.Micros, p.Micros)
		}
		series = append(series, s)
	}
	return plots.Cost("cost per step against size (measured)", series)
}
