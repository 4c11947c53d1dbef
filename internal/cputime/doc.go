// Package cputime reads the CPU time of the calling OS thread: the work a
// run's learning loop did, whatever else shared the machine (wall time
// counts the waits too). The caller locks its goroutine to its thread
// (runtime.LockOSThread) for the reading to be its own.
package cputime
