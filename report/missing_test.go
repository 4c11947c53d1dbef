package report

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/sweep"
)

// TestMissingStudyHint: a study absent from the results is reported with a
// command that works at the results' scale, or, when its experiment file does
// not define that scale, with the scales it does define.
func TestMissingStudyHint(t *testing.T) {
	t.Chdir("..") // the repository's root, where experiments/configs is at hand
	for _, tc := range []struct {
		study, scale, want string
	}{
		{"main-comparison", "medium", "study main-comparison has no scale medium (experiments/configs/main-comparison.yaml defines "},
		{"auto-freezing-atari", "smoke", "study auto-freezing-atari has no scale smoke (experiments/configs/auto-freezing-atari.yaml defines medium)"},
		{"main-comparison", "quick", "study main-comparison not in R (run: ccn sweep experiments/configs/main-comparison.yaml --scale quick --out R)"},
		{"atari-main-comparison", "medium", "study atari-main-comparison not in R (run: ccn sweep experiments/configs/atari-main-comparison.yaml --scale medium --out R)"},
	} {
		r := &Results{Dir: "R", Scale: tc.scale, selected: map[string]sweep.Selected{}}
		_, err := r.plan("fig", tc.study)
		var m *plots.MissingError
		require.True(t, errors.As(err, &m), "%s at %s: %v", tc.study, tc.scale, err)
		assert.Contains(t, m.What, tc.want, "%s at %s", tc.study, tc.scale)
	}
}
