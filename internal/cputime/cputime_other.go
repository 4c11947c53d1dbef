//go:build !linux

package cputime

import "time"

// Thread returns false: this system's thread CPU clock is not read.
func Thread() (time.Duration, bool) { return 0, false }
