package opcount_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/opcount"
)

// The count the registry holds for every method that is not a network of
// stages is the count of the engine experiments builds for a run of it (a
// network's engine starts in its first stage; its count is that of the
// last, TestImplementationOutBias and ccn budget's tests check it).
func TestCountIsTheEnginesCount(t *testing.T) {
	for _, m := range arch.Methods() {
		if m.Networked() {
			continue
		}
		t.Run(string(m), func(t *testing.T) {
			r, err := experiments.RunConfig{Method: m}.Resolve()
			require.NoError(t, err)
			inputs := r.Inputs()
			l, _, _ := r.NewLearner(inputs)
			e, ok := l.(interface{ OpsPerStep() int })
			require.True(t, ok, "the engine of %s counts its operations", m)
			s := r.Spec(inputs)
			n, ok := opcount.Implementation(m, s)
			require.True(t, ok)
			assert.Equal(t, e.OpsPerStep(), n)
		})
	}
}
