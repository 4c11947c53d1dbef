package report

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/sweep"
	"gonum.org/v1/plot"
)

// Atari studies (experiments/configs) and figure names.
const (
	StudyAtariMain          = "atari-main-comparison"
	StudyAtariCapacity      = "atari-tbptt-capacity"
	StudyAtariNormalization = "atari-normalization-ablation"

	NameAtariNormalized    = "atari-normalized-error"
	NameAtariAverage       = "atari-average-error"
	NameAtariCapacity      = "atari-tbptt-capacity"
	NameAtariNormalization = "atari-normalization"
)

// atariRows returns the rows of sweep.Results.Normalize of study at r's
// scale, and the plan, or a missing-data error for figure fig.
func atariRows(r *Results, fig, study string) ([]sweep.Normalized, *sweep.Plan, error) {
	return studyRows(r, fig, study, func(res *sweep.Results) []sweep.Normalized { return res.Normalize() })
}

// finalRows returns, in the shape of sweep.Results.Normalize, the final
// errors themselves of the groups over environments (mean ± s.e. over the
// complete final runs of each selected candidate, no reference), for
// figures that normalize within a study.
func finalRows(res *sweep.Results) []sweep.Normalized {
	var rows []sweep.Normalized
	for _, s := range res.Selection() {
		g := s.Plan.Groups[s.Group]
		if g.Env == "" {
			continue
		}
		n := sweep.Normalized{Study: s.Plan.Study, Scale: s.Plan.Scale, Env: g.Env, Family: g.Family,
			Seeds: s.Final.Seeds, Complete: s.Final.Complete, Diverged: s.Final.Diverged, Failed: s.Final.Failed, Pending: s.Final.Pending,
			Mean: s.Final.Mean, SE: s.Final.SE}
		if !math.IsNaN(n.Mean) {
			n.Games = 1
		}
		rows = append(rows, n)
	}
	return rows
}

// studyRows returns the rows that table makes of the collected results in
// r.Dir, those of study at r's scale, and the plan.
func studyRows(r *Results, fig, study string, table func(*sweep.Results) []sweep.Normalized) ([]sweep.Normalized, *sweep.Plan, error) {
	rows, p, _, err := studyResults(r, fig, study, table)
	return rows, p, err
}

// studyResults is studyRows that also returns the collected results.
func studyResults(r *Results, fig, study string, table func(*sweep.Results) []sweep.Normalized) ([]sweep.Normalized, *sweep.Plan, *sweep.Results, error) {
	p, err := r.plan(fig, study)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := sweep.Collect(r.Dir)
	if err != nil {
		return nil, nil, nil, err
	}
	var rows []sweep.Normalized
	for _, n := range table(res) {
		if n.Study == study && n.Scale == r.Scale {
			rows = append(rows, n)
		}
	}
	if len(rows) == 0 {
		return nil, nil, nil, missing(fig, "study %s runs over no list of environments", study)
	}
	return rows, p, res, nil
}

// atariRunText describes the runs of plan p: scale, steps, seeds, and the
// selected configuration of each group family (the same grid on every game):
// once when every game selected the same, else each with its games.
func atariRunText(r *Results, p *sweep.Plan) string {
	cfg, sw := p.FinalConfig(0, 0).Config(), p.Groups[0].Candidates[0].Config.Config()
	text := fmt.Sprintf("Scale %s, %s steps per run, error over the final %s steps; final seeds %s",
		p.Scale, thousands(cfg.Steps), thousands(cfg.Window), seedRanges(p.FinalSeeds))
	if len(p.SweepSeeds) > 0 {
		text += fmt.Sprintf(", sweep seeds %s", seedRanges(p.SweepSeeds))
		if sw.Steps != cfg.Steps {
			text += fmt.Sprintf(" (%s steps)", thousands(sw.Steps))
		}
		if p.Selection == sweep.AcrossEnvs {
			text += "; one configuration per method for every game (the lowest mean over games of error / best constant's over the sweep seeds)"
		}
	}
	// family → its selected labels in order, each with the games selecting it
	type choice struct {
		label string
		envs  []string
	}
	var families []string
	chosen := map[string][]choice{}
	for _, g := range p.Groups {
		s, ok := r.selected[p.Study+"\x00"+g.Name]
		if !ok {
			continue
		}
		label := g.Candidates[s.Candidate].Label
		cs, seen := chosen[g.Family]
		if !seen {
			families = append(families, g.Family)
		}
		i := slices.IndexFunc(cs, func(c choice) bool { return c.label == label })
		if i < 0 {
			cs, i = append(cs, choice{label: label}), len(cs)
		}
		cs[i].envs = append(cs[i].envs, g.Env)
		chosen[g.Family] = cs
	}
	var sel []string
	for _, f := range families {
		cs := chosen[f]
		if len(cs) == 1 {
			sel = append(sel, f+" "+cs[0].label)
			continue
		}
		var per []string
		for _, c := range cs {
			per = append(per, c.label+" ("+strings.Join(c.envs, ", ")+")")
		}
		sel = append(sel, f+" "+strings.Join(per, "; "))
	}
	return text + "; selected (on every game unless games are named): " + strings.Join(sel, ", ")
}

