package plots

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
)

// figures builds every figure of the package from synthetic data.
func figures(t *testing.T) []struct {
	name string
	fig  Drawer
	w, h vg.Length
} {
	t.Helper()
	curves := []Curve{
		synthCurve("CCN", string(arch.MethodCCN), 50, 0.05, 10),
		synthCurve("Columnar", string(arch.MethodColumnar), 50, 0.08, 10),
		synthCurve("Constructive", string(arch.MethodConstructive), 50, 0.1, 10),
		synthCurve("T-BPTT k=15, H=4", string(arch.MethodTBPTT), 50, 0.09, 10),
	}
	lc, err := LearningCurves("trace patterning", curves)
	require.NoError(t, err)

	pairs := []Curve{
		synthCurve("k=2, H=13", string(arch.MethodTBPTT), 30, 0.12, 5),
		synthCurve("k=5, H=8", string(arch.MethodTBPTT), 30, 0.10, 5),
		synthCurve("k=15, H=4", string(arch.MethodTBPTT), 30, 0.09, 6),
	}
	ref, err := CurvesWithReference("compute-matched T-BPTT", pairs, "CCN final error", 0.05)
	require.NoError(t, err)

	abl, err := Ablation("CCN ablations",
		"features per stage", []Curve{synthCurve("1", string(arch.MethodCCN), 20, 0.1, 3), synthCurve("4", string(arch.MethodCCN), 20, 0.05, 3)},
		"steps per stage", []Curve{synthCurve("500k", string(arch.MethodCCN), 20, 0.07, 3), synthCurve("2.5M", string(arch.MethodCCN), 20, 0.05, 3)})
	require.NoError(t, err)

	obs, ret := synthStream(300)
	st, err := Stream(obs, ret, nil)
	require.NoError(t, err)

	ts := make([]float64, len(ret))
	ccn := make([]float64, len(ret))
	tb := make([]float64, len(ret))
	for i := range ts {
		ts[i] = 1e7 - 300 + float64(i)
		ccn[i] = 0.9 * ret[i]
		tb[i] = 0.5 * ret[i]
	}
	pr, err := Predictions("predictions at the end of learning", ts, map[string][]float64{"CCN": ccn, "T-BPTT": tb}, ret)
	require.NoError(t, err)

	gb, err := GradientBias("T-BPTT gradient bias", []BiasSeries{synthBias("H = 2", 3), synthBias("H = 4", 6), synthBias("H = 10", 12)}, 24, 36)
	require.NoError(t, err)

	co, err := Cost("cost per step", []CostSeries{
		synthCost("Columnar RTRL", string(arch.MethodColumnar), 1), synthCost("CCN", string(arch.MethodCCN), 1),
		synthCost("T-BPTT k=5", string(arch.MethodTBPTT), 1), synthCost("T-BPTT k=30", string(arch.MethodTBPTT), 1.05),
		synthCost("dense RTRL", string(arch.MethodRTRL), 2),
	})
	require.NoError(t, err)

	return []struct {
		name string
		fig  Drawer
		w, h vg.Length
	}{
		{"learning_curves", lc, DefaultWidth, DefaultHeight},
		{"reference", ref, DefaultWidth, DefaultHeight},
		{"ablation", abl, 2 * DefaultWidth, DefaultHeight},
		{"stream", st, 7 * vg.Inch, 5 * vg.Inch},
		{"predictions", pr, DefaultWidth, DefaultHeight},
		{"gradient_bias", gb, 2 * DefaultWidth, DefaultHeight},
		{"cost", co, DefaultWidth, DefaultHeight},
	}
}

func TestSaveWritesPNGAndPDF(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("PLOTS_KEEP"); d != "" {
		dir = d // to look at the figures
	}
	for _, tc := range figures(t) {
		t.Run(tc.name, func(t *testing.T) {
			base := filepath.Join(dir, tc.name)
			require.NoError(t, Save(tc.fig, base))

			raw, err := os.ReadFile(base + ".png")
			require.NoError(t, err)
			cfg, err := png.DecodeConfig(bytes.NewReader(raw))
			require.NoError(t, err)
			assert.Equal(t, int(math.Ceil(tc.w.Points()/72*DPI)), cfg.Width, "width in pixels")
			assert.Equal(t, int(math.Ceil(tc.h.Points()/72*DPI)), cfg.Height, "height in pixels")
			img, err := png.Decode(bytes.NewReader(raw))
			require.NoError(t, err)
			assert.Greater(t, distinctColors(img, 5000), 3, "a figure, not a blank page")

			pdf, err := os.ReadFile(base + ".pdf")
			require.NoError(t, err)
			assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF")), "PDF header")
			assert.Contains(t, string(pdf), "/FontFile", "fonts embedded")
		})
	}
	left, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	require.NoError(t, err)
	assert.Empty(t, left, "temporary files left behind")
}

