// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import "fmt"

// queueRoomLocked refuses a new job when Config.MaxQueued jobs are
// already waiting to start.
func (e *Engine) queueRoomLocked() error {
	if e.cfg.MaxQueued < 0 {
		return nil
	}
	n := 0
	for _, j := range e.active {
		if j.state == StateQueued {
			n++
		}
	}
	if n >= e.cfg.MaxQueued {
		return fmt.Errorf("%w: %s waiting to start, the queue cap is %d (--max-queued); retry later", ErrQueueFull, jobsAre(n), e.cfg.MaxQueued)
	}
	return nil
}

// jobsAre is "1 job is", "8 jobs are".
func jobsAre(n int) string {
	if n == 1 {
		return "1 job is"
	}
	return fmt.Sprintf("%d jobs are", n)
}