// countsText says what the rows leave out: diverged, failed or pending runs
// and entries without a value.
func countsText(rows []sweep.Normalized) string {
	var parts []string
	for _, n := range rows {
		var why []string
		if n.Diverged > 0 {
			why = append(why, fmt.Sprintf("%d diverged", n.Diverged))
		}
		if n.Failed+n.Pending > 0 {
			why = append(why, fmt.Sprintf("%d failed or pending", n.Failed+n.Pending))
		}
		if n.Env != sweep.MeanEnv && math.IsNaN(n.Mean) {
			why = append(why, "no value (no complete run or no T-BPTT reference)")
		}
		if n.Env == sweep.MeanEnv && len(n.Missing) > 0 {
			why = append(why, "averaged over "+fmt.Sprint(n.Games)+" games, missing "+strings.Join(n.Missing, " "))
		}
		if len(why) > 0 {
			parts = append(parts, fmt.Sprintf("%s on %s: %s", n.Family, n.Env, strings.Join(why, ", ")))
		}
	}
	if len(parts) == 0 {
		return "Every final run complete"
	}
	return "Left out: " + strings.Join(parts, "; ")
}

// rowMethod returns the method of a group by its name (ccn, ccn-no-norm,
// tbptt/5:7): the method of the registry of methods whose name the group's
// begins with, up to a "-" or "/", the longest such (rtu-linear, not rtu).
// A group named after no method is its own name and label, and has no
// colour (plots.MethodColor reports it).
func rowMethod(family string) (method, label string) {
	best := arch.MethodInfo{}
	for _, m := range arch.Methods() {
		rest, ok := strings.CutPrefix(family, string(m))
		if ok && (rest == "" || rest[0] == '-' || rest[0] == '/') && len(m) > len(best.Method) {
			best, _ = arch.Info(m)
		}
	}
	if best.Method == "" {
		return family, family
	}
	return string(best.Method), best.Label
}

