package bot

import (
	"io"

	"trench/engine"
	"trench/searchconfig"
)

// Load makes one bot for g with settings c, through a Maker, as the
// faces do; warn gets the checkpoints passed over on the way.
func Load(g engine.Game, c searchconfig.Config, warn io.Writer) (Bot, error) {
	m, err := NewMaker(g, c, LoadNets(g, warn))
	if err != nil {
		return nil, err
	}
	return m.New(0, nil)
}
