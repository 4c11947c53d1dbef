package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/sweep"
)

// NameAtariCurves is the figure of AtariCurves.
const NameAtariCurves = "atari-normalized-curves"

// atariCurvesTop is the top of AtariCurves' y axes: the column methods' early
// bursts (up to about 15 times T-BPTT's error) would otherwise flatten the
// differences of a few percent that the claims are about; the caption names
// every curve cut, with its largest value.
const atariCurvesTop = 2.0

// AtariCurves draws Figures 8 and 9 along the run (beyond the paper, which
// shows the end only): on each game a panel with the learning curve of CCN,
// Columnar, Constructive and the memoryless control divided, point by point,
// by the reference T-BPTT's mean curve on that game (normalized.csv's
// reference, atariReference),
//
//	r_g(t) = ē_g(t) / ē_T(t)      band: ± se_g(t) / ē_T(t)
//
// (ē the mean over a group's complete final runs of the error over the
// window before t, se its standard error; T-BPTT's own spread is left out),
// then a panel of the mean over the games drawn in every game's panel,
//
//	r(t) = (1/G) Σ_g r_g(t)      band: ± √(Σ_g (se_g(t)/ē_T(t))²) / G
//
// A game whose reference or methods have no complete run is listed in the
// caption, as is a method without a curve on every game (not in the mean).
// The y axes stop at atariCurvesTop.
func AtariCurves(r *Results) (Figure, error) {
	const fig = NameAtariCurves
	rowsAll, p, err := atariRows(r, fig, StudyAtariMain)
	if err != nil {
		return Figure{}, err
	}
	families := []string{GroupCCN, GroupColumnar, GroupConstructive, GroupLinear}
	rows := pick(rowsAll, func(n sweep.Normalized) bool { return n.Env != sweep.MeanEnv && slices.Contains(families, n.Family) })
	var games []string
	for _, n := range rows {
		if !slices.Contains(games, n.Env) {
			games = append(games, n.Env)
		}
	}
	var panels []*plot.Plot
	var skipped, cut []string
	// mean over games, per family: sums of the ratios and of the squared bands
	type acc struct {
		c     plots.Curve
		se2   []float64
		games int
	}
	means := map[string]*acc{}
	for _, env := range games {
		ref := ""
		for _, n := range rows {
			if n.Env == env && n.Reference != "" {
				ref = n.Reference
			}
		}
		study, group, _ := strings.Cut(ref, "/")
		if study != StudyAtariMain {
			skipped = append(skipped, env+" (no T-BPTT reference)")
			continue
		}
		tg, err := r.Group(fig, StudyAtariMain, group)
		if err != nil {
			skipped = append(skipped, env+" (no complete T-BPTT run)")
			continue
		}
		tc, err := tg.Curve("T-BPTT", "tbptt")
		if err != nil {
			return Figure{}, err
		}
		var cs []plots.Curve
		for _, fam := range families {
			g, err := r.Group(fig, StudyAtariMain, fam+"@"+env)
			if err != nil {
				continue // no complete run (or the family did not run): not drawn on this game
			}
			method, label := rowMethod(fam)
			c, err := g.Curve(label, method)
			if err != nil {
				return Figure{}, err
			}
			c, ok := divideCurve(c, tc)
			if !ok {
				skipped = append(skipped, fmt.Sprintf("%s %s (its curve points are not T-BPTT's)", env, label))
				continue
			}
			cs = append(cs, c)
			a := means[fam]
			if a == nil {
				a = &acc{c: plots.Curve{Label: label, Method: method, Steps: c.Steps, Mean: make([]float64, len(c.Steps)), Seeds: c.Seeds},
					se2: make([]float64, len(c.Steps))}
				means[fam] = a
			}
			if !slices.Equal(a.c.Steps, c.Steps) {
				return Figure{}, missing(fig, "%s: %s's curve points differ between games", StudyAtariMain, label)
			}
			for i := range c.Steps {
				a.c.Mean[i] += c.Mean[i]
				if c.StdErr != nil {
					a.se2[i] += c.StdErr[i] * c.StdErr[i]
				}
			}
			a.c.Seeds = min(a.c.Seeds, c.Seeds)
			a.games++
		}
		if len(cs) == 0 {
			skipped = append(skipped, env+" (no complete run of the column methods)")
			continue
		}
		pl, err := plots.LearningCurves(env, cs, plots.MethodReference("T-BPTT", 1))
		if err != nil {
			return Figure{}, err
		}
		cut = append(cut, cutCurves(pl, env, cs)...)
		panels = append(panels, pl)
	}
	if len(panels) == 0 {
		return Figure{}, missing(fig, "%s: no game with complete final runs of T-BPTT and a column method (%s)", StudyAtariMain, strings.Join(skipped, "; "))
	}
	var mean []plots.Curve
	var meanText []string
	for _, fam := range families {
		a := means[fam]
		if a == nil {
			continue
		}
		if a.games < len(panels) {
			skipped = append(skipped, fmt.Sprintf("%s from the mean (%d of %d games)", a.c.Label, a.games, len(panels)))
			continue
		}
		G := float64(a.games)
		a.c.StdErr = make([]float64, len(a.c.Steps))
		for i := range a.c.Steps {
			a.c.Mean[i] /= G
			a.c.StdErr[i] = math.Sqrt(a.se2[i]) / G
		}
		mean = append(mean, a.c)
		last := len(a.c.Steps) - 1
		meanText = append(meanText, fmt.Sprintf("%s %.3g at %s steps", a.c.Label, a.c.Mean[last], thousands(int(a.c.Steps[last]))))
	}
	if len(mean) > 0 {
		pl, err := plots.LearningCurves(fmt.Sprintf("mean over %d games", len(panels)), mean, plots.MethodReference("T-BPTT", 1))
		if err != nil {
			return Figure{}, err
		}
		cut = append(cut, cutCurves(pl, "the mean", mean)...)
		panels = append(panels, pl)
	}
	cols := min(3, len(panels))
	gridRows := (len(panels) + cols - 1) / cols
	panels = append(panels, make([]*plot.Plot, gridRows*cols-len(panels))...)
	line, refText := atariReference(r, rows)
	g := plots.NewGrid("Error over the "+line+"'s along the run, per game and averaged\n"+p.Scale+" scale", gridRows, cols, panels...)
	g.Width, g.Height = vg.Length(cols)*plots.DefaultWidth, vg.Length(gridRows)*plots.DefaultHeight
	caption := []string{"Figures 8 and 9 along the run (beyond the paper): on each game the mean learning curve of CCN, Columnar, Constructive and the memoryless control divided, point by point, by the reference T-BPTT's mean curve on that game (T-BPTT = 1); band: the method's standard error over T-BPTT's mean (T-BPTT's own spread left out); last panel: the mean over the games, its band the games' bands combined",
		refText, atariRunText(r, p)}
	if len(meanText) > 0 {
		caption = append(caption, "Mean over the games at the last point: "+strings.Join(meanText, ", "))
	}
	if len(cut) > 0 {
		caption = append(caption, fmt.Sprintf("The y axes stop at %g; above it: %s", atariCurvesTop, strings.Join(cut, "; ")))
	}
	if len(skipped) > 0 {
		caption = append(caption, "Not drawn: "+strings.Join(skipped, "; "))
	}
	return Figure{Name: fig, Drawer: g, Caption: strings.Join(caption, ". ") + "."}, nil
}

