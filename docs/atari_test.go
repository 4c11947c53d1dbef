package docs

import (
	"os"
	"path/filepath"
	"strings"
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
	page, err := os.ReadFile("atari.md")
	require.NoError(t, err)
	const dir = "../results/medium"
	plans, _ := filepath.Glob(filepath.Join(dir, sweep.PlansDir, "*-"+report.AtariClaimsScale+".json"))
	var res *sweep.Results
	if len(plans) > 0 {
		res, err = sweep.Collect(dir)
		require.NoError(t, err)
	}
	for _, name := range []string{report.AtariClaimsBlock, report.AtariSensitivityBlock} {
		got, err := report.Generated(string(page), name)
		require.NoError(t, err, "atari.md holds the %s block", name)
		var want strings.Builder
		if res == nil {
			want.WriteString(report.AtariPending)
		} else {
			require.NoError(t, report.Blocks[name](&want, res))
		}
		if got != want.String() {
			t.Errorf("docs/atari.md's generated %s block differs from the committed results (%d medium plans); regenerate it:\n\tgo run ./cmd/ccn collect results/medium --markdown docs/atari.md\n%s", name, len(plans), firstDifference(got, want.String()))
		}
	}
}