func pick(rows []sweep.Normalized, keep func(sweep.Normalized) bool) []sweep.Normalized {
	var out []sweep.Normalized
	for _, n := range rows {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// atariPoints returns a point per row, its bar the row's 95% bootstrap
// interval (sweep.Normalized: both methods' seeds resampled), no bar where
// the row has none (a game with one run of the method or of its reference).
func atariPoints(rows []sweep.Normalized, label func(sweep.Normalized) string) []plots.Point {
	pts := make([]plots.Point, len(rows))
	for i, n := range rows {
		m, _ := rowMethod(n.Family)
		pts[i] = plots.Point{Label: label(n), Method: m, Mean: n.Mean, StdErr: math.NaN(),
			Low: n.Low, High: n.High, Interval: !math.IsNaN(n.Low) && !math.IsNaN(n.High)}
	}
	return pts
}

// atariReference names the reference of normalized rows (sweep.Normalize:
// on each game the best of the T-BPTT groups selected there in the
// comparison plans): line labels the line at 1, text says in a caption what
// it is, by the selection rule of the reference's plan:
//
//	one T-BPTT group, selected across games  "selected T-BPTT"  (medium: the pairs merged into one group)
//	one T-BPTT group, selected per game      "tuned T-BPTT"
//	several T-BPTT groups                    "best T-BPTT"      (the lowest final error on each game)
func atariReference(r *Results, rows []sweep.Normalized) (line, text string) {
	var study string
	var labels []string
	for _, n := range rows {
		st, group, ok := strings.Cut(n.Reference, "/")
		if !ok {
			continue
		}
		study = st
		if s, ok := r.selected[st+"\x00"+group]; ok {
			if l := s.Plan.Groups[s.Group].Candidates[s.Candidate].Label; !slices.Contains(labels, l) {
				labels = append(labels, l)
			}
		}
	}
	p, err := r.plan("", study)
	if study == "" || err != nil {
		return "T-BPTT", "No game has a T-BPTT reference (a complete T-BPTT final run)"
	}
	var families []string // the plan's T-BPTT groups, without their games
	for _, g := range p.Groups {
		if len(g.Candidates) > 0 && g.Candidates[0].Config.Config().Method == arch.MethodTBPTT && !slices.Contains(families, g.Family) {
			families = append(families, g.Family)
		}
	}
	switch {
	case len(families) > 1:
		return "best T-BPTT", "Reference: on each game the T-BPTT group with the lowest mean final error among " + strings.Join(families, ", ") + " (each at its selected configuration)"
	case p.Selection == sweep.AcrossEnvs:
		text = "Reference: the T-BPTT configuration selected once for every game"
		if len(labels) == 1 {
			text += " (" + strings.Join(families, "") + " " + labels[0] + ")"
		}
		return "selected T-BPTT", text
	}
	return "tuned T-BPTT", "Reference: " + strings.Join(families, "") + " with the configuration selected on each game"
}

// AtariNormalized draws Figure 8: CCN's error on each game over the
// reference T-BPTT's (sweep.Normalized, atariReference), mean over the
// final seeds with a 95% bootstrap interval.
func AtariNormalized(r *Results) (Figure, error) {
	const fig = NameAtariNormalized
	rows, p, err := atariRows(r, fig, StudyAtariMain)
	if err != nil {
		return Figure{}, err
	}
	rows = pick(rows, func(n sweep.Normalized) bool { return n.Family == GroupCCN && n.Env != sweep.MeanEnv })
	line, ref := atariReference(r, rows)
	pl, err := plots.NormalizedErrors("CCN against the "+line+", per game\n"+p.Scale+" scale", "game", line,
		atariPoints(rows, func(n sweep.Normalized) string { return n.Env }))
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: fig, Drawer: pl, Caption: strings.Join([]string{
		"Figure 8: CCN's mean squared return error on each game divided by the reference T-BPTT's on that game (T-BPTT = 1; below 1, CCN predicts better); mean over the final seeds with a 95% bootstrap interval that resamples both methods' seeds (normalized.csv)",
		ref, atariRunText(r, p), countsText(rows)}, ". ") + "."}, nil
}

// AtariAverage draws Figure 9: the normalized error of CCN, Columnar and
// Constructive (and of the linear control, if it ran) averaged over the
// games (T-BPTT = 1).
func AtariAverage(r *Results) (Figure, error) {
	const fig = NameAtariAverage
	rowsAll, p, err := atariRows(r, fig, StudyAtariMain)
	if err != nil {
		return Figure{}, err
	}
	rows := pick(rowsAll, func(n sweep.Normalized) bool {
		return n.Env == sweep.MeanEnv && (n.Family == GroupCCN || n.Family == GroupColumnar || n.Family == GroupConstructive || n.Family == GroupLinear)
	})
	line, ref := atariReference(r, pick(rowsAll, func(n sweep.Normalized) bool { return n.Env != sweep.MeanEnv }))
	pl, err := plots.NormalizedErrors("Normalized error averaged over games\n"+p.Scale+" scale", "method", line,
		atariPoints(rows, func(n sweep.Normalized) string { _, l := rowMethod(n.Family); return l }))
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: fig, Drawer: pl, Caption: strings.Join([]string{
		"Figure 9: normalized error (error / the reference T-BPTT's on the same game) of CCN, Columnar and Constructive, and of the memoryless linear control where it ran, averaged over the games; bars: 95% bootstrap intervals, every game's seeds of both methods resampled (normalized.csv)",
		ref, atariRunText(r, p), countsText(rows)}, ". ") + "."}, nil
}

