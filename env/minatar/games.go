package minatar

import (
	"fmt"
	"strings"
)

// Game describes one game.
type Game struct {
	// Name is the game's name in streams and on the command line.
	Name string
	// Actions is the minimal action set; an action's index here is its
	// observation slot.
	Actions []Action
	// Rules and Policy describe the dynamics and the behaviour policy in a
	// sentence each.
	Rules, Policy string

	new func() game
}

// Games lists the five games.
var Games = []Game{
	{
		Name: "breakout", Actions: []Action{Noop, Left, Right}, new: func() game { return new(breakout) },
		Rules:  "a paddle on the bottom row bounces a diagonal ball into three rows of bricks (+1 per brick, refilled when cleared); the ball waits until the paddle first moves; the episode ends when the ball passes the paddle",
		Policy: "launches the ball, then moves the paddle to where the ball will land (played forward on a copy of the game), aiming to send it straight back or sideways at random; explores only when a wrong move cannot lose the ball, but for one chance in four after its first 50 steps",
	},
	{
		Name: "freeway", Actions: []Action{Noop, Up, Down}, new: func() game { return newFreeway() },
		Rules:  "a chicken crosses eight lanes of wrapping cars (+1 per crossing, car speeds redrawn); a hit sends it back; an episode lasts 2,501 steps (a 2,500-step timer)",
		Policy: "moves up unless a car is about to reach the chicken's column in the next lane, then waits; explores at any time",
	},
	{
		Name: "asterix", Actions: []Action{Noop, Left, Up, Right, Down}, new: func() game { return new(asterix) },
		Rules:  "enemies and gold cross eight rows from the sides, the first entering after 30 steps, faster over time; gold is +1, touching an enemy ends the episode",
		Policy: "takes, among the moves that survive the next three steps (looked ahead on a copy of the game), the one closest to the nearest gold, keeping off the edge columns when something is about to enter; explores only when every move survives",
	},
	{
		Name: "seaquest", Actions: []Action{Noop, Left, Up, Right, Down, Fire}, new: func() game { return new(seaquest) },
		Rules:  "a submarine shoots fish and enemy subs (+1 each), rescues divers and surfaces for oxygen (six divers: a bonus, clipped to +1); a hit, no oxygen or surfacing without divers ends the episode",
		Policy: "surfaces when oxygen runs low or six divers are aboard, otherwise fires at enemies in its row, dodges those close, and swims toward the nearest diver; an action that would not survive the next two steps (looked ahead on a copy of the game) is replaced by one that does; explores only when every action survives",
	},
	{
		Name: "space-invaders", Actions: []Action{Noop, Left, Right, Fire}, new: func() game { return new(invaders) },
		Rules:  "a cannon on the bottom row shoots a marching, descending block of aliens (+1 per alien, faster waves); the aliens hold fire for the first 40 steps; a bullet or an alien reaching the cannon ends the episode",
		Policy: "dodges an enemy bullet about to land, otherwise moves under the nearest alien column and fires; explores only with no enemy bullet near the cannon",
	},
}

// Lookup returns the game called name.
func Lookup(name string) (*Game, error) {
	for i := range Games {
		if Games[i].Name == name {
			return &Games[i], nil
		}
	}
	return nil, fmt.Errorf("minatar: unknown game %q (want %s)", name, strings.Join(Names(), ", "))
}

// Names returns the games' names.
func Names() []string {
	n := make([]string, len(Games))
	for i, g := range Games {
		n[i] = g.Name
	}
	return n
}

// index returns a's position in the minimal action set, or −1.
func (g *Game) index(a Action) int {
	for i, b := range g.Actions {
		if a == b {
			return i
		}
	}
	return -1
}
