package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/sweep"
)

// StudyBuilders returns the figure builders of any study st, read from the
// experiment file file, whose results at r's scale are in r:
//
//	NAME-curves                learning curves of each group's selected configuration, mean ± s.e.
//	NAME-final                 final error per group, mean ± s.e., sorted, lowest first
//	NAME-sensitivity-KEY       final error over the sweep seeds against each swept setting KEY,
//	                           a line per group tuning it (other swept settings at their best)
//
// Error figures draw the best constant prediction's error. A figure whose data
// are missing is a *plots.MissingError naming the command that makes them.
func StudyBuilders(r *Results, st sweep.Study, file string) []Builder {
	name := st.Name
	bs := []Builder{
		{name + "-curves", []string{name}, func() (Figure, error) { return studyCurves(r, st, file) }},
		{name + "-final", []string{name}, func() (Figure, error) { return studyFinal(r, st, file) }},
	}
	for _, key := range studyTuned(r, st) {
		bs = append(bs, Builder{name + "-sensitivity-" + key, []string{name}, func() (Figure, error) { return studySensitivity(r, st, file, key) }})
	}
	return bs
}

// RenderStudy draws the figures of StudyBuilders for the experiment file file
// from the results directory dir into out, like Render. scale "" means the
// study's only scale. Errors: the file's own (wrapping sweep.ErrInvalid), or
// one wrapping ErrScale when the scale is ambiguous or not defined by the
// file (the message lists the file's scales), or ErrNoResults.
func RenderStudy(file, dir, scale, out string, log io.Writer) (Report, error) {
	st, err := sweep.Load(file)
	if err != nil {
		return Report{}, err
	}
	scales := st.ScaleNames()
	switch {
	case scale == "" && len(scales) == 1:
		scale = scales[0]
	case scale == "":
		return Report{}, fmt.Errorf("%w: %s defines the scales %s: choose one with --scale", ErrScale, file, strings.Join(scales, ", "))
	case !slices.Contains(scales, scale):
		return Report{}, fmt.Errorf("%w: %s defines no scale %q (it has %s)", ErrScale, file, scale, strings.Join(scales, ", "))
	}
	r, err := Open(dir, scale)
	if errors.Is(err, ErrScale) {
		// The results hold other scales only: nothing of this study at this
		// scale, which is missing data for every figure, not a bad scale.
		r, err = &Results{Dir: dir, Scale: scale, selected: map[string]sweep.Selected{}}, nil
	}
	if err != nil {
		return Report{}, err
	}
	return drawAll(scale, StudyBuilders(r, st, file), out, log)
}

// studyPlan returns the plan of st in r, or missing data saying how to run it.
func studyPlan(r *Results, st sweep.Study, file, fig string) (*sweep.Plan, error) {
	for i := range r.plans {
		if r.plans[i].Study == st.Name {
			return &r.plans[i], nil
		}
	}
	return nil, missing(fig, "study %s at scale %s not in %s (run: ccn sweep %s --scale %s --out %s)",
		st.Name, r.Scale, r.Dir, file, r.Scale, r.Dir)
}

// studySeries loads every group of st with complete final runs, labelled by
// group name.
func studySeries(r *Results, st sweep.Study, file, fig string) ([]series, error) {
	if _, err := studyPlan(r, st, file, fig); err != nil {
		return nil, err
	}
	return loadSeries(r, fig, st.Name, nil, func(g Group) string { return g.Name })
}

// studyTitle is a study figure's title: what, the study, and the subtitle.
func studyTitle(what string, st sweep.Study, g Group) string {
	return fmt.Sprintf("%s: %s\n%s", st.Name, what, subtitle(g))
}

func studyCurves(r *Results, st sweep.Study, file string) (Figure, error) {
	fig := st.Name + "-curves"
	ss, err := studySeries(r, st, file, fig)
	if err != nil {
		return Figure{}, err
	}
	cs, base, err := curvesAndBaseline(ss)
	if err != nil {
		return Figure{}, err
	}
	p, err := plots.LearningCurves(studyTitle("learning curves", st, ss[0].group), cs, base.reference())
	if err != nil {
		return Figure{}, err
	}
	p.Y.Label.Text = errorLabel(ss[0].group.Config.Window)
	return Figure{Name: fig, Drawer: p, Caption: caption(fmt.Sprintf(
		"Study %s (%s): learning curves of each group's configuration selected over the sweep seeds", st.Name, file), ss, base.text())}, nil
}

