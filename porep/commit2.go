// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// ErrUnsupportedProof is returned for registered proofs or aggregation
// kinds cuseal cannot prove or verify (SnarkPackV1 aggregation).
var ErrUnsupportedProof = errors.New("porep: unsupported registered proof")

// ErrInvalidProof is groth16.ErrInvalidProof: SealCommitPhase2 wraps it when
// a proof it produced does not verify (errors.Is works with either name).
var ErrInvalidProof = groth16.ErrInvalidProof

// ErrSyntheticC1 is returned for C1 data made by seal.SyntheticC1: it has the
// right shape but random values, so no valid proof exists for it.
var ErrSyntheticC1 = errors.New("porep: C1 output is synthetic (cuseal_synthetic_invalid), it cannot be proven")

// ErrBadInput is wrapped by every error caused by the caller's input rather
// than by cuseal or its environment: a malformed or inconsistent C1 output
// or Commit2In wrapper, a sector number or miner that does not match it,
// undecodable proof bytes or malformed commitments given to VerifySeal,
// parameters whose shape does not fit the sector's circuit, a parameter file
// that cannot be read (permissions, a directory in its place) or is
// truncated or corrupt, a .vk that is not the .params file's key, and files
// that are not the official ones under WithRequireProductionParams. Test with
// errors.Is; errors.As still reaches the underlying error (e.g. a
// *stacked.ParseError naming the JSON path).
var ErrBadInput = errors.New("porep: bad input")

// badInputError makes err match ErrBadInput without changing its message.
type badInputError struct{ err error }

func (e *badInputError) Error() string   { return e.err.Error() }
func (e *badInputError) Unwrap() []error { return []error{ErrBadInput, e.err} }

// badInput marks err as caused by the caller's input (see ErrBadInput).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &badInputError{err}
}

// badInputf is badInput(fmt.Errorf(format, a...)).
func badInputf(format string, a ...any) error {
	return badInput(fmt.Errorf(format, a...))
}

// parsedC1 is one parsed, checked C1 output ready for proving.
type parsedC1 struct {
	c1  *stacked.C1Output
	cfg stacked.SectorConfig
}

