// Package reference computes ground-truth gradients with Gorgonia's reverse-mode
// autodiff over the unrolled graphs of package graph: full BPTT and k-truncated
// BPTT of a dense LSTM (paper §2.2) and the gradient of Columnar,
// Constructive and CCN networks with frozen earlier stages and normalization
// statistics held constant (paper §3; docs/equations.md). The hand-written engines
// (packages forward and backward) are compared against it.
//
// It also holds a plain Go forward pass (Forward, NetworkForward), written from
// the equations independently of package forward: it supplies the state
// entering a truncated window and the normalization statistics, and it is the
// function the tests differentiate by central finite differences, a second
// witness for the graphs themselves.
//
// Building a Gorgonia graph costs much more than running it, and more than
// linearly in its length, so a Reference keeps every graph it builds, keyed by
// shape (or topology) and length, and rebinds the inputs of a cached graph on
// each call. Trajectories longer than Reference.MaxUnroll steps run in windows
// chained through the adjoint of the state entering each window: the same
// gradient as one unrolled graph, from small graphs. NetworkFrom enters a
// network from a given state and normalization statistics (NetState), as a
// network continues after a stage change. NetworkAll gives the gradient of
// every parameter, frozen ones included, exact or with each column reading
// the earlier features as constants (what a network whose frozen columns
// keep their own traces computes: docs/equations.md).
package reference