func TestSaveStripsExtensionAndReplaces(t *testing.T) {
	dir := t.TempDir()
	p, err := LearningCurves("x", []Curve{synthCurve("CCN", string(arch.MethodCCN), 5, 0.1, 1)})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f.png"), []byte("old"), 0o644))
	require.NoError(t, Save(p, filepath.Join(dir, "f.png")))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"f.png", "f.pdf"}, names)
	raw, err := os.ReadFile(filepath.Join(dir, "f.png"))
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(raw, []byte("\x89PNG")), "old file replaced by a PNG")
}

func TestSaveIntoMissingDirectoryFails(t *testing.T) {
	p, err := LearningCurves("x", []Curve{synthCurve("CCN", string(arch.MethodCCN), 5, 0.1, 1)})
	require.NoError(t, err)
	err = Save(p, filepath.Join(t.TempDir(), "no", "such", "f"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plots: save")
}

func TestMissingData(t *testing.T) {
	good := synthCurve("CCN", string(arch.MethodCCN), 5, 0.1, 3)
	short := good
	short.Mean = short.Mean[:3]
	nan := good
	nan.Mean = append([]float64(nil), good.Mean...)
	nan.Mean[2] = math.NaN()
	noSE := good
	noSE.StdErr = nil
	noSeeds := good
	noSeeds.Seeds = 0
	empty := Curve{Label: "CCN", Method: string(arch.MethodCCN), Seeds: 1}
	obs, ret := synthStream(50)
	ragged := append([][]float64{make([]float64, 3)}, obs[1:]...)
	zeroBias := synthBias("H = 2", 3)
	zeroBias.RelErr = append([]float64(nil), zeroBias.RelErr...)
	zeroBias.RelErr[0] = 0
	noCost := synthCost("CCN", string(arch.MethodCCN), 1)
	noCost.Micros = nil

	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"no curves", func() error { _, err := LearningCurves("f", nil); return err }, "no curves"},
		{"empty curve", func() error { _, err := LearningCurves("f", []Curve{empty}); return err }, `curve "CCN": no points`},
		{"short means", func() error { _, err := LearningCurves("f", []Curve{short}); return err }, "3 means for 5 x values"},
		{"NaN mean", func() error { _, err := LearningCurves("f", []Curve{nan}); return err }, "means[2] is NaN"},
		{"no s.e.", func() error { _, err := LearningCurves("f", []Curve{noSE}); return err }, "no standard errors for 3 seeds"},
		{"no seeds", func() error { _, err := LearningCurves("f", []Curve{noSeeds}); return err }, "no seeds"},
		{"NaN reference", func() error {
			_, err := CurvesWithReference("f", []Curve{good}, "CCN", math.NaN())
			return err
		}, "reference CCN"},
		{"no ablation panel", func() error { _, err := Ablation("f", "l", []Curve{good}, "r", nil); return err }, "no curves"},
		{"no observations", func() error { _, err := Stream(nil, nil, nil); return err }, "no observations"},
		{"ragged observations", func() error { _, err := Stream(ragged, ret, nil); return err }, "observation 1 has 12 values, observation 0 has 3"},
		{"no names", func() error { _, err := Stream(obs, ret, []string{"a"}); return err }, "1 row names for observations of 12 values"},
		{"short return", func() error { _, err := Stream(obs, ret[:10], nil); return err }, "true return: 10 values for 50"},
		{"no predictions", func() error { _, err := Predictions("f", []float64{1}, nil, []float64{1}); return err }, "no prediction series"},
		{"short prediction", func() error {
			_, err := Predictions("f", []float64{1, 2}, map[string][]float64{"CCN": {1}}, []float64{1, 2})
			return err
		}, `prediction "CCN": 1 values for 2`},
		{"no bias series", func() error { _, err := GradientBias("f", nil, 24, 36); return err }, "no series"},
		{"zero relative error on log axis", func() error {
			_, err := GradientBias("f", []BiasSeries{zeroBias}, 24, 36)
			return err
		}, "not positive (log axis)"},
		{"no timings", func() error { _, err := Cost("f", []CostSeries{noCost}); return err }, "no timings"},
		{"no cost series", func() error { _, err := Cost("f", nil); return err }, "no series"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			require.Error(t, err)
			var me *MissingError
			require.True(t, errors.As(err, &me), "a *MissingError, got %T: %v", err, err)
			assert.Contains(t, err.Error(), "missing data")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestUnknownMethod(t *testing.T) {
	c := synthCurve("LSTM", "lstm", 5, 0.1, 1)
	_, err := LearningCurves("f", []Curve{c})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown method "lstm"`)
}

func TestTickLabels(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{{0, "1"}, {3, "1000"}, {4, "1e4"}, {5, "1e5"}, {-3, "0.001"}, {-5, "1e-5"}, {math.Log10(2e-5), "2e-5"}, {math.Log10(50), "50"}}
	for _, tc := range tests {
		assert.Equal(t, tc.want, formatPow10(tc.v), "10^%v", tc.v)
	}
	assert.Equal(t, "2.5M", formatSteps(2.5e6, 1e6, "M", 1))
	assert.Equal(t, "500k", formatSteps(5e5, 1e3, "k", 0))
	assert.Equal(t, "250", formatSteps(250, 1, "", 0))
	// Every step label reads back as its tick's value, and labels are distinct.
	for _, r := range [][2]float64{{1e5, 1e7}, {1e7 - 300, 1e7}, {0, 3000}, {0, 300}} {
		seen := map[string]bool{}
		for _, tk := range (stepTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			assert.False(t, seen[tk.Label], "duplicate label %q in %v", tk.Label, r)
			seen[tk.Label] = true
			num, mult := tk.Label, 1.0
			switch {
			case strings.HasSuffix(num, "M"):
				num, mult = strings.TrimSuffix(num, "M"), 1e6
			case strings.HasSuffix(num, "k"):
				num, mult = strings.TrimSuffix(num, "k"), 1e3
			}
			v, err := strconv.ParseFloat(num, 64)
			require.NoError(t, err, tk.Label)
			assert.InDelta(t, tk.Value, v*mult, 1e-6*math.Max(1, math.Abs(tk.Value)), "label %q", tk.Label)
		}
		assert.GreaterOrEqual(t, len(seen), 2, "labels in %v", r)
	}

	var labels []string
	for _, tk := range (log10Ticks{}).Ticks(-2.1, 1.2) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"0.01", "0.1", "1", "10"}, labels)
	labels = labels[:0]
	for _, tk := range (log10Ticks{}).Ticks(math.Log10(1.5), math.Log10(30)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"2", "5", "10", "20"}, labels)
}

// Labels too wide for their place on the axis are slanted, so that
// neighbours do not overlap; short ones stay level.
func TestFinalErrorsSlantsLongLabels(t *testing.T) {
	points := func(labels ...string) []Point {
		var pts []Point
		for i, l := range labels {
			pts = append(pts, Point{Label: l, Method: string(arch.MethodTBPTT), Mean: 0.01 + 0.001*float64(i), StdErr: 0.001})
		}
		return pts
	}
	long := []string{"tbptt-2:13/fan-in-init", "tbptt-authors/15:4", "tbptt-2:13/no-out-bias", "tbptt-2:13/full-output-step", "tbptt-authors/2:13"}
	p, err := FinalErrors("long", "group", points(long...), true)
	require.NoError(t, err)
	spacing := (DefaultWidth - vg.Inch) / vg.Length(len(long))
	level := p.X.Tick.Label
	level.Rotation = 0
	assert.Greater(t, level.Width(long[1])/2+level.Width(long[2])/2, spacing, "level, neighbours would overlap")
	assert.NotZero(t, p.X.Tick.Label.Rotation)

	p, err = FinalErrors("short", "k:H", points("2:13", "3:10", "5:8", "8:5", "10:5", "15:4", "20:3", "30:2"), false)
	require.NoError(t, err)
	assert.Zero(t, p.X.Tick.Label.Rotation)
}

// TestSavePDFIsReproducible saves one figure twice: the PDFs carry the fixed
// date, not the time of drawing, and are the same bytes.
func TestSavePDFIsReproducible(t *testing.T) {
	p, err := LearningCurves("x", []Curve{synthCurve("CCN", string(arch.MethodCCN), 5, 0.1, 1)})
	require.NoError(t, err)
	var pdfs [2][]byte
	for i := range pdfs {
		base := filepath.Join(t.TempDir(), "f")
		require.NoError(t, Save(p, base))
		pdfs[i], err = os.ReadFile(base + ".pdf")
		require.NoError(t, err)
	}
	for _, date := range []string{"/CreationDate (D:19700101000000)", "/ModDate (D:19700101000000)"} {
		assert.True(t, bytes.Contains(pdfs[0], []byte(date)), "the PDF lacks %s", date)
	}
	assert.True(t, bytes.Equal(pdfs[0], pdfs[1]), "the same figure saved twice differs")
}
