// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/post"
)

// Engine is the long-lived proving engine (see the package doc). Its
// methods are safe for concurrent use.
type Engine struct {
	cfg     Config
	log     *slog.Logger
	kinds   map[Kind]Family
	order   []Kind // kinds in Status order
	devices []*device
	started time.Time
	m       *metrics
	// pool keeps synthesis buffers for the next partition of the same
	// shape; what it keeps counts in the budget.
	pool *cs.BufferPool

	mu       sync.Mutex
	draining bool
	seq      uint64
	jobs     map[string]*job // by JobID: pending, running and retained
	byKey    map[string]*job // by RequestID+digest: the newest job
	active   []*job          // not final, in submission order
	retained []*job          // final, oldest first
	params   map[string]*paramsEntry
	used     budgetUse
	changed  chan struct{} // closed and replaced when a job becomes final
	counters Counters
	// est is each prover's expected time per partition of a kind (a moving
	// average of its verified proofs), for the critical prover's choice.
	est map[estKey]time.Duration
	// wake re-runs dispatch at wakeAt: when a busy prover a CRITICAL
	// partition waits for is expected to be done (critical.go).
	wake   *time.Timer
	wakeAt time.Time
	// idle drops the pooled synthesis buffers Config.IdleRelease after the
	// last job ends (idle.go); idleGen tells a stale firing from a live one.
	idle    *time.Timer
	idleGen uint64
	closed  bool
	// lost is closed when every device prover lost memory (devguard.go).
	lost     chan struct{}
	lostOnce sync.Once
	lostErr  error
}

// budgetUse is what is reserved in the budget, bytes.
type budgetUse struct{ params, synth, assign uint64 }

// New starts an engine: it resolves the provers (Config.Provers, else one
// for Config.Backend) and registers the kinds this build proves.
func New(cfg Config) (*Engine, error) {
	cfg = cfg.withDefaults()
	e := &Engine{
		cfg: cfg, log: cfg.Logger, started: time.Now(),
		kinds:   map[Kind]Family{},
		jobs:    map[string]*job{},
		byKey:   map[string]*job{},
		params:  map[string]*paramsEntry{},
		changed: make(chan struct{}),
		pool:    &cs.BufferPool{Max: cfg.SynthesisWorkers},
		est:     map[estKey]time.Duration{},
		lost:    make(chan struct{}),
	}
	if e.cfg.BudgetBytes == 0 {
		e.cfg.BudgetBytes = DefaultBudget()
	}
	provers, spare := cfg.Provers, cfg.CriticalProver
	if len(provers) == 0 {
		var err error
		if provers, err = NewProvers(cfg.Backend); err != nil {
			return nil, err
		}
		if spare == nil && !cfg.NoCriticalProver {
			if spare, err = newCriticalProver(provers, cfg.CriticalTasks); err != nil {
				return nil, err
			}
		}
	}
	if cfg.NoCriticalProver {
		spare = nil
	}
	names := map[string]bool{}
	memBackend := porep.BackendCUDA
	for i, p := range provers {
		if p == nil || names[p.Name()] {
			return nil, fmt.Errorf("engine: prover %d: nil or a repeated name", i)
		}
		names[p.Name()] = true
		e.devices = append(e.devices, &device{ord: i, p: p})
		if !deviceBackend(p.Backend()) {
			memBackend = porep.BackendCPU // a host backend's scratch is host memory
		}
	}
	if spare != nil {
		if names[spare.Name()] {
			return nil, fmt.Errorf("engine: critical prover %q: a repeated name", spare.Name())
		}
		e.devices = append(e.devices, &device{ord: len(e.devices), p: spare, critical: true})
	}
	if e.cfg.PartitionsWaiting <= 0 {
		e.cfg.PartitionsWaiting = len(provers) + 1
	}
	var opts []porep.Option
	if cfg.ParamsDir != "" {
		opts = append(opts, porep.WithParamsDir(cfg.ParamsDir))
	}
	if cfg.RequireProductionParams {
		opts = append(opts, porep.WithRequireProductionParams())
	}
	opts = append(opts, porep.WithLogger(cfg.Logger))
	base := jobFamily{opts: opts, backend: memBackend, pool: e.pool}
	// A WinningPoSt may prove on the kept prover: count its memory as that
	// prover's backend needs it when that is the CPU (more host scratch).
	win := base
	if spare != nil && spare.Backend() == porep.BackendCPU {
		win.backend = porep.BackendCPU
	}
	e.register(KindPoRepC2, porepKind(base))
	e.register(KindWinningPoSt, postKind(win, post.Winning))
	e.register(KindWindowPoStPartition, postKind(base, post.Window))
	e.register(KindSnapDealsUpdate, updateKind(base))
	extra := slices.Sorted(maps.Keys(cfg.Families))
	for _, k := range extra {
		if cfg.Families[k] == nil {
			return nil, fmt.Errorf("engine: Families[%s]: nil", k)
		}
		e.register(k, cfg.Families[k])
	}
	e.m = newMetrics(e)
	return e, nil
}

// register makes f prove kind k, in place of the kind's family if it
// has one.
func (e *Engine) register(k Kind, f Family) {
	if _, ok := e.kinds[k]; !ok {
		e.order = append(e.order, k)
	}
	e.kinds[k] = f
}

// usedLocked is the budget in use, bytes, pooled synthesis buffers included.
func (e *Engine) usedLocked() uint64 {
	return e.used.params + e.used.synth + e.used.assign + e.pooledBytes()
}

// Drain stops accepting work and waits for every job to end; when ctx
// ends first it cancels the rest, waits for them to stop and returns
// ctx's error.
func (e *Engine) Drain(ctx context.Context) error {
	e.mu.Lock()
	e.draining = true
	for {
		if len(e.active) == 0 {
			e.mu.Unlock()
			return nil
		}
		ch := e.changed
		e.mu.Unlock()
		select {
		case <-ch:
			e.mu.Lock()
		case <-ctx.Done():
			e.cancelAll(ctx.Err())
			return ctx.Err()
		}
	}
}

// cancelAll cancels every unfinished job and waits until none is left.
func (e *Engine) cancelAll(cause error) {
	e.mu.Lock()
	for _, j := range slices.Clone(e.active) {
		e.cancelLocked(j, fmt.Errorf("engine: job %s cancelled: the engine is stopping (%v)", j.id, cause))
	}
	for len(e.active) > 0 {
		ch := e.changed
		e.mu.Unlock()
		<-ch
		e.mu.Lock()
	}
	e.mu.Unlock()
}

// Close stops accepting work, cancels every job, waits for them to stop
// and evicts the parameters the engine loaded.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.draining = true
	e.mu.Unlock()
	e.cancelAll(errors.New("closed"))
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.wake != nil {
		e.wake.Stop()
	}
	if e.idle != nil {
		e.idle.Stop()
	}
	for _, pe := range e.params {
		if pe.refs == 0 && pe.loading == nil {
			e.dropParamsLocked(pe)
		}
	}
	return nil
}

// shortRand is 4 random hex bytes, so job ids differ across restarts.
func shortRand() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// pooledBytes is what the synthesis buffer pool keeps, bytes.
func (e *Engine) pooledBytes() uint64 {
	_, b := e.pool.Kept()
	return b
}
