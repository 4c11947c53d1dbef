package sweep

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ccn-go/ccn/internal/atomicfile"

	"github.com/ccn-go/ccn/experiments"
)

// Results is a results directory read back: its plans and the outcomes of
// their runs. Runs without a complete summary count as pending; runs that
// failed MaxAttempts times as failed.
type Results struct {
	out         string
	maxAttempts int
	outcomes    map[string]Outcome
	Plans       []Plan
}

// Collect reads the plans of the results directory out.
func Collect(out string) (*Results, error) {
	plans, err := LoadPlans(out)
	if err != nil {
		return nil, err
	}
	return &Results{out: out, maxAttempts: DefaultMaxAttempts, outcomes: map[string]Outcome{}, Plans: plans}, nil
}

func (r *Results) look(id string) Outcome {
	o, ok := r.outcomes[id]
	if !ok {
		o = Look(r.out, id, r.maxAttempts)
		r.outcomes[id] = o
	}
	return o
}

// Outcome returns the state of run id of the results directory, with its
// summary when complete (read once, then remembered).
func (r *Results) Outcome(id string) Outcome { return r.look(id) }

// Dir returns the results directory.
func (r *Results) Dir() string { return r.out }

// Selected is the selection of one group: the best candidate over the sweep
// seeds (Plan.Select: per group, or across environments; provisional while
// Settled is false) and its score over the final seeds.
type Selected struct {
	Plan      *Plan
	Group     int
	Candidate int
	Settled   bool
	Final     Score
	// Numerics counts the group's complete runs, the sweep runs of every
	// candidate and the final runs, by the numerics of the build that
	// computed them. More than one key means the selection pooled builds
	// whose results are not bit-comparable (see Results.Mixed).
	Numerics map[string]int
}

// Selection returns one Selected per group of every plan.
func (r *Results) Selection() []Selected {
	var sel []Selected
	for i := range r.Plans {
		p := &r.Plans[i]
		for g := range p.Groups {
			c, settled := p.Select(g, r.look)
			s := Selected{Plan: p, Group: g, Candidate: c, Settled: settled,
				Final: score(c, p.FinalTasks(g, c), r.look), Numerics: map[string]int{}}
			seen := map[string]bool{}
			for _, t := range append(p.SweepTasks(g), p.FinalTasks(g, c)...) {
				if o := r.look(t.ID); !seen[t.ID] && (o.State == Done || o.State == Diverged) {
					seen[t.ID] = true
					s.Numerics[o.Summary.NumericsID()]++
				}
			}
			sel = append(sel, s)
		}
	}
	return sel
}

// configHeader is the header of the configuration columns, without seed
// unless withSeed.
func configHeader(withSeed bool) []string {
	var h []string
	for _, k := range ConfigKeys() {
		if k != "seed" || withSeed {
			h = append(h, k)
		}
	}
	return h
}

func configColumns(r experiments.Resolved, withSeed bool) []string {
	cfg := r.Config()
	var c []string
	for _, s := range experiments.Settings {
		if s.Key != "seed" || withSeed {
			c = append(c, s.Format(&cfg))
		}
	}
	return c
}

func scoreColumns(s Score) []string {
	return []string{strconv.Itoa(s.Seeds), strconv.Itoa(s.Complete), strconv.Itoa(s.Diverged),
		strconv.Itoa(s.Failed), strconv.Itoa(s.Pending), formatFloat(s.Mean), formatFloat(s.SE),
		formatFloat(s.Median), strconv.Itoa(s.NotLearned), FormatNumerics(s.Numerics)}
}

var scoreHeader = []string{"seeds", "complete", "diverged", "failed", "pending", "mean_final_error", "se_final_error",
	"median_final_error", "not_learned", "numerics"}

// FormatNumerics writes counts of runs by numerics as "simd/1" when there is
// one, else as "scalar:4 simd/1:30" (sorted); "" for none.
func FormatNumerics(n map[string]int) string {
	keys := slices.Sorted(maps.Keys(n))
	if len(keys) == 1 {
		return keys[0]
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ":" + strconv.Itoa(n[k])
	}
	return strings.Join(parts, " ")
}

// Mixed returns one line per group whose runs were computed by builds of
// different numerics (Selected.Numerics), naming the group and the counts.
func (r *Results) Mixed() []string {
	var lines []string
	for _, s := range r.Selection() {
		if len(s.Numerics) > 1 {
			lines = append(lines, fmt.Sprintf("%s/%s group %s pools runs of different numerics: %s",
				s.Plan.Study, s.Plan.Scale, s.Plan.Groups[s.Group].Name, FormatNumerics(s.Numerics)))
		}
	}
	return lines
}

