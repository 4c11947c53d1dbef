package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/truncation"
)

// roundingFloor is the smallest relative error drawn: dense RTRL's error is
// rounding, and can be exactly 0, which a log axis cannot show.
const roundingFloor = 1e-16

// gradientEstimators draws the gradient-bias study's estimators against their
// cost, a column per H: T-BPTT over k, SnAp-1, UORO (± the spread over
// draws) and dense exact RTRL.
func gradientEstimators(dir string) (Figure, error) {
	const fig = NameGradientEstimators
	points, path, err := readBias(fig, dir)
	if err != nil {
		return Figure{}, err
	}
	var hidden []int
	for _, p := range points {
		if !slices.Contains(hidden, p.Hidden) {
			hidden = append(hidden, p.Hidden)
		}
	}
	slices.Sort(hidden)
	var panels []plots.EstimatorPanel
	var notes []string
	samples, seeds, draws, maxK := 0, 0, 0, 0
	for _, h := range hidden {
		byMethod := map[arch.Method][]truncation.BiasPoint{}
		params := 0
		for _, p := range points {
			if p.Hidden == h {
				byMethod[p.Method] = append(byMethod[p.Method], p)
				params, samples, seeds = p.Params, p.Samples, p.Seeds
			}
		}
		pn := plots.EstimatorPanel{Title: fmt.Sprintf("H = %d (%d params)", h, params)}
		for _, m := range truncation.BiasMethods() {
			info, _ := arch.Info(m)
			ps := byMethod[m]
			if len(ps) == 0 {
				return Figure{}, missing(fig, "%s has no %s rows for H = %d", path, m, h)
			}
			slices.SortFunc(ps, func(a, b truncation.BiasPoint) int { return a.K - b.K })
			s := plots.EstimatorSeries{Label: estimatorLabel(ps), Method: string(m)}
			for _, p := range ps {
				s.Ops = append(s.Ops, float64(p.Ops))
				s.RelErr = append(s.RelErr, max(p.RelErr, roundingFloor))
				s.Cos = append(s.Cos, p.Cos)
				if info.Stochastic {
					s.RelErrSpread = append(s.RelErrSpread, p.RelErrSD)
					s.CosSpread = append(s.CosSpread, p.CosSD)
					draws = p.Draws
				}
				if info.Takes(arch.SizeTruncation) {
					maxK = max(maxK, p.K)
				}
			}
			pn.Series = append(pn.Series, s)
		}
		panels = append(panels, pn)
		notes = append(notes, estimatorNote(h, byMethod))
	}
	g, err := plots.GradientEstimators("Gradient estimators on trace patterning: error against cost per step", panels)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: fig, Drawer: g, Caption: fmt.Sprintf(
		"Truncation study, estimators: relative error ‖ĝ − g‖/‖g‖ (top, log scale; dense RTRL's rounding error drawn at "+
			"least at %g) and cosine similarity (bottom) of T-BPTT (k = 1..%d, a line), SnAp-1, UORO (%d draws per trajectory; "+
			"bars ± the standard deviation over draws) and dense exact RTRL against the exact gradient g of the reference, "+
			"for fixed random LSTMs on trace patterning streams, against each estimator's own count of operations per step; "+
			"means over %d trajectories (%d seeds). %s",
		roundingFloor, maxK, draws, samples, seeds, strings.Join(notes, "; "))}, nil
}

// estimatorLabel is the legend text of an estimator's points: its label in
// the registry of methods, with the range of k of a truncated one and "±
// s.d." for a stochastic one.
func estimatorLabel(ps []truncation.BiasPoint) string {
	info, _ := arch.Info(ps[0].Method)
	label := info.Label
	if info.Takes(arch.SizeTruncation) {
		label += fmt.Sprintf(" k = %d..%d", ps[0].K, ps[len(ps)-1].K)
	}
	if info.Stochastic {
		label += " ± s.d."
	}
	return label
}

// estimatorNote summarizes one H for the caption: SnAp-1's and UORO's errors
// and costs, and the shortest truncation at least as accurate as SnAp-1.
func estimatorNote(h int, by map[arch.Method][]truncation.BiasPoint) string {
	snap, uoro, rtrl := by[arch.MethodSnAp1][0], by[arch.MethodUORO][0], by[arch.MethodRTRL][0]
	k := "no k"
	for _, p := range by[arch.MethodTBPTT] {
		if p.RelErr <= snap.RelErr {
			k = fmt.Sprintf("k = %d (%d ops)", p.K, p.Ops)
			break
		}
	}
	return fmt.Sprintf("H = %d: SnAp-1 %.3g (%d ops, %.0f ns per step), UORO %.3g ± %.3g (%d ops, %.0f ns), "+
		"dense RTRL %.1e (%d ops, %.0f ns); T-BPTT as accurate as SnAp-1 from %s",
		h, snap.RelErr, snap.Ops, snap.Nanos, uoro.RelErr, uoro.RelErrSD, uoro.Ops, uoro.Nanos, rtrl.RelErr, rtrl.Ops, rtrl.Nanos, k)
}
