package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClaimVerdicts: the verdict of a row follows the rank test's p and
// direction, and the relation the paper claims.
func TestClaimVerdicts(t *testing.T) {
	low := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	high := []float64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	mixed := []float64{1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5}
	ga, gb := &groupSample{name: "s/a"}, &groupSample{name: "s/b"}
	for _, tt := range []struct {
		name   string
		rel    relation
		sd     bool
		a, b   []float64
		suffix string
	}{
		{"lower holds", lower, false, low, high, "| **holds** |\n"},
		{"lower reversed", lower, false, high, low, "| **fails**: A is higher |\n"},
		{"lower not shown", lower, false, low, mixed, "| not shown (p ≥ 0.05) |\n"},
		{"matches holds", matches, false, low, mixed, "| **holds** (no difference found) |\n"},
		{"matches fails", matches, false, low, high, "| **fails**: A is lower |\n"},
		{"sd holds", lower, true, mixed, []float64{-50, 60, -40, 70, 0, 5, 100, -100, 30, 20}, "| **holds** |\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			row := claimRow(claim{ID: "x", Paper: "p", Rel: tt.rel, SD: tt.sd}, ga, gb, tt.a, tt.b)
			assert.True(t, strings.HasSuffix(row, tt.suffix), row)
			assert.True(t, strings.HasPrefix(row, "| x | p | s/a | s/b | "), row)
		})
	}
	// The separated samples: medians 5.5 and 15.5, difference +10.
	row := claimRow(claim{ID: "x", Paper: "p"}, ga, gb, low, high)
	assert.Contains(t, row, "| 5.5 (10) | 15.5 (10) | +10 [")
}

func TestGeneratedBlock(t *testing.T) {
	page := "intro\n<!-- generated:claims:start -->\nold\n<!-- generated:claims:end -->\noutro\n"
	got, err := Generated(page, ClaimsBlock)
	require.NoError(t, err)
	assert.Equal(t, "old\n", got)
	out, err := ReplaceGenerated(page, ClaimsBlock, "new\n")
	require.NoError(t, err)
	assert.Equal(t, "intro\n<!-- generated:claims:start -->\nnew\n<!-- generated:claims:end -->\noutro\n", out)
	got, _ = Generated(out, ClaimsBlock)
	assert.Equal(t, "new\n", got)
	for _, bad := range []string{"no markers", "<!-- generated:claims:end --> <!-- generated:claims:start -->"} {
		_, err = ReplaceGenerated(bad, ClaimsBlock, "x")
		assert.True(t, errors.Is(err, ErrNoMarkers), "%q", bad)
		_, err = Generated(bad, ClaimsBlock)
		assert.True(t, errors.Is(err, ErrNoMarkers), "%q", bad)
	}
}