// AtariCapacityPoints returns the two panels of Figure 11: T-BPTT with
// k = 8 and H = 2..15, and with H = 8 and k = 2..15; on each game the
// final errors e_g of a value x are divided by those at 15 (no other
// reference is needed), then averaged over the games,
//
//	v(x) = (1/G) Σ_g mean_s e_g(x) / mean_s e_g(15)
//
// over the G games where both have complete final runs (NaN where none),
// each with a 95% bootstrap interval that resamples both values' seeds on
// every game (capacityCurve: the bootstrap of the Atari claims, as the
// normalized errors of Figs. 8 and 9). The value at 15 is 1 by definition.
func AtariCapacityPoints(r *Results) ([2][]plots.Point, error) {
	pts, _, _, _, err := capacityPoints(r)
	return pts, err
}

// capacityValue is one point of a Figure 11 panel: the mean over games of
// a group's error over the value at 15 on the same game, with a 95%
// bootstrap interval.
type capacityValue struct {
	family       string // capacity/H=2
	games        int
	v, low, high float64
}

// capacityCurve returns the values v(x) of AtariCapacityPoints of the
// capacity study's families named prefix+x (capacity/H=, truncation/k=), in
// plan order, and false if there is no family prefix+"15". The interval is
// that of acrossGames: each replicate resamples the final errors of x and
// of 15 on every game independently. At 15 itself, whose every ratio is 1,
// v = 1 with the interval [1, 1].
func (d *atariData) capacityCurve(prefix string) ([]capacityValue, bool) {
	envs, families := d.envs(StudyAtariCapacity)
	if !slices.Contains(families, prefix+"15") {
		return nil, false
	}
	var out []capacityValue
	for _, f := range families {
		if !strings.HasPrefix(f, prefix) {
			continue
		}
		var samples [][][]float64
		for _, e := range envs {
			a, b := d.groups[[3]string{StudyAtariCapacity, f, e}], d.groups[[3]string{StudyAtariCapacity, prefix + "15", e}]
			if a != nil && b != nil && len(a.errs) > 0 && len(b.errs) > 0 {
				samples = append(samples, [][]float64{a.errs, b.errs})
			}
		}
		c := capacityValue{family: f, games: len(samples), v: math.NaN(), low: math.NaN(), high: math.NaN()}
		switch {
		case len(samples) > 0 && f == prefix+"15":
			c.v, c.low, c.high = 1, 1, 1
		case len(samples) > 0:
			c.v, c.low, c.high = acrossGames(atariRNG(StudyAtariCapacity+"/"+f), samples, func(m []float64) float64 { return m[0] / m[1] })
		}
		out = append(out, c)
	}
	return out, true
}

func capacityPoints(r *Results) (pts [2][]plots.Point, notes []string, rows []sweep.Normalized, p *sweep.Plan, err error) {
	const fig = NameAtariCapacity
	rows, p, res, err := studyResults(r, fig, StudyAtariCapacity, finalRows)
	if err != nil {
		return pts, nil, nil, nil, err
	}
	d, err := newAtariData(res, r.Scale)
	if err != nil {
		return pts, nil, nil, nil, err
	}
	for i, prefix := range []string{"capacity/H=", "truncation/k="} {
		curve, ok := d.capacityCurve(prefix)
		if !ok {
			return pts, nil, nil, nil, missing(fig, "%s: no group %s15 (the value at 15)", StudyAtariCapacity, prefix)
		}
		for _, c := range curve {
			pt := plots.Point{Label: strings.SplitN(c.family, "/", 2)[1], Method: "T-BPTT", Mean: c.v, StdErr: math.NaN(),
				Low: c.low, High: c.high, Interval: !math.IsNaN(c.low) && !math.IsNaN(c.high)}
			notes = append(notes, fmt.Sprintf("%s over %d games", pt.Label, c.games))
			pts[i] = append(pts[i], pt)
		}
	}
	return pts, notes, rows, p, nil
}

