package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is a progress bar on stderr, or nothing when stderr is not a terminal or when the
// command prints JSON. Its methods are safe to call on a nil *progress.
type progress struct {
	bar *progressbar.ProgressBar
}

// progressEnabled reports whether bars should be drawn: stderr must be a terminal and the
// command must not be printing JSON.
func progressEnabled(stderr io.Writer, jsonOut bool) bool {
	if jsonOut {
		return false
	}
	f, ok := stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress starts a bar of total steps (total < 0: a spinner of unknown length) described
// by desc, or returns nil when bars are disabled.
func newProgress(stderr io.Writer, jsonOut bool, total int64, desc string) *progress {
	if !progressEnabled(stderr, jsonOut) {
		return nil
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)
	return &progress{bar: bar}
}

// Add advances the bar by n steps.
func (p *progress) Add(n int) {
	if p != nil {
		_ = p.bar.Add(n)
	}
}

// Set moves the bar to step n.
func (p *progress) Set(n int) {
	if p != nil {
		_ = p.bar.Set(n)
	}
}

// Describe changes the bar's text.
func (p *progress) Describe(desc string) {
	if p != nil {
		p.bar.Describe(desc)
	}
}

// Done finishes and clears the bar.
func (p *progress) Done() {
	if p != nil {
		_ = p.bar.Finish()
	}
}
