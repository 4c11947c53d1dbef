package env

import "fmt"

// EpisodeReturns writes into dst the returns of a stream segment whose steps
// have cumulants c and end flags done (done[t] is true on the last step of an
// episode), computed backward:
//
//	G_t = 0                      if done[t]
//	G_t = c_{t+1} + γ·G_{t+1}    otherwise
//
// so that G_t = Σ_{j=t+1..T} γ^(j−t−1)·c_j up to and including the episode's
// last step T. The segment must end an episode (done[len−1] true); the first
// cumulant c_0 belongs to the transition into the segment and is not used.
// It panics if the lengths differ, the segment is empty or does not end an
// episode.
func EpisodeReturns(dst, c []float64, done []bool, gamma float64) {
	n := len(dst)
	if len(c) != n || len(done) != n {
		panic(fmt.Sprintf("env: EpisodeReturns lengths %d, %d, %d differ", n, len(c), len(done)))
	}
	if n == 0 || !done[n-1] {
		panic("env: EpisodeReturns needs a segment that ends an episode")
	}
	g := 0.0
	for t := n - 1; t >= 0; t-- {
		if done[t] {
			g = 0
		} else {
			g = c[t+1] + gamma*g
		}
		dst[t] = g
	}
}
