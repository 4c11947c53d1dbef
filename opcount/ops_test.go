package opcount

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
)

func TestFormulas(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want int
	}{
		// (15+1)·(4·16 + 4·4·12 + 4·4) = 16·272
		{Config{Method: arch.MethodTBPTT, Features: 4, Inputs: 12, Truncation: 15}, 4352},
		// 2·(4 + 0 + 4)
		{Config{Method: arch.MethodTBPTT, Features: 1, Inputs: 0, Truncation: 1}, 16},
		// 3·(4·169 + 4·13·12 + 4·13) = 3·1352
		{Config{Method: arch.MethodTBPTT, Features: 13, Inputs: 12, Truncation: 2}, 4056},
		// 10·56 + 6·10·56
		{Config{Method: arch.MethodColumnar, Features: 10, Inputs: 12}, 3920},
		// 7·(28 + 8)
		{Config{Method: arch.MethodColumnar, Features: 1, Inputs: 7}, 252},
		// 16·(32 + 48 + 4) + 6·4·84
		{Config{Method: arch.MethodCCN, Features: 16, Inputs: 12, PerStage: 4}, 3360},
		// no features yet: 6·4·52
		{Config{Method: arch.MethodCCN, Features: 0, Inputs: 12, PerStage: 4}, 1248},
		// 5·62 + 6·62
		{Config{Method: arch.MethodConstructive, Features: 5, Inputs: 12}, 682},
		// 29·110 + 6·110
		{Config{Method: arch.MethodConstructive, Features: 29, Inputs: 12}, 3850},
	} {
		t.Run(tc.cfg.String(), func(t *testing.T) {
			assert.Equal(t, tc.want, tc.cfg.Ops())
		})
	}
	assert.Equal(t, CCN(7, 3, 1), Constructive(7, 3))
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"negative hidden":    func() { TBPTT(-1, 12, 1) },
		"negative inputs":    func() { Columnar(1, -2) },
		"zero truncation":    func() { TBPTT(4, 12, 0) },
		"zero per stage":     func() { CCN(4, 12, 0) },
		"unknown method":     func() { Config{Method: "lstm"}.Ops() },
		"negative budget":    func() { LargestColumnar(-1, 12) },
		"negative ccn count": func() { CCN(-4, 12, 4) },
	} {
		t.Run(name, func(t *testing.T) {
			msg := panicMessage(f)
			assert.True(t, strings.HasPrefix(msg, "opcount: "), "panic %q", msg)
		})
	}
}

func panicMessage(f func()) (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	f()
	return ""
}

func TestConfigString(t *testing.T) {
	assert.Equal(t, "tbptt hidden=4 truncation=15", Config{Method: arch.MethodTBPTT, Truncation: 15, Features: 4}.String())
	assert.Equal(t, "ccn features=16 features-per-stage=4", Config{Method: arch.MethodCCN, Features: 16, PerStage: 4}.String())
	assert.Equal(t, "columnar features=10", Config{Method: arch.MethodColumnar, Features: 10}.String())
}
