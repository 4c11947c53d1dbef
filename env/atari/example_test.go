package atari_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/ccn-go/ccn/env/atari"
)

// Write two records of the authors' format and read them back.
func ExampleDecoder() {
	var buf bytes.Buffer
	enc := atari.NewEncoder(&buf, "Pong", "example")
	frame := make([]float32, atari.FrameSize)
	enc.Write(&atari.Experience{Reward: 2, Reading: frame, Action: 3})
	enc.Write(&atari.Experience{Reward: 0, Reading: frame, Done: true, Action: 0})
	enc.Close()

	dec := atari.NewDecoder(&buf)
	var e atari.Experience
	x := make([]float64, atari.Inputs)
	for dec.Next(&e) != io.EOF {
		e.Observe(x)
		fmt.Println("action slot", e.Action, "set:", x[atari.ActionStart+int(e.Action)], "clipped reward:", x[atari.RewardIndex], "done:", e.Done)
	}
	fmt.Println(dec.Name, len(x))
	// Output:
	// action slot 3 set: 1 clipped reward: 1 done: false
	// action slot 0 set: 1 clipped reward: 0 done: true
	// Pong 275
}
