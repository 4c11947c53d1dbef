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
	res, err := sweep.Collect("../results/paper")
	require.NoError(t, err)
	checkGenerated(t, "results.md", "results/paper", res, report.ClaimsBlock, report.AuthorsSetupBlock)
}

// checkGenerated checks that each named generated block of the page is what
// report.Blocks writes from res, the output of `ccn collect DIR --markdown
// docs/PAGE` over the committed results in DIR, or report.AtariPending while
// res is nil (no results committed yet).
func checkGenerated(t *testing.T, page, dir string, res *sweep.Results, names ...string) {
	t.Helper()
	text, err := os.ReadFile(page)
	require.NoError(t, err)
	for _, name := range names {
		got, err := report.Generated(string(text), name)
		require.NoError(t, err, "%s holds the %s block", page, name)
		var want strings.Builder
		if res == nil {
			want.WriteString(report.AtariPending)
		} else {
			require.NoError(t, report.Blocks[name](&want, res))
		}
		if got != want.String() {
			t.Errorf("docs/%s's generated %s block differs from the committed results; regenerate it:\n\tgo run ./cmd/ccn collect %s --markdown docs/%s\n%s", page, name, dir, page, firstDifference(got, want.String()))
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