// parseC1 accepts raw C1 JSON or a lotus-bench Commit2In wrapper, validates
// it against its registered proof, checks that its replica_id is the one
// of (minerID, sectorNum, ticket, comm_d, porep_id), and re-derives every
// partition's challenges and parents and every Merkle inclusion proof and
// column hash and compares them with the vanilla proofs, so that input
// mistakes are reported (wrapping ErrBadInput, naming
// the JSON path) before any synthesis.
func parseC1(phase1Output []byte, sectorNum abi.SectorNumber, minerID abi.ActorID) (*parsedC1, error) {
	raw, wrapper, err := stacked.UnwrapC1Input(phase1Output)
	if err != nil {
		return nil, badInputf("porep: %w", err)
	}
	c1, cfg, err := stacked.ParseC1(raw)
	if err != nil {
		return nil, badInputf("porep: C1: %w", err)
	}
	if wrapper != nil {
		if wrapper.SectorNum != int64(sectorNum) {
			return nil, badInputf("porep: Commit2In.SectorNum = %d, but sector number %d was given", wrapper.SectorNum, sectorNum)
		}
		if wrapper.SectorSize != 0 && wrapper.SectorSize != cfg.SectorSize {
			return nil, badInputf("porep: Commit2In.SectorSize = %d, but registered_proof %s has %d", wrapper.SectorSize, cfg.Name, cfg.SectorSize)
		}
	}
	if c1.SyntheticInvalid {
		return nil, badInput(ErrSyntheticC1)
	}
	want := stacked.ReplicaID(stacked.ProverID(minerID), sectorNum, c1.Ticket, c1.CommD, cfg.PoRepID)
	if stacked.Domain(want) != c1.ReplicaID {
		return nil, badInputf("porep: C1 replica_id %x is not the replica id of miner %d, sector %d with the C1's ticket, comm_d and porep_id of %s (want %x): wrong miner or sector number, or an altered ticket, comm_d or registered_proof",
			c1.ReplicaID[:], minerID, sectorNum, cfg.Name, want[:])
	}
	if err := c1.ValidateChallenges(&cfg); err != nil {
		return nil, badInputf("porep: C1: %w", err)
	}
	// A corrupted Merkle path would otherwise only show up as a proof that
	// does not verify, after synthesis and proving.
	if err := c1.ValidateInclusionProofs(&cfg); err != nil {
		return nil, badInputf("porep: C1: %w", err)
	}
	return &parsedC1{c1: c1, cfg: cfg}, nil
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

// SealCommitPhase2 is filecoin-ffi's SealCommitPhase2: from a C1 output
// (serde JSON of SealCommitPhase1Output, or lotus-bench's Commit2In JSON
// wrapping it) it proves every partition's Stacked-DRG circuit and returns
// the proofs, 192 bytes per partition, concatenated in partition order
// (rust-fil-proofs seal_commit_phase2).
//
// The C1 output is validated strictly before anything is synthesized
// (errors wrap ErrBadInput and name the JSON path): its shape, its
// replica_id (that of minerID and sectorNum), its challenges and every
// Merkle path and column hash; then the parameters' shape is checked
// against the circuit. Parameters are read
// from the parameter directory under their Filecoin names; the .vk file
// must hold the same verifying key as the .params file (else an error
// wrapping ErrBadInput names both), and every proof is verified against
// that .vk — the key VerifySeal and rust-fil-proofs verify_seal use — with
// the public inputs VerifySeal would use before anything is returned
// (rust-fil-proofs' post-seal verification sanity check); a failure is an
// error wrapping groth16.ErrInvalidProof, never a bad proof. Test-stamped
// parameters give one warning (WithProgress PhaseWarning, and the logger);
// WithRequireProductionParams refuses anything but the official files.
// For NI-PoRep the result is the SnarkPack V2 aggregate of the partition
// proofs (filecoin-proofs seal_commit_phase2), verified as VerifySeal does
// before it is returned; it needs v28-fil-inner-product-v1.srs in the
// parameter directory.
func SealCommitPhase2(phase1Output []byte, sectorNum abi.SectorNumber, minerID abi.ActorID, opts ...Option) ([]byte, error) {
	s := newSettings(opts)
	start := time.Now()
	pc, err := parseC1(phase1Output, sectorNum, minerID)
	if err != nil {
		return nil, err
	}
	cfg := &pc.cfg
	backend, bname, err := newBackend(s.backend, s.log)
	if err != nil {
		return nil, err
	}
	if err := productionCheck(s, cfg, true); err != nil {
		return nil, err
	}
	// The self-check below uses the .vk file verifiers will use, after
	// checking that it holds the .params file's key.
	params, pvk, err := loadProvingKeys(s.paramsDir, cfg)
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
	g, err := stacked.GraphFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	s.log.Info("commit2 start", "proof", cfg.Name, "partitions", cfg.Partitions, "backend", bname, "params", params.Name())
	s.progress(PhaseEvent{Phase: PhaseStart, Partition: -1, Backend: bname})

	ctx := s.ctx
	n := len(pc.c1.VanillaProofs)
	proofs := make([]groth16.Proof, n)
	// The partition size is measured once per shape (SizeHintFor caches it),
	// here rather than inside partition 0's synthesis time.
	if _, err := stacked.SizeHintFor(cfg); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	synth := func(k int) (*cs.Assignment, error) {
		t0 := time.Now()
		s.progress(PhaseEvent{Phase: PhaseSynthesizing, Partition: k, Backend: bname})
		a, err := stacked.SynthesizePartition(ctx, pc.c1, cfg, k, synthPool, s.synthWorkers())
		if err != nil {
			return nil, fmt.Errorf("porep: %w", err)
		}
		took := time.Since(t0)
		s.log.Info("partition synthesized", "k", k, "constraints", len(a.A), "aux", len(a.Aux), "took", took)
		s.progress(PhaseEvent{Phase: PhaseSynthesized, Partition: k, Backend: bname, Took: took})
		return a, nil
	}
	prove := func(k int, a *cs.Assignment) error {
		t0 := time.Now()
		public, err := pc.c1.PublicInputs(cfg, g, k)
		if err != nil {
			return fmt.Errorf("porep: partition %d: %w", k, err)
		}
		if !frSliceEqual(a.Input[1:], public) {
			return fmt.Errorf("porep: partition %d: synthesized inputs differ from the public inputs the verifier derives", k)
		}
		rs, err := s.randomness(k)
		if err != nil {
			return fmt.Errorf("porep: partition %d: %w", k, err)
		}
		sctx := groth16.WithStageFunc(ctx, func(stage string) {
			s.progress(PhaseEvent{Phase: PhaseStage, Partition: k, Backend: bname, Stage: stage})
		})
		ps, err := groth16.Prove(sctx, backend, params, []*cs.Assignment{a}, []groth16.Randomness{rs})
		if err != nil {
			return fmt.Errorf("porep: partition %d: prove: %w", k, err)
		}
		s.progress(PhaseEvent{Phase: PhaseStage, Partition: k, Backend: bname, Stage: "verify"})
		if err := pvk.Verify(&ps[0], public); err != nil {
			_, vp, _ := cfg.ParameterPaths(s.paramsDir)
			return fmt.Errorf("porep: partition %d: the produced proof does not verify against %s: %w", k, vp, err)
		}
		proofs[k] = ps[0]
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
	if cfg.Challenges == stacked.ChallengesNonInteractive {
		return sealCommitNI(s, pc, proofs, sectorNum, minerID, start)
	}
	s.log.Info("commit2 done", "proof", cfg.Name, "bytes", n*groth16.ProofSize, "took", time.Since(start))
	return groth16.EncodeProofs(proofs), nil
}

// synthPool recycles assignment storage across the partitions and the
// calls of this process (see cs.BufferPool): later partitions synthesize
// into memory that is already faulted in. It keeps as many sets as the
// largest WithMaxPartitionsInFlight seen, and drops them when memory runs
// short.
var synthPool = &cs.BufferPool{}

// ReleaseSynthesisBuffers drops the assignment storage SealCommitPhase2
// keeps for the next partition or call (about 16 GiB per partition in
// flight at 32 GiB), so the garbage collector can return it to the system.
// The storage is also dropped by itself when memory runs short; call this
// when no more proofs are coming soon.
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