func studyFinal(r *Results, st sweep.Study, file string) (Figure, error) {
	fig := st.Name + "-final"
	ss, err := studySeries(r, st, file, fig)
	if err != nil {
		return Figure{}, err
	}
	base, err := baseline(ss[0].group)
	if err != nil {
		return Figure{}, err
	}
	p, err := plots.FinalErrors(studyTitle("final error per group", st, ss[0].group), "group", points(ss), true, base.reference())
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: fig, Drawer: p, Caption: caption(fmt.Sprintf(
		"Study %s (%s): final error of each group's selected configuration, mean ± s.e. over its final seeds, lowest first", st.Name, file), ss, base.text())}, nil
}

// studyTuned returns the keys swept by any group of st's plan in r, sorted.
func studyTuned(r *Results, st sweep.Study) []string {
	var keys []string
	for _, p := range r.plans {
		if p.Study != st.Name {
			continue
		}
		for _, g := range p.Groups {
			for _, k := range g.Tuned {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// candidateValue returns the value of key in a candidate label
// "key=value key=value".
func candidateValue(label, key string) (string, bool) {
	for _, kv := range strings.Fields(label) {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

func studySensitivity(r *Results, st sweep.Study, file, key string) (Figure, error) {
	fig := st.Name + "-sensitivity-" + key
	p, err := studyPlan(r, st, file, fig)
	if err != nil {
		return Figure{}, err
	}
	look := func(id string) sweep.Outcome { return sweep.Look(r.Dir, id, sweep.DefaultMaxAttempts) }
	var series []plots.SensitivitySeries
	var first *Group
	var parts []string
	for gi, g := range p.Groups {
		if !slices.Contains(g.Tuned, key) {
			continue
		}
		scores, settled := p.Rank(gi, look)
		if !settled {
			return Figure{}, missing(fig, "%s/%s group %s: sweep stage not finished (rerun: ccn sweep %s --scale %s --out %s)",
				st.Name, p.Scale, g.Name, file, p.Scale, r.Dir)
		}
		// Per value of key, the best candidate (other swept settings at
		// their best) among those with complete runs.
		best := map[float64]sweep.Score{}
		for _, sc := range scores {
			v, ok := candidateValue(g.Candidates[sc.Candidate].Label, key)
			if !ok || sc.Complete == 0 || sc.Bad() > 0 {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return Figure{}, missing(fig, "%s is not numeric (%s=%s)", key, key, v)
			}
			if b, ok := best[x]; !ok || sc.Mean < b.Mean {
				best[x] = sc
			}
		}
		if len(best) < 2 {
			continue
		}
		s := plots.SensitivitySeries{Label: g.Name, Method: string(g.Candidates[0].Config.Config().Method)}
		for x := range best {
			s.X = append(s.X, x)
		}
		sort.Float64s(s.X)
		for _, x := range s.X {
			se := best[x].SE
			if math.IsNaN(se) {
				se = 0
			}
			s.Mean = append(s.Mean, best[x].Mean)
			s.StdErr = append(s.StdErr, se)
		}
		series = append(series, s)
		parts = append(parts, fmt.Sprintf("%s: %d values", g.Name, len(s.X)))
		if first == nil {
			gr, err := r.Group(fig, st.Name, g.Name)
			if err == nil {
				first = &gr
			}
		}
	}
	if len(series) == 0 {
		return Figure{}, missing(fig, "no group has complete sweep runs at two or more values of %s", key)
	}
	logX := true
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, x := range s.X {
			logX = logX && x > 0
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	logX = logX && hi/lo >= 10
	title := fmt.Sprintf("%s: sensitivity to %s\n%s scale, %s sweep seeds", st.Name, key, p.Scale, fmt.Sprint(len(p.SweepSeeds)))
	var refs []plots.Reference
	extra := []string{}
	if first != nil {
		base, err := baseline(*first)
		if err != nil {
			return Figure{}, err
		}
		refs = append(refs, base.reference())
		extra = append(extra, base.text())
	}
	pl, err := plots.Sensitivity(title, key, series, logX, refs...)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: fig, Drawer: pl, Caption: strings.Join(append([]string{fmt.Sprintf(
		"Study %s (%s), scale %s: final error (mean ± s.e. over the %d sweep seeds) against %s, for each value the best candidate over the other swept settings; diverged candidates left out",
		st.Name, file, p.Scale, len(p.SweepSeeds), key), strings.Join(parts, "; ")}, extra...), ". ") + "."}, nil
}
