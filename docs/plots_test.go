package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/sweep"
)

// TestMakePlotsScales runs make plots with a stand-in for bin/ccn that only
// records its arguments: at each scale it sweeps exactly the experiment
// files that define it (by package sweep's reading of the files), says which
// it skips, skips the truncation study at medium, and draws; a scale no file
// has is an error.
func TestMakePlotsScales(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	files, err := filepath.Glob("../experiments/configs/*.yaml")
	require.NoError(t, err)
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	for _, scale := range []string{"smoke", "medium", "nonesuch"} {
		t.Run(scale, func(t *testing.T) {
			tmp := t.TempDir()
			log := filepath.Join(tmp, "calls")
			fake := filepath.Join(tmp, "ccn")
			require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >>"+log+"\n"), 0o755))
			bin, err := filepath.Rel(repo, fake)
			require.NoError(t, err)
			cmd := exec.Command("make", "-s", "-o", "build", "plots", "SCALE="+scale, "BIN="+bin,
				"RESULTS="+filepath.Join(tmp, "results"), "FIGURES="+filepath.Join(tmp, "figures"), "JOBS=1")
			cmd.Dir = repo
			out, err := cmd.CombinedOutput()
			calls, _ := os.ReadFile(log)
			var swept, want []string
			for _, line := range strings.Split(string(calls), "\n") {
				if f, ok := strings.CutPrefix(line, "sweep "); ok {
					swept = append(swept, filepath.Base(strings.Fields(f)[0]))
				}
			}
			for _, f := range files {
				s, err := sweep.Load(f)
				require.NoError(t, err)
				if _, ok := s.Scales[scale]; ok {
					want = append(want, filepath.Base(f))
				} else {
					assert.Contains(t, string(out), "skipped experiments/configs/"+filepath.Base(f)+": it has no scale "+scale)
				}
			}
			assert.Equal(t, want, swept, "files swept at scale %s", scale)
			if scale == "nonesuch" {
				require.Error(t, err, "%s", out)
				assert.Contains(t, string(out), "no file of experiments/configs has the scale nonesuch")
				return
			}
			require.NoError(t, err, "%s", out)
			assert.Equal(t, scale == "medium", strings.Contains(string(out), "truncation study: skipped at scale medium"), "%s", out)
			assert.Equal(t, scale != "medium", slices.ContainsFunc(strings.Split(string(calls), "\n"), func(l string) bool { return strings.HasPrefix(l, "truncation ") }))
			assert.Contains(t, string(calls), "plot --results "+filepath.Join(tmp, "results")+" --scale "+scale)
		})
	}
}
