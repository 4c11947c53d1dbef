package minatar

import "math/rand/v2"

// breakout: the paddle on row 9 bounces a ball moving along diagonals into
// three rows of bricks (rows 1-3). Ball directions: 0 up-left, 1 up-right,
// 2 down-right, 3 down-left. Breaking a brick is +1 and reflects the ball
// vertically; walls reflect it; on reaching row 9 the ball bounces off the
// paddle (straight back if the paddle is under its old column, sideways if
// under its new one) or the episode ends. When no brick is left, the three
// rows are refilled as the ball reaches the bottom.
type breakout struct {
	ballX, ballY, dir, pos int
	bricks                 [gridSize][gridSize]bool
	strike                 bool
	launched               bool // the ball waits until the paddle first moves
	straight               bool // the policy's aim: bounce the ball straight back
	played                 int  // steps since the launch
}

const (
	breakoutPaddle = 200
	breakoutBall   = 255
	breakoutBrick  = 110

	// The policy explores with one chance in breakoutRisk when a wrong move
	// would lose the ball, but not in the first breakoutWarmUp steps after
	// the launch.
	breakoutRisk   = 4
	breakoutWarmUp = 50
)

func (g *breakout) reset(rng *rand.Rand) {
	g.ballY, g.pos, g.strike, g.launched, g.played = 3, 4, false, false, 0
	if rng.IntN(2) == 0 {
		g.ballX, g.dir = 0, 2
	} else {
		g.ballX, g.dir = 9, 3
	}
	g.fillBricks()
}

func (g *breakout) fillBricks() {
	g.bricks = [gridSize][gridSize]bool{}
	for r := 1; r <= 3; r++ {
		for c := range gridSize {
			g.bricks[r][c] = true
		}
	}
}

func (g *breakout) noBricks() bool {
	for r := range g.bricks {
		for _, b := range g.bricks[r] {
			if b {
				return false
			}
		}
	}
	return true
}

// dx and dy of each direction.
var (
	breakoutDX = [4]int{-1, 1, 1, -1}
	breakoutDY = [4]int{-1, -1, 1, 1}
)

func (g *breakout) act(a Action, _ *rand.Rand) (float64, bool) {
	r := 0.0
	switch a {
	case Left:
		g.pos = max(0, g.pos-1)
	case Right:
		g.pos = min(9, g.pos+1)
	}
	if !g.launched {
		if a == Noop {
			return 0, false
		}
		g.launched = true
	}
	g.played++
	lastY := g.ballY
	nx, ny := g.ballX+breakoutDX[g.dir], g.ballY+breakoutDY[g.dir]
	strike := false
	terminal := false
	if nx < 0 || nx > 9 {
		nx = clamp(nx, 0, 9)
		g.dir = [4]int{1, 0, 3, 2}[g.dir]
	}
	switch {
	case ny < 0:
		ny = 0
		g.dir = [4]int{3, 2, 1, 0}[g.dir]
	case g.bricks[ny][nx]:
		strike = true
		if !g.strike {
			r++
			g.strike = true
			g.bricks[ny][nx] = false
			ny = lastY
			g.dir = [4]int{3, 2, 1, 0}[g.dir]
		}
	case ny == 9:
		if g.noBricks() {
			g.fillBricks()
		}
		switch {
		case g.ballX == g.pos:
			g.dir = [4]int{3, 2, 1, 0}[g.dir]
			ny = lastY
		case nx == g.pos:
			g.dir = [4]int{2, 3, 0, 1}[g.dir]
			ny = lastY
		default:
			terminal = true
		}
	}
	if !strike {
		g.strike = false
	}
	g.ballX, g.ballY = nx, ny
	return r, terminal
}

func (g *breakout) draw(s *canvas, _ int) {
	for r := range g.bricks {
		for c, b := range g.bricks[r] {
			if b {
				s.fill(r, c, block, breakoutBrick)
			}
		}
	}
	s.fill(9, g.pos, flat, breakoutPaddle)
	s.fill(g.ballY, g.ballX, small, breakoutBall)
}

// behave moves the paddle toward the column where the ball will next reach
// the bottom row, found by playing the ball forward on a copy of the game
// (with the paddle out of the way); before the launch it moves either way at
// random. It explores when the paddle could still make it after a wrong
// move, and only now and then when a wrong move would lose the ball.
func (g *breakout) behave(rng *rand.Rand) (Action, bool) {
	if !g.launched {
		return [2]Action{Left, Right}[rng.IntN(2)], false
	}
	if breakoutDY[g.dir] < 0 {
		g.straight = rng.IntN(2) == 0
	}
	sim := *g
	sim.pos = -1
	target, left := g.ballX, 0
	for ; left < 4*gridSize*gridSize; left++ {
		if sim.ballY == 8 && breakoutDY[sim.dir] > 0 {
			target = clamp(sim.ballX+breakoutDX[sim.dir], 0, 9)
			if g.straight {
				target = sim.ballX
			}
			break
		}
		if _, end := sim.act(Noop, nil); end {
			break
		}
	}
	d := abs(target - g.pos)
	explore := d < left || (d == left && g.played > breakoutWarmUp && rng.IntN(breakoutRisk) == 0)
	switch {
	case target < g.pos:
		return Left, explore
	case target > g.pos:
		return Right, explore
	}
	return Noop, explore
}
