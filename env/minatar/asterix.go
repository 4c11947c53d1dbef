package minatar

import "math/rand/v2"

// asterix: the player moves in the four directions within rows 1-8. Every
// spawnSpeed steps an enemy or (one time in three) gold enters a free row
// 1-8 from the left or right edge; all of them move one cell every
// moveSpeed+1 steps and leave at the far edge. Gold under the player is +1
// and disappears; an enemy there ends the episode. Every 100 steps spawns
// get faster, and every other time moves too.
type asterix struct {
	playerX, playerY int
	entities         [8]entity // slot i is row i+1
	spawnSpeed       int
	spawnTimer       int
	moveSpeed        int
	moveTimer        int
	rampTimer        int
	rampIndex        int
}

type entity struct {
	x          int
	right      bool
	gold, live bool
}

const (
	asterixPlayer = 230
	asterixEnemy  = 120
	asterixGold   = 180

	asterixRampInterval = 100
	asterixSpawnWatch   = 2
)

func (g *asterix) reset(*rand.Rand) {
	*g = asterix{playerX: 5, playerY: 5, spawnSpeed: 10, spawnTimer: MaxNoops,
		moveSpeed: 5, moveTimer: 5, rampTimer: asterixRampInterval}
}

func (g *asterix) spawn(rng *rand.Rand) {
	right := rng.Float64() < 0.5
	gold := rng.Float64() < 1.0/3
	var free [8]int
	n := 0
	for i, e := range g.entities {
		if !e.live {
			free[n] = i
			n++
		}
	}
	if n == 0 {
		return
	}
	x := 9
	if right {
		x = 0
	}
	g.entities[free[rng.IntN(n)]] = entity{x: x, right: right, gold: gold, live: true}
}

// touch resolves the player and the entity in slot i meeting.
func (g *asterix) touch(i int, r *float64) (terminal bool) {
	e := &g.entities[i]
	if !e.live || e.x != g.playerX || i+1 != g.playerY {
		return false
	}
	if e.gold {
		e.live = false
		*r++
		return false
	}
	return true
}

func (g *asterix) act(a Action, rng *rand.Rand) (float64, bool) {
	r, terminal := 0.0, false
	if g.spawnTimer == 0 {
		if rng != nil { // nil in the policy's look-ahead, which cannot see spawns
			g.spawn(rng)
		}
		g.spawnTimer = g.spawnSpeed
	}
	switch a {
	case Left:
		g.playerX = max(0, g.playerX-1)
	case Right:
		g.playerX = min(9, g.playerX+1)
	case Up:
		g.playerY = max(1, g.playerY-1)
	case Down:
		g.playerY = min(8, g.playerY+1)
	}
	for i := range g.entities {
		terminal = g.touch(i, &r) || terminal
	}
	if g.moveTimer == 0 {
		g.moveTimer = g.moveSpeed
		for i := range g.entities {
			e := &g.entities[i]
			if !e.live {
				continue
			}
			e.x += step(e.right)
			if e.x < 0 || e.x > 9 {
				e.live = false
			}
			terminal = g.touch(i, &r) || terminal
		}
	}
	g.spawnTimer--
	g.moveTimer--
	if g.spawnSpeed > 1 || g.moveSpeed > 1 {
		if g.rampTimer >= 0 {
			g.rampTimer--
		} else {
			if g.moveSpeed > 1 && g.rampIndex%2 == 1 {
				g.moveSpeed--
			}
			if g.spawnSpeed > 1 {
				g.spawnSpeed--
			}
			g.rampIndex++
			g.rampTimer = asterixRampInterval
		}
	}
	return r, terminal
}

// draw shows the enemies and gold on odd frames and the player on even
// ones (shown).
func (g *asterix) draw(s *canvas, frame int) {
	if shown(frame, 0) {
		s.fill(g.playerY, g.playerX, block, asterixPlayer)
		return
	}
	for i, e := range g.entities {
		if !e.live {
			continue
		}
		if e.gold {
			s.fill(i+1, e.x, small, asterixGold)
		} else {
			s.fill(i+1, e.x, block, asterixEnemy)
		}
	}
}

var asterixMoves = [...]Action{Noop, Left, Up, Right, Down}

// survives reports whether the player is still alive after action a and
// then, for depth more steps, the best of the five moves, on a copy of the
// game that spawns nothing.
func (g *asterix) survives(a Action, depth int) bool {
	sim := *g
	if _, end := sim.act(a, nil); end {
		return false
	}
	if depth == 0 {
		return true
	}
	for _, b := range asterixMoves {
		if sim.survives(b, depth-1) {
			return true
		}
	}
	return false
}

// behave takes, among the moves that survive the next three steps, the one
// closest to the nearest gold (ties: staying first, then the action order;
// with no gold, toward the middle rows); if none survives it stays. Since
// the look-ahead cannot see spawns, it keeps out of the two columns at each
// edge when a spawn is due within asterixSpawnWatch steps, if it can. It
// explores only when every move survives.
func (g *asterix) behave(*rand.Rand) (Action, bool) {
	var ok [len(asterixMoves)]bool
	safe := 0
	for i, a := range asterixMoves {
		ok[i] = g.survives(a, 2)
		if ok[i] {
			safe++
		}
	}
	for _, watch := range [2]bool{g.spawnTimer <= asterixSpawnWatch, false} {
		best, bestScore := Noop, 1<<30
		for i, a := range asterixMoves {
			if !ok[i] {
				continue
			}
			x, y := g.playerX, g.playerY
			switch a {
			case Left:
				x = max(0, x-1)
			case Right:
				x = min(9, x+1)
			case Up:
				y = max(1, y-1)
			case Down:
				y = min(8, y+1)
			}
			if watch && (x <= 1 || x >= 8) {
				continue
			}
			score := 100 // no gold: stay near the middle rows
			for i, o := range g.entities {
				if o.live && o.gold {
					score = min(score, abs(o.x-x)+abs(i+1-y))
				}
			}
			if score == 100 {
				score += abs(y - 5)
			}
			if score < bestScore {
				best, bestScore = a, score
			}
		}
		if bestScore < 1<<30 {
			return best, safe == len(asterixMoves)
		}
	}
	return Noop, false
}
