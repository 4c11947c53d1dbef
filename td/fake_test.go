package td

import (
	"github.com/ccn-go/ccn/arch"
)

// linear is a test learner y = θ·x with ∇y = x.
type linear struct {
	theta, x []float64
}

func newLinear(n int) *linear { return &linear{theta: make([]float64, n), x: make([]float64, n)} }

func (l *linear) Step(x []float64) float64 {
	copy(l.x, x)
	y := 0.0
	for i, t := range l.theta {
		y += t * x[i]
	}
	return y
}
func (l *linear) Grad(dst []float64) { copy(dst, l.x) }
func (l *linear) Params() []float64  { return l.theta }
func (l *linear) NumParams() int     { return len(l.theta) }

// sgd is a test optimizer θ += α·d.
type sgd struct{ alpha float64 }

func (s *sgd) Reset(Layout)        {}
func (s *sgd) Remap(Layout, []int) {}
func (s *sgd) Update(theta, u []float64, scale float64) {
	for i := range u {
		theta[i] += s.alpha * scale * u[i]
	}
}

// staged is a test learner with the learnable layout of an arch.Network: it
// adds a stage of u columns every `every` steps (inside Step, before
// predicting, as forward.Network does). Its prediction is the head applied to
// features x[k mod len(x)]; the columns' gradient entries are all 0.5.
type staged struct {
	topo   arch.Network
	u      int
	every  int
	steps  int
	params []float64
	x      []float64
}

func newStaged(m, u, every int) *staged {
	topo := arch.CCN(m, u, 0, arch.Normalization{})
	return &staged{topo: topo, u: u, every: every, params: make([]float64, topo.NumLearnable()), x: make([]float64, m)}
}

func (s *staged) Stage() int             { return s.topo.Learning() }
func (s *staged) Topology() arch.Network { return s.topo }
func (s *staged) NumParams() int         { return len(s.params) }
func (s *staged) Params() []float64      { return s.params }

func (s *staged) advance() {
	prev := s.topo
	s.topo = s.topo.WithStage(s.u)
	next := make([]float64, s.topo.NumLearnable())
	for k := range prev.Features() {
		next[s.topo.OffHead()+k] = s.params[prev.OffHead()+k]
	}
	next[s.topo.OffHeadBias()] = s.params[prev.OffHeadBias()]
	s.params = next
}

func (s *staged) Step(x []float64) float64 {
	if s.every > 0 && s.steps > 0 && s.steps%s.every == 0 {
		s.advance()
	}
	s.steps++
	copy(s.x, x)
	y := s.params[s.topo.OffHeadBias()]
	for k := range s.topo.Features() {
		y += s.params[s.topo.OffHead()+k] * x[k%len(x)]
	}
	return y
}

func (s *staged) Grad(dst []float64) {
	for i := range s.topo.OffHead() {
		dst[i] = 0.5
	}
	for k := range s.topo.Features() {
		dst[s.topo.OffHead()+k] = s.x[k%len(s.x)]
	}
	dst[s.topo.OffHeadBias()] = 1
}

var (
	_ arch.Engine = (*linear)(nil)
	_ arch.Engine = (*staged)(nil)
	_ Staged      = (*staged)(nil)
)
