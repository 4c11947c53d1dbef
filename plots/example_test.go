package plots_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/plots"
)

// Learning curves of two methods over 5 seeds, saved as PNG and PDF.
func ExampleLearningCurves() {
	steps := []float64{1e5, 2e5, 3e5}
	curves := []plots.Curve{
		{Label: "CCN", Method: string(arch.MethodCCN), Steps: steps, Mean: []float64{0.3, 0.2, 0.1}, StdErr: []float64{0.02, 0.02, 0.01}, Seeds: 5},
		{Label: "T-BPTT k=15, H=4", Method: string(arch.MethodTBPTT), Steps: steps, Mean: []float64{0.3, 0.25, 0.2}, StdErr: []float64{0.03, 0.02, 0.02}, Seeds: 5},
	}
	p, err := plots.LearningCurves("trace patterning", curves)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Title.Text)

	dir, err := os.MkdirTemp("", "plots")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := plots.Save(p, filepath.Join(dir, "curves")); err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}

	// Missing data is an error that says what is missing.
	_, err = plots.LearningCurves("empty", []plots.Curve{{Label: "CCN", Method: string(arch.MethodCCN), Seeds: 5}})
	fmt.Println(err)
	// Output:
	// trace patterning (mean ± s.e., 5 seeds)
	// curves.pdf
	// curves.png
	// plots: figure "empty": missing data: curve "CCN": no points
}
