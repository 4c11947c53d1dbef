package testtier

import (
	"strings"
	"testing"
)

// Full skips exactly in the short tier, with a message that starts with
// SkipReason.
func TestFull(t *testing.T) {
	var skipped bool
	t.Run("marked", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Full(t, "a reason")
	})
	if skipped != testing.Short() {
		t.Errorf("skipped %v with -short %v", skipped, testing.Short())
	}
	if !strings.HasPrefix(SkipReason, "full tier") {
		t.Errorf("SkipReason %q", SkipReason)
	}
}
