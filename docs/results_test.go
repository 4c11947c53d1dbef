package docs

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/sweep"
)

// TestResultsGenerated checks that every generated block of results.md is
// the output of `ccn collect results/paper --markdown docs/results.md` over
// the committed results, so that no number in it is typed by hand or stale.
func TestResultsGenerated(t *testing.T) {
	page, err := os.ReadFile("results.md")
	require.NoError(t, err)
	res, err := sweep.Collect("../results/paper")
	require.NoError(t, err)
	for _, name := range []string{report.ClaimsBlock, report.AuthorsSetupBlock} {
		got, err := report.Generated(string(page), name)
		require.NoError(t, err, "results.md holds the %s block", name)
		var want strings.Builder
		require.NoError(t, report.Blocks[name](&want, res))
		if got != want.String() {
			t.Errorf("docs/results.md's generated %s block differs from the committed results; regenerate it:\n\tgo run ./cmd/ccn collect results/paper --markdown docs/results.md\n%s", name, firstDifference(got, want.String()))
		}
	}
}

// firstDifference names the first line where a and b differ.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(la), len(lb)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n\tpage:    %s\n\tresults: %s", i+1, x, y)
		}
	}
	return ""
}
