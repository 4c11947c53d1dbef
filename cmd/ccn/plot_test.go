package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
	"github.com/ccn-go/ccn/sweep"
)

func TestPlotExitCodes(t *testing.T) {
	empty := t.TempDir()
	twoScales := t.TempDir()
	const configs = "../../experiments/configs"
	require.NoError(t, reporttest.WriteStudy(twoScales, configs, report.StudyNormalization, reporttest.Tiny(), reporttest.PlanOnly))
	study, err := sweep.Load(filepath.Join(configs, report.StudyNormalization+".yaml"))
	require.NoError(t, err)
	smoke, err := study.Plan("smoke")
	require.NoError(t, err)
	require.NoError(t, sweep.SavePlan(twoScales, smoke))
	notADir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notADir, []byte("x"), 0o644))

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no --results", []string{"plot"}, 2, "--results DIR is required"},
		{"absent results", []string{"plot", "--results", filepath.Join(empty, "absent")}, 2, "does not exist"},
		{"results is a file", []string{"plot", "--results", notADir}, 2, "is not a directory"},
		{"two scales", []string{"plot", "--results", twoScales}, 2, "choose one"},
		{"absent scale", []string{"plot", "--results", twoScales, "--scale", "paper"}, 2, `no plans at scale "paper"`},
		{"bad stream steps", []string{"plot", "--results", empty, "--stream-steps", "0"}, 2, "--stream-steps must be at least 1"},
		{"stray argument", []string{"plot", "--results", empty, "extra"}, 2, `unexpected argument "extra"`},
		{"out is a file", []string{"plot", "--results", empty, "--out", notADir}, 1, "not a directory"},
		{"absent study file", []string{"plot", "--study", filepath.Join(empty, "none.yaml"), "--results", empty}, 2, "none.yaml"},
		{"study scale not in file", []string{"plot", "--study", "../../report/testdata/mystudy.yaml", "--results", empty, "--scale", "quick"},
			2, `defines no scale "quick" (it has long, test)`},
		{"study scale ambiguous", []string{"plot", "--study", "../../report/testdata/mystudy.yaml", "--results", empty},
			2, "defines the scales long, test: choose one with --scale"},
		{"study not swept", []string{"plot", "--study", "../../report/testdata/mystudy.yaml", "--results", empty, "--scale", "test",
			"--out", filepath.Join(empty, "figs")}, 1, "run: ccn sweep ../../report/testdata/mystudy.yaml --scale test --out " + empty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(tt.args...)
			assert.Equal(t, tt.code, code, stderr)
			assert.Contains(t, stderr, tt.stderr)
			if tt.code == 2 {
				assert.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "bad input is one line: %q", stderr)
			}
		})
	}
}

func TestPlotDrawsWhatItCan(t *testing.T) {
	results := t.TempDir()
	out := filepath.Join(t.TempDir(), "figs")
	code, stdout, stderr := runCLI("plot", "--results", results, "--out", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, filepath.Join(out, "stream.png"))
	assert.Contains(t, stdout, filepath.Join(out, "frames.png"), "the frames picture needs no results either")
	// Every figure but the two that need no results is skipped.
	skipped := len(report.Builders(nil, report.Options{})) - 2
	assert.Contains(t, stdout, fmt.Sprintf("2 figures drawn, %d skipped (scale none)", skipped))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	assert.Len(t, lines, skipped, "one line per skipped figure")
	for _, l := range lines {
		assert.True(t, strings.HasPrefix(l, "skipped "), l)
	}
	assert.Contains(t, stderr, "skipped learning-curves: missing study main-comparison not in "+results)
	for _, f := range []string{"stream.png", "stream.pdf", report.CaptionsFile} {
		fi, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err)
		assert.Greater(t, fi.Size(), int64(100), f)
	}
}
