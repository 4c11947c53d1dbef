// Package catalog names every prediction stream of the project, with its
// inputs, default discount and a description, and builds one by name:
// trace patterning (paper §4, package env), a recorded Atari stream (paper §5,
// package atari) and the five pixel games of package minatar.
package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
	"github.com/ccn-go/ccn/env/minatar"
)

// Names of the streams that are not games.
const (
	TracePatterning = "trace-patterning"
	Atari           = "atari"
)

// Info describes a stream.
type Info struct {
	Name     string
	Inputs   int     // observation length
	Gamma    float64 // default discount
	Episodic bool    // the stream has episode ends
	Stream   bool    // the stream is read from a recorded file (Options.Stream)
	// Window is the paper's error window for the stream, in steps: the
	// mean squared return error is reported over the last Window steps
	// (100,000 for trace patterning, §4; 500,000 for Atari, §5).
	Window      int
	Description string
}

// Error windows of the paper.
const (
	traceWindow = 100_000
	atariWindow = 500_000
)

// All lists every stream: trace patterning, atari, then the games.
func All() []Info {
	// The paper's setting, without making the stream: its tables of powers
	// cost a run's start-up a few milliseconds at every lookup.
	tp := env.DefaultTraceConfig()
	list := []Info{
		{Name: TracePatterning, Inputs: tp.ObservationSize(), Gamma: tp.Gamma, Window: traceWindow,
			Description: "trace patterning (paper §4): predict a US that follows some CS patterns after a random interval"},
		{Name: Atari, Inputs: atari.Inputs, Gamma: atari.Gamma, Episodic: true, Stream: true, Window: atariWindow,
			Description: "a recorded Atari stream in the authors' ExperienceBuffer format (paper §5; --stream FILE)"},
	}
	for _, g := range minatar.Games {
		list = append(list, Info{Name: g.Name, Inputs: atari.Inputs, Gamma: atari.Gamma, Episodic: true, Window: atariWindow,
			Description: "MinAtar " + g.Name + " drawn at 210×160 and downscaled to 16×16: " + g.Rules})
	}
	return list
}

// ErrUnknown is wrapped by the error of Lookup and New for an unknown name.
var ErrUnknown = errors.New("catalog: unknown environment")

// ErrNoStream is returned by New for atari without Options.Stream, and for
// any other stream with one.
var ErrNoStream = errors.New("catalog: --stream applies to, and is needed by, atari only")

// Names returns the names of All.
func Names() []string {
	var n []string
	for _, i := range All() {
		n = append(n, i.Name)
	}
	return n
}

// Lookup returns the Info of name.
func Lookup(name string) (Info, error) {
	for _, i := range All() {
		if i.Name == name {
			return i, nil
		}
	}
	return Info{}, fmt.Errorf("%w %q (want %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}

// Options are the settings of New. Zero values take the stream's defaults.
type Options struct {
	Seed   uint64
	Gamma  float64 // 0: Info.Gamma
	Stream string  // the recorded file of atari
	// Trace sets the trace patterning task's intervals and distractors
	// (its Gamma is ignored: Gamma above is the discount); zero fields take
	// the paper's values. Other streams ignore it.
	Trace env.TraceConfig
}

// New returns the stream called name. Trace patterning takes opt.Trace
// (zero fields: the paper's setting) with opt.Gamma. A recorded stream is opened and checked (errors of
// atari.Open); close it with Close.
func New(name string, opt Options) (env.Env, error) {
	info, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if info.Stream != (opt.Stream != "") {
		return nil, ErrNoStream
	}
	gamma := opt.Gamma
	if gamma == 0 {
		gamma = info.Gamma
	}
	switch name {
	case TracePatterning:
		tc := opt.Trace
		tc.Gamma = gamma
		if err := tc.Validate(); err != nil {
			return nil, err
		}
		return env.NewTracePatterning(tc, opt.Seed), nil
	case Atari:
		f, err := atari.Open(opt.Stream, gamma)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	g, err := minatar.New(name, opt.Seed, minatar.Config{Gamma: gamma})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Close closes e if it holds a file.
func Close(e env.Env) error {
	if c, ok := e.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}
