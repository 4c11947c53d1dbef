package env_test

import (
	"fmt"

	"github.com/ccn-go/ccn/env"
)

func ExampleNewTracePatterning() {
	e := env.NewTracePatterning(env.TraceConfig{}, 1) // paper's setting
	x := make([]float64, e.ObservationSize())
	fmt.Println("observation size:", e.ObservationSize())

	// Walk to the first CS; the stream starts with an inter-trial interval.
	for t := 0; ; t++ {
		e.Next(x)
		on := 0
		for _, v := range x[:env.CSSize] {
			on += int(v)
		}
		if on > 0 {
			fmt.Println("first CS within the ITI bounds:", t >= 80 && t <= 120)
			fmt.Println("CS bits on:", on)
			break
		}
	}
	// Output:
	// observation size: 12
	// first CS within the ITI bounds: true
	// CS bits on: 3
}
