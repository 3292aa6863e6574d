// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"bytes"
	"os"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/hostmem"
)

// BufferPool keeps the storage of finished assignments — a, b, c, aux,
// input and the three density bitmaps — for the next ProvingAssignment of
// the same shape, so that the partitions of a sector and the proofs of one
// process synthesize into memory that is already faulted in (a fresh 32 GiB
// partition takes 4 M page faults and the kernel's zeroing of 16 GiB).
// Reused storage is not cleared: synthesis overwrites every element, and
// density bitmaps are re-grown from zero words.
//
// Large vectors may be asked to be backed by transparent huge pages
// (madvise MADV_HUGEPAGE, Linux; see HugePages: by default only where the
// kernel grants them without compacting memory on the fault). Storage stays on the Go
// heap: a dropped set is reclaimed by the garbage collector, and a slice an
// Assignment still holds is never invalidated. A released set is dropped
// instead of kept when the machine is short of memory (MemAvailable below
// max(1 GiB, MemTotal/16)) or the pool already holds Max sets. The zero value is a
// pool with Max 1. Safe for concurrent use.
type BufferPool struct {
	// Max is the number of sets kept (≤ 0: 1).
	Max int

	mu   sync.Mutex
	free []*bufferSet
}

// HugePageMode says whether new large vectors (≥ 32 MiB) of a BufferPool
// are madvised MADV_HUGEPAGE.
type HugePageMode int

const (
	// HugePagesAuto advises huge pages only where the kernel grants them
	// without stalling the fault: THP enabled ("always" or "madvise") and
	// defrag "defer" or "never". With defrag "madvise", "defer+madvise" or
	// "always" (the kernel's default is "madvise") a madvised fault
	// compacts memory synchronously, which made a cold 4-challenge 32 GiB
	// synthesis 2.2× slower on a busy 2-core box (docs/BENCHMARKS.md).
	HugePagesAuto HugePageMode = iota
	// HugePagesOn always advises.
	HugePagesOn
	// HugePagesOff never advises.
	HugePagesOff
)

// HugePages is the process-wide mode; set it before synthesis starts.
var HugePages = HugePagesAuto

// adviseHugePages resolves HugePages.
func adviseHugePages() bool {
	switch HugePages {
	case HugePagesOn:
		return true
	case HugePagesOff:
		return false
	}
	thpOnce.Do(func() { thpNoStall = thpGrantsWithoutStall() })
	return thpNoStall
}

var (
	thpOnce    sync.Once
	thpNoStall bool
)

// thpGrantsWithoutStall reads /sys/kernel/mm/transparent_hugepage: the
// selected ([…]) "enabled" value must allow madvised regions and the
// selected "defrag" value must not compact on fault for them.
func thpGrantsWithoutStall() bool {
	sel := func(name string) string {
		b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/" + name)
		if err != nil {
			return ""
		}
		_, rest, ok := bytes.Cut(b, []byte("["))
		if !ok {
			return ""
		}
		v, _, _ := bytes.Cut(rest, []byte("]"))
		return string(v)
	}
	en, df := sel("enabled"), sel("defrag")
	return (en == "always" || en == "madvise") && (df == "defer" || df == "never")
}

// hugeMin is the size from which a vector is madvised.
const hugeMin = 32 << 20

// bufferSet is one assignment's storage; slices have length 0 and the
// capacity of the shape they were made for.
type bufferSet struct {
	a, b, c, aux, input []fr.Element
	den                 [3][]uint64 // A-aux, B-input, B-aux words
}

func (s *bufferSet) bytes() uint64 {
	n := uint64(cap(s.a)+cap(s.b)+cap(s.c)+cap(s.aux)+cap(s.input)) * 32
	for _, d := range s.den {
		n += uint64(cap(d)) * 8
	}
	return n
}

// fits reports whether s has room for a hint's assignment without growing.
func (s *bufferSet) fits(n, aux, in int) bool {
	return cap(s.a) >= n && cap(s.b) >= n && cap(s.c) >= n && cap(s.aux) >= aux && cap(s.input) >= in &&
		cap(s.den[0]) >= (aux+63)/64 && cap(s.den[1]) >= (in+63)/64 && cap(s.den[2]) >= (aux+63)/64
}

