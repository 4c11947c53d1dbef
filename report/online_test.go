package report_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
)

// The online-gradients figure draws the study's five groups, each labelled
// with the implementation's operations per step (ccn budget's counts: CCN 16
// in stages of 4 6,632, Columnar 10 6,500, T-BPTT 15:4 11,585, SnAp-1 H=6
// 6,079, UORO H=7 6,862, the dense ones with b_out), and is missing data
// until the study ran.
func TestOnlineGradients(t *testing.T) {
	dir := t.TempDir()
	r, err := report.Open(dir, "")
	require.NoError(t, err)
	_, err = report.OnlineGradients(r)
	var me *plots.MissingError
	require.True(t, errors.As(err, &me), "got %v", err)
	assert.Contains(t, me.What, "study online-gradients not in")

	require.NoError(t, reporttest.WriteStudy(dir, configs, report.StudyOnline, reporttest.Tiny(), reporttest.Complete))
	r, err = report.Open(dir, reporttest.Scale)
	require.NoError(t, err)
	fig, err := report.OnlineGradients(r)
	require.NoError(t, err)
	assert.Equal(t, report.NameOnlineGradients, fig.Name)
	for _, label := range []string{"CCN (6,632 ops)", "Columnar (6,500 ops)", "T-BPTT k=15, H=4 (11,585 ops)",
		"SnAp-1 H=6 (6,079 ops)", "UORO H=7 (6,862 ops)"} {
		assert.Contains(t, fig.Caption, label)
	}
}
