package forward

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// The paper's Atari configurations (§5, Table 3) at its 275 inputs, each in
// its last stage of a 30M-step run: CCN 5 features per stage, 10M steps per
// stage (3 stages); Columnar 6; Constructive 3M steps per stage (10 stages).
var atariNetworks = []struct {
	name string
	top  arch.Network
}{
	{"CCN15_u5", arch.CCN(275, 5, 2, arch.Normalization{Enabled: true})},
	{"Columnar6", arch.Columnar(275, 6, arch.Normalization{Enabled: true})},
	{"Constructive10", arch.CCN(275, 1, 9, arch.Normalization{Enabled: true})},
}

// BenchmarkAtari measures Step + Grad at m = 275: one column and the
// paper's Atari networks.
func BenchmarkAtari(b *testing.B) {
	b.Run("column", func(b *testing.B) { benchStepGrad(b, NewColumn(275), 275) })
	for _, bn := range atariNetworks {
		b.Run(bn.name, func(b *testing.B) { benchNetwork(b, bn.top) })
	}
}
