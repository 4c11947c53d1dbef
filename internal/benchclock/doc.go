// Package benchclock times benchmark loops in the calling thread's CPU time
// (internal/cputime's clock; Linux only): time that other processes take from
// the core does not count, which makes it steadier than wall time on a shared
// machine (docs/performance.md, "How to re-measure").
package benchclock
