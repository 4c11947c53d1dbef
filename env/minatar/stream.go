package minatar

import (
	"fmt"
	"math/rand/v2"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
)

// Config configures a game's stream. The zero value is the default.
type Config struct {
	// Gamma is the discount of the returns, in [0, 1); 0 means atari.Gamma
	// (0.98).
	Gamma float64
	// Epsilon is the probability that the behaviour policy takes a uniformly
	// random action of the minimal set instead of its scripted one, at the
	// steps where the game's policy allows exploring (see Game.Policy); 0
	// means 0.05 (a negative value means never).
	Epsilon float64
	// MaxEpisode is the longest episode, in steps; an episode still running
	// then ends (as ALE caps an episode's frames). 0 means 10,000.
	MaxEpisode int
}

func (c Config) withDefaults() Config {
	if c.Gamma == 0 {
		c.Gamma = atari.Gamma
	}
	if c.Epsilon == 0 {
		c.Epsilon = 0.05
	}
	c.Epsilon = max(0, c.Epsilon)
	if c.MaxEpisode == 0 {
		c.MaxEpisode = 10_000
	}
	return c
}

// MaxNoops is the largest number of no-ops that start an episode; the number
// is drawn from U[1, MaxNoops].
const MaxNoops = 30

// player is a game with its behaviour policy and random streams: the whole
// trajectory of a seed.
type player struct {
	spec        *Game
	cfg         Config
	g           game
	world, mind *rand.Rand // the game's and the policy's randomness
	noops       int        // no-ops left at the start of the episode
	steps       int        // steps into the episode
	running     bool
}

func newPlayer(spec *Game, cfg Config, seed uint64) *player {
	return &player{spec: spec, cfg: cfg, g: spec.new(),
		world: rand.New(rand.NewPCG(seed, 0x776f_726c_64)), // "world"
		mind:  rand.New(rand.NewPCG(seed, 0x6d69_6e64)),    // "mind"
	}
}

// step plays one step: the action's index in the minimal set, the raw
// reward, and whether the episode ended (the next step starts another).
func (p *player) step() (action int, reward float64, done bool) {
	if !p.running {
		p.start()
		p.noops = 1 + p.mind.IntN(MaxNoops)
	}
	if p.noops > 0 {
		p.noops--
		action = p.spec.index(Noop)
	} else {
		a, explore := p.g.behave(p.mind)
		action = p.spec.index(a)
		if explore && p.mind.Float64() < p.cfg.Epsilon {
			action = p.mind.IntN(len(p.spec.Actions))
		}
	}
	reward, done = p.advance(action)
	return action, reward, done
}

// replay plays one step with the action (an index in the minimal set) that
// step chose at this point of the trajectory, without the policy: the game
// and its random stream go as they went in step, the policy's stream stays
// where it is.
func (p *player) replay(action int) (reward float64, done bool) {
	if !p.running {
		p.start()
	}
	return p.advance(action)
}

// start starts an episode.
func (p *player) start() {
	p.g.reset(p.world)
	p.steps, p.running = 0, true
}

// advance applies the action and ends the episode on a terminal state or at
// MaxEpisode steps.
func (p *player) advance(action int) (reward float64, done bool) {
	reward, done = p.g.act(p.spec.Actions[action], p.world)
	p.steps++
	if done || p.steps >= p.cfg.MaxEpisode {
		p.running, done = false, true
	}
	return reward, done
}

// Stream is a game's 275-input stream (see the package comment). It runs the
// game twice from the same seed: a lead copy plays each episode to its end
// first, so that the returns of its steps are known exactly, then the copy
// that is drawn replays it step by step with the lead's actions (its
// policy's choices are known, so it does not run the policy again).
type Stream struct {
	spec         *Game
	gamma        float64
	lead, follow *player

	// The current episode, as the lead played it.
	cum, ret []float64
	ends     []bool
	acts     []uint8 // the actions' indices in the minimal set
	n, i     int     // its length and the next step

	sampled   *canvas // the pixels of the screen that the frame samples
	screen    *canvas // the whole screen, drawn by Screen (nil until then)
	stale     bool    // whether screen is older than the latest step
	reference bool    // run the policy and draw the whole screen at every step (for tests)
	frame     [atari.FrameSize]uint8
	action    int
	reward    float64
	done      bool
}

