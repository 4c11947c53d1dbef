package main

import (
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

// stop ends the profile; keep false removes its file (the command refused
// its input, and leaves nothing behind).
func (p *cpuProfile) stop(keep bool) error {
	if p == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := p.f.Close()
	if !keep {
		return os.Remove(p.f.Name())
	}
	return err
}
