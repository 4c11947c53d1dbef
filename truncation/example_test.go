package truncation_test

import (
	"fmt"
	"os"
	"time"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/truncation"
)

// A cost measurement written as CSV, which Render draws again later.
func ExampleWriteCostCSV() {
	pts := []truncation.CostPoint{
		{Method: arch.MethodColumnar, Label: "Columnar RTRL", Size: 4, Params: 229, Micros: 0.5},
		{Method: arch.MethodRTRL, Label: "dense exact RTRL", Size: 4, Params: 276, Micros: 15},
	}
	if err := truncation.WriteCostCSV(os.Stdout, pts); err != nil {
		fmt.Println(err)
	}
	// Output:
	// method,label,size,params,us_per_step
	// columnar,Columnar RTRL,4,229,0.5
	// rtrl,dense exact RTRL,4,276,15
}

// The gradient bias of T-BPTT for a tiny LSTM: at k = 1 the truncated
// gradient is far from the exact one, at k = 8 much closer; SnAp-1 and UORO
// are measured on the same trajectories, dense RTRL is exact.
func ExampleGradientBias() {
	pts, err := truncation.GradientBias(truncation.BiasConfig{
		Hidden: []int{2}, MaxK: 8, Steps: 20, Points: 4, Seeds: 2, Span: 1000, Draws: 5, Timing: time.Millisecond,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	first, last := pts[0], pts[7]
	fmt.Printf("k=%d: %d gradients, relative error above 0.01: %v\n", first.K, first.Samples, first.RelErr > 0.01)
	fmt.Printf("k=%d: less biased than k=1: %v\n", last.K, last.RelErr < first.RelErr)
	for _, p := range pts[8:] {
		fmt.Printf("%s: %d draws per trajectory, relative error below 1e-10: %v\n", p.Method, p.Draws, p.RelErr < 1e-10)
	}
	// Output:
	// k=1: 8 gradients, relative error above 0.01: true
	// k=8: less biased than k=1: true
	// snap1: 1 draws per trajectory, relative error below 1e-10: false
	// uoro: 5 draws per trajectory, relative error below 1e-10: false
	// rtrl: 1 draws per trajectory, relative error below 1e-10: true
}
