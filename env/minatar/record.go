package minatar

import (
	"io"

	"github.com/ccn-go/ccn/env/atari"
)

// Record writes the next steps steps of s to w as an ExperienceBuffer message
// (package atari): per step the 16×16 frame divided by 256, the reward, the
// end-of-episode flag and the action, described as the game's scripted policy.
func Record(w io.Writer, s *Stream, steps int) error {
	enc := atari.NewEncoder(w, s.Game().Name, "minatar scripted policy: "+s.Game().Policy)
	x := make([]float64, s.ObservationSize())
	e := atari.Experience{Reading: make([]float32, atari.FrameSize)}
	for range steps {
		s.Next(x)
		for i, p := range s.Frame() {
			e.Reading[i] = float32(p) / 256
		}
		e.Reward, e.Done, e.Action = float32(s.Reward()), s.Done(), int32(s.Action())
		if err := enc.Write(&e); err != nil {
			return err
		}
	}
	return enc.Close()
}
