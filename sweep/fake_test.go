package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
)

// fakeError is the final error the fake runner reports for a configuration:
// step size times 10 plus seed/1000, so the smallest step size wins.
func fakeError(cfg experiments.RunConfig) float64 {
	return cfg.StepSize*10 + float64(cfg.Seed)/1000
}

// fakeRunner writes a run directory like experiments.Run without learning:
// two curve points and a summary whose final error is fakeError. Runs with a
// step size of at least divergeAt diverge; runs whose ID is in fail return an
// error. It counts calls per directory.
type fakeRunner struct {
	mu        sync.Mutex
	calls     map[string]int
	divergeAt float64
	fail      map[string]bool
	// builds is the numerics the runs record; "" means this binary's.
	builds string
}

func (f *fakeRunner) numerics() string {
	if f.builds != "" {
		return f.builds
	}
	return lanes.Numerics()
}

func newFakeRunner() *fakeRunner {
	return &fakeRunner{calls: map[string]int{}, divergeAt: 1, fail: map[string]bool{}}
}

func (f *fakeRunner) count(dir string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[filepath.Base(dir)]
}

func (f *fakeRunner) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func (f *fakeRunner) run(ctx context.Context, r experiments.Resolved, dir string) (experiments.Summary, error) {
	cfg := r.Config()
	f.mu.Lock()
	f.calls[filepath.Base(dir)]++
	fail := f.fail[filepath.Base(dir)]
	f.mu.Unlock()
	if fail {
		return experiments.Summary{}, fmt.Errorf("fake failure")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return experiments.Summary{}, err
	}
	e := fakeError(cfg)
	curve := fmt.Sprintf("step,error\n%d,%v\n%d,%v\n", cfg.Steps/2, 2*e, cfg.Steps, e)
	if err := os.WriteFile(filepath.Join(dir, experiments.CurveFile), []byte(curve), 0o644); err != nil {
		return experiments.Summary{}, err
	}
	s := experiments.Summary{Config: cfg, Seed: cfg.Seed, FinalError: e, Steps: cfg.Steps,
		Diverged: cfg.StepSize >= f.divergeAt, Kernels: lanes.Path(), Numerics: f.numerics()}
	b, _ := json.Marshal(s)
	if err := os.WriteFile(filepath.Join(dir, experiments.SummaryFile), b, 0o644); err != nil {
		return experiments.Summary{}, err
	}
	if s.Diverged {
		return s, experiments.ErrDiverged
	}
	return s, nil
}
