package env

import "fmt"

// Env is an online prediction stream.
type Env interface {
	// ObservationSize is the length of every observation.
	ObservationSize() int

	// Next advances one step: it writes the observation x_t into dst (of
	// length ObservationSize()) and returns the cumulant c_t and the true
	// return G_t = Σ_{j>t} γ^(j−t−1)·c_j.
	Next(dst []float64) (cumulant, ret float64)
}

// Named is an Env whose observation entries have names.
type Named interface {
	Env
	// ObservationNames returns ObservationSize names, one per entry.
	ObservationNames() []string
}

// ObservationNames returns the names of e's observation entries: those of a
// Named env, else x0, x1, ….
func ObservationNames(e Env) []string {
	if n, ok := e.(Named); ok {
		return n.ObservationNames()
	}
	names := make([]string, e.ObservationSize())
	for i := range names {
		names[i] = fmt.Sprintf("x%d", i)
	}
	return names
}

// Episodic is an Env whose stream is cut into episodes; a new episode starts
// right after the last step of the previous one. Its returns stop at the end
// of their episode (see EpisodeReturns):
//
//	G_t = Σ_{j=t+1..T} γ^(j−t−1)·c_j   for t < T, the episode's last step,
//	G_T = 0.
//
// TracePatterning is not Episodic: its stream never ends.
type Episodic interface {
	Env
	// Done reports whether the step written by the latest Next is the last
	// step of its episode.
	Done() bool
}

// Done reports whether the latest step of e ended an episode: false for a
// stream that is not Episodic.
func Done(e Env) bool {
	ep, ok := e.(Episodic)
	return ok && ep.Done()
}

// Recorded is an Env that replays a recorded file (atari.File): a run
// records which file it learned on and reports it when it starts.
type Recorded interface {
	Env
	// Path returns the path the file was opened from.
	Path() string
	// Size returns the size of the file in bytes.
	Size() int64
	// SHA256 returns the SHA-256 checksum of the file, in hexadecimal.
	SHA256() string
	// Records returns the number of records (steps) in the file.
	Records() int64
	// Episodes returns the number of episodes in one pass over the file.
	Episodes() int64
	// ReadingLength returns the number of values of every stored reading.
	ReadingLength() int
}
