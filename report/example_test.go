package report_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ccn-go/ccn/report"
)

// Render draws every figure it can: from a results directory that holds no
// study yet, only the stream picture, which needs no results; every other
// figure is skipped with what is missing.
func ExampleRender() {
	results, err := os.MkdirTemp("", "results")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(results)

	rep, err := report.Render(results, filepath.Join(results, "figures"), report.Options{}, io.Discard)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range rep.Drawn {
		fmt.Println("drawn:", f.Name)
	}
	for _, s := range rep.Skipped {
		fmt.Println("skipped:", s.Name)
	}
	// Output:
	// drawn: stream
	// drawn: frames
	// skipped: learning-curves
	// skipped: compute-matched-tbptt
	// skipped: truncation-h10
	// skipped: predictions
	// skipped: normalization-ablation
	// skipped: ccn-ablations
	// skipped: atari-normalized-error
	// skipped: atari-average-error
	// skipped: atari-predictions
	// skipped: atari-normalized-curves
	// skipped: atari-tbptt-capacity
	// skipped: atari-normalization
	// skipped: online-gradients
	// skipped: gradient_bias
	// skipped: gradient_estimators
	// skipped: cost
	// skipped: dependency-length
	// skipped: dependency-length-curves
	// skipped: auto-freezing
	// skipped: auto-freezing-stages
	// skipped: auto-freezing-atari
	// skipped: auto-freezing-atari-stages
}
