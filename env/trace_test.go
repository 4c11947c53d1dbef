package env

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// record runs e for n steps and returns the observations, cumulants and returns.
func record(e Env, n int) (obs [][]float64, c, g []float64) {
	obs = make([][]float64, n)
	c = make([]float64, n)
	g = make([]float64, n)
	for t := range n {
		obs[t] = make([]float64, e.ObservationSize())
		c[t], g[t] = e.Next(obs[t])
	}
	return obs, c, g
}

func TestTracePatterningReturnsAreExact(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   TraceConfig
		steps int
	}{
		{"paper", TraceConfig{}, 200_000},
		{"short intervals, gamma 0.99", TraceConfig{ISIMin: 1, ISIMax: 3, ITIMin: 1, ITIMax: 5, Gamma: 0.99}, 60_000},
		{"fixed intervals, gamma 0.5", TraceConfig{ISIMin: 4, ISIMax: 4, ITIMin: 7, ITIMax: 7, Distractors: 1, Gamma: 0.5}, 20_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewTracePatterning(tc.cfg, 3)
			gamma := e.Gamma()
			_, c, g := record(e, tc.steps)

			// Backward recursion from the end of the recorded stream; the
			// unrecorded tail has weight below γ^tail, negligible once we
			// stay tail steps away from the end.
			tail := int(math.Ceil(math.Log(1e-20) / math.Log(gamma)))
			require.Less(t, tail, tc.steps/2)
			want := make([]float64, tc.steps)
			for i := tc.steps - 2; i >= 0; i-- {
				want[i] = c[i+1] + gamma*want[i+1]
			}
			checked := 0
			for i := range tc.steps - tail {
				require.InDelta(t, want[i], g[i], 1e-12*math.Max(1, want[i]), "step %d", i)
				// Relative exactness holds when a US lies within the horizon,
				// which is so whenever G_t exceeds 2⁻⁶⁰.
				if want[i] > 0x1p-60 {
					require.InEpsilon(t, want[i], g[i], 1e-12, "step %d", i)
				}
				checked++
			}
			assert.Positive(t, checked)

			// Direct sum Σ_{j>t} γ^(j−t−1)·c_j at random steps.
			rng := rand.New(rand.NewPCG(1, 2))
			for range 50 {
				i := rng.IntN(tc.steps - tail)
				s := 0.0
				for j := i + 1; j < tc.steps; j++ {
					s += math.Pow(gamma, float64(j-i-1)) * c[j]
				}
				assert.InDelta(t, s, g[i], 1e-12*math.Max(1, s), "step %d", i)
			}
		})
	}
}

func TestTracePatterningStatistics(t *testing.T) {
	const steps = 1_000_000
	e := NewTracePatterning(TraceConfig{}, 11)
	require.Equal(t, 12, e.ObservationSize())
	x := make([]float64, e.ObservationSize())

	var (
		lastCS, lastUS    int64 = -1, -1
		lastMask          int   = -1
		firstCS           int64 = -1
		rewarded                = map[int]bool{}
		isi, iti, gap           = map[int64]int{}, map[int64]int{}, map[int64]int{}
		distractorOn            = make([]int, 5)
		csSteps, usSteps  int
		trialsWithTwoUS   int
		csBitsOnAtCSSteps = map[int]int{}
	)
	closeTrial := func(next int64) {
		if lastCS < 0 {
			return
		}
		got := lastUS > lastCS
		if prev, seen := rewarded[lastMask]; seen {
			require.Equal(t, prev, got, "pattern %06b rewarded inconsistently", lastMask)
		}
		rewarded[lastMask] = got
		if got {
			isi[lastUS-lastCS]++
			iti[next-lastUS]++
		}
		gap[next-lastCS]++
	}
	for step := range int64(steps) {
		c, _ := e.Next(x)
		require.Equal(t, x[USIndex], c, "cumulant is the US")
		mask, on := 0, 0
		for i := range CSSize {
			require.True(t, x[i] == 0 || x[i] == 1)
			if x[i] == 1 {
				mask |= 1 << i
				on++
			}
		}
		if on > 0 {
			csBitsOnAtCSSteps[on]++
			require.Zero(t, c, "US and CS never share a step")
			if firstCS < 0 {
				firstCS = step
			}
			closeTrial(step)
			lastCS, lastMask = step, mask
			csSteps++
		}
		if c == 1 {
			require.GreaterOrEqual(t, lastCS, int64(0), "no US before the first CS")
			if lastUS > lastCS {
				trialsWithTwoUS++
			}
			lastUS = step
			usSteps++
		}
		for k := range distractorOn {
			if x[DistractorStart+k] == 1 {
				distractorOn[k]++
			}
		}
	}

	assert.Equal(t, map[int]int{3: csSteps}, csBitsOnAtCSSteps, "exactly 3 CS bits at every CS step")
	assert.Zero(t, trialsWithTwoUS)
	assert.GreaterOrEqual(t, firstCS, int64(80), "stream starts with an ITI")
	assert.LessOrEqual(t, firstCS, int64(120))

	assert.Len(t, rewarded, NumPatterns)
	n := 0
	for _, r := range rewarded {
		if r {
			n++
		}
	}
	assert.Equal(t, NumRewarded, n)

	checkRange := func(name string, h map[int64]int, lo, hi int64) {
		for v := range h {
			assert.True(t, v >= lo && v <= hi, "%s %d outside [%d, %d]", name, v, lo, hi)
		}
		assert.Positive(t, h[lo], "%s never hits its minimum", name)
		assert.Positive(t, h[hi], "%s never hits its maximum", name)
	}
	checkRange("ISI", isi, 24, 36)
	checkRange("ITI", iti, 80, 120)
	checkRange("ISI+ITI", gap, 104, 156)

	// Half the trials are rewarded: US count ≈ CS count / 2 (binomial, 5σ).
	assert.InDelta(t, 0.5, float64(usSteps)/float64(csSteps), 5*0.5/math.Sqrt(float64(csSteps)))
	// Mean trial length is 30 + 100 steps.
	assert.InDelta(t, 130, float64(steps)/float64(csSteps), 2)

	for k, on := range distractorOn {
		p := 1 / (10 * float64(k+1))
		sd := math.Sqrt(p * (1 - p) / steps)
		assert.InDelta(t, p, float64(on)/steps, 5*sd, "distractor %d", k+1)
	}
}

