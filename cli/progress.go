// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is a progress bar on stderr, or nothing when stderr is not a terminal or when the
// command prints JSON. Its methods are safe to call on a nil *progress.
type progress struct {
	bar *progressbar.ProgressBar
	// Line mode (newPhaseProgress off a terminal): one line per phase on w.
	w     io.Writer
	desc  string
	start time.Time
	mu    sync.Mutex
	last  string
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
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	}
	if total > 0 {
		opts = append(opts, progressbar.OptionShowCount()) // a spinner has no count
	}
	return &progress{bar: progressbar.NewOptions64(total, opts...)}
}

// newPhaseProgress is newProgress for commands that report phases (commit2, bench prove,
// params generate), on stderr whatever --json says (the JSON goes to stdout): a bar when
// stderr is a terminal; otherwise one concise line per phase ("DESC: PHASE (12.3s)").
// Nothing when --log-level was given: its slog records say the same.
func newPhaseProgress(stderr io.Writer, total int64, desc string) *progress {
	if slogOn {
		return nil // the records would tear the bar apart
	}
	if p := newProgress(stderr, false, total, desc); p != nil {
		p.desc = desc
		return p
	}
	return &progress{w: stderr, desc: desc, start: time.Now()}
}

// Phase shows that a new phase starts: the bar's text, or one line.
func (p *progress) Phase(phase string) {
	if p == nil {
		return
	}
	if p.bar != nil {
		p.bar.Describe(p.desc + ": " + phase)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if phase == p.last {
		return
	}
	p.last = phase
	fmt.Fprintf(p.w, "%s: %s (%.1fs)\n", p.desc, phase, time.Since(p.start).Seconds())
}

// Println prints one line on stderr without garbling the bar (warnings).
func (p *progress) Println(w io.Writer, line string) {
	if p != nil && p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintln(w, line)
}

// Add advances the bar by n steps.
func (p *progress) Add(n int) {
	if p != nil && p.bar != nil {
		_ = p.bar.Add(n)
	}
}

// Set moves the bar to step n.
func (p *progress) Set(n int) {
	if p != nil && p.bar != nil {
		_ = p.bar.Set(n)
	}
}

// Describe changes the bar's text.
func (p *progress) Describe(desc string) {
	if p != nil && p.bar != nil {
		p.bar.Describe(desc)
	}
}

// Done finishes and clears the bar.
func (p *progress) Done() {
	if p != nil && p.bar != nil {
		_ = p.bar.Finish()
	}
}
