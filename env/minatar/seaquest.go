package minatar

import (
	"math/rand/v2"
	"slices"
)

// seaquest: the player's submarine (front cell and back cell, facing left or
// right) moves in rows 0-8 and fires bullets that travel along its row.
// Enemy fish and enemy subs enter rows 1-8 from either edge every spawnSpeed
// steps (never against the direction of another enemy in the row) and move
// one cell every moveSpeed+1 steps; enemy subs fire a bullet every 11 steps.
// A bullet hitting a fish or sub is +1 and removes both. Divers enter every
// 31 steps and move one cell every 6; touching one takes it aboard (at most
// 6). Oxygen (200) drops by one per step below the surface (row 0); reaching
// the surface with a diver refills it and lets one diver go, or, with six,
// lets all go for a bonus of oxygen·10/200 (clipped to 1 in the stream), and
// makes the enemies faster. Being hit, running out of oxygen or surfacing
// with no diver ends the episode.
type seaquest struct {
	oxygen, divers     int
	subX, subY         int
	subRight           bool
	fBullets, eBullets []mover
	fish, subs, swim   []mover // swim: divers in the water
	spawnSpeed         int
	spawnTimer         int
	diverTimer         int
	moveSpeed          int
	rampIndex          int
	shotTimer          int
	surfaced           bool
	look               []seaquest // the policy's scratch copies for its look-ahead
}

// mover is a bullet, fish, enemy sub or diver moving along its row.
type mover struct {
	x, y         int
	right        bool
	timer, shoot int // move and shot timers
}

const (
	seaquestSubFront = 240
	seaquestSubBack  = 200
	seaquestFBullet  = 255
	seaquestEBullet  = 90
	seaquestFish     = 150
	seaquestEnemySub = 120
	seaquestDiver    = 180
	seaquestOxygen   = 60
	seaquestGauge    = 215

	seaquestMaxOxygen     = 200
	seaquestDiverSpawn    = 30
	seaquestDiverMove     = 5
	seaquestShotCoolDown  = 5
	seaquestEnemyShotTime = 10
)

func (g *seaquest) reset(*rand.Rand) {
	keep := func(s []mover) []mover {
		if s == nil {
			return make([]mover, 0, 64)
		}
		return s[:0]
	}
	*g = seaquest{oxygen: seaquestMaxOxygen, subX: 5, spawnSpeed: 20, spawnTimer: 20,
		diverTimer: seaquestDiverSpawn, moveSpeed: 5, surfaced: true,
		fBullets: keep(g.fBullets), eBullets: keep(g.eBullets), fish: keep(g.fish), subs: keep(g.subs), swim: keep(g.swim),
		look: g.look}
}

func (g *seaquest) spawnEnemy(rng *rand.Rand) {
	right := rng.Float64() < 0.5
	isSub := rng.Float64() < 1.0/3
	y := 1 + rng.IntN(8)
	for _, l := range [2][]mover{g.subs, g.fish} {
		for _, e := range l {
			if e.y == y && e.right != right {
				return
			}
		}
	}
	x := 9
	if right {
		x = 0
	}
	m := mover{x: x, y: y, right: right, timer: g.moveSpeed, shoot: seaquestEnemyShotTime}
	if isSub {
		g.subs = append(g.subs, m)
	} else {
		g.fish = append(g.fish, m)
	}
}

func (g *seaquest) spawnDiver(rng *rand.Rand) {
	right := rng.Float64() < 0.5
	y := 1 + rng.IntN(8)
	x := 9
	if right {
		x = 0
	}
	g.swim = append(g.swim, mover{x: x, y: y, right: right, timer: seaquestDiverMove})
}

func (g *seaquest) at(m mover) bool { return m.x == g.subX && m.y == g.subY }

// hit removes the first mover of l at (x, y) and reports whether there was one.
func hit(l *[]mover, x, y int) bool {
	for i, m := range *l {
		if m.x == x && m.y == y {
			*l = slices.Delete(*l, i, i+1)
			return true
		}
	}
	return false
}

func off(x int) bool { return x < 0 || x > 9 }