func TestTracePatterningDeterminism(t *testing.T) {
	const n = 5000
	o1, c1, g1 := record(NewTracePatterning(TraceConfig{}, 42), n)
	o2, c2, g2 := record(NewTracePatterning(TraceConfig{}, 42), n)
	assert.Equal(t, o1, o2)
	assert.Equal(t, c1, c2)
	assert.Equal(t, g1, g2)

	o3, _, _ := record(NewTracePatterning(TraceConfig{}, 43), n)
	assert.NotEqual(t, o1, o3)

	// Different seeds choose different rewarded sets (for these seeds).
	a, b := NewTracePatterning(TraceConfig{}, 42), NewTracePatterning(TraceConfig{}, 43)
	assert.NotEqual(t, a.rewarded, b.rewarded)
}

func TestTracePatterningNoAllocs(t *testing.T) {
	for _, cfg := range []TraceConfig{{}, {ISIMin: 1, ISIMax: 2, ITIMin: 1, ITIMax: 2, Gamma: 0.995}} {
		e := NewTracePatterning(cfg, 1)
		x := make([]float64, e.ObservationSize())
		allocs := testing.AllocsPerRun(20_000, func() { e.Next(x) })
		assert.Zero(t, allocs)
	}
}

func TestTracePatterningPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  TraceConfig
	}{
		{"ISI min above max", TraceConfig{ISIMin: 10, ISIMax: 5}},
		{"ISI min above default max", TraceConfig{ISIMin: 37}},
		{"ITI min above max", TraceConfig{ITIMin: 130}},
		{"negative ISI", TraceConfig{ISIMin: -1}},
		{"negative ITI max", TraceConfig{ITIMax: -3}},
		{"negative distractors", TraceConfig{Distractors: -1}},
		{"gamma one", TraceConfig{Gamma: 1}},
		{"gamma negative", TraceConfig{Gamma: -0.5}},
		{"gamma NaN", TraceConfig{Gamma: math.NaN()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Error(t, tc.cfg.Validate())
			msg := panicMessage(func() { NewTracePatterning(tc.cfg, 1) })
			assert.True(t, strings.HasPrefix(msg, "env: "), "panic %q", msg)
		})
	}
	assert.NoError(t, TraceConfig{ISIMin: 36, ITIMax: 80}.Validate())

	e := NewTracePatterning(TraceConfig{}, 1)
	msg := panicMessage(func() { e.Next(make([]float64, 7)) })
	assert.True(t, strings.HasPrefix(msg, "env: "), "panic %q", msg)
}

func panicMessage(f func()) (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	f()
	return ""
}

func TestTracePatterningConfig(t *testing.T) {
	e := NewTracePatterning(TraceConfig{Distractors: 2, Gamma: 0.8}, 1)
	assert.Equal(t, TraceConfig{ISIMin: 24, ISIMax: 36, ITIMin: 80, ITIMax: 120, Distractors: 2, Gamma: 0.8}, e.Config())
	assert.Equal(t, 9, e.ObservationSize())
}

