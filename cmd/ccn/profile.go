package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfile is a CPU profile being written to a file, for `go tool pprof`
// and for the profile-guided build (cmd/ccn/default.pgo, made by
// scripts/pgo-profile.sh).
type cpuProfile struct {
	f *os.File
}

// startCPUProfile starts profiling into a new file at path (nil, nil for
// no path). An error is bad input and leaves no file behind.
func startCPUProfile(path string) (*cpuProfile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, badInput("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, badInput("--cpuprofile: %v", err)
	}
	return &cpuProfile{f}, nil
}

// stop ends the profile of a command that returns cmdErr, and returns the
// command's error: cmdErr, or the profile's own if the command succeeded but
// the profile could not be written. A command that refused its input (a
// usageError, exit 2) leaves nothing behind, so its profile is removed.
func (p *cpuProfile) stop(cmdErr error) error {
	if p == nil {
		return cmdErr
	}
	pprof.StopCPUProfile()
	err := p.f.Close()
	if ue := (usageError{}); errors.As(cmdErr, &ue) {
		os.Remove(p.f.Name())
		return cmdErr
	}
	if err != nil && cmdErr == nil {
		return exitError{exitRunFailed, fmt.Sprintf("--cpuprofile: %v", err)}
	}
	return cmdErr
}
