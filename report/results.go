package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/sweep"
)

// ErrNoResults is wrapped by Open's error when the results directory does not
// exist.
var ErrNoResults = errors.New("report: no results directory")

// ErrScale is wrapped by Open's error when the scale is ambiguous or absent.
var ErrScale = errors.New("report: scale")

// Results is a results directory of ccn sweep read at one scale.
type Results struct {
	// Dir is the results directory.
	Dir string
	// Scale is the scale whose plans are read; "" when the directory holds
	// no plans.
	Scale string

	plans    []sweep.Plan
	selected map[string]sweep.Selected // by study + "\x00" + group name
	// read holds every study whose plan a figure asked for: the studies a
	// Builder declares (a test holds each to its declaration).
	read map[string]bool
}

// Run is one complete final-seed run of a selected configuration.
type Run struct {
	ID      string
	Dir     string
	Summary experiments.Summary
}

// Group is the selected configuration of one group of a study and its
// final-seed runs.
type Group struct {
	Study     string
	Scale     string
	Name      string
	Candidate string // label of the selected candidate, e.g. "epsilon=0.001 step-size=0.001"
	Config    experiments.RunConfig
	Runs      []Run       // complete, not diverged, in final-seed order
	Seeds     int         // final seeds of the plan
	Final     sweep.Seeds // the plan's final seeds
	Sweep     sweep.Seeds // the plan's sweep seeds (none when nothing is tuned)
	Diverged  int         // final runs that diverged (left out of Runs)
	Missing   int         // final runs pending or failed (left out of Runs)
}

// Open reads the plans of the results directory dir at scale. With scale ""
// the directory must hold a single scale, which is used. A directory without
// plans is valid (figures that need no results can still be drawn). Open
// returns an error wrapping ErrNoResults if dir does not exist and one
// wrapping ErrScale if scale is ambiguous or has no plans.
func Open(dir, scale string) (*Results, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoResults, dir)
	case err != nil:
		return nil, fmt.Errorf("report: %w", err)
	case !fi.IsDir():
		return nil, fmt.Errorf("%w: %s is not a directory", ErrNoResults, dir)
	}
	r := &Results{Dir: dir, Scale: scale, selected: map[string]sweep.Selected{}}
	if paths, _ := filepath.Glob(filepath.Join(dir, sweep.PlansDir, "*.json")); len(paths) == 0 {
		return r, nil
	}
	res, err := sweep.Collect(dir)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var scales []string
	for _, p := range res.Plans {
		if !slices.Contains(scales, p.Scale) {
			scales = append(scales, p.Scale)
		}
	}
	sort.Strings(scales)
	switch {
	case scale == "" && len(scales) > 1:
		return nil, fmt.Errorf("%w: %s holds the scales %s: choose one", ErrScale, dir, strings.Join(scales, ", "))
	case scale == "":
		r.Scale = scales[0]
	case !slices.Contains(scales, scale):
		return nil, fmt.Errorf("%w: %s holds no plans at scale %q (it has %s)", ErrScale, dir, scale, strings.Join(scales, ", "))
	}
	for _, p := range res.Plans {
		if p.Scale == r.Scale {
			r.plans = append(r.plans, p)
		}
	}
	for _, s := range res.Selection() {
		if s.Plan.Scale == r.Scale {
			r.selected[s.Plan.Study+"\x00"+s.Plan.Groups[s.Group].Name] = s
		}
	}
	return r, nil
}

// Studies returns the names of the studies found at r's scale.
func (r *Results) Studies() []string {
	var names []string
	for _, p := range r.plans {
		names = append(names, p.Study)
	}
	return names
}

// StudyFile is the experiment file of a study of the repository,
// experiments/configs/STUDY.yaml: the file the hints for missing data name,
// and the one the figures of a study without figures of its own cite.
func StudyFile(study string) string {
	return filepath.Join("experiments", "configs", study+".yaml")
}

