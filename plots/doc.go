// Package plots draws the figures of the paper (§4 and Appendix A) and of the
// T-BPTT truncation study from plain data: learning curves (paper Figures 4, 5,
// 6, 12 and 14), the trace patterning stream (Figure 3), predictions against
// the true return (Figure 10), and the gradient bias and
// cost of the truncation study.
//
// Builders take plain slices and return a *plot.Plot, or a *Grid of plots for
// multi-panel figures, so that tests inspect figures without files; Save
// writes a figure as PNG (300 dpi) and PDF (fonts embedded), atomically.
//
// Curves over seeds are drawn as the mean with a shaded band of one standard
// error either side:
//
//	mean ± s.e.,   s.e. = s / √n   (s the sample standard deviation over n seeds)
//
// Every method has one colour in every figure (MethodColor); several curves of
// one method in one figure (the k:H variants of T-BPTT, the ablations of CCN)
// form a family and take distinct colours and line styles instead, so that
// every curve can be told apart. Legends are drawn outside the axes, on their
// right. Reference levels (the best constant prediction's error, CCN's final
// error) are labelled horizontal lines (Reference), not curves. Step axes are
// labelled at evenly spaced round values from 0 (0, 0.5M, 1M, ...). Studies of
// variants get a summary panel of final errors with s.e. bars beside their
// curves (CurvesAndSummary), on the same y range (Grid.ShareY).
//
// Golden images in testdata (TestGoldenImages, gonum/plot's cmpimg) fail any
// change in how a representative figure is drawn; regenerate them with
// go test ./plots -run TestGoldenImages -regen after an intended change.
//
// A figure whose data are missing (no curve, an empty series, mismatched
// lengths, non-finite values) is an error of type *MissingError naming what is
// missing, never an empty axis.
package plots
