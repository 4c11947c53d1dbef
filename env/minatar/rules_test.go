package minatar

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/env/atari"
	"github.com/stretchr/testify/assert"
)

func rng() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }

func TestBreakoutRules(t *testing.T) {
	g := new(breakout)
	g.reset(rng())
	g.launched = true
	// Up-right from (5, 4) into the brick at (6, 3): +1, the brick goes, the
	// ball stays in row 4 and turns down-right.
	g.ballX, g.ballY, g.dir = 5, 4, 1
	r, end := g.act(Noop, nil)
	assert.Equal(t, 1.0, r)
	assert.False(t, end)
	assert.False(t, g.bricks[3][6])
	assert.Equal(t, [3]int{6, 4, 2}, [3]int{g.ballX, g.ballY, g.dir})
	// Down-right from (2, 8) with the paddle under the new column: bounces
	// back the way it came (up-left).
	g.ballX, g.ballY, g.dir, g.pos = 2, 8, 2, 3
	_, end = g.act(Noop, nil)
	assert.False(t, end)
	assert.Equal(t, [3]int{3, 8, 0}, [3]int{g.ballX, g.ballY, g.dir})
	// With the paddle under the old column: straight up (up-right).
	g.ballX, g.ballY, g.dir, g.pos = 2, 8, 2, 2
	_, end = g.act(Noop, nil)
	assert.False(t, end)
	assert.Equal(t, [3]int{3, 8, 1}, [3]int{g.ballX, g.ballY, g.dir})
	// The same with the paddle elsewhere ends the episode.
	g.ballX, g.ballY, g.dir, g.pos = 2, 8, 2, 7
	_, end = g.act(Noop, nil)
	assert.True(t, end)
}

func TestFreewayRules(t *testing.T) {
	g := newFreeway()
	g.reset(rng())
	for i := range g.cars {
		g.cars[i].x, g.cars[i].timer = 9, 5 // out of the way
	}
	g.pos, g.moveTimer = 1, 0
	r, end := g.act(Up, rng())
	assert.Equal(t, 1.0, r)
	assert.False(t, end)
	assert.Equal(t, 9, g.pos)
	// A car entering the chicken's cell sends it back.
	g.pos, g.moveTimer = 5, 1
	g.cars[4] = car{x: 3, y: 5, timer: 0, speed: 1}
	g.act(Noop, rng())
	assert.Equal(t, 9, g.pos)
	// Movement waits for the move timer.
	g.cars[4].x = 9
	g.pos, g.moveTimer = 5, 2
	g.act(Up, rng())
	assert.Equal(t, 5, g.pos)
}

func TestAsterixRules(t *testing.T) {
	g := new(asterix)
	g.reset(nil)
	g.entities[4] = entity{x: 6, live: true, gold: true} // row 5
	r, end := g.act(Right, rng())
	assert.Equal(t, 1.0, r)
	assert.False(t, end)
	assert.False(t, g.entities[4].live)
	g.entities[4] = entity{x: 5, live: true}
	_, end = g.act(Left, rng())
	assert.True(t, end, "an enemy on the player's cell ends the episode")
}

func TestSeaquestRules(t *testing.T) {
	for _, tc := range []struct {
		divers, oxygen int
		reward         float64
		end            bool
		after          int
	}{
		{0, 100, 0, true, 0},
		{2, 100, 0, false, 1},
		{6, 150, 7, false, 0}, // 150·10/200
	} {
		g := new(seaquest)
		g.reset(nil)
		g.subY, g.surfaced, g.divers, g.oxygen = 1, false, tc.divers, tc.oxygen
		r, end := g.act(Up, rng())
		assert.Equal(t, tc.reward, r, "%+v", tc)
		assert.Equal(t, tc.end, end, "%+v", tc)
		assert.Equal(t, tc.after, g.divers, "%+v", tc)
		if !end {
			assert.Equal(t, seaquestMaxOxygen, g.oxygen)
		}
	}
	// A bullet meeting a fish: +1, both gone.
	g := new(seaquest)
	g.reset(nil)
	g.subX, g.subY, g.subRight = 3, 4, true
	g.fish = append(g.fish, mover{x: 5, y: 4, timer: 3})
	g.act(Fire, rng())
	r, _ := g.act(Noop, rng())
	assert.Equal(t, 1.0, r)
	assert.Empty(t, g.fish)
	assert.Empty(t, g.fBullets)
}

func TestInvadersRules(t *testing.T) {
	g := new(invaders)
	g.reset(nil)
	g.aliens = [gridSize][gridSize]bool{}
	g.aliens[8][5] = true
	g.pos = 5
	r, end := g.act(Fire, rng())
	assert.Equal(t, 1.0, r)
	assert.False(t, end)
	assert.True(t, g.aliens[0][2], "a cleared wave is replaced")
	assert.Equal(t, invadersMoveInterval-1, g.moveInterval, "and the next one is faster")
	// An enemy bullet falling onto the cannon.
	g.eBull[8][5] = true
	_, end = g.act(Noop, rng())
	assert.True(t, end)
}

// TestInvadersHoldFire: from a reset, a cannon that never moves is safe for
// the whole no-op start: the aliens' first shot hits it at step 46.
func TestInvadersHoldFire(t *testing.T) {
	g := new(invaders)
	g.reset(nil)
	steps := 0
	for end := false; !end && steps < 100; steps++ {
		var r float64
		r, end = g.act(Noop, rng())
		assert.Zero(t, r, "step %d", steps+1)
	}
	assert.Equal(t, 46, steps)
	assert.Greater(t, steps, MaxNoops)
}

