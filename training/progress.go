package training

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"trench/selfplay"
)

// playProgress shows a self-play process's games, positions and
// positions per second on Options.Progress: as a bar with Options.Bars,
// otherwise as a plain status line every Options.StatusEvery (a minute
// when zero), as training does.
type playProgress struct {
	mu    sync.Mutex
	w     io.Writer
	bar   *progressbar.ProgressBar // nil without bars
	every time.Duration
	stats *selfplay.Stats
	games int64 // the games to play, 0 for no end
	start time.Time
	done  chan struct{}
	wg    sync.WaitGroup
}

// startPlayProgress starts showing stats until finish; games is the
// number of games to play, 0 for no end.
func startPlayProgress(ctx context.Context, opt Options, stats *selfplay.Stats, games int) *playProgress {
	p := &playProgress{w: opt.Progress, every: opt.StatusEvery, stats: stats, games: int64(games), start: time.Now(), done: make(chan struct{})}
	if p.every <= 0 {
		p.every = defaultStatusEvery
	}
	tick := p.every
	if opt.Bars {
		total := games
		if total == 0 {
			total = -1
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(opt.Progress),
			progressbar.OptionSetDescription(p.describe()),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(20),
			progressbar.OptionSetRenderBlankState(true))
		tick = 200 * time.Millisecond // the bar redraws at each tick
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-p.done:
				return
			case <-t.C:
				p.show()
			}
		}
	}()
	return p
}

// defaultStatusEvery is the time between plain status lines when
// Options.StatusEvery is zero.
const defaultStatusEvery = time.Minute

// describe is the progress line's text: games, positions, positions/s.
func (p *playProgress) describe() string {
	games, positions := p.played(), p.stats.Positions.Load()
	rate := 0.0
	if s := time.Since(p.start).Seconds(); s > 0 {
		rate = float64(positions) / s
	}
	return fmt.Sprintf("self-play: games %d · positions %d · %.1f positions/s", games, positions, rate)
}

// show updates the bar or writes a status line.
func (p *playProgress) show() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		fmt.Fprintln(p.w, p.describe())
		return
	}
	p.bar.Describe(p.describe())
	p.bar.Set64(p.played())
}

// played is the games played, at most the games to play (games played
// past them are not kept).
func (p *playProgress) played() int64 {
	n := p.stats.Games.Load()
	if p.games > 0 {
		n = min(n, p.games)
	}
	return n
}

// println writes a line of news, clearing the bar first.
func (p *playProgress) println(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Clear()
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

// finish stops showing progress: the bar ends on the last count, and
// plain output gets a last status line.
func (p *playProgress) finish() {
	close(p.done)
	p.wg.Wait()
	p.show()
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Exit() // as it stands: the games asked may not all be played
	fmt.Fprintln(p.w)
}
