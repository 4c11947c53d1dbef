package arch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNetworkLayout(t *testing.T) {
	tests := []struct {
		name                          string
		net                           Network
		features, frozen, learnable   int
		learningInputs, headBiasIndex int
	}{
		// Columnar 3 on 12 inputs: 3 learning columns of 4·12+8 = 56, head 3, bias 1.
		{"columnar", Columnar(12, 3, Normalization{}), 3, 0, 3*56 + 3 + 1, 12, 3*56 + 3},
		// CCN u=2 at stage 1: frozen 2 columns on 12 inputs (56 each); learning 2 on 14 (64 each).
		{"ccn", CCN(12, 2, 1, Normalization{}), 4, 2 * 56, 2*64 + 4 + 1, 14, 2*64 + 4},
		// Constructive at stage 2: frozen 56 (m=12) + 60 (m=13); learning 1 on 14.
		{"constructive", CCN(12, 1, 2, Normalization{}), 3, 56 + 60, 64 + 3 + 1, 14, 64 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.net.Validate()
			assert.Equal(t, tt.features, tt.net.Features())
			assert.Equal(t, tt.frozen, tt.net.NumFrozen())
			assert.Equal(t, tt.learnable, tt.net.NumLearnable())
			assert.Equal(t, tt.learningInputs, tt.net.LearningColumnInputs())
			assert.Equal(t, tt.headBiasIndex, tt.net.OffHeadBias())
		})
	}
}

func TestDenseLayout(t *testing.T) {
	d := Dense{Hidden: 2, Inputs: 3}
	assert.Equal(t, 4*2*3+4*2*2+4*2+2, d.NumParams())
	// Every index is hit exactly once by the Idx helpers.
	seen := make([]int, d.NumParams())
	for q := 0; q < NumGates; q++ {
		for j := 0; j < d.Hidden; j++ {
			for k := 0; k < d.Inputs; k++ {
				seen[d.IdxWIH(q, j, k)]++
			}
			for k := 0; k < d.Hidden; k++ {
				seen[d.IdxWHH(q, j, k)]++
			}
			seen[d.IdxB(q, j)]++
		}
	}
	for j := 0; j < d.Hidden; j++ {
		seen[d.IdxOut(j)]++
	}
	for i, c := range seen {
		assert.Equal(t, 1, c, "index %d", i)
	}
	// A column's block layout agrees with Dense{1, m}.
	c := Dense{Hidden: 1, Inputs: 5}
	for q := 0; q < NumGates; q++ {
		assert.Equal(t, c.IdxWIH(q, 0, 3), ColIdxW(5, q, 3))
		assert.Equal(t, c.IdxWHH(q, 0, 0), ColIdxU(5, q))
		assert.Equal(t, c.IdxB(q, 0), ColIdxB(5, q))
	}
	assert.Equal(t, ColumnParams(5), c.NumCellParams())
}

func TestDenseOutBiasLayout(t *testing.T) {
	plain := Dense{Hidden: 2, Inputs: 3}
	d := Dense{Hidden: 2, Inputs: 3, OutBias: true}
	assert.Equal(t, plain.NumParams()+1, d.NumParams())
	assert.Equal(t, plain.NumCellParams(), d.NumCellParams())
	assert.Equal(t, d.NumParams()-1, d.IdxOutBias(), "b_out is the last entry")
	p := make([]float64, d.NumParams())
	for i := range p {
		p[i] = float64(i)
	}
	_, _, _, wout := d.Split(p)
	assert.Equal(t, []float64{p[d.IdxOut(0)], p[d.IdxOut(1)]}, wout, "w_out excludes b_out")
	assert.Equal(t, p[d.IdxOutBias()], d.OutBiasOf(p))
	assert.Zero(t, plain.OutBiasOf(make([]float64, plain.NumParams())))
	assert.PanicsWithValue(t, "arch: dense shape has no output bias", func() { plain.IdxOutBias() })
}

func TestValidatePanics(t *testing.T) {
	assert.PanicsWithValue(t, "arch: network needs at least one stage", func() { Network{Inputs: 3}.Validate() })
	assert.Panics(t, func() { Dense{Hidden: 0, Inputs: 3}.Validate() })
}

func TestRemap(t *testing.T) {
	prev := Network{Inputs: 12, Stages: []int{4}}
	next := prev.WithStage(4)
	from := prev.Remap(next)
	require.Len(t, from, next.NumLearnable())
	for i := range next.OffHead() {
		assert.Equal(t, -1, from[i], "new learning column entry %d", i)
	}
	for k := range 4 {
		assert.Equal(t, prev.OffHead()+k, from[next.OffHead()+k], "old feature %d keeps its head weight", k)
	}
	for k := 4; k < 8; k++ {
		assert.Equal(t, -1, from[next.OffHead()+k], "new feature %d", k)
	}
	assert.Equal(t, prev.OffHeadBias(), from[next.OffHeadBias()])
	for i, j := range next.Remap(next) {
		assert.Equal(t, i, j)
	}
}

func TestBlock(t *testing.T) {
	n := Network{Inputs: 3, Stages: []int{2, 1}}
	frozen := make([]float64, n.NumFrozen())
	learn := make([]float64, n.NumLearnable())
	for i := range frozen {
		frozen[i] = float64(i)
	}
	for i := range learn {
		learn[i] = float64(-i)
	}
	// Stage 0 columns read 3 inputs (20 parameters each); stage 1 reads 5 (28).
	b := n.Block(frozen, learn, 0, 1)
	require.Len(t, b, ColumnParams(3))
	assert.Equal(t, 20.0, b[0])
	assert.Equal(t, 20, cap(b), "a block cannot grow into its neighbour")
	b = n.Block(frozen, learn, 1, 0)
	require.Len(t, b, ColumnParams(5))
	assert.Equal(t, 0.0, b[0])
	assert.Equal(t, -27.0, b[27])
	b[0] = 7
	assert.Equal(t, 7.0, learn[0], "a view, not a copy")
}