// cutCurves labels pl's y axis, stops it at atariCurvesTop and returns, for
// the caption, each curve of cs that goes above it: where, and how high.
func cutCurves(pl *plot.Plot, where string, cs []plots.Curve) []string {
	pl.Y.Label.Text = "error / T-BPTT's"
	pl.Y.Max = min(pl.Y.Max, atariCurvesTop)
	var out []string
	for _, c := range cs {
		top := 0
		for i, m := range c.Mean {
			if m > c.Mean[top] {
				top = i
			}
		}
		if c.Mean[top] > atariCurvesTop {
			out = append(out, fmt.Sprintf("%s, %s up to %.3g at %s steps", where, c.Label, c.Mean[top], thousands(int(c.Steps[top]))))
		}
	}
	return out
}

// divideCurve returns c divided point by point by ref's mean (its standard
// error likewise), and false when the two have other curve points.
func divideCurve(c, ref plots.Curve) (plots.Curve, bool) {
	if !slices.Equal(c.Steps, ref.Steps) {
		return c, false
	}
	out := c
	out.Mean = make([]float64, len(c.Mean))
	if c.StdErr != nil {
		out.StdErr = make([]float64, len(c.StdErr))
	}
	for i, m := range ref.Mean {
		out.Mean[i] = c.Mean[i] / m
		if c.StdErr != nil {
			out.StdErr[i] = c.StdErr[i] / m
		}
	}
	return out, true
}
