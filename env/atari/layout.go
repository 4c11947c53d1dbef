package atari

import (
	"fmt"
	"math"
)

// Layout of a 275-input observation.
const (
	// ScreenHeight and ScreenWidth are the size of the grey screen.
	ScreenHeight, ScreenWidth = 210, 160
	// FrameSide is the side of the downscaled frame; FrameSize = 16·16 its
	// number of pixels, at indices 0 to FrameSize−1.
	FrameSide = 16
	FrameSize = FrameSide * FrameSide
	// Actions is the number of one-hot action slots, at indices ActionStart
	// to ActionStart+Actions−1 (ALE's full action set has 18 actions).
	Actions     = 18
	ActionStart = FrameSize
	// RewardIndex is the index of the clipped reward.
	RewardIndex = ActionStart + Actions
	// Inputs is the length of an observation: 275.
	Inputs = RewardIndex + 1
)

// Gamma is the discount of the benchmark's returns (paper §5).
const Gamma = 0.98

// ClipReward returns r clipped to [−1, 1].
func ClipReward(r float64) float64 { return max(-1, min(1, r)) }

// SetActionReward writes the one-hot action and the clipped reward into an
// observation dst of length Inputs, leaving the frame alone. It panics if
// len(dst) != Inputs or the action is outside [0, Actions).
func SetActionReward(dst []float64, action int, reward float64) {
	if len(dst) != Inputs {
		panic(fmt.Sprintf("atari: observation length %d, want %d", len(dst), Inputs))
	}
	if action < 0 || action >= Actions {
		panic(fmt.Sprintf("atari: action %d outside [0, %d)", action, Actions))
	}
	a := dst[ActionStart:RewardIndex]
	clear(a)
	a[action] = 1
	dst[RewardIndex] = ClipReward(reward)
}

// SetFrame writes the frame pixels, each divided by 256, into dst[:FrameSize].
func SetFrame(dst []float64, frame *[FrameSize]uint8) {
	for i, p := range frame {
		dst[i] = float64(p) / 256
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
