// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"fmt"
	"time"
)

// Resident parameters: loaded once per circuit, shared by jobs, evicted
// least recently used when the budget needs room.

type paramsEntry struct {
	spec     *Params
	keys     *Keys
	loading  chan struct{} // closed when a load ends
	err      error
	loaded   bool
	refs     int
	lastUsed time.Time
	loadTook time.Duration
}

// evictIdleLocked evicts the least recently used loaded parameters no job
// holds (other than keep); false when there are none.
func (e *Engine) evictIdleLocked(keep *Params) bool {
	var victim *paramsEntry
	for _, pe := range e.params {
		if pe.refs > 0 || pe.loading != nil || (keep != nil && pe.spec.File == keep.File) {
			continue
		}
		if victim == nil || pe.lastUsed.Before(victim.lastUsed) {
			victim = pe
		}
	}
	if victim == nil {
		return false
	}
	e.dropParamsLocked(victim)
	return true
}

func (e *Engine) dropParamsLocked(pe *paramsEntry) {
	delete(e.params, pe.spec.File)
	e.used.params -= pe.spec.Bytes
	if pe.keys != nil && pe.keys.Evict != nil {
		pe.keys.Evict()
	}
	e.log.Info("params evicted", "circuit", pe.spec.ID, "bytes", pe.spec.Bytes)
}

// acquireKeys loads j's parameters once (the first caller loads, others
// wait) and returns how long this caller waited.
func (e *Engine) acquireKeys(j *job) (*Keys, time.Duration, error) {
	e.mu.Lock()
	pe := j.pe
	if pe == nil {
		e.mu.Unlock()
		return nil, 0, nil
	}
	if pe.loaded && !pe.keys.changed() {
		e.mu.Unlock()
		return pe.keys, 0, nil
	}
	t0 := time.Now()
	if pe.loading != nil {
		ch := pe.loading
		e.mu.Unlock()
		select {
		case <-ch:
		case <-j.ctx.Done():
			return nil, time.Since(t0), j.ctx.Err()
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if pe.err != nil {
			return nil, time.Since(t0), pe.err
		}
		return pe.keys, time.Since(t0), nil
	}
	pe.loading = make(chan struct{})
	pe.err = nil
	e.mu.Unlock()
	k, err := func() (k *Keys, err error) {
		defer recoverTo(&err, j, -1)
		return pe.spec.Load()
	}()
	took := time.Since(t0)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		pe.err = err
	} else {
		pe.keys, pe.loaded, pe.loadTook = k, true, took
	}
	close(pe.loading)
	pe.loading = nil
	e.m.paramsLoad.Observe(took.Seconds())
	return k, took, err
}

// Preload loads a circuit's parameters (cuzk ids: "porep-32g", "porep-2k")
// and keeps them resident; it waits for a load in progress.
func (e *Engine) Preload(ctx context.Context, circuitID string) (alreadyLoaded bool, took time.Duration, err error) {
	spec, err := e.circuit(circuitID)
	if err != nil {
		return false, 0, err
	}
	t0 := time.Now()
	e.mu.Lock()
	pe := e.params[spec.File]
	if pe != nil && pe.loaded {
		pe.lastUsed = time.Now()
		e.mu.Unlock()
		return true, 0, nil
	}
	if pe == nil {
		if spec.Bytes > e.cfg.BudgetBytes {
			e.mu.Unlock()
			return false, 0, fmt.Errorf("%w: %s parameters take %s, the budget is %s", ErrTooLarge, circuitID, formatBytes(spec.Bytes), formatBytes(e.cfg.BudgetBytes))
		}
		for e.usedLocked()+spec.Bytes > e.cfg.BudgetBytes {
			e.pool.Trim()
			if e.usedLocked()+spec.Bytes > e.cfg.BudgetBytes && !e.evictIdleLocked(spec) {
				e.mu.Unlock()
				return false, 0, fmt.Errorf("engine: preload %s: %s do not fit the budget now (%s of %s in use)", circuitID, formatBytes(spec.Bytes), formatBytes(e.usedLocked()), formatBytes(e.cfg.BudgetBytes))
			}
		}
		pe = &paramsEntry{spec: spec}
		e.params[spec.File] = pe
		e.used.params += spec.Bytes
	}
	// Load as a pseudo-job holding a reference, so it is not evicted meanwhile.
	pe.refs++
	tmp := &job{id: "preload-" + circuitID, pe: pe, ctx: ctx}
	e.mu.Unlock()
	_, _, err = e.acquireKeys(tmp)
	e.mu.Lock()
	pe.refs--
	pe.lastUsed = time.Now()
	if err != nil && !pe.loaded && pe.refs == 0 && pe.loading == nil && e.params[spec.File] == pe {
		delete(e.params, spec.File)
		e.used.params -= spec.Bytes
	}
	e.dispatchLocked()
	e.mu.Unlock()
	return false, time.Since(t0), err
}

// Evict drops a circuit's resident parameters when no job uses them.
func (e *Engine) Evict(circuitID string) (wasLoaded bool, freed uint64, err error) {
	spec, err := e.circuit(circuitID)
	if err != nil {
		return false, 0, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	pe := e.params[spec.File]
	if pe == nil || !pe.loaded {
		return false, 0, nil
	}
	if pe.refs > 0 {
		return true, 0, fmt.Errorf("engine: evict %s: %d jobs are using these parameters", circuitID, pe.refs)
	}
	e.dropParamsLocked(pe)
	e.dispatchLocked()
	return true, pe.spec.Bytes, nil
}

func (e *Engine) circuit(id string) (*Params, error) {
	for _, k := range e.order {
		if s, ok := e.kinds[k].Circuit(id); ok {
			return s, nil
		}
	}
	return nil, badInputf("engine: unknown circuit id %q (want e.g. porep-32g, porep-2k)", id)
}
