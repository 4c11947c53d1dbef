package sweep

import (
	"encoding/csv"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/stats"
)

// MeanEnv is the Env of the rows of Normalize that average over
// environments.
const MeanEnv = "mean"

// NormalizedFile is the per-environment normalization table written by
// WriteFiles when some plan runs its groups over a list of environments.
const NormalizedFile = "normalized.csv"

// Normalized is one group's final error on one environment divided by the
// error of the best T-BPTT on that environment (paper §5: T-BPTT is 1), or,
// with Env = MeanEnv, the average of those over the study's environments.
//
// Per environment, over the complete final runs of the selected candidate,
//
//	n_s = e_s / e_ref      mean and s.e. of n_s over the seeds s
//
// where e_ref is the mean final error of the reference: among the T-BPTT
// groups selected on that environment in every comparison plan of the same
// scale (a plan with a group of another method beside its T-BPTT groups:
// the main comparison's compute-matched pairs, not a study of T-BPTT alone
// such as the capacity study, whose larger networks are no yardstick for
// the others), the best by the selection's rule (groups without a diverged
// or failed final run first, then the lowest mean). Averaged over the G
// environments with a value,
//
//	n̄ = Σ_g mean_g / G      s.e. = √(Σ_g se_g²) / G
//
// Nothing is dropped silently: runs that diverged, failed or are pending are
// counted, an environment without a reference or without a complete run has
// no value (NaN) and is listed in Missing of the average row.
type Normalized struct {
	Study, Scale, Env string
	// Family is the group's name without the environment (ccn, tbptt/5:7).
	Family string
	// Reference is the reference group, "study/group", or empty if the
	// environment has no T-BPTT with a complete run.
	Reference string
	// Games counts the environments with a value (1 or 0 per environment).
	Games int
	// Missing lists the environments without a value (average rows).
	Missing []string
	// Run counts over the final seeds (summed over environments for the
	// average rows), as in Score.
	Seeds, Complete, Diverged, Failed, Pending int
	Mean, SE                                   float64
}

// reference returns, per scale and environment label, the best selected
// T-BPTT group ("study/group") of the comparison plans and its mean final
// error.
func (r *Results) reference(sel []Selected) map[[2]string]Selected {
	ref := map[[2]string]Selected{}
	for _, s := range sel {
		g := s.Plan.Groups[s.Group]
		if g.Env == "" || !isTBPTT(g) || s.Final.Complete == 0 || !slices.ContainsFunc(s.Plan.Groups, func(o Group) bool { return !isTBPTT(o) }) {
			continue
		}
		key := [2]string{s.Plan.Scale, g.Env}
		if best, ok := ref[key]; !ok || better(s.Final, best.Final) {
			ref[key] = s
		}
	}
	return ref
}

// isTBPTT reports whether g's candidates are T-BPTT networks.
func isTBPTT(g Group) bool {
	return len(g.Candidates) > 0 && g.Candidates[0].Config.Config().Method == arch.MethodTBPTT
}

// Normalize returns the normalized final errors of every group of the plans
// that run over a list of environments: a row per group and environment, in
// plan order, then per study and family the average row.
func (r *Results) Normalize() []Normalized {
	sel := r.Selection()
	ref := r.reference(sel)
	var rows []Normalized
	for i := range r.Plans {
		p := &r.Plans[i]
		var envs, families []string
		per := map[[2]string]Normalized{}
		for _, s := range sel {
			if s.Plan != p || p.Groups[s.Group].Env == "" {
				continue
			}
			g := p.Groups[s.Group]
			if !slices.Contains(envs, g.Env) {
				envs = append(envs, g.Env)
			}
			if !slices.Contains(families, g.Family) {
				families = append(families, g.Family)
			}
			n := Normalized{Study: p.Study, Scale: p.Scale, Env: g.Env, Family: g.Family,
				Seeds: s.Final.Seeds, Complete: s.Final.Complete, Diverged: s.Final.Diverged,
				Failed: s.Final.Failed, Pending: s.Final.Pending, Mean: math.NaN(), SE: math.NaN()}
			if rs, ok := ref[[2]string{p.Scale, g.Env}]; ok {
				n.Reference = rs.Plan.Study + "/" + rs.Plan.Groups[rs.Group].Name
				var xs []float64
				for _, t := range p.FinalTasks(s.Group, s.Candidate) {
					if o := r.look(t.ID); o.State == Done {
						xs = append(xs, o.Summary.FinalError/rs.Final.Mean)
					}
				}
				n.Mean, n.SE = stats.MeanSE(xs)
			}
			if !math.IsNaN(n.Mean) {
				n.Games = 1
			}
			per[[2]string{g.Env, g.Family}] = n
			rows = append(rows, n)
		}
		for _, f := range families {
			avg := Normalized{Study: p.Study, Scale: p.Scale, Env: MeanEnv, Family: f, Mean: math.NaN(), SE: math.NaN()}
			var sum, se2 float64
			for _, e := range envs {
				n, ok := per[[2]string{e, f}]
				if !ok || n.Games == 0 {
					avg.Missing = append(avg.Missing, e)
				}
				if !ok {
					continue
				}
				avg.Seeds += n.Seeds
				avg.Complete += n.Complete
				avg.Diverged += n.Diverged
				avg.Failed += n.Failed
				avg.Pending += n.Pending
				if n.Games == 1 {
					avg.Games++
					sum += n.Mean
					se2 += n.SE * n.SE
				}
			}
			if avg.Games > 0 {
				g := float64(avg.Games)
				avg.Mean, avg.SE = sum/g, math.Sqrt(se2)/g
			}
			rows = append(rows, avg)
		}
	}
	return rows
}

// WriteNormalized writes normalized.csv: the rows of Normalize.
func (r *Results) WriteNormalized(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"study", "scale", "env", "group", "reference", "games", "missing", "seeds", "complete",
		"diverged", "failed", "pending", "mean_normalized_error", "se_normalized_error"})
	for _, n := range r.Normalize() {
		cw.Write([]string{n.Study, n.Scale, n.Env, n.Family, n.Reference, strconv.Itoa(n.Games),
			strings.Join(n.Missing, " "), strconv.Itoa(n.Seeds), strconv.Itoa(n.Complete), strconv.Itoa(n.Diverged),
			strconv.Itoa(n.Failed), strconv.Itoa(n.Pending), formatFloat(n.Mean), formatFloat(n.SE)})
	}
	cw.Flush()
	return cw.Error()
}

// hasEnvs reports whether some plan runs its groups over environments.
func (r *Results) hasEnvs() bool {
	for _, p := range r.Plans {
		for _, g := range p.Groups {
			if g.Env != "" {
				return true
			}
		}
	}
	return false
}
