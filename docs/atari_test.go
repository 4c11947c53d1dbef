package docs

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/sweep"
)

// TestAtariGenerated checks that the generated blocks of atari.md are the
// output of `ccn collect results/medium --markdown docs/atari.md` over the
// committed medium-scale results, and, while none are committed, that they
// say so (report.AtariPending) rather than show numbers.
func TestAtariGenerated(t *testing.T) {
	const dir = "../results/medium"
	plans, _ := filepath.Glob(filepath.Join(dir, sweep.PlansDir, "*-"+report.AtariClaimsScale+".json"))
	var res *sweep.Results
	if len(plans) > 0 {
		var err error
		res, err = sweep.Collect(dir)
		require.NoError(t, err)
	}
	checkGenerated(t, "atari.md", "results/medium", res, report.AtariClaimsBlock, report.AtariSensitivityBlock)
}
