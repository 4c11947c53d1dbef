package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/internal/lanes"
)

// Files written into a run directory.
const (
	CurveFile       = "curve.csv"
	PredictionsFile = "predictions.csv"
	SummaryFile     = "summary.json"
)

// PredictionsKept is the number of final steps written to predictions.csv.
const PredictionsKept = 2000

// Summary is the content of summary.json, written last: its presence means the
// run directory is complete.
type Summary struct {
	Config     RunConfig `json:"config"`      // the resolved configuration
	Seed       uint64    `json:"seed"`        // the run's seed (also in Config)
	FinalError float64   `json:"final_error"` // windowed error at the last step
	// ReturnVariance is the variance of the return G_t over the same
	// window: the error of the best constant prediction there, against
	// which FinalError reads.
	ReturnVariance float64 `json:"return_variance"`
	// Stream describes the recorded file of a recorded stream; nil otherwise.
	Stream        *StreamFile `json:"stream,omitempty"`
	LifetimeError float64     `json:"lifetime_error"` // mean squared error over every step
	Steps         int         `json:"steps"`          // steps completed (fewer than Config.Steps if diverged)
	Parameters    int         `json:"parameters"`     // learnable parameters at the end
	// Stages lists, for a learner with stages (Constructive, CCN), the step
	// at which each stage froze (StageEnder), in order: stage s learned over
	// steps [Stages[s−1], Stages[s]), from 0; the last stage learns to the
	// end. Empty when no stage froze.
	Stages      []int   `json:"stages,omitempty"`
	WallSeconds float64 `json:"wall_seconds"` // duration of the learning loop
	// CPUSeconds is the CPU time of the learning loop's thread: its own
	// work, whatever else ran on the machine (0, and left out, where the
	// system's thread clock is not read: internal/cputime).
	CPUSeconds     float64 `json:"cpu_seconds,omitempty"`
	StepsPerSecond float64 `json:"steps_per_second"` // Steps / WallSeconds
	Diverged       bool    `json:"diverged"`         // a prediction or parameter became NaN or ±Inf
	Version        string  `json:"version"`          // module version, "(devel)" for a source build
	Revision       string  `json:"revision"`         // VCS revision, "unknown" without VCS stamping
	GoVersion      string  `json:"go_version"`
	// Kernels is the engines' implementation in this binary (lanes.Path):
	// "simd" or "scalar". The two agree to rounding, not bitwise.
	Kernels string `json:"kernels"`
	// Numerics names the arithmetic of the binary that computed the run
	// (RunNumerics): "simd/1" (the kernel path and lanes.NumericsVersion)
	// or "scalar", followed by "/f32" for the float32 engine
	// (lanes.Float32Numerics). Two builds of the same numerics compute the same bits; a
	// summary written before this field existed is read by NumericsID.
	Numerics string `json:"numerics,omitempty"`

	// Skipped is set by Run when the directory already held a complete
	// summary, which is what this Summary was read from.
	Skipped bool `json:"-"`
}

// StreamFile identifies the recorded stream a run learned on.
type StreamFile struct {
	Name     string `json:"name"`   // base name of the file
	Bytes    int64  `json:"bytes"`  // size
	SHA256   string `json:"sha256"` // checksum, hexadecimal
	Records  int64  `json:"records"`
	Episodes int64  `json:"episodes"` // in one pass over the file
}

// streamFile describes e's file if e is a recorded stream.
func streamFile(e env.Env) *StreamFile {
	f, ok := e.(env.Recorded)
	if !ok {
		return nil
	}
	return &StreamFile{Name: filepath.Base(f.Path()), Bytes: f.Size(), SHA256: f.SHA256(),
		Records: f.Records(), Episodes: f.Episodes()}
}

// BuildInfo returns the module version and the VCS revision of the running
// binary, as summary.json records them: "(devel)" for a source build, and
// "unknown" without VCS stamping; a revision with uncommitted changes ends
// in "+dirty".
func BuildInfo() (version, revision string) {
	version, revision = "unknown", "unknown"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	if bi.Main.Version != "" {
		version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			revision = s.Value
		}
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.modified" && s.Value == "true" {
			revision += "+dirty"
		}
	}
	return version, revision
}

func newSummary(c RunConfig) Summary {
	v, r := BuildInfo()
	return Summary{Config: c, Seed: c.Seed, Version: v, Revision: r, GoVersion: runtime.Version(),
		Kernels: lanes.Path(), Numerics: RunNumerics(c)}
}

// RunNumerics returns the numerics that a run of c computes with in this
// binary: lanes.Numerics(), or for the float32 engine (c.Float32)
// lanes.Float32Numerics of it, so that runs of the two engines are never
// taken for one another.
func RunNumerics(c RunConfig) string {
	if c.Float32 {
		return lanes.Float32Numerics(lanes.Numerics())
	}
	return lanes.Numerics()
}

// NumericsID returns the numerics of the build that computed the run: the
// Numerics field, or for a summary written before it existed, "simd/1" for
// kernels "simd" (the first lane arithmetic) and "scalar" for kernels
// "scalar" or no kernels field (written by builds that had only the scalar
// path).
func (s Summary) NumericsID() string {
	switch {
	case s.Numerics != "":
		return s.Numerics
	case s.Kernels == "simd":
		return "simd/1"
	}
	return "scalar"
}

// ReadSummary reads DIR/summary.json.
func ReadSummary(dir string) (Summary, error) {
	var s Summary
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("experiments: read %s: %w", filepath.Join(dir, SummaryFile), err)
	}
	return s, nil
}

// CheckDir reports, with a *ConfigError (Key "out"), whether dir can hold a
// run: either it is an existing writable directory, or its parent is an
// existing writable directory in which it can be created. It creates nothing
// that it does not remove; its probe is named like a temporary file
// (".ccn-probe.*.tmp"), so that a sweep removes one that a killed process
// left behind.
func CheckDir(dir string) error {
	bad := func(format string, args ...any) error {
		return &ConfigError{Key: "out", Problem: fmt.Sprintf(format, args...)}
	}
	if dir == "" {
		return bad("no output directory given")
	}
	target := dir
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return bad("output %s exists and is not a directory", dir)
	case errors.Is(err, fs.ErrNotExist):
		target = filepath.Dir(filepath.Clean(dir))
		pi, perr := os.Stat(target)
		if perr != nil || !pi.IsDir() {
			return bad("output directory %s: parent %s is not an existing directory", dir, target)
		}
	case err != nil:
		return bad("output directory %s: %v", dir, err)
	}
	f, err := os.CreateTemp(target, ".ccn-probe.*.tmp")
	if err != nil {
		return bad("output directory %s: %s is not writable", dir, target)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
