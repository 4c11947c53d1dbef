// Package benchclock times benchmark loops in the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID, Linux only): time that other processes take from
// the core does not count, which makes it steadier than wall time on a shared
// machine (docs/performance.md, "How to re-measure").
package benchclock
