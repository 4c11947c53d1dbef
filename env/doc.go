// Package env provides online prediction streams: at every step an environment
// emits an observation x_t, a cumulant c_t and, for evaluation only, the true
// discounted return
//
//	G_t = Σ_{j>t} γ^(j−t−1)·c_j = c_{t+1} + γ·G_{t+1}
//
// that a TD(λ) learner (paper Algorithm 1, Appendix A.2) predicts from the past.
//
// TracePatterning is the trace patterning task of paper §4: a
// conditioned stimulus, an inter-stimulus interval, an unconditioned stimulus
// that is also the cumulant, an inter-trial interval and random distractors.
// Streams are deterministic per seed.
//
// An Episodic stream is cut into episodes; its return stops at the end of
// the episode, G_T = 0 on the last step T (EpisodeReturns), and a TD(λ)
// learner neither bootstraps nor carries its trace across the end. The
// paper's Atari streams (§5) are episodic: package env/atari reads the
// authors' recorded files, package env/minatar plays five pixel games that
// produce the same 275-input stream, and package env/catalog names every
// stream.
package env
