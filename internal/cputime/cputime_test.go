package cputime

import (
	"runtime"
	"testing"
	"time"
)

// The thread clock counts work, not waiting: spinning advances it, never
// faster than the wall clock, and 60 ms of sleep advance it by almost
// nothing (a wall clock fails the second check, a clock that does not move
// the first).
func TestThreadCountsWorkNotWaits(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := Thread()
	if !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("no thread CPU clock on linux")
		}
		t.Skip("no thread CPU clock on " + runtime.GOOS)
	}
	w0 := time.Now()
	c1 := c0
	for c1-c0 < 20*time.Millisecond && time.Since(w0) < 5*time.Second {
		c1, _ = Thread()
	}
	if spin, wall := c1-c0, time.Since(w0); spin < 20*time.Millisecond || spin > wall {
		t.Errorf("spinning for %v: %v of thread CPU time", wall, spin)
	}
	time.Sleep(60 * time.Millisecond)
	if c2, _ := Thread(); c2-c1 > 5*time.Millisecond {
		t.Errorf("60 ms of sleep: %v of thread CPU time", c2-c1)
	}
}