func TestHorizon(t *testing.T) {
	for _, gamma := range []float64{0.1, 0.5, 0.9, 0.99, 0.9999} {
		h := horizon(gamma)
		assert.LessOrEqual(t, math.Pow(gamma, float64(h))/(1-gamma), 0x1p-60, "gamma %v", gamma)
		assert.Greater(t, math.Pow(gamma, float64(h-1))/(1-gamma), 0x1p-60, "gamma %v: not the smallest", gamma)
	}
	assert.Equal(t, int64(417), horizon(0.9)) // ln(2⁻⁶⁰·0.1)/ln 0.9 = 416.6
}

// TestPowIsMathPow checks the table of powers of γ, and the exponents past
// it, against math.Pow bitwise (the returns are unchanged by the table).
func TestPowIsMathPow(t *testing.T) {
	for _, gamma := range []float64{0.5, 0.9, 0.99} {
		e := NewTracePatterning(TraceConfig{Gamma: gamma}, 1)
		if int64(len(e.powers)) < min(e.horizon+int64(e.cfg.ISIMax), maxPowers) {
			t.Errorf("γ = %v: %d powers, want the horizon and an ISI (%d)", gamma, len(e.powers), e.horizon+int64(e.cfg.ISIMax))
		}
		for k := int64(0); k < int64(len(e.powers))+10; k++ {
			if got, want := e.pow(k), math.Pow(gamma, float64(k)); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("γ = %v: pow(%d) = %v, want %v", gamma, k, got, want)
			}
		}
	}
}

func TestConstantBaseline(t *testing.T) {
	// A stream with known returns checks the arithmetic.
	s := &fixedEnv{g: []float64{1, 2, 3, 4}}
	mean, mse := ConstantBaseline(s, 4)
	assert.InDelta(t, 2.5, mean, 1e-15)
	assert.InDelta(t, 1.25, mse, 1e-15) // (2.25+0.25+0.25+2.25)/4

	// On trace patterning the mean return is the US rate over 1−γ, and half
	// of the 130-step (on average) trials end in a US: 1/260/0.1 ≈ 0.0385.
	mean, mse = ConstantBaseline(NewTracePatterning(TraceConfig{}, 1), 300_000)
	assert.InDelta(t, 1/(260*(1-0.9)), mean, 0.003)
	// Measured over 10M steps and 4 seeds: 0.01876-0.01880 (paper: ≈ 0.019).
	assert.InDelta(t, 0.0188, mse, 0.003)
}

type fixedEnv struct {
	g []float64
	t int
}

func (f *fixedEnv) ObservationSize() int { return 1 }
func (f *fixedEnv) Next(dst []float64) (float64, float64) {
	g := f.g[f.t%len(f.g)]
	f.t++
	return 0, g
}

func BenchmarkTracePatterningNext(b *testing.B) {
	e := NewTracePatterning(TraceConfig{}, 1)
	x := make([]float64, e.ObservationSize())
	b.ReportAllocs()
	for b.Loop() {
		e.Next(x)
	}
}

func TestObservationNames(t *testing.T) {
	e := NewTracePatterning(TraceConfig{}, 1)
	got := ObservationNames(e)
	assert.Equal(t, []string{"cs0", "cs1", "cs2", "cs3", "cs4", "cs5", "us", "d1", "d2", "d3", "d4", "d5"}, got)
	assert.Len(t, got, e.ObservationSize())
	assert.Equal(t, "us", got[USIndex])
	assert.Equal(t, "d1", got[DistractorStart])
	assert.Len(t, ObservationNames(NewTracePatterning(TraceConfig{Distractors: 2}, 1)), 9)
	// An env without names gets positional ones.
	assert.Equal(t, []string{"x0", "x1"}, ObservationNames(unnamed{}))
}

type unnamed struct{}

func (unnamed) ObservationSize() int              { return 2 }
func (unnamed) Next(dst []float64) (c, g float64) { return 0, 0 }

func TestDefaultTraceConfigIsZeroValue(t *testing.T) {
	assert.Equal(t, DefaultTraceConfig(), NewTracePatterning(TraceConfig{}, 1).Config())
}

// A configuration's observation length counts the six CS bits, the US and
// its distractors, whether or not a stream is made from it.
func TestTraceConfigObservationSize(t *testing.T) {
	for _, tc := range []struct {
		cfg  TraceConfig
		want int
	}{
		{TraceConfig{}, 12},
		{TraceConfig{Distractors: 3}, 10},
		{TraceConfig{Distractors: 20, ISIMin: 8, ISIMax: 12}, 27},
	} {
		if got := tc.cfg.ObservationSize(); got != tc.want {
			t.Errorf("%+v: ObservationSize() = %d, want %d", tc.cfg, got, tc.want)
		}
		if got := NewTracePatterning(tc.cfg, 1).ObservationSize(); got != tc.want {
			t.Errorf("%+v: the stream's ObservationSize() = %d, want %d", tc.cfg, got, tc.want)
		}
	}
}
