package sweep

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
)

// AcrossEnvsFile is the table of the selection across environments, written
// by WriteFiles when some plan selects across environments.
const AcrossEnvsFile = "across-envs.csv"

// WriteAcrossEnvs writes across-envs.csv for the plans that select across
// environments (Study.Selection): per family, per candidate in the order of
// RankAcrossEnvs, a row per environment (rank: the candidate's rank by that
// environment's own sweep runs, Rank, so rank 1 is what a per-environment
// selection would take: the sensitivity of the selection) and a row with env
// = MeanEnv (rank: RankAcrossEnvs's, 1 is selected), each with the
// candidate's run counts over the sweep seeds and its relative error
// final_error/return_variance, mean ± s.e. (the mean row: the score of
// RankAcrossEnvs).
func (r *Results) WriteAcrossEnvs(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat([]string{"study", "scale", "group", "candidate", "env", "rank"}, scoreHeader[:5],
		[]string{"mean_relative_error", "se_relative_error"}))
	for i := range r.Plans {
		p := &r.Plans[i]
		if p.Selection != AcrossEnvs {
			continue
		}
		var families []string
		for _, g := range p.Groups {
			if g.Family != "" && !slices.Contains(families, g.Family) {
				families = append(families, g.Family)
			}
		}
		for _, f := range families {
			var groups []int
			rank := map[int][]int{} // group → rank of each candidate (0-based)
			for g, grp := range p.Groups {
				if grp.Family != f {
					continue
				}
				groups = append(groups, g)
				scores, _ := p.Rank(g, r.look)
				rank[g] = make([]int, len(scores))
				for k, s := range scores {
					rank[g][s.Candidate] = k
				}
			}
			across, _ := p.RankAcrossEnvs(f, r.look)
			for k, a := range across {
				label := p.Groups[groups[0]].Candidates[a.Candidate].Label
				row := func(env string, rk int, s Score) {
					cw.Write(slices.Concat([]string{p.Study, p.Scale, f, label, env, strconv.Itoa(rk + 1)},
						scoreColumns(s)[:5], []string{formatFloat(s.Mean), formatFloat(s.SE)}))
				}
				for _, g := range groups {
					var ts []Task
					if p.Sweeps(g) {
						for _, seed := range p.SweepSeeds {
							ts = append(ts, p.Task(g, a.Candidate, seed))
						}
					}
					row(p.Groups[g].Env, rank[g][a.Candidate], relativeScore(a.Candidate, ts, r.look))
				}
				row(MeanEnv, k, a)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// selectsAcrossEnvs reports whether some plan selects across environments.
func (r *Results) selectsAcrossEnvs() bool {
	return slices.ContainsFunc(r.Plans, func(p Plan) bool { return p.Selection == AcrossEnvs })
}