func (g *seaquest) act(a Action, rng *rand.Rand) (float64, bool) {
	r, terminal := 0.0, false
	// rng is nil in the policy's look-ahead, which cannot see spawns.
	if g.spawnTimer == 0 {
		if rng != nil {
			g.spawnEnemy(rng)
		}
		g.spawnTimer = g.spawnSpeed
	}
	if g.diverTimer == 0 {
		if rng != nil {
			g.spawnDiver(rng)
		}
		g.diverTimer = seaquestDiverSpawn
	}
	switch {
	case a == Fire && g.shotTimer == 0:
		g.fBullets = append(g.fBullets, mover{x: g.subX, y: g.subY, right: g.subRight})
		g.shotTimer = seaquestShotCoolDown
	case a == Left:
		g.subX, g.subRight = max(0, g.subX-1), false
	case a == Right:
		g.subX, g.subRight = min(9, g.subX+1), true
	case a == Up:
		g.subY = max(0, g.subY-1)
	case a == Down:
		g.subY = min(8, g.subY+1)
	}

	// Friendly bullets, newest first.
	for i := len(g.fBullets) - 1; i >= 0; i-- {
		b := &g.fBullets[i]
		b.x += step(b.right)
		if off(b.x) || hit(&g.fish, b.x, b.y) || hit(&g.subs, b.x, b.y) {
			if !off(b.x) {
				r++
			}
			g.fBullets = slices.Delete(g.fBullets, i, i+1)
		}
	}
	// Divers.
	for i := len(g.swim) - 1; i >= 0; i-- {
		d := &g.swim[i]
		if g.at(*d) && g.divers < 6 {
			g.swim = slices.Delete(g.swim, i, i+1)
			g.divers++
			continue
		}
		if d.timer > 0 {
			d.timer--
			continue
		}
		d.timer = seaquestDiverMove
		d.x += step(d.right)
		switch {
		case off(d.x):
			g.swim = slices.Delete(g.swim, i, i+1)
		case g.at(*d) && g.divers < 6:
			g.swim = slices.Delete(g.swim, i, i+1)
			g.divers++
		}
	}
	// Enemy subs and fish: move, collide, meet bullets; subs fire.
	enemies := func(l *[]mover, fire bool) {
		for i := len(*l) - 1; i >= 0; i-- {
			e := &(*l)[i]
			if g.at(*e) {
				terminal = true
			}
			removed := false
			if e.timer > 0 {
				e.timer--
			} else {
				e.timer = g.moveSpeed
				e.x += step(e.right)
				switch {
				case off(e.x):
					removed = true
				case g.at(*e):
					terminal = true
				case hit(&g.fBullets, e.x, e.y):
					r++
					removed = true
				}
			}
			if removed {
				*l = slices.Delete(*l, i, i+1)
				continue
			}
			if fire {
				if e.shoot > 0 {
					e.shoot--
				} else {
					e.shoot = seaquestEnemyShotTime
					g.eBullets = append(g.eBullets, mover{x: e.x, y: e.y, right: e.right})
				}
			}
		}
	}
	enemies(&g.subs, true)
	for i := len(g.eBullets) - 1; i >= 0; i-- {
		b := &g.eBullets[i]
		if g.at(*b) {
			terminal = true
		}
		b.x += step(b.right)
		switch {
		case off(b.x):
			g.eBullets = slices.Delete(g.eBullets, i, i+1)
		case g.at(*b):
			terminal = true
		}
	}
	enemies(&g.fish, false)

	g.spawnTimer = max(0, g.spawnTimer-1)
	g.diverTimer = max(0, g.diverTimer-1)
	g.shotTimer = max(0, g.shotTimer-1)
	if g.oxygen <= 0 {
		terminal = true
	}
	if g.subY > 0 {
		g.oxygen--
		g.surfaced = false
	} else if !g.surfaced {
		if g.divers == 0 {
			terminal = true
		} else {
			r += g.surface()
		}
	}
	return r, terminal
}

// surface refills the oxygen, lets divers go and ramps the difficulty.
func (g *seaquest) surface() float64 {
	g.surfaced = true
	r := 0.0
	if g.divers == 6 {
		g.divers = 0
		r = float64(g.oxygen * 10 / seaquestMaxOxygen)
	} else {
		g.divers--
	}
	g.oxygen = seaquestMaxOxygen
	if g.spawnSpeed > 1 || g.moveSpeed > 2 {
		if g.moveSpeed > 2 && g.rampIndex%2 == 1 {
			g.moveSpeed--
		}
		if g.spawnSpeed > 1 {
			g.spawnSpeed--
		}
		g.rampIndex++
	}
	return r
}

