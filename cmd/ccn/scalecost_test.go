package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/internal/testtier"
)

// skipWithoutScaleCostTools skips t where scripts/scale-cost.sh cannot run.
func skipWithoutScaleCostTools(t *testing.T) {
	for _, tool := range []string{"jq", "/usr/bin/time"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

// TestScaleCost runs scripts/scale-cost.sh on the tiny study and on a second
// study that shares its columnar runs: the tuned groups' configurations stand
// for their share of the final runs, untuned groups list their final runs,
// shared runs are counted in the first study only, and the total is the sum
// of the studies.
func TestScaleCost(t *testing.T) {
	testtier.Full(t, "times every configuration of two tiny studies")
	skipWithoutScaleCostTools(t)
	bin := ccnBinary(t)
	cmd := exec.Command("sh", "../../scripts/scale-cost.sh", "test", tinyStudy, "testdata/tiny-shared.yaml")
	cmd.Env = append(os.Environ(), "CCN="+bin)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	var studies []string
	lines := map[string][]string{} // study -> its configuration lines
	var current []string
	sum, total := 0, -1
	studyLine := regexp.MustCompile(`^([a-z-]+): (\d+) CPU-s$`)
	totalLine := regexp.MustCompile(`^total at scale test: (\d+) CPU-s`)
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if m := studyLine.FindStringSubmatch(l); m != nil {
			studies = append(studies, m[1])
			lines[m[1]] = current
			current = nil
			n, _ := strconv.Atoi(m[2])
			sum += n
			continue
		}
		if m := totalLine.FindStringSubmatch(l); m != nil {
			total, _ = strconv.Atoi(m[1])
			continue
		}
		current = append(current, l)
	}
	require.Equal(t, []string{"tiny", "tiny-shared"}, studies, "%s", out)
	assert.Equal(t, sum, total, "the total is the sum of the studies")

	// tiny: two tuned groups of two candidates (2 sweep seeds each, and half of
	// the 3 final seeds each), one untuned group (3 final runs).
	want := map[string]string{"ccn": "2 runs + 1.5 finals", "tbptt": "2 runs + 1.5 finals", "columnar": "3 runs"}
	counts := map[string]int{}
	for _, l := range lines["tiny"] {
		m := regexp.MustCompile(`--method (\w+)`).FindStringSubmatch(l)
		require.NotNil(t, m, l)
		counts[m[1]]++
		assert.Contains(t, l, want[m[1]]+" ", l)
	}
	assert.Equal(t, map[string]int{"ccn": 2, "tbptt": 2, "columnar": 1}, counts)

	// tiny-shared: columnar's runs were counted by tiny.
	require.Len(t, lines["tiny-shared"], 1, "%s", out)
	assert.Contains(t, lines["tiny-shared"][0], "--method constructive")
	assert.Contains(t, lines["tiny-shared"][0], "3 runs ")
}

// TestScaleCostFailingRun: a run that fails stops the estimate with one line
// naming it and its error, instead of counting it as 0 CPU-s.
func TestScaleCostFailingRun(t *testing.T) {
	testtier.Full(t, "plans a tiny study")
	skipWithoutScaleCostTools(t)
	bin := ccnBinary(t)
	// A ccn whose runs fail and whose other commands are the real ones.
	failing := t.TempDir() + "/ccn"
	script := "#!/bin/sh\nif [ \"$1\" = run ]; then echo 'ccn: injected failure' >&2; exit 1; fi\nexec " + bin + " \"$@\"\n"
	require.NoError(t, os.WriteFile(failing, []byte(script), 0o755))
	cmd := exec.Command("sh", "../../scripts/scale-cost.sh", "test", tinyStudy)
	cmd.Env = append(os.Environ(), "CCN="+failing)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.Error(t, err, "stdout: %s", stdout.String())
	msg := strings.TrimSpace(stderr.String())
	assert.NotContains(t, msg, "\n", "one line")
	assert.Contains(t, msg, "scale-cost: this run failed (ccn: injected failure): ")
	assert.Contains(t, msg, " run --")
	assert.NotContains(t, stdout.String(), "total at scale", "no estimate is printed")
}
