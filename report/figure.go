package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/plots"
)

// Figure is a drawn figure with the file name it is saved under and its
// caption.
type Figure struct {
	Name    string // file base name: Name.png and Name.pdf
	Caption string
	Drawer  plots.Drawer
}

// Studies of experiments/configs read by the figures, and their groups.
const (
	StudyMain          = "main-comparison"
	StudyComputeMatch  = "compute-matched-tbptt"
	StudyTruncationH10 = "truncation-h10"
	StudyNormalization = "normalization-ablation"
	StudyFeatures      = "ccn-features-per-stage"
	StudySteps         = "ccn-steps-per-stage"

	GroupCCN          = "ccn"
	GroupColumnar     = "columnar"
	GroupConstructive = "constructive"
	GroupTBPTT        = "tbptt"
	GroupCCNNoNorm    = "ccn-no-norm"
	GroupLinear       = "linear"
)

// Figure names (file base names).
const (
	NameLearningCurves = "learning-curves"
	NameComputeMatched = "compute-matched-tbptt"
	NameTruncationH10  = "truncation-h10"
	NamePredictions    = "predictions"
	NameNormalization  = "normalization-ablation"
	NameAblations      = "ccn-ablations"
	NameStream         = "stream"
)

// methodLabel is the legend text of a configuration's method: its legend in
// the registry of methods (arch.MethodInfo.LegendOf), sized by c.
func methodLabel(c experiments.RunConfig) string {
	info, ok := arch.Info(c.Method)
	if !ok {
		return string(c.Method)
	}
	return info.LegendOf(spec(c))
}

// spec is the sizing settings of c as the registry of methods reads them.
func spec(c experiments.RunConfig) arch.Spec {
	return arch.Spec{Hidden: c.Hidden, Features: c.Features, FeaturesPerStage: c.FeaturesPerStage,
		StepsPerStage: c.StepsPerStage, Truncation: c.Truncation, OutBias: !c.NoOutBias}
}

// runText describes the runs of g: scale, steps and the error window.
func runText(g Group) string {
	text := fmt.Sprintf("Scale %s, %s steps per run, error averaged over the previous %s steps; final seeds %s",
		g.Scale, thousands(g.Config.Steps), thousands(g.Config.Window), seedRanges(g.Final))
	if len(g.Sweep) > 0 {
		text += fmt.Sprintf(", sweep seeds %s", seedRanges(g.Sweep))
	}
	if g.Scale == "paper" {
		text += " (the paper's final seeds 0-99 include its sweep seeds 0-4)"
	}
	return text
}

// seedRanges writes seeds as comma-separated values and inclusive ranges,
// "100-104" or "0-2, 7", the form experiment files accept.
func seedRanges(seeds []uint64) string {
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", seeds[i], seeds[j]))
		} else {
			parts = append(parts, fmt.Sprint(seeds[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// groupText describes one curve in a caption: its label, seeds and selected
// configuration.
func groupText(label string, g Group) string {
	if g.Candidate == "default" { // nothing tuned
		return fmt.Sprintf("%s: %s", label, g.SeedsText())
	}
	return fmt.Sprintf("%s: %s, selected %s", label, g.SeedsText(), g.Candidate)
}

// errorLabel is the y-axis label of learning curves whose error is averaged
// over window steps.
func errorLabel(window int) string {
	return fmt.Sprintf("mean squared return error (previous %s steps)", stepsText(window))
}

// thousands formats n with thousands separators: 2,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stepsText formats a step count compactly: 500k, 2.5M, 300.
func stepsText(n int) string {
	switch v := float64(n); {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.Itoa(n)
}

// ccnReference returns the mean final error of CCN's final runs in the main
// comparison, the dotted line of Figures 5 and 6.
func ccnReference(r *Results, fig string) (float64, Group, error) {
	g, err := r.Group(fig, StudyMain, GroupCCN)
	if err != nil {
		return math.NaN(), g, err
	}
	m, _ := stats.MeanSE(g.FinalErrors())
	return m, g, nil
}
