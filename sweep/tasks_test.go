package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

func TestRunArgsAndCommand(t *testing.T) {
	l := 0.5
	cfg := experiments.RunConfig{Method: "ccn", Seed: 7, StepSize: 3e-4, Lambda: &l, NoNorm: true, Steps: 1000}
	args := RunArgs(cfg.MustResolve())
	joined := strings.Join(args, " ")
	for _, want := range []string{"--method ccn", "--seed 7", "--step-size 0.0003", "--lambda 0.5",
		"--no-norm", "--steps 1000", "--features 16", "--features-per-stage 4", "--steps-per-stage 250"} {
		assert.Contains(t, joined, want)
	}
	assert.NotContains(t, joined, "--hidden", "fields that do not apply stay out")
	assert.NotContains(t, joined, "--truncation")

	task := Task{ID: ID(cfg.MustResolve()), Config: cfg.MustResolve()}
	cmd := Command("/opt/my ccn/ccn", "/data/out", task, false)
	assert.True(t, strings.HasPrefix(cmd, "'/opt/my ccn/ccn' run --env trace-patterning"), cmd)
	assert.True(t, strings.HasSuffix(cmd, "--no-gate --out /data/out/runs/"+task.ID), cmd)
	assert.NotContains(t, Command("ccn", "/o", task, true), "--no-gate")
	assert.Equal(t, `'it'\''s'`, shellQuote("it's"))
}

// The task arguments are those of commit f4320c2, before the run settings
// became a table.
func TestRunArgsUnchanged(t *testing.T) {
	l := 0.5
	got := RunArgs(experiments.RunConfig{Method: "columnar", Seed: 2, Steps: 100000, NoNorm: true, Lambda: &l}.MustResolve())
	assert.Equal(t, "--env trace-patterning --method columnar --steps 100000 --seed 2 --step-size 0.0003 --lambda 0.5 --gamma 0.9 "+
		"--features 10 --features-per-stage 10 --epsilon 0.001 --norm-decay 0.99999 --no-norm --optimizer rmsprop --window 100000 --log-every 10000",
		strings.Join(got, " "))
}

func TestRunnableFollowsTheStages(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	require.NoError(t, SavePlan(out, p))
	tasks, waiting := Runnable(p, out, 0)
	// Sweep runs of ccn (3×2) and tbptt (2×2), and columnar's 4 final runs.
	assert.Len(t, tasks, 6+4+4)
	assert.Equal(t, 2, waiting)

	f := newFakeRunner()
	for _, tk := range tasks {
		_, _ = f.run(context.Background(), tk.Config, RunDir(out, tk.ID))
	}
	tasks, waiting = Runnable(p, out, 0)
	assert.Len(t, tasks, 2+2, "final seeds 2 and 3 of the two selected candidates")
	assert.Zero(t, waiting)
	for _, tk := range tasks {
		assert.Contains(t, []uint64{2, 3}, tk.Seed)
	}
}

func TestWriteSlurm(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteSlurm(&b, Slurm{TaskFile: "/r/tasks.txt", Tasks: 42, Throttle: 8, LogDir: "/r/logs",
		JobName: "ccn-x", Options: []string{"--time=01:00:00"}}))
	s := b.String()
	for _, want := range []string{"#!/bin/bash\n", "#SBATCH --array=1-42%8\n", "#SBATCH --output=/r/logs/%A_%a.out\n",
		"#SBATCH --time=01:00:00\n", "#SBATCH --job-name=ccn-x\n", "TASKS=/r/tasks.txt\n", "SLURM_ARRAY_TASK_ID"} {
		assert.Contains(t, s, want)
	}
	b.Reset()
	require.NoError(t, WriteSlurm(&b, Slurm{TaskFile: "/t", Tasks: 2500, LogDir: "/l", JobName: "j"}))
	assert.Contains(t, b.String(), "#SBATCH --array=1-1000\n", "no throttle, capped at MaxArraySize")
	assert.Contains(t, b.String(), "OFFSET=1000")
	assert.Panics(t, func() { WriteSlurm(&b, Slurm{}) })
}

func TestCollectTables(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	_, err := Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	res, err := Collect(out)
	require.NoError(t, err)
	paths, err := res.WriteFiles(out)
	require.NoError(t, err)
	require.Len(t, paths, 3)

	read := func(name string) []map[string]string {
		fh, err := os.Open(filepath.Join(out, name))
		require.NoError(t, err)
		defer fh.Close()
		rows, err := csv.NewReader(fh).ReadAll()
		require.NoError(t, err)
		var out []map[string]string
		for _, r := range rows[1:] {
			m := map[string]string{}
			for i, h := range rows[0] {
				m[h] = r[i]
			}
			out = append(out, m)
		}
		return out
	}
	curves := read(CurvesFile)
	// Two curve points per run; runs: ccn 6 sweep + 4 final, tbptt 4 + 4,
	// columnar 4 final: 22 run×stage pairs.
	assert.Len(t, curves, 2*22)
	r := curves[0]
	assert.Equal(t, "fake", r["study"])
	assert.Equal(t, "ccn", r["group"])
	assert.Equal(t, "sweep", r["stage"])
	assert.Equal(t, "0.001", r["step-size"])
	assert.Equal(t, "0", r["seed"])
	assert.Equal(t, "500", r["step"])
	e, err := strconv.ParseFloat(r["error"], 64)
	require.NoError(t, err)
	assert.InDelta(t, 2*0.01, e, 1e-15, "fake curve: twice the final error at mid-run")

	sel := read(SelectionFile)
	require.Len(t, sel, 3)
	assert.Equal(t, "ccn", sel[0]["group"])
	assert.Equal(t, "step-size=0.0003", sel[0]["candidate"])
	assert.Equal(t, "0.0003", sel[0]["step-size"])
	assert.Equal(t, "4", sel[0]["complete"])
	m, _ := strconv.ParseFloat(sel[0]["mean_final_error"], 64)
	se, _ := strconv.ParseFloat(sel[0]["se_final_error"], 64)
	// Errors 0.003, 0.004, 0.005, 0.006: mean 0.0045, s = 0.001291, SE = s/2.
	assert.InDelta(t, 0.0045, m, 1e-15)
	assert.InDelta(t, 0.0012909944487358056/2, se, 1e-15)
	assert.Equal(t, "true", sel[0]["settled"])

	cands := read(CandidatesFile)
	assert.Len(t, cands, 3+2+1)
	assert.Equal(t, "1", cands[0]["rank"])
	assert.Equal(t, "step-size=0.0003", cands[0]["candidate"])

	var table bytes.Buffer
	require.NoError(t, res.WriteTable(&table))
	assert.Contains(t, table.String(), "step-size=0.0003")

	_, err = Collect(t.TempDir())
	assert.ErrorContains(t, err, "holds no plans")
}