// plan returns the plan of study, or a missing-data error for figure fig.
func (r *Results) plan(fig, study string) (*sweep.Plan, error) {
	if r.read == nil {
		r.read = map[string]bool{}
	}
	r.read[study] = true
	for i := range r.plans {
		if r.plans[i].Study == study {
			return &r.plans[i], nil
		}
	}
	scale := r.Scale
	if scale == "" {
		scale = "S"
	}
	file := StudyFile(study)
	// The hint names a command that works: a study whose file (when it is
	// at hand, as in the repository's root) lacks the scale cannot be run at it.
	if st, err := sweep.Load(file); err == nil && r.Scale != "" && !slices.Contains(st.ScaleNames(), r.Scale) {
		return nil, missing(fig, "study %s has no scale %s (%s defines %s)",
			study, r.Scale, file, strings.Join(st.ScaleNames(), ", "))
	}
	return nil, missing(fig, "study %s not in %s (run: ccn sweep %s --scale %s --out %s)",
		study, r.Dir, file, scale, r.Dir)
}

// GroupNames returns the names of study's groups in plan order, or a
// missing-data error for figure fig.
func (r *Results) GroupNames(fig, study string) ([]string, error) {
	p, err := r.plan(fig, study)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(p.Groups))
	for i, g := range p.Groups {
		names[i] = g.Name
	}
	return names, nil
}

// Group returns the selected configuration of group name of study and its
// complete final-seed runs. It returns a missing-data error for figure fig
// when the study was not run, the group's sweep stage is not settled, or no
// final run is complete.
func (r *Results) Group(fig, study, name string) (Group, error) {
	p, err := r.plan(fig, study)
	if err != nil {
		return Group{}, err
	}
	sel, ok := r.selected[study+"\x00"+name]
	if !ok {
		return Group{}, missing(fig, "study %s has no group %q", study, name)
	}
	where := fmt.Sprintf("%s/%s group %s", study, p.Scale, name)
	if !sel.Settled {
		return Group{}, missing(fig, "%s: sweep stage not finished, no configuration selected yet (rerun ccn sweep)", where)
	}
	cand := p.Groups[sel.Group].Candidates[sel.Candidate]
	g := Group{Study: study, Scale: p.Scale, Name: name, Candidate: cand.Label, Config: p.FinalConfig(sel.Group, sel.Candidate).Config(), Seeds: len(p.FinalSeeds),
		Final: p.FinalSeeds}
	if len(p.Groups[sel.Group].Candidates) > 1 {
		g.Sweep = p.SweepSeeds
	}
	for _, t := range p.FinalTasks(sel.Group, sel.Candidate) {
		o := sweep.Look(r.Dir, t.ID, sweep.DefaultMaxAttempts)
		switch o.State {
		case sweep.Done:
			g.Runs = append(g.Runs, Run{ID: t.ID, Dir: sweep.RunDir(r.Dir, t.ID), Summary: o.Summary})
		case sweep.Diverged:
			g.Diverged++
		default:
			g.Missing++
		}
	}
	if len(g.Runs) == 0 {
		return g, missing(fig, "%s: none of %d final runs complete (%d diverged, %d pending or failed)",
			where, g.Seeds, g.Diverged, g.Missing)
	}
	return g, nil
}

// FinalErrors returns the final windowed error of each run of g.
func (g Group) FinalErrors() []float64 {
	out := make([]float64, len(g.Runs))
	for i, run := range g.Runs {
		out[i] = run.Summary.FinalError
	}
	return out
}

// SeedsText describes how many final runs g averages: "5 seeds", or
// "4 of 5 seeds (1 diverged)".
func (g Group) SeedsText() string {
	if len(g.Runs) == g.Seeds {
		return seedsText(g.Seeds)
	}
	var why []string
	if g.Diverged > 0 {
		why = append(why, fmt.Sprintf("%d diverged", g.Diverged))
	}
	if g.Missing > 0 {
		why = append(why, fmt.Sprintf("%d missing", g.Missing))
	}
	return fmt.Sprintf("%d of %d seeds (%s)", len(g.Runs), g.Seeds, strings.Join(why, ", "))
}

// missing returns a *plots.MissingError for figure fig.
func missing(fig, format string, args ...any) error {
	return &plots.MissingError{Figure: fig, What: fmt.Sprintf(format, args...)}
}

// seedsText is "1 seed" or "n seeds".
func seedsText(n int) string { return countText(n, "seed") }

// countText is "1 noun" or "n nouns".
func countText(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
