package experiments_test

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/td"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every method of the registry is built by NewLearner, at its default
// settings, with a layout that covers the engine's parameter vector.
func TestEveryMethodBuilds(t *testing.T) {
	for _, m := range arch.Methods() {
		t.Run(string(m), func(t *testing.T) {
			r, err := experiments.RunConfig{Method: m}.Resolve()
			require.NoError(t, err)
			var (
				l      arch.Engine
				layout td.Layout
			)
			require.NotPanics(t, func() { l, layout, _ = r.NewLearner(r.Inputs()) })
			assert.Equal(t, l.NumParams(), len(l.Params()))
			if _, staged := l.(td.Staged); !staged {
				assert.Equal(t, l.NumParams(), layout.Size, "the layout is the whole vector")
			}
			assert.LessOrEqual(t, layout.HeadEnd, layout.Size)
		})
	}
}
