package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/internal/testtier"
)

// Events as `go test -json` writes them for a package with a passing test
// and a test skipped for a missing tool.
const skipRun = `{"Action":"start","Package":"example/cmd"}
{"Action":"run","Package":"example/cmd","Test":"TestOK"}
{"Action":"output","Package":"example/cmd","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"pass","Package":"example/cmd","Test":"TestOK","Elapsed":0}
{"Action":"run","Package":"example/cmd","Test":"TestParallel"}
{"Action":"output","Package":"example/cmd","Test":"TestParallel","Output":"=== RUN   TestParallel\n"}
{"Action":"output","Package":"example/cmd","Test":"TestParallel","Output":"    sweep_test.go:272: GNU parallel is not installed\n"}
{"Action":"output","Package":"example/cmd","Test":"TestParallel","Output":"--- SKIP: TestParallel (0.00s)\n"}
{"Action":"skip","Package":"example/cmd","Test":"TestParallel","Elapsed":0}
{"Action":"output","Package":"example/cmd","Output":"ok  \texample/cmd\t0.012s\n"}
{"Action":"pass","Package":"example/cmd","Elapsed":0.012}
`

func TestReportShowsSkips(t *testing.T) {
	var b bytes.Buffer
	assert.Equal(t, 0, report(strings.NewReader(skipRun), &b))
	assert.Equal(t, "ok  \texample/cmd\t0.012s\nSKIPPED 1 tests, with their reasons (one skipped for a missing tool leaves its path untested):\n"+
		"  example/cmd TestParallel: GNU parallel is not installed\n", b.String())
}

func TestReportFails(t *testing.T) {
	fail := strings.Replace(skipRun, `"Action":"pass","Package":"example/cmd","Test":"TestOK"`, `"Action":"fail","Package":"example/cmd","Test":"TestOK"`, 1)
	var b bytes.Buffer
	assert.Equal(t, 1, report(strings.NewReader(fail), &b))
	assert.Contains(t, b.String(), "=== RUN   TestOK", "a failing test's output is shown")
	assert.Equal(t, 1, report(strings.NewReader("# example/cmd\nsyntax error\n"), &b), "build errors fail")
	assert.Equal(t, 1, report(strings.NewReader(""), &b), "no events is a failure")
}

// Tests skipped for their tier are counted, not listed.
func TestReportCountsFullTier(t *testing.T) {
	tier := strings.Replace(strings.Replace(skipRun, "GNU parallel is not installed", testtier.SkipReason+": minutes", 1),
		`"Test":"TestOK","Elapsed":0}`, `"Test":"TestOK","Elapsed":0}
{"Action":"output","Package":"example/cmd","Test":"TestSlow","Output":"    x_test.go:9: `+testtier.SkipReason+`: sweeps\n"}
{"Action":"skip","Package":"example/cmd","Test":"TestSlow","Elapsed":0}`, 1)
	var b bytes.Buffer
	assert.Equal(t, 0, report(strings.NewReader(tier), &b))
	assert.Equal(t, "ok  \texample/cmd\t0.012s\n2 tests left to the full tier (make test-full runs them)\n", b.String())
}
