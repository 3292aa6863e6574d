// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// The proof-family contract and its one runner. A family (PoRep C2 with
// NI-PoRep, WinningPoSt and WindowPoSt, SnapDeals) turns its checked inputs
// into partition circuits, public inputs and a finish step; everything
// else — parameter keys, synthesis, blinding, proving, self-verification,
// the bounded pipeline, cancellation, progress — is the Job's, the same for
// every family.

import (
	"context"
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// Every registered proof's configuration names its parameter files.
var (
	_ paramfile.Circuit = (*stacked.SectorConfig)(nil)
	_ paramfile.Circuit = (*post.Config)(nil)
	_ paramfile.Circuit = (*update.Config)(nil)
)

// family is one proof family's side of the contract: the partition
// circuits of one proof over checked inputs, as rust-fil-proofs'
// CompoundProof gives them for one set of public inputs (StackedCompound,
// FallbackPoStCompound, EmptySectorUpdateCompound). A family is made by
// its Prepare call, which checks every input first (errors wrap
// ErrBadInput and name the field), and is read-only afterwards: safe for
// concurrent use by partition.
type family interface {
	// circuit is the registered proof's configuration: the parameter
	// identity every partition proves with.
	circuit() paramfile.Circuit
	// partitions is the number of partition circuits (≥ 1).
	partitions() int
	// blinding is the index whose r, s blind partition k
	// (WithDeterministicRandomness): k, or a WindowPoSt partition's index.
	blinding(k int) int
	// build returns partition k's circuit (CompoundProof::circuit); errors
	// name the partition.
	build(k int) (cs.Circuit, error)
	// segment is the size of one of the circuit's equal parts (a challenge
	// or a sector), for parallel synthesis.
	segment() (cs.SizeHint, error)
	// public returns partition k's public inputs, ONE excluded, as the
	// verifier derives them (CompoundProof::generate_public_inputs).
	public(k int) ([]fr.Element, error)
	// finish turns the verified proofs, in partition order, into the
	// caller's bytes: concatenated 192-byte proofs, or an aggregate.
	finish(s *settings, proofs []groth16.Proof) ([]byte, error)
	// what names the proof in log messages ("commit2", "post", "update").
	what() string
}

// Job is one proof of any family — a C2 (SealCommitPhase2), a WinningPoSt
// or one or all WindowPoSt partitions, a SnapDeals update — after its
// inputs were parsed and checked, as steps a scheduler runs on its own
// workers and provers (porep/engine): load the keys, synthesize partition
// k, check its public inputs, verify its proof, finish. The
// filecoin-ffi-shaped calls run the same steps through one runner; with
// the same r, s per blinding index a scheduler's bytes are theirs. Make
// one with PrepareCommit2, PrepareWinningPoSt, PrepareWindowPoStPartition
// or PrepareUpdate. Safe for concurrent use by partition.
type Job struct {
	s     *settings
	f     family
	start time.Time
}

// newJob wraps a prepared family and measures its circuit's shape once,
// here rather than inside the first partition's synthesis.
func newJob(s *settings, f family, start time.Time) (*Job, error) {
	if _, err := f.circuit().SizeHint(); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	if _, err := f.segment(); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return &Job{s: s, f: f, start: start}, nil
}

// Circuit is the registered proof's configuration, the parameter identity
// of every partition: *stacked.SectorConfig (PoRep C2; NI-PoRep),
// *post.Config (WinningPoSt, WindowPoSt) or *update.Config (SnapDeals).
func (j *Job) Circuit() paramfile.Circuit { return j.f.circuit() }

// Partitions is the number of partition circuits: the C1's vanilla
// proofs, 1 for WinningPoSt and a WindowPoSt partition job, the sectors'
// partitions for a whole WindowPoSt, 1–16 for SnapDeals.
func (j *Job) Partitions() int { return j.f.partitions() }

// BlindingIndex is the index WithDeterministicRandomness draws partition
// k's r, s for (groth16.RandomnessFromSeed(seed, index)): k, or for a
// WindowPoSt partition job its partition index.
func (j *Job) BlindingIndex(k int) int { return j.f.blinding(k) }

// Keys is the job's parameter files in its parameter directory, under its
// options' production-parameter policy.
func (j *Job) Keys() *Keys { return &Keys{s: j.s, c: j.f.circuit()} }

// checkPartition refuses a partition index out of range.
func (j *Job) checkPartition(k int) error {
	if k < 0 || k >= j.f.partitions() {
		return fmt.Errorf("porep: partition %d of %d", k, j.f.partitions())
	}
	return nil
}

// PartitionCircuit builds partition k's circuit afresh, for callers that
// synthesize it into another constraint system (`cuseal bench synth
// --digests` records its R1CS).
func (j *Job) PartitionCircuit(k int) (cs.Circuit, error) {
	if err := j.checkPartition(k); err != nil {
		return nil, err
	}
	return j.f.build(k)
}

// SynthesizePartition synthesizes partition k (0 ≤ k < Partitions) through
// the one orchestration, cs.BufferPool.Synthesize: into an assignment
// pre-sized to the circuit's exact shape, storage from pool (nil: the
// shared pool the filecoin-ffi-shaped calls use), its equal parts
// (challenges or sectors) on up to workers goroutines (1: in order). Give
// the assignment back with pool.Release; on error its storage is back in
// pool already. Errors name the partition: a synthesis failure, ctx's
// error; none is the caller's (Prepare built every circuit once).
func (j *Job) SynthesizePartition(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	if pool == nil {
		pool = synthPool
	}
	circ, err := j.PartitionCircuit(k)
	if err != nil {
		return nil, err
	}
	size, err := j.f.circuit().SizeHint()
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	per, err := j.f.segment()
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	a, err := pool.Synthesize(ctx, circ, size, per, workers)
	if err != nil {
		return nil, fmt.Errorf("porep: partition %d: synthesize: %w", k, err)
	}
	return a, nil
}

// PublicInputs returns partition k's public inputs (ONE excluded) as the
// verifier derives them, after checking that the synthesized assignment a
// (when not nil) carries the same ones.
func (j *Job) PublicInputs(k int, a *cs.Assignment) ([]fr.Element, error) {
	if err := j.checkPartition(k); err != nil {
		return nil, err
	}
	public, err := j.f.public(k)
	if err != nil {
		return nil, err
	}
	if a != nil && !frSliceEqual(a.Input[1:], public) {
		return nil, fmt.Errorf("porep: partition %d: synthesized inputs differ from the public inputs the verifier derives", k)
	}
	return public, nil
}

// VerifyPartition checks partition k's proof against the .vk's prepared key
// with the verifier's public inputs (the post-proof sanity check of
// rust-fil-proofs); an error wraps ErrInvalidProof and names the .vk file.
func (j *Job) VerifyPartition(pvk *groth16.PreparedVerifyingKey, k int, proof *groth16.Proof, public []fr.Element) error {
	if err := pvk.Verify(proof, public); err != nil {
		_, vp := j.Keys().Paths()
		return fmt.Errorf("porep: partition %d: the produced proof does not verify against %s (a faulty prover, or a .params that is corrupt yet decodes or does not belong to this .vk): %w", k, vp, err)
	}
	return nil
}

// Finish turns the verified partition proofs, in partition order, into the
// filecoin-ffi call's result: their 192-byte encodings concatenated, or
// for NI-PoRep their SnarkPack V2 aggregate, verified as VerifySeal does.
func (j *Job) Finish(proofs []groth16.Proof) ([]byte, error) {
	if len(proofs) != j.f.partitions() {
		return nil, fmt.Errorf("porep: %d proofs for %d partitions", len(proofs), j.f.partitions())
	}
	return j.f.finish(j.s, proofs)
}

// prove is the one runner every filecoin-ffi-shaped prover call ends in: it
// chooses the backend (WithBackend), loads the keys (the production
// policy, the .vk-vs-.params check; WithPreloadParams), then synthesizes
// and proves every partition in order through the bounded pipeline
// (WithMaxPartitionsInFlight, WithSynthesisWorkers), each blinded with
// fresh or WithDeterministicRandomness r, s and verified against the .vk
// before it counts; WithContext cancels between stages, WithProgress and
// WithLogger report each phase. The verified proofs go to Finish.
func (j *Job) prove() ([]byte, error) {
	s, f := j.s, j.f
	c := f.circuit()
	if s.only != nil {
		if err := j.checkPartition(*s.only); err != nil {
			return nil, badInputf("%w (WithOnlyPartition)", err)
		}
	}
	backend, bname, err := newBackend(s.backend, s.log)
	if err != nil {
		return nil, err
	}
	keys := j.Keys()
	params, pvk, err := keys.Load()
	if err != nil {
		return nil, err
	}
	if s.preload {
		t0 := time.Now()
		if err := params.Preload(); err != nil {
			return nil, fmt.Errorf("porep: preload %s: %w", params.Name(), err)
		}
		s.log.Info("params preloaded", "params", params.Name(), "took", time.Since(t0))
	}
	n, first := f.partitions(), 0
	if s.only != nil {
		n, first = 1, *s.only
	}
	s.log.Info(f.what()+" start", "proof", c.ProofName(), "partitions", n, "backend", bname, "params", params.Name())
	s.progress(PhaseEvent{Phase: PhaseStart, Partition: -1, Partitions: n, Backend: bname})

	ctx := s.ctx
	proofs := make([]groth16.Proof, n)
	synth := func(k int) (*cs.Assignment, error) {
		k += first
		t0 := time.Now()
		s.progress(PhaseEvent{Phase: PhaseSynthesizing, Partition: k, Backend: bname})
		a, err := j.SynthesizePartition(ctx, k, synthPool, s.synthWorkers())
		if err != nil {
			return nil, err
		}
		took := time.Since(t0)
		s.log.Info("partition synthesized", "k", k, "constraints", len(a.A), "aux", len(a.Aux), "took", took)
		s.progress(PhaseEvent{Phase: PhaseSynthesized, Partition: k, Backend: bname, Took: took})
		return a, nil
	}
	prove := func(k int, a *cs.Assignment) error {
		k += first
		t0 := time.Now()
		public, err := j.PublicInputs(k, a)
		if err != nil {
			return err
		}
		rs, err := s.randomness(f.blinding(k))
		if err != nil {
			return fmt.Errorf("porep: partition %d: %w", k, err)
		}
		sctx := groth16.WithStageFunc(ctx, func(stage string) {
			s.progress(PhaseEvent{Phase: PhaseStage, Partition: k, Backend: bname, Stage: stage})
		})
		// a's inputs are checked and public is the verifier's copy: the
		// backend may compute H in a's A, B, C (the pool reuses the storage).
		sctx = groth16.WithAssignmentsConsumed(sctx)
		ps, err := groth16.Prove(sctx, backend, params, []*cs.Assignment{a}, []groth16.Randomness{rs})
		if err != nil {
			return fmt.Errorf("porep: partition %d: prove: %w", k, err)
		}
		s.progress(PhaseEvent{Phase: PhaseStage, Partition: k, Backend: bname, Stage: "verify"})
		if err := j.VerifyPartition(pvk, k, &ps[0], public); err != nil {
			return err
		}
		proofs[k-first] = ps[0]
		synthPool.Release(a) // a is not used after this
		took := time.Since(t0)
		s.log.Info("partition proven", "k", k, "took", took)
		s.progress(PhaseEvent{Phase: PhaseProven, Partition: k, Backend: bname, Took: took})
		return nil
	}
	synthPool.Reserve(s.inFlight)
	if err := pipeline(ctx, n, s.inFlight, synth, prove); err != nil {
		return nil, err
	}
	if s.only != nil {
		b := proofs[0].Bytes()
		return b[:], nil
	}
	out, err := j.Finish(proofs)
	if err != nil {
		return nil, err
	}
	s.log.Info(f.what()+" done", "proof", c.ProofName(), "bytes", len(out), "took", time.Since(j.start))
	return out, nil
}

// synthesized is one partition's assignment on its way to the prover.
type synthesized struct {
	k   int
	a   *cs.Assignment
	err error
}

// pipeline runs synth(k) for k = 0…n−1 in order on one goroutine and
// prove(k, a) on the caller's, in the same order, with at most inFlight
// assignments alive at once (synthesized and not yet proven): synthesis of
// k+1 overlaps proving of k when inFlight ≥ 2. The first error (or ctx's
// cancellation, checked between partitions) stops both sides.
func pipeline(ctx context.Context, n, inFlight int, synth func(k int) (*cs.Assignment, error), prove func(k int, a *cs.Assignment) error) error {
	if inFlight < 1 {
		inFlight = 1
	}
	sem := make(chan struct{}, inFlight)
	ch := make(chan synthesized)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(ch)
		for k := 0; k < n; k++ {
			select {
			case sem <- struct{}{}:
			case <-done:
				return
			}
			var item synthesized
			if err := ctx.Err(); err != nil {
				item = synthesized{k: k, err: err}
			} else {
				a, err := synth(k)
				item = synthesized{k, a, err}
			}
			select {
			case ch <- item:
			case <-done:
				return
			}
			if item.err != nil {
				return
			}
		}
	}()
	proven := 0
	for item := range ch {
		if item.err != nil {
			return item.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := prove(item.k, item.a); err != nil {
			return err
		}
		item.a = nil
		<-sem // the assignment is no longer referenced here
		proven++
	}
	if proven != n {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fmt.Errorf("porep: %d of %d partitions proven", proven, n)
	}
	return nil
}

// synthPool recycles assignment storage across the partitions and the
// calls of this process (see cs.BufferPool): later partitions synthesize
// into memory that is already faulted in. It keeps as many sets as the
// largest WithMaxPartitionsInFlight seen, and drops them when memory runs
// short.
var synthPool = &cs.BufferPool{}

// ReleaseSynthesisBuffers drops the assignment storage the prover calls
// keep for the next partition or call (about 16 GiB per partition in
// flight for a 32 GiB C2), so the garbage collector can return it to the
// system. The storage is also dropped by itself when memory runs short;
// call this when no more proofs are coming soon.
func ReleaseSynthesisBuffers() { synthPool.Trim() }

// frSliceEqual reports whether two field element slices are equal.
func frSliceEqual(a, b []fr.Element) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(&b[i]) {
			return false
		}
	}
	return true
}

// checkPartitions builds every partition's circuit and public inputs of a
// prepared family once and drops them, so that whatever of the caller's
// input only the circuit would reject is bad input found by Prepare; after
// it, build and public fail only on cuseal's own faults.
func checkPartitions(f family) error {
	for k := range f.partitions() {
		if _, err := f.build(k); err != nil {
			return badInput(err)
		}
		if _, err := f.public(k); err != nil {
			return badInput(err)
		}
	}
	return nil
}
