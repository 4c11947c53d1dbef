// Package testtier sorts the repository's tests into two tiers. The short
// tier (go test -short, make test) checks every engine against the reference
// and every package's behaviour in minutes; the full tier (make test-full,
// run by CI) adds the tests that repeat a check at a larger size or run the
// command-line tool end to end for tens of seconds. docs/testing-tiers.md
// lists which tests are in the full tier only and why.
package testtier

import "testing"

// SkipReason starts the message of every test skipped for its tier, so that
// internal/testreport can count them apart from tests skipped for a missing
// tool.
const SkipReason = "full tier (make test-full)"

// Full skips t in the short tier, saying why it is left to the full one.
func Full(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip(SkipReason + ": " + why)
	}
}
