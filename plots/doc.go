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
// take a sequential palette of that colour (Shade), light to dark.
//
// A figure whose data are missing (no curve, an empty series, mismatched
// lengths, non-finite values) is an error of type *MissingError naming what is
// missing, never an empty axis.
package plots