// NewProvingAssignment is cs.NewProvingAssignment with storage from the
// pool: a kept set that fits hint (exactly sized sets are kept per shape),
// else a new one. Sets of other shapes are dropped then. A nil pool gives
// new storage that Release does not keep.
func (bp *BufferPool) NewProvingAssignment(hint SizeHint) *ProvingAssignment {
	n := hint.Constraints + hint.Inputs
	in := max(hint.Inputs, 1)
	var set *bufferSet
	if bp != nil {
		bp.mu.Lock()
		for i, s := range bp.free {
			if s.fits(n, hint.Aux, in) {
				set = s
				bp.free = append(bp.free[:i], bp.free[i+1:]...)
				break
			}
		}
		if set == nil {
			// Another shape: what is kept would only hold memory.
			clear(bp.free)
			bp.free = bp.free[:0]
		}
		bp.mu.Unlock()
	}
	if set == nil {
		set = &bufferSet{
			a: makeFr(abcCapacity(n)), b: makeFr(abcCapacity(n)), c: makeFr(abcCapacity(n)),
			aux: makeFr(hint.Aux), input: makeFr(in),
			den: [3][]uint64{makeWords((hint.Aux + 63) / 64), makeWords((in + 63) / 64), makeWords((hint.Aux + 63) / 64)},
		}
	}
	p := &ProvingAssignment{
		a: set.a[:0], b: set.b[:0], c: set.c[:0],
		input:   set.input[:0],
		aux:     set.aux[:0],
		aDenAux: bitmap{words: set.den[0][:0]},
		bDenIn:  bitmap{words: set.den[1][:0]},
		bDenAux: bitmap{words: set.den[2][:0]},
		cands:   make([]cand, 0, 64),
	}
	if bp != nil {
		p.pooled = set
	}
	p.abc0 = [3]*fr.Element{ptr0(p.a), ptr0(p.b), ptr0(p.c)}
	p.AllocInput(&frOne)
	return p
}

// Release hands a's storage back to the pool; a and every slice taken from
// it must not be used afterwards (the next assignment overwrites them).
// Assignments not made by a BufferPool, or whose vectors outgrew their
// hint, are ignored; releasing twice, or to a nil pool, is a no-op.
func (bp *BufferPool) Release(a *Assignment) {
	if bp == nil || a == nil || a.pooled == nil {
		return
	}
	set := a.pooled
	a.pooled = nil
	// Vectors that outgrew the set were moved by append: keep the set only
	// if every vector still lives in it.
	same := func(v, w []fr.Element) bool {
		return cap(v) > 0 && cap(w) > 0 && &v[:1][0] == &w[:1][0]
	}
	if !same(a.A, set.a) || !same(a.B, set.b) || !same(a.C, set.c) || !same(a.Aux, set.aux) || !same(a.Input, set.input) {
		return
	}
	if underPressure() {
		return // let the collector have it
	}
	bp.mu.Lock()
	defer bp.mu.Unlock()
	if len(bp.free) >= max(bp.Max, 1) {
		return
	}
	bp.free = append(bp.free, set)
}

// Reserve raises Max to n (it never lowers it).
func (bp *BufferPool) Reserve(n int) {
	bp.mu.Lock()
	bp.Max = max(bp.Max, n)
	bp.mu.Unlock()
}

// Trim drops every kept set.
func (bp *BufferPool) Trim() {
	bp.mu.Lock()
	clear(bp.free)
	bp.free = bp.free[:0]
	bp.mu.Unlock()
}

// Kept returns the number of sets and bytes the pool holds.
func (bp *BufferPool) Kept() (sets int, bytes uint64) {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	for _, s := range bp.free {
		bytes += s.bytes()
	}
	return len(bp.free), bytes
}

// makeFr returns an empty slice with capacity n, madvised for huge pages
// when large. A large make takes fresh, untouched pages from the runtime,
// so the advice applies before the first fault.
func makeFr(n int) []fr.Element {
	v := make([]fr.Element, 0, n)
	if n*32 >= hugeMin && adviseHugePages() {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(v)), uintptr(n)*32)
	}
	return v
}

func makeWords(n int) []uint64 {
	v := make([]uint64, 0, n)
	if n*8 >= hugeMin && adviseHugePages() {
		adviseHuge(unsafe.Pointer(unsafe.SliceData(v)), uintptr(n)*8)
	}
	return v
}

// underPressure reports whether the machine is short of memory: less than
// max(1 GiB, MemTotal/16) available (hostmem; never where it cannot be
// read). A kept set is memory the process already holds, so what counts
// is what is left for everyone else.
func underPressure() bool {
	total, avail, ok := hostmem.MemInfo()
	return ok && avail < max(1<<30, total/16)
}
