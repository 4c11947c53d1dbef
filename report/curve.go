package report

import (
	"path/filepath"
	"sort"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/plots"
)

// Curve returns the learning curve of g over its runs: at every step logged by
// all of them, the mean windowed error and its standard error (nil for a
// single run). label and method are the legend text and colour key.
func (g Group) Curve(label, method string) (plots.Curve, error) {
	c := plots.Curve{Label: label, Method: method, Seeds: len(g.Runs)}
	sums := map[float64][]float64{}
	for _, run := range g.Runs {
		steps, errs, err := experiments.ReadCurve(filepath.Join(run.Dir, experiments.CurveFile))
		if err != nil {
			return c, err
		}
		for i, s := range steps {
			sums[float64(s)] = append(sums[float64(s)], errs[i])
		}
	}
	for s, v := range sums {
		if len(v) == len(g.Runs) {
			c.Steps = append(c.Steps, s)
		}
	}
	sort.Float64s(c.Steps)
	c.Mean = make([]float64, len(c.Steps))
	if len(g.Runs) > 1 {
		c.StdErr = make([]float64, len(c.Steps))
	}
	for i, s := range c.Steps {
		m, se := stats.MeanSE(sums[s])
		c.Mean[i] = m
		if c.StdErr != nil {
			c.StdErr[i] = se
		}
	}
	return c, nil
}
