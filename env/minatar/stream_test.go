package minatar

import (
	"fmt"
	"math"
	"testing"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type stepRecord struct {
	x    []float64
	c, g float64
	done bool
}

// play records n steps; observations only if keep.
func play(t testing.TB, name string, seed uint64, cfg Config, n int, keep bool) []stepRecord {
	s, err := New(name, seed, cfg)
	require.NoError(t, err)
	out := make([]stepRecord, n)
	x := make([]float64, atari.Inputs)
	for i := range out {
		if keep {
			x = make([]float64, atari.Inputs)
			out[i].x = x
		}
		out[i].c, out[i].g = s.Next(x)
		out[i].done = s.Done()
	}
	return out
}

func TestStreamsDeterministicPerSeed(t *testing.T) {
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			a := play(t, g.Name, 7, Config{}, 3000, true)
			b := play(t, g.Name, 7, Config{}, 3000, true)
			c := play(t, g.Name, 8, Config{}, 3000, true)
			assert.Equal(t, a, b)
			assert.NotEqual(t, a, c)
		})
	}
}

// TestReturnsExact compares every return with the sum written out,
// G_t = Σ_{j=t+1..T} γ^(j−t−1)·c_j to the episode's last step T, G_T = 0.
func TestReturnsExact(t *testing.T) {
	const gamma = 0.9
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			rec := play(t, g.Name, 3, Config{Gamma: gamma}, 20_000, false)
			last := -1
			for i, r := range rec {
				if r.done {
					last = i
				}
			}
			require.Positive(t, last)
			for i := 0; i <= last; i++ {
				want := 0.0
				if !rec[i].done {
					w := 1.0
					for j := i + 1; ; j++ {
						want += w * rec[j].c
						w *= gamma
						if rec[j].done {
							break
						}
					}
				}
				require.InDelta(t, want, rec[i].g, 1e-12*math.Max(1, want), "step %d", i)
			}
		})
	}
}

func TestObservationLayout(t *testing.T) {
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			rec := play(t, g.Name, 5, Config{}, 5_000, true)
			first := true
			for i, r := range rec {
				for k, v := range r.x[:atari.FrameSize] {
					require.True(t, v >= 0 && v < 1 && v*256 == math.Trunc(v*256), "step %d pixel %d = %v", i, k, v)
				}
				set := 0
				for k, v := range r.x[atari.ActionStart:atari.RewardIndex] {
					require.True(t, v == 0 || v == 1)
					if v == 1 {
						set++
						require.Less(t, k, len(g.Actions), "step %d: action outside the minimal set", i)
						if first {
							require.Equal(t, 0, k, "step %d: an episode starts with a no-op", i)
						}
					}
				}
				require.Equal(t, 1, set, "step %d: exactly one action slot", i)
				require.Equal(t, r.c, r.x[atari.RewardIndex])
				require.True(t, r.c >= -1 && r.c <= 1)
				first = r.done
			}
		})
	}
}

func TestNoopsAtEpisodeStart(t *testing.T) {
	spec, _ := Lookup("freeway")
	p := newPlayer(spec, Config{}.withDefaults(), 1)
	seen := map[int]int{}
	for range 3000 {
		p.step() // first step of an episode
		seen[p.noops+1]++
		for p.running {
			p.step()
		}
	}
	for k := 1; k <= MaxNoops; k++ {
		assert.Positive(t, seen[k], "%d no-ops never drawn", k)
	}
	assert.Len(t, seen, MaxNoops, "only 1..30 no-ops")
}

// TestReturnsVary: a learner has something to predict in every game.
func TestReturnsVary(t *testing.T) {
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			rec := play(t, g.Name, 11, Config{}, 30_000, false)
			var sum, sq float64
			lengths := map[int]bool{}
			n := 0
			for _, r := range rec {
				sum += r.g
				sq += r.g * r.g
				n++
				if r.done {
					lengths[n] = true
					n = 0
				}
			}
			m := sum / float64(len(rec))
			sd := math.Sqrt(sq/float64(len(rec)) - m*m)
			t.Logf("%s: mean return %.3f, sd %.3f, %d episode lengths", g.Name, m, sd, len(lengths))
			assert.Greater(t, sd, 0.2)
			assert.Positive(t, m)
			if g.Name != "freeway" { // freeway's episodes all last 2,501 steps
				assert.Greater(t, len(lengths), 3)
			}
		})
	}
}

func TestMaxEpisode(t *testing.T) {
	rec := play(t, "freeway", 1, Config{MaxEpisode: 100}, 1000, false)
	for i, r := range rec {
		require.Equal(t, i%100 == 99, r.done, "step %d", i)
	}
}

func TestUnknownGame(t *testing.T) {
	_, err := New("pong", 1, Config{})
	assert.ErrorContains(t, err, `unknown game "pong"`)
	assert.Equal(t, []string{"breakout", "freeway", "asterix", "seaquest", "space-invaders"}, Names())
}

func TestStreamIsEpisodic(t *testing.T) {
	s, _ := New("asterix", 1, Config{})
	var e env.Env = s
	_, ok := e.(env.Episodic)
	assert.True(t, ok)
}

func TestNextDoesNotAllocate(t *testing.T) {
	for _, g := range Games {
		s, _ := New(g.Name, 1, Config{})
		x := make([]float64, atari.Inputs)
		for range 20_000 { // reach the longest lists and episodes
			s.Next(x)
		}
		assert.Zero(t, testing.AllocsPerRun(2000, func() { s.Next(x) }), g.Name)
	}
}

func BenchmarkStream(b *testing.B) {
	for _, g := range Games {
		b.Run(g.Name, func(b *testing.B) {
			s, _ := New(g.Name, 1, Config{})
			x := make([]float64, atari.Inputs)
			for range 10_000 {
				s.Next(x)
			}
			b.ReportAllocs()
			for b.Loop() {
				s.Next(x)
			}
		})
	}
}

func ExampleNew() {
	s, err := New("breakout", 1, Config{})
	if err != nil {
		panic(err)
	}
	x := make([]float64, s.ObservationSize())
	c, _ := s.Next(x)
	fmt.Println("inputs:", len(x), "actions:", s.Game().Actions, "first action:", s.Game().Actions[s.Action()], "cumulant:", c)
	// Output:
	// inputs: 275 actions: [noop left right] first action: noop cumulant: 0
}
