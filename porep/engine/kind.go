// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// Family is what the engine proves for one Kind: it turns a Request into
// a Plan and knows its circuits by cuzk id. The four cuzk.v1 kinds are
// built in (each a porep.Job family: porep_kind.go, post_kind.go,
// update_kind.go); Config.Families adds a kind or replaces one.
// Rust twin: none; a CompoundProof's circuit and public inputs live in
// porep's families, this is the scheduler's view of them.
type Family interface {
	// Prepare parses and validates req (errors caused by it wrap
	// ErrBadInput and name the field) into a plan.
	Prepare(req *Request) (Plan, error)
	// Circuit returns the parameters of a circuit id ("porep-32g"), or false.
	Circuit(id string) (*Params, bool)
}

// Plan is one validated job of a kind: its parameters, partitions and
// memory, and the steps the engine schedules. Methods other than Finish
// may be called concurrently for different partitions. A plan whose
// partition k is blinded under another index (a WindowPoSt partition job:
// its partition_index) also has BlindingIndex(k int) int.
type Plan interface {
	Partitions() int
	// Params is the parameter file the partitions prove with (nil: none).
	Params() *Params
	// PartitionBytes is the memory of one partition from the start of its
	// synthesis until its proof is verified, host proving scratch included.
	PartitionBytes() uint64
	// Synthesize makes partition k's assignment (threads: goroutines).
	Synthesize(ctx context.Context, k, threads int) (*cs.Assignment, error)
	// Release hands an assignment's storage back (nil: no-op).
	Release(a *cs.Assignment)
	// Verify checks partition k's proof with the verifier's key and the
	// public inputs the verifier derives (a kind checks them against the
	// assignment at synthesis, so a mismatch is not the prover's fault).
	// The prover has used a's A, B and C as scratch by then
	// (groth16.WithAssignmentsConsumed); its inputs and aux are intact.
	Verify(k int, a *cs.Assignment, proof *groth16.Proof, keys *Keys) error
	// Finish turns the verified proofs, in partition order, into the bytes
	// the caller gets.
	Finish(proofs []groth16.Proof) ([]byte, error)
}

// Params identifies one parameter file and loads it; the engine keeps it
// resident, counted in the budget, while jobs use it (Preload, Evict).
type Params struct {
	ID    string // cuzk-style circuit id: porep-32g
	File  string // the .params path (the cache key)
	Bytes uint64 // resident size counted in the budget
	Load  func() (*Keys, error)
}

// Keys are loaded parameters: the proving key and the verifier's key.
type Keys struct {
	Params *groth16.Params
	PVK    *groth16.PreparedVerifyingKey
	Evict  func() // drops the process-wide cache entry (nil: nothing)
}

// changed reports whether the loaded .params changed on disk since it was
// opened (groth16.Params.Changed): the keys must be loaded afresh.
func (k *Keys) changed() bool { return k != nil && k.Params != nil && k.Params.Changed() }

// unsupported is the error for a kind this build cannot prove.
func unsupported(k Kind, have []Kind) error {
	names := make([]string, 0, len(have))
	for _, h := range have {
		names = append(names, h.String())
	}
	return fmt.Errorf("%w: %s (%d) is not built into this engine yet; it proves %s", ErrUnsupportedKind, k, int32(k), strings.Join(names, ", "))
}

// requestDigest is SHA-256 over every field of req that the proof depends
// on (not RequestID or Priority), each length-prefixed, so that the same
// RequestID with other inputs is another job.
func requestDigest(req *Request) [32]byte {
	h := sha256.New()
	var b [8]byte
	u := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	bs := func(v []byte) {
		u(uint64(len(v)))
		h.Write(v)
	}
	h.Write([]byte("cuseal-engine-request-v1"))
	u(uint64(req.Kind))
	u(req.RegisteredProof)
	u(req.SectorSize)
	u(req.SectorNumber)
	u(req.MinerID)
	u(uint64(req.PartitionIndex))
	bs(req.VanillaProof)
	u(uint64(len(req.VanillaProofs)))
	for _, p := range req.VanillaProofs {
		bs(p)
	}
	bs(req.Randomness)
	bs(req.CommROld)
	bs(req.CommRNew)
	bs(req.CommDNew)
	var d [32]byte
	h.Sum(d[:0])
	return d
}

// badInputError makes err match ErrBadInput without changing its message.
type badInputError struct{ err error }

func (e *badInputError) Error() string   { return e.err.Error() }
func (e *badInputError) Unwrap() []error { return []error{ErrBadInput, e.err} }

func badInput(err error) error { return &badInputError{err} }

func badInputf(format string, a ...any) error { return badInput(fmt.Errorf(format, a...)) }

// errPanic wraps a recovered panic as a job failure.
var errPanic = errors.New("engine: panic")