// WriteSelection writes selection.csv: per group the selected candidate, its
// score over the final seeds and its configuration (seed left out).
func (r *Results) WriteSelection(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat([]string{"study", "scale", "group", "candidate", "settled"}, scoreHeader, configHeader(false)))
	for _, s := range r.Selection() {
		c := s.Plan.Groups[s.Group].Candidates[s.Candidate]
		cw.Write(slices.Concat([]string{s.Plan.Study, s.Plan.Scale, s.Plan.Groups[s.Group].Name, c.Label,
			strconv.FormatBool(s.Settled)}, scoreColumns(s.Final), configColumns(c.Config, false)))
	}
	cw.Flush()
	return cw.Error()
}

// WriteCandidates writes candidates.csv: every candidate of every group with
// its score over the sweep seeds and its rank (1 is selected).
func (r *Results) WriteCandidates(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat([]string{"study", "scale", "group", "rank", "candidate"}, scoreHeader, configHeader(false)))
	for i := range r.Plans {
		p := &r.Plans[i]
		for g, grp := range p.Groups {
			scores, _ := p.Rank(g, r.look)
			for rank, s := range scores {
				c := grp.Candidates[s.Candidate]
				cw.Write(slices.Concat([]string{p.Study, p.Scale, grp.Name, strconv.Itoa(rank + 1), c.Label},
					scoreColumns(s), configColumns(c.Config, false)))
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteCurves writes curves.csv, the tidy table of every complete run: one row
// per run and logged step, with the run's group, stage (sweep or final),
// candidate and configuration. A run that is both a sweep run and a final run
// appears once per stage.
func (r *Results) WriteCurves(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	cw.Write(slices.Concat([]string{"study", "scale", "group", "stage", "candidate", "run"}, configHeader(true), []string{"diverged", "step", "error"}))
	emit := func(p *Plan, g int, stage string, t Task) error {
		o := r.look(t.ID)
		if o.State != Done && o.State != Diverged {
			return nil
		}
		prefix := slices.Concat([]string{p.Study, p.Scale, p.Groups[g].Name, stage, p.Groups[g].Candidates[t.Candidate].Label, t.ID},
			configColumns(t.Config, true), []string{strconv.FormatBool(o.State == Diverged)})
		steps, errs, err := experiments.ReadCurve(filepath.Join(RunDir(r.out, t.ID), experiments.CurveFile))
		if err != nil {
			return err
		}
		for i, s := range steps {
			cw.Write(append(prefix, strconv.Itoa(s), strconv.FormatFloat(errs[i], 'g', -1, 64)))
		}
		return nil
	}
	for i := range r.Plans {
		p := &r.Plans[i]
		for g := range p.Groups {
			for _, t := range p.SweepTasks(g) {
				if err := emit(p, g, "sweep", t); err != nil {
					return err
				}
			}
			best, ok := p.Best(g, r.look)
			if !ok {
				continue
			}
			for _, t := range p.FinalTasks(g, best) {
				if err := emit(p, g, "final", t); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteTable writes the selection as an aligned text table.
func (r *Results) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "study\tscale\tgroup\tselected\tseeds\tfinal error (mean ± s.e.)\tmedian\tnot learned\tdiverged\tfailed\tpending\tnumerics")
	for _, s := range r.Selection() {
		label := s.Plan.Groups[s.Group].Candidates[s.Candidate].Label
		if !s.Settled {
			label += " (sweep running)"
		}
		n := FormatNumerics(s.Numerics)
		if len(s.Numerics) > 1 {
			n = "MIXED " + n
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/%d\t%.6g ± %.2g\t%.6g\t%d\t%d\t%d\t%d\t%s\n", s.Plan.Study, s.Plan.Scale,
			s.Plan.Groups[s.Group].Name, label, s.Final.Complete, s.Final.Seeds, s.Final.Mean, s.Final.SE,
			s.Final.Median, s.Final.NotLearned, s.Final.Diverged, s.Final.Failed, s.Final.Pending, n)
	}
	return tw.Flush()
}

// Files written by WriteFiles.
const (
	CurvesFile     = "curves.csv"
	CandidatesFile = "candidates.csv"
	SelectionFile  = "selection.csv"
)

// WriteFiles writes curves.csv, candidates.csv and selection.csv into dir,
// normalized.csv when a plan runs over a list of environments and
// across-envs.csv when a plan selects across environments,
// each through a temporary file and a rename, and returns their paths.
func (r *Results) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	var paths []string
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{CurvesFile, r.WriteCurves}, {CandidatesFile, r.WriteCandidates}, {SelectionFile, r.WriteSelection},
		{NormalizedFile, r.WriteNormalized}, {AcrossEnvsFile, r.WriteAcrossEnvs}} {
		if f.name == NormalizedFile && !r.hasEnvs() || f.name == AcrossEnvsFile && !r.selectsAcrossEnvs() {
			continue
		}
		path := filepath.Join(dir, f.name)
		if err := atomicfile.Write(path, 0o644, f.write); err != nil {
			return paths, fmt.Errorf("sweep: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}
