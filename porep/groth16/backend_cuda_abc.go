// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/porep/cs"
)

// ABCAllocator provides a/b/c storage for synthesis (cs.SizeHint.ABCAlloc)
// in native host memory, page-locked when Pinned is set and a CUDA device
// exists, so the CUDA backend uploads a/b/c at full DMA speed without a
// staging copy (docs/gpu-prover-notes.md §8.4; about 12 GiB per 32 GiB partition).
// Off by default: pinning costs time per allocation (measured and logged
// once), so reuse buffers rather than pin per proof when it matters. The
// memory is not garbage collected: Release each assignment after proving
// (or Close the allocator). Safe for concurrent use.
type ABCAllocator struct {
	pinned bool
	log    *slog.Logger

	mu     sync.Mutex
	bufs   map[*fr.Element]*bridge.HostFr
	logged bool
}

// NewABCAllocator returns an allocator; pinned asks for page-locked memory.
// log may be nil.
func NewABCAllocator(pinned bool, log *slog.Logger) *ABCAllocator {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &ABCAllocator{pinned: pinned, log: log, bufs: map[*fr.Element]*bridge.HostFr{}}
}

// Alloc implements cs.SizeHint.ABCAlloc: a slice of the given capacity in
// native memory, or ordinary Go memory (logged) if that is unavailable
// (e.g. built without the cuda tag).
func (a *ABCAllocator) Alloc(capacity int) []fr.Element {
	h, err := bridge.NewHostFr(max(capacity, 1), a.pinned)
	if err != nil {
		a.log.Warn("cuda: a/b/c in Go memory", "reason", err.Error())
		return make([]fr.Element, 0, capacity)
	}
	s := h.Slice()
	a.mu.Lock()
	a.bufs[&s[0]] = h
	first := !a.logged
	a.logged = true
	a.mu.Unlock()
	if first {
		a.log.Info("cuda: a/b/c host buffers", "pinned", h.Pinned, "elements", capacity,
			"bytes", uint64(capacity)*32, "alloc", h.AllocTime, "rate_GiB_s", rate(uint64(capacity)*32, h.AllocTime))
	} else {
		a.log.Debug("cuda: a/b/c host buffer", "pinned", h.Pinned, "elements", capacity, "alloc", h.AllocTime)
	}
	return s[:0]
}

func rate(bytes uint64, d time.Duration) string {
	if d <= 0 {
		return "∞"
	}
	return fmt.Sprintf("%.1f", float64(bytes)/float64(1<<30)/d.Seconds())
}

// Release frees the native buffers behind as's a, b and c (those this
// allocator made; others are left alone). as must not be used afterwards.
func (a *ABCAllocator) Release(as *cs.Assignment) error {
	var firstErr error
	for _, v := range [][]fr.Element{as.A, as.B, as.C} {
		if cap(v) == 0 {
			continue
		}
		p := &v[:1][0]
		a.mu.Lock()
		h := a.bufs[p]
		delete(a.bufs, p)
		a.mu.Unlock()
		if h != nil {
			if err := h.Free(); err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	as.A, as.B, as.C = nil, nil, nil
	return firstErr
}

// Close frees every buffer still held.
func (a *ABCAllocator) Close() error {
	a.mu.Lock()
	bufs := a.bufs
	a.bufs = map[*fr.Element]*bridge.HostFr{}
	a.mu.Unlock()
	var firstErr error
	for _, h := range bufs {
		if err := h.Free(); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}
