// Package minatar has five pixel games that produce the 275-input stream of
// the paper's Atari prediction benchmark (paper §5, package atari) without
// the Arcade Learning Environment: Breakout, Freeway, Asterix, Seaquest and
// Space Invaders with the dynamics of MinAtar (Young & Tian 2019, "MinAtar:
// An Atari-inspired testbed for thorough and reproducible reinforcement
// learning experiments") on its 10×10 grid, written here from MinAtar's
// published rules.
//
// Each game is drawn like an Atari screen onto a 210×160 grey screen, one
// grey level per kind of object and nothing else (no trail or direction
// channels, so a single frame hides motion), resized to 16×16 as the
// authors do (atari.Downscale), and followed by the one-hot action in the
// game's minimal action set and the clipped reward:
//
//	x_t = downscale(screen_t)/256 ⧺ onehot(a_t, 18) ⧺ clip(r_t, −1, 1)
//
// where a_t is the action taken at step t (a no-op is an action, so exactly
// one slot is set) and r_t the reward it earned. The stream draws only the
// 32×32 screen pixels that the downscaling reads (atari.ScreenSamples), which
// gives the same x_t bit for bit; Stream.Screen draws the whole screen on
// demand. Every episode starts with U[1, 30] no-ops, as in the paper, and
// no game can end during them (the ball waits for the launch, enemies hold
// back). A scripted behaviour policy then plays like a trained agent: it
// looks ahead on a copy of the game and takes a random action (exploration)
// only where that cannot lose at once.
// The cumulant is c_t = clip(r_t) and the return G_t is exact within the
// episode (env.EpisodeReturns). Streams are deterministic per seed; Measure
// gives their statistics (docs/atari.md).
package minatar
