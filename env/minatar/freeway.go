package minatar

import "math/rand/v2"

// freeway: the chicken in column 4 moves up or down one row at most every
// third step, from row 9 toward row 0; reaching row 0 is +1, sends it back to
// row 9 and redraws the cars' speeds. Eight cars, one per row 1-8, move
// horizontally, wrapping around, one cell every |speed| steps (speed 1-5,
// either direction); a car on the chicken's cell sends it back to row 9. The
// episode ends when a 2,500-step timer runs out, after 2,501 steps.
type freeway struct {
	cars                  [8]car
	pos, moveTimer, timer int
}

type car struct{ x, y, timer, speed int }

const (
	freewayChicken   = 230
	freewayCar       = 130
	freewaySpeed     = 3
	freewayTimeLimit = 2500
)

func newFreeway() *freeway { return new(freeway) }

func (g *freeway) randomizeCars(rng *rand.Rand, init bool) {
	var speeds [8]int
	for i := range speeds {
		speeds[i] = 1 + rng.IntN(5)
	}
	for i := range speeds {
		if rng.IntN(2) == 0 {
			speeds[i] = -speeds[i]
		}
	}
	for i, s := range speeds {
		if init {
			g.cars[i] = car{x: 0, y: i + 1}
		}
		g.cars[i].timer, g.cars[i].speed = abs(s), s
	}
}

func (g *freeway) reset(rng *rand.Rand) {
	g.randomizeCars(rng, true)
	g.pos, g.moveTimer, g.timer = 9, freewaySpeed, freewayTimeLimit
}

func (g *freeway) act(a Action, rng *rand.Rand) (float64, bool) {
	r := 0.0
	if g.moveTimer == 0 {
		switch a {
		case Up:
			g.moveTimer = freewaySpeed
			g.pos = max(0, g.pos-1)
		case Down:
			g.moveTimer = freewaySpeed
			g.pos = min(9, g.pos+1)
		}
	}
	if g.pos == 0 {
		r++
		g.randomizeCars(rng, false)
		g.pos = 9
	}
	for i := range g.cars {
		c := &g.cars[i]
		if c.x == 4 && c.y == g.pos {
			g.pos = 9
		}
		if c.timer == 0 {
			c.timer = abs(c.speed)
			c.x = (c.x + step(c.speed > 0) + gridSize) % gridSize
			if c.x == 4 && c.y == g.pos {
				g.pos = 9
			}
		} else {
			c.timer--
		}
	}
	if g.moveTimer > 0 {
		g.moveTimer--
	}
	g.timer--
	return r, g.timer < 0
}

// draw shows the cars on odd frames and the chicken on even ones (shown).
func (g *freeway) draw(s *canvas, frame int) {
	if shown(frame, 1) {
		for _, c := range g.cars {
			s.fill(c.y, c.x, block, freewayCar)
		}
		return
	}
	s.fill(g.pos, 4, block, freewayChicken)
}

// behave moves up unless the car of the next row would reach column 4
// within the next few steps, then waits.
func (g *freeway) behave(*rand.Rand) (Action, bool) {
	next := g.pos - 1
	if next < 1 || next > 8 {
		return Up, true
	}
	c := g.cars[next-1]
	d := step(c.speed > 0)
	// Steps until the car enters column 4: it moves every |speed|+1 steps.
	dist := ((4-c.x)*d + gridSize) % gridSize
	eta := c.timer + (abs(c.speed)+1)*(dist-1)
	if dist == 0 || eta <= 1 {
		return Noop, true
	}
	return Up, true
}
