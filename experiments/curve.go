package experiments

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The headers of a run's curve.csv and predictions.csv (docs/formats.md).
const (
	curveHeader       = "step,error"
	predictionsHeader = "t,prediction,return"
)

// appendCurveRow appends one curve.csv row: the step and the windowed error
// in the shortest form that reads back exactly.
func appendCurveRow(b []byte, step int, err float64) []byte {
	b = strconv.AppendInt(b, int64(step), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, err, 'g', -1, 64)
	return append(b, '\n')
}

// predictionsCSV formats the ring of the last min(steps, PredictionsKept)
// records in time order.
func predictionsCSV(ring []float64, steps int) []byte {
	b := []byte(predictionsHeader + "\n")
	n := min(steps, PredictionsKept)
	for i := steps - n; i < steps; i++ {
		k := 3 * (i % PredictionsKept)
		b = strconv.AppendInt(b, int64(ring[k]), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, ring[k+1], 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, ring[k+2], 'g', -1, 64)
		b = append(b, '\n')
	}
	return b
}

// ReadCurve reads a run's curve.csv: the logged steps and the windowed error
// at each.
func ReadCurve(path string) (steps []int, errs []float64, err error) {
	cols, err := readCSV(path, curveHeader, 2)
	if err != nil {
		return nil, nil, err
	}
	steps = make([]int, len(cols[0]))
	for i, s := range cols[0] {
		if s != float64(int(s)) {
			return nil, nil, fmt.Errorf("experiments: %s:%d: step %v is not an integer", path, i+2, s)
		}
		steps[i] = int(s)
	}
	return steps, cols[1], nil
}

// ReadPredictions reads a run's predictions.csv: the steps t, the
// predictions and the true returns of the last PredictionsKept steps.
func ReadPredictions(path string) (t, pred, ret []float64, err error) {
	cols, err := readCSV(path, predictionsHeader, 3)
	if err != nil {
		return nil, nil, nil, err
	}
	return cols[0], cols[1], cols[2], nil
}

// readCSV reads a numeric CSV with the given header into columns.
func readCSV(path, header string, cols int) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
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
				return nil, fmt.Errorf("experiments: %s: header %q, want %q", path, text, header)
			}
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) != cols {
			return nil, fmt.Errorf("experiments: %s:%d: %d fields, want %d", path, line, len(fields), cols)
		}
		for i, s := range fields {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("experiments: %s:%d: %w", path, line, err)
			}
			out[i] = append(out[i], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("experiments: %s: %w", path, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("experiments: %s: empty file, want header %q", path, header)
	}
	return out, nil
}
