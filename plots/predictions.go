package plots

import (
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Predictions draws predictions against the true return over time (paper
// Figure 10): the return in black, each prediction in its method's colour.
// Keys of series are methods or labels that name one ("CCN", "T-BPTT");
// they are the legend text, drawn in sorted order.
func Predictions(title string, t []float64, series map[string][]float64, ret []float64) (*plot.Plot, error) {
	if len(t) == 0 {
		return nil, missing(title, "no time steps")
	}
	if len(series) == 0 {
		return nil, missing(title, "no prediction series")
	}
	if err := checkSeries(title, "true return", "values", t, ret, false); err != nil {
		return nil, err
	}
	labels := make([]string, 0, len(series))
	for k := range series {
		labels = append(labels, k)
	}
	sort.Strings(labels)
	colors, err := assignColors(title, labels)
	if err != nil {
		return nil, err
	}

	p := newPlot(title, StepsLabel, "return")
	p.X.Tick.Marker = stepTicks{}
	truth, _, err := meanBand(t, ret, nil, color.RGBA{A: 0xFF}, false)
	if err != nil {
		return nil, fmt.Errorf("plots: predictions: %w", err)
	}
	truth.Width = vg.Points(2)
	p.Add(truth)
	p.Legend.Add("true return", truth)
	for i, name := range labels {
		if err := checkSeries(title, fmt.Sprintf("prediction %q", name), "values", t, series[name], false); err != nil {
			return nil, err
		}
		l, _, err := meanBand(t, series[name], nil, colors[i], false)
		if err != nil {
			return nil, fmt.Errorf("plots: predictions %q: %w", name, err)
		}
		p.Add(l)
		p.Legend.Add(name, l)
	}
	return p, nil
}
