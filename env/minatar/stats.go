package minatar

import (
	"fmt"
	"math"
	"slices"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
)

// ShortEpisode is the length, in steps, below which an episode counts as
// short in Stats.Short.
const ShortEpisode = 100

// Stats summarizes the first Steps steps of a game's stream.
type Stats struct {
	Game          string
	Seed          uint64
	Steps, Window int
	// Episodes is the number of episodes that end within the steps; the
	// lengths below are theirs.
	Episodes int
	// Shortest is the shortest episode's length, Short the share of the
	// episodes shorter than ShortEpisode steps.
	Shortest int
	Short    float64
	// P10, Median and P90 are the 10th, 50th and 90th percentiles of the
	// episode lengths (nearest rank).
	P10, Median, P90 int
	// RewardPerStep is the mean cumulant c_t = clip(r_t) per step.
	RewardPerStep float64
	// ReturnMean and ReturnStd are the mean and standard deviation of the
	// return G_t over all the steps.
	ReturnMean, ReturnStd float64
	// WindowVariance is the variance of G_t over the last Window steps: the
	// mean squared error of the best constant prediction there, the
	// denominator of a run's normalized error.
	WindowVariance float64
}

// Measure plays steps steps of game name's stream for seed and summarizes
// them. The summary is the stream's (the same episodes, cumulants and
// returns as New(name, seed, cfg)), computed without drawing. It returns an
// error for an unknown name and panics unless 1 ≤ window ≤ steps.
//
// For the n steps and their returns G_0 … G_{n−1},
//
//	ReturnMean = (1/n)·Σ G_t,  ReturnStd² = (1/n)·Σ (G_t − ReturnMean)²
//
// and WindowVariance is the same variance over the last window steps.
func Measure(name string, seed uint64, steps, window int, cfg Config) (Stats, error) {
	if window < 1 || window > steps {
		panic(fmt.Sprintf("minatar: Measure window %d outside [1, steps %d]", window, steps))
	}
	spec, err := Lookup(name)
	if err != nil {
		return Stats{}, err
	}
	cfg = cfg.withDefaults()
	p := newPlayer(spec, cfg, seed)
	st := Stats{Game: name, Seed: seed, Steps: steps, Window: window}
	var (
		lengths   []int
		cum, ret  = make([]float64, cfg.MaxEpisode), make([]float64, cfg.MaxEpisode)
		ends      = make([]bool, cfg.MaxEpisode)
		all       = make([]float64, 0, steps)
		rewardSum float64
		t         int
	)
	for t < steps {
		n := 0
		for done := false; !done; n++ {
			var r float64
			_, r, done = p.step()
			cum[n], ends[n] = atari.ClipReward(r), done
		}
		env.EpisodeReturns(ret[:n], cum[:n], ends[:n], cfg.Gamma)
		use := min(n, steps-t)
		all = append(all, ret[:use]...)
		for _, c := range cum[:use] {
			rewardSum += c
		}
		if use == n {
			lengths = append(lengths, n)
		}
		t += use
	}
	st.Episodes = len(lengths)
	if len(lengths) > 0 {
		slices.Sort(lengths)
		rank := func(q float64) int { return lengths[max(0, int(math.Ceil(q*float64(len(lengths))))-1)] }
		st.Shortest, st.P10, st.Median, st.P90 = lengths[0], rank(0.1), rank(0.5), rank(0.9)
		short, _ := slices.BinarySearch(lengths, ShortEpisode)
		st.Short = float64(short) / float64(len(lengths))
	}
	st.RewardPerStep = rewardSum / float64(steps)
	st.ReturnMean, st.ReturnStd = meanStd(all)
	_, sd := meanStd(all[steps-window:])
	st.WindowVariance = sd * sd
	return st, nil
}

func meanStd(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)))
}
