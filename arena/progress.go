package arena

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// ProgressBar returns a Config.Progress that draws a bar of total games
// on w, and the function that finishes the bar (it clears itself).
func ProgressBar(w io.Writer, total int) (progress func(done, total int), finish func()) {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("games"),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	return func(done, _ int) { bar.Set(done) }, func() { bar.Finish() }
}