// TestBreakoutBallWaits: the ball stays put until the paddle first moves.
func TestBreakoutBallWaits(t *testing.T) {
	g := new(breakout)
	g.reset(rng())
	x, y := g.ballX, g.ballY
	for range 2 * MaxNoops {
		_, end := g.act(Noop, nil)
		assert.False(t, end)
	}
	assert.Equal(t, [2]int{x, y}, [2]int{g.ballX, g.ballY})
	g.act(Left, nil)
	assert.NotEqual(t, [2]int{x, y}, [2]int{g.ballX, g.ballY})
	assert.Equal(t, 3, g.pos)
}

// TestGreyLevels: in every game each kind of object has its own grey level,
// distinct from the background.
func TestGreyLevels(t *testing.T) {
	for name, levels := range map[string][]uint8{
		"breakout":       {breakoutPaddle, breakoutBall, breakoutBrick},
		"freeway":        {freewayChicken, freewayCar},
		"asterix":        {asterixPlayer, asterixEnemy, asterixGold},
		"seaquest":       {seaquestSubFront, seaquestSubBack, seaquestFBullet, seaquestEBullet, seaquestFish, seaquestEnemySub, seaquestDiver, seaquestOxygen, seaquestGauge},
		"space-invaders": {invadersCannon, invadersAlien, invadersFBullet, invadersEBullet},
	} {
		seen := map[uint8]bool{background: true}
		for _, v := range levels {
			assert.False(t, seen[v], "%s: level %d twice", name, v)
			seen[v] = true
		}
	}
}

// TestDrawn: the screen shows each game's objects and the frame is the
// screen downscaled.
func TestDrawn(t *testing.T) {
	for _, g := range Games {
		s, _ := New(g.Name, 2, Config{})
		x := make([]float64, atari.Inputs)
		s.Next(x)
		s.Next(x) // an even frame: every game shows its player (shown)
		lit := 0
		for _, p := range s.Screen() {
			if p != background {
				lit++
			}
		}
		assert.Positive(t, lit, g.Name)
		var f [atari.FrameSize]uint8
		atari.Downscale(&f, s.Screen())
		assert.Equal(t, f, *s.Frame(), g.Name)
		for i, p := range f {
			assert.Equal(t, float64(p)/256, x[i])
		}
	}
}

// TestFlicker: freeway, asterix and seaquest draw two groups of objects on
// alternate frames (each group's grey levels only on its frames); breakout
// and space-invaders draw the same screen on every frame.
func TestFlicker(t *testing.T) {
	screen := func(g game, frame int) map[uint8]bool {
		s := newScreen()
		g.draw(s, frame)
		seen := map[uint8]bool{}
		for _, p := range s.pix {
			seen[p] = true
		}
		return seen
	}
	for _, tc := range []struct {
		name       string
		even, odd  []uint8 // levels only on even, only on odd frames
		everywhere []uint8
	}{
		{"freeway", []uint8{freewayChicken}, []uint8{freewayCar}, nil},
		{"asterix", []uint8{asterixPlayer}, []uint8{asterixEnemy, asterixGold}, nil},
		{"seaquest", []uint8{seaquestSubFront, seaquestSubBack, seaquestDiver, seaquestFBullet},
			[]uint8{seaquestFish, seaquestEnemySub, seaquestEBullet}, []uint8{seaquestOxygen, seaquestGauge}},
	} {
		spec, _ := Lookup(tc.name)
		p := newPlayer(spec, Config{}.withDefaults(), 3)
		// Play until every object is on the board at once.
		for range 100_000 {
			p.step()
			even, odd := screen(p.g, 2), screen(p.g, 3)
			all := true
			for _, v := range tc.even {
				all = all && even[v]
			}
			for _, v := range tc.odd {
				all = all && odd[v]
			}
			for _, v := range tc.everywhere {
				all = all && even[v]
			}
			if all {
				break
			}
		}
		for f := 1; f <= 4; f++ {
			seen := screen(p.g, f)
			for _, v := range tc.even {
				assert.Equal(t, f%2 == 0, seen[v], "%s level %d frame %d", tc.name, v, f)
			}
			for _, v := range tc.odd {
				assert.Equal(t, f%2 == 1, seen[v], "%s level %d frame %d", tc.name, v, f)
			}
			for _, v := range tc.everywhere {
				assert.True(t, seen[v], "%s level %d frame %d", tc.name, v, f)
			}
		}
	}
	for _, name := range []string{"breakout", "space-invaders"} {
		spec, _ := Lookup(name)
		p := newPlayer(spec, Config{}.withDefaults(), 3)
		for range 100 {
			p.step()
		}
		assert.Equal(t, screen(p.g, 1), screen(p.g, 2), name)
	}
}

// TestBottomRowVisible: the paddle, the cannon and both seaquest gauges in
// the bottom grid row show in the 16×16 frame.
func TestBottomRowVisible(t *testing.T) {
	for _, sh := range []shape{flat, upper, lower} {
		s := newScreen()
		s.fill(9, 4, sh, 200)
		var f [atari.FrameSize]uint8
		atari.Downscale(&f, s.pix)
		lit := 0
		for _, p := range f {
			if p > 40 {
				lit++
			}
		}
		assert.Positive(t, lit, "shape %+v", sh)
	}
}
