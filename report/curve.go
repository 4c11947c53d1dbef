package report

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
)

// Curve returns the learning curve of g over its runs: at every step logged by
// all of them, the mean windowed error and its standard error (nil for a
// single run). label and method are the legend text and colour key.
func (g Group) Curve(label, method string) (plots.Curve, error) {
	c := plots.Curve{Label: label, Method: method, Seeds: len(g.Runs)}
	sums := map[float64][]float64{}
	for _, run := range g.Runs {
		steps, errs, err := ReadCurve(filepath.Join(run.Dir, experiments.CurveFile))
		if err != nil {
			return c, err
		}
		for i, s := range steps {
			sums[s] = append(sums[s], errs[i])
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
		m, se := meanSE(sums[s])
		c.Mean[i] = m
		if c.StdErr != nil {
			c.StdErr[i] = se
		}
	}
	return c, nil
}

// meanSE returns the mean of xs and its standard error s/√n with the sample
// standard deviation s (0 for a single value).
func meanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

// ReadCurve reads a run's curve.csv (header step,error).
func ReadCurve(path string) (steps, errs []float64, err error) {
	rows, err := readCSV(path, "step,error", 2)
	if err != nil {
		return nil, nil, err
	}
	return rows[0], rows[1], nil
}

// ReadPredictions reads a run's predictions.csv (header t,prediction,return).
func ReadPredictions(path string) (t, pred, ret []float64, err error) {
	rows, err := readCSV(path, "t,prediction,return", 3)
	if err != nil {
		return nil, nil, nil, err
	}
	return rows[0], rows[1], rows[2], nil
}

// readCSV reads a numeric CSV with the given header into columns.
func readCSV(path, header string, cols int) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	out := make([][]float64, cols)
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if text != header {
				return nil, fmt.Errorf("report: %s: header %q, want %q", path, text, header)
			}
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) != cols {
			return nil, fmt.Errorf("report: %s:%d: %d fields, want %d", path, line, len(fields), cols)
		}
		for i, s := range fields {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("report: %s:%d: %w", path, line, err)
			}
			out[i] = append(out[i], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("report: %s: %w", path, err)
	}
	return out, nil
}
