// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"runtime/debug"
	"time"
)

// armIdleReleaseLocked starts the idle release when no job is left: after
// Config.IdleRelease, if none came meanwhile, the pooled synthesis buffers
// are dropped and the freed heap is returned to the system. The pool keeps
// the last partition's shape only; without this a daemon would hold that
// (hundreds of MiB at 2 KiB, GiBs at 32 GiB) for as long as it sits idle.
func (e *Engine) armIdleReleaseLocked() {
	if len(e.active) > 0 || e.closed || e.cfg.IdleRelease < 0 {
		return
	}
	e.idleGen++
	gen := e.idleGen
	if e.idle != nil {
		e.idle.Stop()
	}
	e.idle = time.AfterFunc(e.cfg.IdleRelease, func() { e.releaseIdle(gen) })
}

// releaseIdle is the idle release armed as generation gen: nothing when a
// job was submitted since (the submission bumps idleGen).
func (e *Engine) releaseIdle(gen uint64) {
	e.mu.Lock()
	if gen != e.idleGen || len(e.active) > 0 || e.closed {
		e.mu.Unlock()
		return
	}
	e.pool.Trim()
	e.m.refreshLocked()
	e.mu.Unlock()
	// The dropped sets and the jobs' garbage: collect them and give their
	// pages back now rather than when the scavenger gets to them.
	debug.FreeOSMemory()
}
