package report

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/opcount"
	"github.com/ccn-go/ccn/plots"
)

// The online-gradients study (experiments/configs/online-gradients.yaml) and
// its figure.
const (
	StudyOnline         = "online-gradients"
	NameOnlineGradients = "online-gradients"
)

// OnlineGradients draws the compute-matched comparison of online gradients on
// trace patterning (beyond the paper): exact by constraint (CCN, Columnar)
// against approximate (T-BPTT, SnAp-1, UORO), each group's learning curve
// beside its final error, labelled with its operations per step.
func OnlineGradients(r *Results) (Figure, error) {
	const fig = NameOnlineGradients
	var labelErr error
	ss, err := loadSeries(r, fig, StudyOnline, nil, func(g Group) string {
		ops, err := opsPerStep(g.Config)
		if err != nil && labelErr == nil {
			labelErr = fmt.Errorf("report: %s group %s: %w", fig, g.Name, err)
		}
		return fmt.Sprintf("%s (%s ops)", methodLabel(g.Config), thousands(ops))
	})
	if err != nil {
		return Figure{}, err
	}
	if labelErr != nil {
		return Figure{}, labelErr
	}
	cs, base, err := curvesAndBaseline(ss)
	if err != nil {
		return Figure{}, err
	}
	pts := points(ss)
	for i, s := range ss {
		pts[i].Label = shortLabel(s.group.Config) // the curves' legend gives the operations
	}
	g, err := plots.CurvesAndSummary("Online gradients at matched compute\n"+subtitle(ss[0].group), cs,
		"final error per method", "method", pts, base.reference())
	if err != nil {
		return Figure{}, err
	}
	g.Panels[0].Y.Label.Text = errorLabel(ss[0].group.Config.Window)
	return Figure{Name: fig, Drawer: g, Caption: caption(
		"Beyond the paper: exact gradients by constraint (CCN, Columnar) against the approximations of dense RTRL "+
			"(T-BPTT, biased; SnAp-1, biased; UORO, unbiased and noisy) at about the same operations per step (each "+
			"label gives the implementation's count, ccn budget; dense LSTMs with the output bias). Left: learning "+
			"curves; right: the final error of each (mean ± s.e. over its final seeds)", ss, base.text())}, nil
}

// opsPerStep is the implementation's operation count per step of c (its
// last stage for the networks), as ccn budget prints it: the Ops of c's
// entry in the registry of methods.
func opsPerStep(c experiments.RunConfig) (int, error) {
	r, err := c.Resolve()
	if err != nil {
		return 0, err
	}
	s := r.Spec(r.Inputs())
	s.Norm.Enabled = true // counted with normalization on, as ccn budget does
	n, ok := opcount.Implementation(r.Config().Method, s)
	if !ok {
		return 0, fmt.Errorf("no operation count for %+v", s)
	}
	return n, nil
}

// shortLabel names c's method on a crowded axis: "T-BPTT 15:4", "SnAp-1".
func shortLabel(c experiments.RunConfig) string {
	info, ok := arch.Info(c.Method)
	if !ok {
		return string(c.Method)
	}
	return info.ShortOf(spec(c))
}
