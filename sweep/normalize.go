package sweep

import (
	"encoding/csv"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
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
//
// Low and High are a 95% bootstrap interval of the ratio of means
// mean(e)/mean(e_ref), which is Mean: BootstrapReplicates times, the group's
// complete final errors and the reference's are each resampled with
// replacement (independently: both methods' seeds), the ratio of the two
// resample means is a replicate, and the interval is the 2.5% and 97.5%
// quantiles of the replicates (stats.Interval95). On the average row a
// replicate is the mean over the environments with a value of their
// replicates (each environment resampled independently). An interval needs
// two runs in every sample it resamples (stats.Resamplable): with one run of
// the group or of its reference on an environment, that environment's
// interval and the average row's are NaN. The random numbers
// are a PCG seeded by BootstrapSeed and a hash of study, scale, environment
// and group, so the table is the same at every collection.
//
// Relative is the group's error over the best constant prediction's, so
// that "learned anything" reads below 1: the mean over the complete final
// runs of final_error/return_variance (summary.json), its s.e. and a 95%
// bootstrap interval as above (one sample); the average row averages the
// environments (NaN unless every environment has a value).
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
	// Low, High: 95% bootstrap interval of Mean.
	Low, High float64
	// Relative error over the best constant's: mean, s.e. and 95%
	// bootstrap interval.
	Relative, RelativeSE, RelativeLow, RelativeHigh float64
}

// Bootstrap settings of Normalize.
const (
	BootstrapReplicates = 2000
	BootstrapSeed       = 24
)

// bootstrapRNG returns the random numbers of the bootstrap of one row.
func bootstrapRNG(study, scale, env, family string) *rand.Rand {
	h := fnv.New64a()
	for _, s := range []string{study, scale, env, family} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return rand.New(rand.NewPCG(BootstrapSeed, h.Sum64()))
}

// finalValues returns the final errors of the complete final runs of a
// selection, and their relative errors final_error/return_variance (nil if
// a run has no positive return_variance).
func (r *Results) finalValues(s Selected) (errs, rel []float64) {
	everyVariance := true
	for _, t := range s.Plan.FinalTasks(s.Group, s.Candidate) {
		if o := r.look(t.ID); o.State == Done {
			errs = append(errs, o.Summary.FinalError)
			rel = append(rel, o.Summary.FinalError/o.Summary.ReturnVariance)
			everyVariance = everyVariance && o.Summary.ReturnVariance > 0
		}
	}
	if !everyVariance {
		rel = nil
	}
	return errs, rel
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

// isTBPTT reports whether g's candidates are T-BPTT networks. A per-study
// rule, not a registry fact: the paper normalizes Atari errors by T-BPTT's.
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
		boot := map[[2]string][2][]float64{} // env, family → bootstrap replicates of Mean and Relative, nil where not resamplable
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
				Failed: s.Final.Failed, Pending: s.Final.Pending}
			n.setNaN()
			rng := bootstrapRNG(p.Study, p.Scale, g.Env, g.Family)
			errs, rel := r.finalValues(s)
			var reps, relReps []float64
			if rs, ok := ref[[2]string{p.Scale, g.Env}]; ok {
				n.Reference = rs.Plan.Study + "/" + rs.Plan.Groups[rs.Group].Name
				var xs []float64
				for _, e := range errs {
					xs = append(xs, e/rs.Final.Mean)
				}
				n.Mean, n.SE = stats.MeanSE(xs)
				if len(errs) > 0 {
					refErrs, _ := r.finalValues(rs)
					reps = make([]float64, BootstrapReplicates)
					for b := range reps {
						reps[b] = stats.ResampleMean(rng, errs) / stats.ResampleMean(rng, refErrs)
					}
					if stats.Resamplable(errs, refErrs) {
						n.Low, n.High = stats.Interval95(slices.Clone(reps))
					} else {
						reps = nil
					}
				}
			}
			if len(rel) > 0 {
				n.Relative, n.RelativeSE = stats.MeanSE(rel)
				relReps = make([]float64, BootstrapReplicates)
				for b := range relReps {
					relReps[b] = stats.ResampleMean(rng, rel)
				}
				if stats.Resamplable(rel) {
					n.RelativeLow, n.RelativeHigh = stats.Interval95(slices.Clone(relReps))
				} else {
					relReps = nil
				}
			}
			if !math.IsNaN(n.Mean) {
				n.Games = 1
			}
			per[[2]string{g.Env, g.Family}] = n
			boot[[2]string{g.Env, g.Family}] = [2][]float64{reps, relReps}
			rows = append(rows, n)
		}
		for _, f := range families {
			avg := Normalized{Study: p.Study, Scale: p.Scale, Env: MeanEnv, Family: f}
			avg.setNaN()
			var sum, se2, rsum, rse2 float64
			relGames := 0
			resamplable, relResamplable := true, true // every game with a value has its replicates
			reps := make([]float64, BootstrapReplicates)
			relReps := make([]float64, BootstrapReplicates)
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
				b := boot[[2]string{e, f}]
				if n.Games == 1 {
					avg.Games++
					sum += n.Mean
					se2 += n.SE * n.SE
					resamplable = resamplable && b[0] != nil
					for i, x := range b[0] {
						reps[i] += x
					}
				}
				if !math.IsNaN(n.Relative) {
					relGames++
					rsum += n.Relative
					rse2 += n.RelativeSE * n.RelativeSE
					relResamplable = relResamplable && b[1] != nil
					for i, x := range b[1] {
						relReps[i] += x
					}
				}
			}
			if avg.Games > 0 {
				g := float64(avg.Games)
				avg.Mean, avg.SE = sum/g, math.Sqrt(se2)/g
				for i := range reps {
					reps[i] /= g
				}
				if resamplable {
					avg.Low, avg.High = stats.Interval95(reps)
				}
			}
			if relGames > 0 && relGames == len(envs) {
				g := float64(relGames)
				avg.Relative, avg.RelativeSE = rsum/g, math.Sqrt(rse2)/g
				for i := range relReps {
					relReps[i] /= g
				}
				if relResamplable {
					avg.RelativeLow, avg.RelativeHigh = stats.Interval95(relReps)
				}
			}
			rows = append(rows, avg)
		}
	}
	return rows
}

// setNaN sets every value of n to NaN (no value yet).
func (n *Normalized) setNaN() {
	nan := math.NaN()
	n.Mean, n.SE, n.Low, n.High = nan, nan, nan, nan
	n.Relative, n.RelativeSE, n.RelativeLow, n.RelativeHigh = nan, nan, nan, nan
}

// WriteNormalized writes normalized.csv: the rows of Normalize.
func (r *Results) WriteNormalized(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"study", "scale", "env", "group", "reference", "games", "missing", "seeds", "complete",
		"diverged", "failed", "pending", "mean_normalized_error", "se_normalized_error",
		"low_normalized_error", "high_normalized_error",
		"mean_relative_error", "se_relative_error", "low_relative_error", "high_relative_error"})
	for _, n := range r.Normalize() {
		cw.Write([]string{n.Study, n.Scale, n.Env, n.Family, n.Reference, strconv.Itoa(n.Games),
			strings.Join(n.Missing, " "), strconv.Itoa(n.Seeds), strconv.Itoa(n.Complete), strconv.Itoa(n.Diverged),
			strconv.Itoa(n.Failed), strconv.Itoa(n.Pending), formatFloat(n.Mean), formatFloat(n.SE),
			formatFloat(n.Low), formatFloat(n.High),
			formatFloat(n.Relative), formatFloat(n.RelativeSE), formatFloat(n.RelativeLow), formatFloat(n.RelativeHigh)})
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