// AtariCapacity draws Figure 11 from AtariCapacityPoints. While the study's
// runs come in, a panel without any value leaves its tile blank and the
// caption names it; the figure is skipped (a MissingError) only when neither
// panel has a value.
func AtariCapacity(r *Results) (Figure, error) {
	const fig = NameAtariCapacity
	pts, notes, rows, p, err := capacityPoints(r)
	if err != nil {
		return Figure{}, err
	}
	var panels [2]*plot.Plot
	var blank []string
	for i, panel := range []struct{ title, xLabel, one string }{
		{"T-BPTT capacity, k = 8", "hidden units H", "H = 15"},
		{"T-BPTT truncation, H = 8", "truncation k", "k = 15"},
	} {
		pp, err := plots.NormalizedErrors(panel.title, panel.xLabel, panel.one, pts[i])
		var m *plots.MissingError
		switch {
		case errors.As(err, &m):
			blank = append(blank, fmt.Sprintf("the panel %s left blank (%s)", panel.title, m.What))
			continue
		case err != nil:
			return Figure{}, err
		}
		// With one run on a game no point has an interval to draw but the
		// value at 15, [1, 1] by definition.
		spread := "(mean, 95% interval)"
		if !slices.ContainsFunc(pts[i], func(pt plots.Point) bool { return pt.Interval && !strings.HasSuffix(pt.Label, "=15") }) {
			spread = "(mean; one run, no interval)"
		}
		pp.Y.Label.Text = "error / error at 15\n" + spread
		panels[i] = pp
	}
	if len(blank) == len(panels) {
		return Figure{}, missing(fig, "%s", strings.Join(blank, "; "))
	}
	notes = append(notes, blank...)
	g := plots.NewGrid("T-BPTT capacity and truncation on the games\n"+p.Scale+" scale", 1, 2, panels[0], panels[1])
	g.ShareY()
	return Figure{Name: fig, Drawer: g, Caption: strings.Join([]string{
		"Figure 11: T-BPTT's error with k = 8 and H hidden units (left) and with H = 8 and truncation k (right), divided on each game by the value at 15 and averaged over the games; bars: 95% bootstrap intervals that resample the final seeds of both values on every game (as Figs. 8 and 9; at 15, 1 by definition)",
		atariRunText(r, p), strings.Join(notes, ", "), countsText(rows)}, ". ") + "."}, nil
}

// AtariNormalization draws Figure 13: CCN with and without online feature
// normalization on each game and averaged, each tuned, errors divided by the
// reference T-BPTT's of the main comparison on the same game
// (atariReference); diverged runs are counted in the caption.
func AtariNormalization(r *Results) (Figure, error) {
	const fig = NameAtariNormalization
	rows, p, err := atariRows(r, fig, StudyAtariNormalization)
	if err != nil {
		return Figure{}, err
	}
	line, ref := atariReference(r, pick(rows, func(n sweep.Normalized) bool { return n.Env != sweep.MeanEnv }))
	// A panel per variant, one above the other on one y range, a point per
	// game and the mean: labels of two variants side by side overlapped.
	var panels []*plot.Plot
	for _, v := range []struct{ family, title string }{
		{GroupCCN, "CCN with online feature normalization"},
		{GroupCCNNoNorm, "CCN without normalization"},
	} {
		pts := atariPoints(pick(rows, func(n sweep.Normalized) bool { return n.Family == v.family }),
			func(n sweep.Normalized) string { return n.Env })
		pl, err := plots.NormalizedErrors(v.title, "game", line, pts)
		var m *plots.MissingError
		if errors.As(err, &m) {
			pl = nil // no value at all: a blank tile, the caption says why
		} else if err != nil {
			return Figure{}, err
		} else {
			pl.Y.Label.Text = strings.Replace(pl.Y.Label.Text, " (", "\n(", 1) // two lines: one is longer than a stacked panel is high
		}
		panels = append(panels, pl)
	}
	if panels[0] == nil && panels[1] == nil {
		return Figure{}, missing(fig, "%s: no game with a value (%s)", StudyAtariNormalization, countsText(rows))
	}
	g := plots.NewGrid("CCN with and without feature normalization\n"+p.Scale+" scale", 2, 1, panels...)
	g.Width = plots.DefaultWidth
	g.ShareY()
	return Figure{Name: fig, Drawer: g, Caption: strings.Join([]string{
		"Figure 13: CCN (4 features per stage) with (top) and without (bottom) online feature normalization, on each game and averaged over games (mean), each tuned independently, error divided by the reference T-BPTT's on the same game (atari-main-comparison at the same scale); mean over the final seeds with a 95% bootstrap interval that resamples both methods' seeds (normalized.csv)",
		ref, atariRunText(r, p), countsText(rows)}, ". ") + "."}, nil
}

