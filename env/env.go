package env

// Env is an online prediction stream.
type Env interface {
	// ObservationSize is the length of every observation.
	ObservationSize() int

	// Next advances one step: it writes the observation x_t into dst (of
	// length ObservationSize()) and returns the cumulant c_t and the true
	// return G_t = Σ_{j>t} γ^(j−t−1)·c_j.
	Next(dst []float64) (cumulant, ret float64)
}
