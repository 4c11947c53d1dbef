package minatar

import "math/rand/v2"

// invaders (Space Invaders): the cannon moves along row 9 and fires a bullet
// upward at most every 5 steps. A 4×6 block of aliens marches sideways one
// cell every moveInterval steps (sooner when fewer than that are left), and
// steps down and turns at an edge; every 10 steps the alien nearest the
// cannon's column fires down. A bullet meeting an alien is +1 and removes
// both; a cleared wave is replaced by a faster one. An enemy bullet or an
// alien reaching the cannon, or aliens stepping down from row 9, end the
// episode.
type invaders struct {
	pos                   int
	aliens, fBull, eBull  [gridSize][gridSize]bool
	dir                   int // −1 left, +1 right
	moveInterval          int
	moveTimer, shotTimer  int
	alienShotTimer, ramps int
}

const (
	invadersCannon  = 220
	invadersAlien   = 140
	invadersFBullet = 255
	invadersEBullet = 90

	invadersShotCoolDown  = 5
	invadersMoveInterval  = 12
	invadersShotInterval  = 10
	invadersHoldFire      = MaxNoops + 10 // the aliens' first shot
	invadersFastestMarch  = 6
	invadersFirstRow      = 0
	invadersRows, invCols = 4, 6
)

func (g *invaders) wave() {
	for r := range invadersRows {
		for c := 2; c < 2+invCols; c++ {
			g.aliens[invadersFirstRow+r][c] = true
		}
	}
}

func (g *invaders) reset(*rand.Rand) {
	*g = invaders{pos: 5, dir: -1, moveInterval: invadersMoveInterval,
		moveTimer: invadersMoveInterval, alienShotTimer: invadersHoldFire}
	g.wave()
}

func (g *invaders) count() int {
	n := 0
	for r := range g.aliens {
		for _, a := range g.aliens[r] {
			if a {
				n++
			}
		}
	}
	return n
}

func (g *invaders) column(c int) bool {
	for r := range g.aliens {
		if g.aliens[r][c] {
			return true
		}
	}
	return false
}

func (g *invaders) act(a Action, _ *rand.Rand) (float64, bool) {
	terminal := false
	switch {
	case a == Fire && g.shotTimer == 0:
		g.fBull[9][g.pos] = true
		g.shotTimer = invadersShotCoolDown
	case a == Left:
		g.pos = max(0, g.pos-1)
	case a == Right:
		g.pos = min(9, g.pos+1)
	}
	// Friendly bullets rise and leave at the top; enemy bullets fall and
	// leave at the bottom.
	copy(g.fBull[:9], g.fBull[1:])
	g.fBull[9] = [gridSize]bool{}
	copy(g.eBull[1:], g.eBull[:9])
	g.eBull[0] = [gridSize]bool{}
	if g.eBull[9][g.pos] || g.aliens[9][g.pos] {
		terminal = true
	}
	if g.moveTimer == 0 {
		g.moveTimer = min(g.count(), g.moveInterval)
		if (g.column(0) && g.dir < 0) || (g.column(9) && g.dir > 0) {
			g.dir = -g.dir
			for _, a := range g.aliens[9] {
				terminal = terminal || a
			}
			copy(g.aliens[1:], g.aliens[:9])
			g.aliens[0] = [gridSize]bool{}
		} else {
			for r := range g.aliens {
				row := g.aliens[r]
				for c := range row {
					g.aliens[r][c] = row[(c-g.dir+gridSize)%gridSize]
				}
			}
		}
		if g.aliens[9][g.pos] {
			terminal = true
		}
	}
	if g.alienShotTimer == 0 {
		g.alienShotTimer = invadersShotInterval
		if c, ok := g.nearestColumn(); ok {
			for r := gridSize - 1; r >= 0; r-- {
				if g.aliens[r][c] {
					g.eBull[r][c] = true
					break
				}
			}
		}
	}
	r := 0.0
	for y := range g.aliens {
		for x := range g.aliens[y] {
			if g.aliens[y][x] && g.fBull[y][x] {
				g.aliens[y][x], g.fBull[y][x] = false, false
				r++
			}
		}
	}
	g.shotTimer = max(0, g.shotTimer-1)
	g.moveTimer--
	g.alienShotTimer--
	if g.count() == 0 {
		if g.moveInterval > invadersFastestMarch {
			g.moveInterval--
			g.ramps++
		}
		g.wave()
	}
	return r, terminal
}

// nearestColumn returns the column with an alien nearest the cannon (the
// left one on a tie).
func (g *invaders) nearestColumn() (int, bool) {
	for d := range gridSize {
		for _, c := range [2]int{g.pos - d, g.pos + d} {
			if c >= 0 && c < gridSize && g.column(c) {
				return c, true
			}
		}
	}
	return 0, false
}

func (g *invaders) draw(s *canvas, _ int) {
	for y := range g.aliens {
		for x := range g.aliens[y] {
			if g.aliens[y][x] {
				s.fill(y, x, block, invadersAlien)
			}
			if g.fBull[y][x] {
				s.fill(y, x, small, invadersFBullet)
			}
			if g.eBull[y][x] {
				s.fill(y, x, small, invadersEBullet)
			}
		}
	}
	s.fill(9, g.pos, flat, invadersCannon)
}

// behave dodges an enemy bullet in the cannon's column within three rows
// (toward the side with no bullet close), otherwise moves under the nearest
// alien column and fires when under it. It explores only when no enemy
// bullet is close to the cannon's column or either neighbour.
func (g *invaders) behave(*rand.Rand) (Action, bool) {
	danger := func(c int) bool {
		if c < 0 || c > 9 {
			return true
		}
		for r := 6; r <= 9; r++ {
			if g.eBull[r][c] {
				return true
			}
		}
		return false
	}
	// Explore only with no enemy bullet close to the cannon's neighbours.
	calm := !danger(g.pos-1) && !danger(g.pos) && !danger(g.pos+1)
	if danger(g.pos) {
		switch {
		case !danger(g.pos - 1):
			return Left, calm
		case !danger(g.pos + 1):
			return Right, calm
		}
		return Noop, calm
	}
	c, ok := g.nearestColumn()
	switch {
	case !ok || c == g.pos:
		return Fire, calm
	case c < g.pos && !danger(g.pos-1):
		return Left, calm
	case c > g.pos && !danger(g.pos+1):
		return Right, calm
	}
	return Fire, calm
}