// NameAtariPredictions is the file name of the Atari predictions figure.
const NameAtariPredictions = "atari-predictions"

// AtariPredictions draws Figure 10: on each game (a panel each), the
// predictions of CCN and of the game's reference T-BPTT (that of
// normalized.csv, atariReference) against the true return over the last steps of learning,
// from the lowest final seed both completed. Games without such a pair of
// runs are listed in the caption.
func AtariPredictions(r *Results, steps int) (Figure, error) {
	const fig = NameAtariPredictions
	rows, p, err := atariRows(r, fig, StudyAtariMain)
	if err != nil {
		return Figure{}, err
	}
	var panels []*plot.Plot
	var drawn, skipped []string
	for _, n := range rows {
		if n.Family != GroupCCN || n.Env == sweep.MeanEnv {
			continue
		}
		study, group, _ := strings.Cut(n.Reference, "/")
		if study != StudyAtariMain {
			skipped = append(skipped, n.Env+" (no T-BPTT of "+StudyAtariMain+" as reference)")
			continue
		}
		ccn, err := r.Group(fig, StudyAtariMain, GroupCCN+"@"+n.Env)
		if err != nil {
			skipped = append(skipped, n.Env+" (no complete CCN run)")
			continue
		}
		tb, err := r.Group(fig, StudyAtariMain, group)
		if err != nil {
			skipped = append(skipped, n.Env+" (no complete T-BPTT run)")
			continue
		}
		pl, seed, k, err := predictionsPlot(fig, StudyAtariMain, ccn, tb, steps, func(seed uint64) string {
			return fmt.Sprintf("%s (seed %d)", n.Env, seed)
		})
		var m *plots.MissingError
		if errors.As(err, &m) {
			skipped = append(skipped, n.Env+" ("+m.What+")")
			continue
		}
		if err != nil {
			return Figure{}, err
		}
		panels = append(panels, pl)
		pair := strings.TrimSuffix(strings.TrimPrefix(group, GroupTBPTT+"/"), "@"+n.Env)
		if pair == GroupTBPTT { // the pairs merged into one group (medium): its selected candidate names the pair
			pair = tb.Candidate
		}
		drawn = append(drawn, fmt.Sprintf("%s: CCN and T-BPTT %s, seed %d, last %d steps", n.Env, pair, seed, k))
	}
	if len(panels) == 0 {
		return Figure{}, missing(fig, "%s: no game with complete CCN and T-BPTT final runs of a common seed (%s)", StudyAtariMain, strings.Join(skipped, "; "))
	}
	cols := min(2, len(panels))
	gridRows := (len(panels) + cols - 1) / cols
	panels = append(panels, make([]*plot.Plot, gridRows*cols-len(panels))...) // an odd count leaves the last tile blank
	line, ref := atariReference(r, pick(rows, func(n sweep.Normalized) bool { return n.Family == GroupCCN && n.Env != sweep.MeanEnv }))
	g := plots.NewGrid("Predictions at the end of learning, CCN and the "+line+" on each game\n"+p.Scale+" scale", gridRows, cols, panels...)
	caption := []string{"Figure 10: predictions of CCN and of the game's reference T-BPTT (normalized.csv's) against the true return over the last steps of learning",
		ref, atariRunText(r, p), strings.Join(drawn, "; ")}
	if len(skipped) > 0 {
		caption = append(caption, "Not drawn: "+strings.Join(skipped, "; "))
	}
	return Figure{Name: fig, Drawer: g, Caption: strings.Join(caption, ". ") + "."}, nil
}
