package plots

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// goldenDPI keeps the golden images small; the drawing is the same at any
// resolution.
const goldenDPI = 96

// renderPNG draws fig at its own size (or the default) at goldenDPI, a
// *plot.Plot with its legend outside as Save draws it.
func renderPNG(t *testing.T, fig Drawer) []byte {
	t.Helper()
	w, h := DefaultWidth, DefaultHeight
	if s, ok := fig.(Sizer); ok {
		w, h = s.Size()
	}
	if p, ok := fig.(*plot.Plot); ok {
		fig = framed{p}
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(goldenDPI))
	fig.Draw(draw.New(img))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// goldenCurve is a deterministic learning curve: an exponential fall from
// 0.02 to floor with rate r, with a small ripple, over 2M steps.
func goldenCurve(label, method string, floor, r float64, seeds int) Curve {
	c := Curve{Label: label, Method: method, Seeds: seeds}
	for i := 1; i <= 40; i++ {
		x := float64(i) * 50_000
		m := floor + (0.02-floor)*math.Exp(-r*x/1e6) + 0.0004*math.Sin(float64(i)*0.7+r)
		c.Steps = append(c.Steps, x)
		c.Mean = append(c.Mean, m)
		c.StdErr = append(c.StdErr, 0.0006+0.0002*math.Cos(float64(i)*0.3))
	}
	return c
}

// goldenFigures are the representative figures checked against
// testdata/*_golden.png: a family of one method with its summary panel and
// references, the four methods with the best constant prediction, and a
// sensitivity panel.
func goldenFigures(shift float64) (map[string]Drawer, error) {
	figs := map[string]Drawer{}
	var fam []Curve
	var pts []Point
	for i, kh := range []string{"2:13", "3:10", "5:8", "8:5", "10:5", "15:4", "20:3", "30:2"} {
		c := goldenCurve(kh, "tbptt", 0.009+0.0012*float64(i%5)+shift, 0.6+0.25*float64(i), 4)
		fam = append(fam, c)
		pts = append(pts, Point{Label: kh, Method: "tbptt", Mean: c.Mean[len(c.Mean)-1], StdErr: c.StdErr[len(c.StdErr)-1]})
	}
	g, err := CurvesAndSummary("T-BPTT with matched compute (k:H)\ngolden scale, 2M steps", fam,
		"final error per k:H", "k:H", pts, Baseline(0.0187), MethodReference("CCN final error", 0.0085))
	if err != nil {
		return nil, err
	}
	figs["family"] = g
	var ms []Curve
	for i, m := range []string{"ccn", "columnar", "constructive", "tbptt"} {
		ms = append(ms, goldenCurve(map[string]string{"ccn": "CCN", "columnar": "Columnar", "constructive": "Constructive", "tbptt": "T-BPTT k=15, H=4"}[m],
			m, 0.006+0.002*float64(i)+shift, 1+0.4*float64(i), 5))
	}
	p, err := LearningCurves("Trace patterning\ngolden scale, 2M steps", ms, Baseline(0.0187))
	if err != nil {
		return nil, err
	}
	figs["methods"] = p
	var ss []SensitivitySeries
	for i, m := range []string{"ccn", "columnar"} {
		s := SensitivitySeries{Label: m, Method: m, X: []float64{3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2}}
		for j := range s.X {
			s.Mean = append(s.Mean, 0.008+0.001*float64(i)+0.0008*math.Pow(float64(j)-2.5, 2)+shift)
			s.StdErr = append(s.StdErr, 0.0005)
		}
		ss = append(ss, s)
	}
	sp, err := Sensitivity("sensitivity to step-size", "step-size", ss, true, Baseline(0.0187))
	if err != nil {
		return nil, err
	}
	figs["sensitivity"] = sp

	// The gradient estimators of two networks, errors scaled by 1 + 100·shift.
	var panels []EstimatorPanel
	for _, h := range []float64{2, 10} {
		f := 1 + 100*shift
		tb := EstimatorSeries{Label: "T-BPTT k = 1..60", Method: "tbptt"}
		for k := 1.0; k <= 60; k++ {
			tb.Ops = append(tb.Ops, 120*h*h*(k+1))
			tb.RelErr = append(tb.RelErr, f*0.4*math.Exp(-k/(2*h)))
			tb.Cos = append(tb.Cos, 1-f*0.3*math.Exp(-k/(2*h)))
		}
		panels = append(panels, EstimatorPanel{Title: fmt.Sprintf("H = %g", h), Series: []EstimatorSeries{
			tb,
			{Label: "SnAp-1", Method: "snap1", Ops: []float64{1500 * h}, RelErr: []float64{f * 0.05 * h}, Cos: []float64{1 - f*0.01*h}},
			{Label: "UORO ± s.d.", Method: "uoro", Ops: []float64{1200 * h}, RelErr: []float64{f * 3}, RelErrSpread: []float64{f * 2},
				Cos: []float64{0.3 / f}, CosSpread: []float64{0.25}},
			{Label: "dense exact RTRL", Method: "rtrl", Ops: []float64{100 * h * h * h * h}, RelErr: []float64{f * 3e-15}, Cos: []float64{1}},
		}})
	}
	ge, err := GradientEstimators("gradient estimators (golden)", panels)
	if err != nil {
		return nil, err
	}
	figs["estimators"] = ge
	return figs, nil
}

var goldenNames = []string{"family", "methods", "sensitivity", "estimators"}

// TestGoldenImages draws the representative figures and compares them with
// testdata/NAME_golden.png pixel for pixel (gonum/plot's cmpimg). After an
// intended change of the drawing, regenerate with
//
//	go test ./plots -run TestGoldenImages -regen
//
// and look at the new images before committing them.
func TestGoldenImages(t *testing.T) {
	for _, name := range goldenNames {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name+".png")
			t.Cleanup(func() { os.Remove(path) })
			cmpimg.CheckPlot(func() {
				figs, err := goldenFigures(0)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, renderPNG(t, figs[name]), 0o644); err != nil {
					t.Fatal(err)
				}
			}, t, name+".png")
		})
	}
}

// TestGoldenImagesHaveTeeth: the same figures drawn from slightly different
// data (every error 0.0005 higher) differ from the golden images, so a
// drawing regression cannot pass unnoticed.
func TestGoldenImagesHaveTeeth(t *testing.T) {
	figs, err := goldenFigures(0.0005)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range goldenNames {
		want, err := os.ReadFile(filepath.Join("testdata", name+"_golden.png"))
		if err != nil {
			t.Fatal(err)
		}
		same, err := cmpimg.Equal("png", renderPNG(t, figs[name]), want)
		if err != nil {
			t.Fatal(err)
		}
		if same {
			t.Errorf("%s: a changed figure compares equal to its golden image", name)
		}
	}
}
