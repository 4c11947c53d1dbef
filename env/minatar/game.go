package minatar

import "math/rand/v2"

// Action is one of MinAtar's six actions.
type Action uint8

// MinAtar's actions. Each game uses a minimal subset, whose positions are
// the action indices of the observation; Noop is first in every subset.
const (
	Noop Action = iota
	Left
	Up
	Right
	Down
	Fire
)

var actionNames = [...]string{"noop", "left", "up", "right", "down", "fire"}

func (a Action) String() string { return actionNames[a] }

// game is the state machine of one game on the 10×10 grid.
type game interface {
	// reset starts an episode.
	reset(rng *rand.Rand)
	// act applies action a for one step and returns the reward and whether
	// the episode has ended. rng drives the game's own randomness.
	act(a Action, rng *rand.Rand) (reward float64, terminal bool)
	// draw paints the state onto a cleared canvas (the 210×160 screen or
	// its sampled pixels) at the frame-th step of the episode (1, 2, …; see
	// shown). It changes nothing in the game.
	draw(s *canvas, frame int)
	// behave is the scripted policy's choice in the current state; it may
	// draw from rng (the policy's stream). explore reports whether the
	// policy may take a random action instead now: a trained agent's
	// exploration does not throw away a game it can see it is about to
	// lose.
	behave(rng *rand.Rand) (a Action, explore bool)
}

// shown reports whether the objects of multiplex group (0 or 1) are drawn
// at frame: freeway, asterix and seaquest draw two groups of objects on
// alternate frames, as Atari 2600 games flicker to show more objects than
// the hardware has sprites, so that a single frame shows only part of the
// game and predicting the return needs the previous frame.
func shown(frame, group int) bool { return frame%2 == group }

// grid helpers

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// step returns +1 for a mover going right, −1 otherwise.
func step(right bool) int {
	if right {
		return 1
	}
	return -1
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
