// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// KindTestDouble is not a cuzk kind: jobs of the test double
// (Config.TestDouble), for tests and `cuseal bench engine`.
const KindTestDouble Kind = 1000

var kindNames = map[Kind]string{
	KindUnspecified:         "PROOF_KIND_UNSPECIFIED",
	KindPoRepC2:             "POREP_SEAL_COMMIT",
	KindSnapDealsUpdate:     "SNAP_DEALS_UPDATE",
	KindWindowPoStPartition: "WINDOW_POST_PARTITION",
	KindWinningPoSt:         "WINNING_POST",
	KindTestDouble:          "TEST_DOUBLE",
}

// String is the cuzk.v1.ProofKind name (queue labels in status and metrics).
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int32(k))
}

// String is the cuzk.v1.Priority name without its prefix.
func (p Priority) String() string {
	switch p {
	case PriorityLow:
		return "LOW"
	case PriorityNormal:
		return "NORMAL"
	case PriorityHigh:
		return "HIGH"
	case PriorityCritical:
		return "CRITICAL"
	}
	return "UNSPECIFIED"
}

// DefaultPriority is the priority Curio gives each kind: CRITICAL for
// WinningPoSt, HIGH for WindowPoSt, NORMAL otherwise.
func DefaultPriority(k Kind) Priority {
	switch k {
	case KindWinningPoSt:
		return PriorityCritical
	case KindWindowPoStPartition:
		return PriorityHigh
	}
	return PriorityNormal
}

func (s State) String() string {
	switch s {
	case StateQueued:
		return "queued"
	case StateRunning:
		return "running"
	case StateCompleted:
		return "completed"
	case StateFailed:
		return "failed"
	case StateCancelled:
		return "cancelled"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Final reports whether s is Completed, Failed or Cancelled.
func (s State) Final() bool { return s >= StateCompleted }

// kindHandler is what a proof kind implements to be proven by the engine:
// it turns a Request into a plan, and knows its circuits by cuzk id.
type kindHandler interface {
	// prepare parses and validates req (errors caused by it wrap
	// ErrBadInput and name the field) into a plan.
	prepare(req *Request) (plan, error)
	// circuit returns the parameters of a circuit id ("porep-32g"), or false.
	circuit(id string) (*paramsSpec, bool)
}

// plan is one validated job of a kind: its parameters, partitions and
// memory, and the steps the engine schedules. Methods other than finish
// may be called concurrently for different partitions.
type plan interface {
	partitions() int
	// params is the parameter file the partitions prove with (nil: none).
	params() *paramsSpec
	// partitionBytes is the memory of one partition from the start of its
	// synthesis until its proof is verified, host proving scratch included.
	partitionBytes() uint64
	// synthesize makes partition k's assignment (threads: goroutines).
	synthesize(ctx context.Context, k, threads int) (*cs.Assignment, error)
	// release hands an assignment's storage back (nil: no-op).
	release(a *cs.Assignment)
	// verify checks partition k's proof with the verifier's key and the
	// public inputs the verifier derives (a kind checks them against the
	// assignment at synthesis, so a mismatch is not the prover's fault).
	verify(k int, a *cs.Assignment, proof *groth16.Proof, keys *keys) error
	// finish turns the verified proofs, in partition order, into the bytes
	// the caller gets.
	finish(proofs []groth16.Proof) ([]byte, error)
}

// paramsSpec identifies one parameter file and loads it.
type paramsSpec struct {
	id    string // cuzk-style circuit id
	file  string // the .params path (the cache key)
	bytes uint64 // resident size counted in the budget
	load  func() (*keys, error)
}

// newParamsSpec is the spec of circuit id's keys k (porep.Keys: loaded
// and evicted through porep/paramfile's process-wide cache).
func newParamsSpec(id string, k *porep.Keys, bytes uint64) *paramsSpec {
	file, _ := k.Paths()
	return &paramsSpec{
		id: id, file: file, bytes: bytes,
		load: func() (*keys, error) {
			p, pvk, err := k.Load()
			if err != nil {
				return nil, err
			}
			return &keys{params: p, pvk: pvk, evict: func() { k.Evict() }}, nil
		},
	}
}

// sizeID is a sector size as cuzk's circuit ids write it: 2k, 32g.
func sizeID(size uint64) string {
	return strings.ToLower(strings.TrimSuffix(stacked.SizeLabel(size), "iB"))
}

// keys are loaded parameters: the proving key and the verifier's key.
type keys struct {
	params *groth16.Params
	pvk    *groth16.PreparedVerifyingKey
	evict  func() // drops the process-wide cache entry (nil: nothing)
}

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
