package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
	"github.com/ccn-go/ccn/sweep"
)

// committedResults is the committed paper-scale results directory.
const committedResults = "../../results/paper"

// rerunSteps is the length of the smoke-scale reruns: the first point of a
// committed curve (log-every 100000), so that a rerun by a build of the
// committed run's numerics can be checked against it bit for bit.
const rerunSteps = 100_000

// TestRerunFromCommittedSummary reruns committed paper-scale runs, one per
// method, from their own summary.json at smoke scale (ccn run --config
// DIR/summary.json --steps 100000) and checks that this is the run the sweep
// planned: the summary's configuration names the run's directory (sweep.ID),
// and the rerun's curve, predictions and final error are bitwise those of
// the plan's configuration run with the same steps. When this binary has the
// committed run's numerics, the rerun's curve point is also the committed
// curve's at that step.
func TestRerunFromCommittedSummary(t *testing.T) {
	plans, err := sweep.LoadPlans(committedResults)
	require.NoError(t, err)
	for _, m := range []arch.Method{arch.MethodCCN, arch.MethodColumnar, arch.MethodConstructive, arch.MethodTBPTT} {
		t.Run(string(m), func(t *testing.T) {
			task, sum, ok := committedRun(plans, m)
			require.True(t, ok, "results/paper has a complete final run of %s", m)
			dir := sweep.RunDir(committedResults, task.ID)
			c, _, err := experiments.DecodeFile(mustRead(t, filepath.Join(dir, experiments.SummaryFile)), true)
			require.NoError(t, err)
			r, err := c.Resolve()
			require.NoError(t, err)
			assert.Equal(t, task.ID, sweep.ID(r), "the summary holds the whole configuration of its run")

			base := t.TempDir()
			a, b := filepath.Join(base, "from-summary"), filepath.Join(base, "from-plan")
			var stdout, stderr bytes.Buffer
			code := run([]string{"run", "--config", filepath.Join(dir, experiments.SummaryFile),
				"--steps", strconv.Itoa(rerunSteps), "--no-gate", "--out", a}, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())

			orig := task.Config.Config()
			orig.Steps = rerunSteps
			want, err := experiments.Run(context.Background(), orig.MustResolve(), b, experiments.Options{})
			require.NoError(t, err)
			got, err := experiments.ReadSummary(a)
			require.NoError(t, err)
			assert.Equal(t, want.FinalError, got.FinalError)
			for _, f := range []string{experiments.CurveFile, experiments.PredictionsFile} {
				assert.Equal(t, mustRead(t, filepath.Join(b, f)), mustRead(t, filepath.Join(a, f)), f)
			}

			if sum.NumericsID() != lanes.Numerics() {
				t.Logf("%s was computed with numerics %s, this build has %s: not compared with its curve", task.ID, sum.NumericsID(), lanes.Numerics())
				return
			}
			committed, rerun := curveRows(t, filepath.Join(dir, experiments.CurveFile)), curveRows(t, filepath.Join(a, experiments.CurveFile))
			require.Len(t, rerun, 2) // header, step 100000
			assert.Equal(t, committed[1], rerun[1], "the committed curve at step %d", rerunSteps)
		})
	}
}

// committedRun returns a complete final-seed run of method m in results/paper:
// the cheapest to rerun (the smallest network) of those computed with this
// binary's numerics if there is one, else of all.
func committedRun(plans []sweep.Plan, m arch.Method) (sweep.Task, experiments.Summary, bool) {
	var best sweep.Task
	var bs experiments.Summary
	bestKey := [2]int{2, 0}
	for i := range plans {
		p := &plans[i]
		for g := range p.Groups {
			for c := range p.Groups[g].Candidates {
				cfg := p.Groups[g].Candidates[c].Config.Config()
				if cfg.Method != m {
					continue
				}
				for _, t := range p.FinalTasks(g, c) {
					s, err := experiments.ReadSummary(sweep.RunDir(committedResults, t.ID))
					if err != nil || s.Diverged {
						continue
					}
					key := [2]int{1, cfg.Hidden*cfg.Hidden*cfg.Truncation + cfg.Features}
					if s.NumericsID() == lanes.Numerics() {
						key[0] = 0
					}
					if key[0] < bestKey[0] || key[0] == bestKey[0] && key[1] < bestKey[1] {
						best, bs, bestKey = t, s, key
					}
					break // one seed per candidate is enough
				}
			}
		}
	}
	return best, bs, bestKey[0] < 2
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func curveRows(t *testing.T, path string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(mustRead(t, path))).ReadAll()
	require.NoError(t, err)
	return rows
}