var _ env.Episodic = (*Stream)(nil)

// New returns the stream of game name for seed. It returns an error for an
// unknown name and panics if cfg is invalid (γ outside [0, 1), MaxEpisode
// negative).
func New(name string, seed uint64, cfg Config) (*Stream, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if !(cfg.Gamma >= 0 && cfg.Gamma < 1) || cfg.MaxEpisode < 1 {
		panic(fmt.Sprintf("minatar: invalid config %+v", cfg))
	}
	return &Stream{
		spec: spec, gamma: cfg.Gamma,
		lead: newPlayer(spec, cfg, seed), follow: newPlayer(spec, cfg, seed),
		cum: make([]float64, cfg.MaxEpisode), ret: make([]float64, cfg.MaxEpisode),
		ends: make([]bool, cfg.MaxEpisode), acts: make([]uint8, cfg.MaxEpisode),
		sampled: newSampled(),
	}, nil
}

// Game returns the game's description.
func (s *Stream) Game() *Game { return s.spec }

// Gamma returns the discount of the returns.
func (s *Stream) Gamma() float64 { return s.gamma }

// ObservationSize returns atari.Inputs (275).
func (s *Stream) ObservationSize() int { return atari.Inputs }

// Next plays one step, writes its observation into dst and returns the
// cumulant c_t = clip(r_t) and the return G_t. It panics if
// len(dst) != atari.Inputs. It does not allocate.
func (s *Stream) Next(dst []float64) (cumulant, ret float64) {
	if len(dst) != atari.Inputs {
		panic(fmt.Sprintf("minatar: observation length %d, want %d", len(dst), atari.Inputs))
	}
	if s.i == s.n {
		s.playAhead()
	}
	if s.reference {
		s.action, s.reward, s.done = s.follow.step()
	} else {
		s.action = int(s.acts[s.i])
		s.reward, s.done = s.follow.replay(s.action)
	}
	c := atari.ClipReward(s.reward)
	if c != s.cum[s.i] || s.done != s.ends[s.i] {
		panic("minatar: internal error: the two copies of the game diverged")
	}
	s.stale = true
	if s.reference {
		atari.Downscale(&s.frame, s.Screen())
	} else {
		s.sampled.clear()
		s.follow.g.draw(s.sampled, s.follow.steps)
		atari.DownscaleSampled(&s.frame, s.sampled.pix)
	}
	atari.SetFrame(dst, &s.frame)
	atari.SetActionReward(dst, s.action, s.reward)
	ret = s.ret[s.i]
	s.i++
	return c, ret
}

// playAhead plays the lead copy through its next episode and computes the
// returns of its steps.
func (s *Stream) playAhead() {
	n := 0
	for done := false; !done; n++ {
		a, r, d := s.lead.step()
		s.cum[n], s.ends[n], s.acts[n], done = atari.ClipReward(r), d, uint8(a), d
	}
	env.EpisodeReturns(s.ret[:n], s.cum[:n], s.ends[:n], s.gamma)
	s.n, s.i = n, 0
}

// Done reports whether the latest step ended an episode.
func (s *Stream) Done() bool { return s.done }

// Action returns the index, in the minimal action set, of the latest action.
func (s *Stream) Action() int { return s.action }

// Reward returns the latest reward before clipping.
func (s *Stream) Reward() float64 { return s.reward }

// Frame returns the latest 16×16 frame (before the division by 256).
func (s *Stream) Frame() *[atari.FrameSize]uint8 { return &s.frame }

// Screen returns the latest 210×160 screen, row-major, of which the frame is
// the downscaling (atari.Downscale); it is all background before the first
// step. Next draws only the screen pixels that the frame samples, so Screen
// draws the whole screen when called; the slice is valid until the next call
// of Next.
func (s *Stream) Screen() []uint8 {
	if s.screen == nil {
		s.screen = newScreen()
	}
	if s.stale {
		s.screen.clear()
		s.follow.g.draw(s.screen, s.follow.steps)
		s.stale = false
	}
	return s.screen.pix
}
