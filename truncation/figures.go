package truncation

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"

	"github.com/ccn-go/ccn/plots"
)

// The inter-stimulus interval of the trace patterning task (paper §4), shaded in the gradient-bias figure.
const (
	ISIMin = 24
	ISIMax = 36
)

// BiasFigure draws the gradient-bias points: relative error and cosine
// similarity against k, one series per H.
func BiasFigure(points []BiasPoint) (*plots.Grid, error) {
	var series []plots.BiasSeries
	for _, h := range hiddenSizes(points) {
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
	return plots.GradientBias("T-BPTT gradient bias on trace patterning", series, ISIMin, ISIMax)
}

// CostFigure draws the cost points: µs per step against parameters, one
// series per label in order of first appearance, points sorted by size.
func CostFigure(points []CostPoint) (*plot.Plot, error) {
	var labels []string
	for _, p := range points {
		if !slices.Contains(labels, p.Label) {
			labels = append(labels, p.Label)
		}
	}
	var series []plots.CostSeries
	for _, l := range labels {
		var ps []CostPoint
		for _, p := range points {
			if p.Label == l {
				ps = append(ps, p)
			}
		}
		slices.SortFunc(ps, func(a, b CostPoint) int { return a.Params - b.Params })
		s := plots.CostSeries{Label: l, Method: ps[0].Method}
		for _, p := range ps {
			s.Params = append(s.Params, float64(p.Params))
			s.Micros = append(s.Micros, p.Micros)
		}
		series = append(series, s)
	}
	return plots.Cost("cost per step against size (measured)", series)
}
