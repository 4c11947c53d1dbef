package testtier

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records a skip instead of skipping.
type recorder struct {
	testing.TB
	skipped string
}

func (r *recorder) Helper()          {}
func (r *recorder) Skip(args ...any) { r.skipped = fmt.Sprint(args...) }

// Full skips exactly in the short tier, with a message that starts with
// SkipReason and gives the reason.
func TestFull(t *testing.T) {
	r := &recorder{TB: t}
	Full(r, "a reason")
	if (r.skipped != "") != testing.Short() {
		t.Errorf("skipped %q with -short %v", r.skipped, testing.Short())
	}
	if testing.Short() && (!strings.HasPrefix(r.skipped, SkipReason) || !strings.HasSuffix(r.skipped, ": a reason")) {
		t.Errorf("skip message %q", r.skipped)
	}
}