// draw shows the gauges on every frame, the enemies (fish, subs and their
// bullets) on odd frames, and the submarine, the divers and its bullets on
// even ones (shown).
func (g *seaquest) draw(s *canvas, frame int) {
	for c := range max(0, g.oxygen) * 10 / seaquestMaxOxygen {
		s.fill(9, c, upper, seaquestOxygen)
	}
	for c := 9 - g.divers; c < 9; c++ {
		s.fill(9, c, lower, seaquestGauge)
	}
	for _, l := range []struct {
		m     []mover
		sh    shape
		v     uint8
		group int
	}{{g.swim, block, seaquestDiver, 0}, {g.fish, block, seaquestFish, 1}, {g.subs, block, seaquestEnemySub, 1},
		{g.eBullets, small, seaquestEBullet, 1}, {g.fBullets, small, seaquestFBullet, 0}} {
		if !shown(frame, l.group) {
			continue
		}
		for _, m := range l.m {
			s.fill(m.y, m.x, l.sh, l.v)
		}
	}
	if !shown(frame, 0) {
		return
	}
	back := g.subX + 1
	if g.subRight {
		back = g.subX - 1
	}
	if back >= 0 && back <= 9 {
		s.fill(g.subY, back, block, seaquestSubBack)
	}
	s.fill(g.subY, g.subX, block, seaquestSubFront)
}

// seaquestActions is the order in which the policy tries other actions when
// its first choice would not survive.
var seaquestActions = [...]Action{Up, Down, Left, Right, Noop, Fire}

// copyTo makes d a copy of g, reusing d's lists.
func (g *seaquest) copyTo(d *seaquest) {
	f, e, fi, su, sw := d.fBullets[:0], d.eBullets[:0], d.fish[:0], d.subs[:0], d.swim[:0]
	*d = *g
	d.fBullets, d.eBullets = append(f, g.fBullets...), append(e, g.eBullets...)
	d.fish, d.subs, d.swim = append(fi, g.fish...), append(su, g.subs...), append(sw, g.swim...)
	d.look = nil
}

// survives reports whether the submarine is still alive after action a and
// then, for depth more steps, the best action, on copies of the game (in
// g.look) that spawn nothing.
func (g *seaquest) survives(a Action, depth int, look []seaquest) bool {
	sim := &look[depth]
	g.copyTo(sim)
	if _, end := sim.act(a, nil); end {
		return false
	}
	if depth == 0 {
		return true
	}
	for _, b := range seaquestActions {
		if sim.survives(b, depth-1, look) {
			return true
		}
	}
	return false
}

// seaquestLook is the depth of the policy's look-ahead: it looks
// seaquestLook+1 steps ahead.
const seaquestLook = 1

// behave takes script's choice if it survives the next two steps, else the
// first action of seaquestActions that does. It explores only when every
// action survives.
func (g *seaquest) behave(*rand.Rand) (Action, bool) {
	if g.look == nil {
		g.look = make([]seaquest, seaquestLook+1)
		for i := range g.look {
			g.look[i].reset(nil)
		}
	}
	var ok [len(seaquestActions)]bool
	safe := 0
	for i, a := range seaquestActions {
		ok[i] = g.survives(a, seaquestLook, g.look)
		if ok[i] {
			safe++
		}
	}
	a := g.script()
	for i, b := range seaquestActions {
		if b == a && ok[i] {
			return a, safe == len(seaquestActions)
		}
	}
	for i, b := range seaquestActions {
		if ok[i] {
			return b, false
		}
	}
	return a, false
}

// script is the policy's first choice: surface when oxygen is low (below
// 16 plus 2 per row of depth) or six divers are aboard, if a diver is
// aboard; fire at an enemy ahead in the row; flee up or down from an enemy
// or enemy bullet within two cells in the row; else swim toward the nearest
// diver (or patrol row 4), turning to face enemies in the row.
func (g *seaquest) script() Action {
	if g.divers > 0 && (g.divers == 6 || g.oxygen < 16+2*g.subY) {
		return Up
	}
	if g.subY == 0 {
		return Down
	}
	near, ahead, behind := false, false, false
	for _, l := range [3][]mover{g.fish, g.subs, g.eBullets} {
		for _, e := range l {
			if e.y != g.subY {
				continue
			}
			d := e.x - g.subX
			if abs(d) <= 2 && (d == 0 || (d > 0) != e.right) {
				near = true
			}
			if (d > 0) == g.subRight && d != 0 {
				ahead = true
			} else {
				behind = true
			}
		}
	}
	switch {
	case near:
		if g.subY > 1 {
			return Up
		}
		return Down
	case ahead && g.shotTimer == 0:
		return Fire
	case behind:
		if g.subRight {
			return Left
		}
		return Right
	}
	tx, ty := 5, 4
	best := 1 << 30
	for _, d := range g.swim {
		if dist := abs(d.x-g.subX) + abs(d.y-g.subY); dist < best {
			best, tx, ty = dist, d.x, d.y
		}
	}
	switch {
	case ty < g.subY:
		return Up
	case ty > g.subY:
		return Down
	case tx < g.subX:
		return Left
	case tx > g.subX:
		return Right
	}
	return Noop
}
