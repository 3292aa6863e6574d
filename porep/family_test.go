// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// toyParts is the number of equal parts of a toy circuit.
const toyParts = 3

// toyCircuit is partition k of a toy family: part i proves
// a·a = c for the aux a = k·toyParts + i + 1 and the public input c = a².
// It is also the toy family's paramfile.Circuit.
type toyCircuit struct {
	k     int
	blank bool
}

func (c *toyCircuit) value(i int) (a, sq fr.Element) {
	if !c.blank {
		a.SetUint64(uint64(c.k*toyParts + i + 1))
		sq.Square(&a)
	}
	return a, sq
}

func (c *toyCircuit) part(sys cs.ConstraintSystem, i int) error {
	a, sq := c.value(i)
	va, vc := sys.Alloc(&a), sys.AllocInput(&sq)
	var one fr.Element
	one.SetOne()
	sys.Enforce(cs.LC{{Coeff: one, Var: va}}, cs.LC{{Coeff: one, Var: va}}, cs.LC{{Coeff: one, Var: vc}})
	return nil
}

func (c *toyCircuit) Synthesize(ctx context.Context, sys cs.ConstraintSystem) error {
	for i := 0; i < toyParts; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.part(sys, i); err != nil {
			return err
		}
	}
	return nil
}

func (c *toyCircuit) SynthesizeParallel(ctx context.Context, p *cs.ProvingAssignment, per cs.SizeHint, workers int) error {
	return p.SynthesizeSegments(ctx, "toy: part", toyParts, per, workers, func(seg *cs.Segment, i int) error { return c.part(seg, i) })
}

func (c *toyCircuit) ParameterPaths(dir string) (params, vk, meta string) {
	return stacked.ParameterPathsFor(dir, c.ParameterFileStem())
}
func (c *toyCircuit) ParameterFileStem() string   { return "v28-cuseal-toy-circuit" }
func (c *toyCircuit) ParameterIdentifier() string { return fmt.Sprintf("toy{parts: %d}", toyParts) }
func (c *toyCircuit) NumPublicInputs() int        { return 1 + toyParts }
func (c *toyCircuit) ProofName() string           { return "Toy" }
func (c *toyCircuit) ProofSectorSize() uint64     { return 2048 }
func (c *toyCircuit) SizeHint() (cs.SizeHint, error) {
	return cs.SizeHint{Constraints: toyParts, Aux: toyParts, Inputs: 1 + toyParts}, nil
}
func (c *toyCircuit) BlankCircuit() cs.Circuit { return &toyCircuit{blank: true} }

// toyFamily is a family of n toy partitions, partition k the toy circuit
// of index first+k blinded as base+k (as a WindowPoSt partition job is
// partition index of the whole WindowPoSt), its proofs concatenated.
type toyFamily struct{ n, first, base int }

func (f *toyFamily) circuit() paramfile.Circuit      { return &toyCircuit{} }
func (f *toyFamily) partitions() int                 { return f.n }
func (f *toyFamily) blinding(k int) int              { return f.base + k }
func (f *toyFamily) build(k int) (cs.Circuit, error) { return &toyCircuit{k: f.first + k}, nil }
func (f *toyFamily) segment() (cs.SizeHint, error) {
	return cs.SizeHint{Constraints: 1, Aux: 1, Inputs: 1}, nil
}
func (f *toyFamily) what() string { return "toy" }
func (f *toyFamily) public(k int) ([]fr.Element, error) {
	c := &toyCircuit{k: f.first + k}
	out := make([]fr.Element, toyParts)
	for i := range out {
		_, out[i] = c.value(i)
	}
	return out, nil
}
func (f *toyFamily) finish(_ *settings, proofs []groth16.Proof) ([]byte, error) {
	return groth16.EncodeProofs(proofs), nil
}

// toyParams writes the toy circuit's test parameters into a new directory.
func toyParams(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := paramfile.GenerateTestParams(dir, &toyCircuit{}, [32]byte{1}, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunnerAnyFamily: the one runner proves a family it knows only
// through the contract (a toy one, on the CPU): every partition's proof
// verifies with the .vk, the bytes do not depend on the partitions in
// flight or the synthesis workers, blinding indices come from the family,
// two partitions in flight overlap the synthesis of k+1 with the proof of
// k and one does not, and a cancelled context stops it.
func TestRunnerAnyFamily(t *testing.T) {
	dir := toyParams(t)
	seed := [32]byte{7}
	run := func(f *toyFamily, opts ...Option) ([]byte, []PhaseEvent, error) {
		var events []PhaseEvent
		rec := func(ev PhaseEvent) {
			if ev.Phase == PhaseSynthesizing || ev.Phase == PhaseProven {
				events = append(events, ev)
			}
		}
		opts = append([]Option{WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(seed), WithProgress(rec)}, opts...)
		j, err := newJob(newSettings(opts), f, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		out, err := j.prove()
		return out, events, err
	}
	// overlapped reports whether partition k+1's synthesis started before
	// partition k was proven. Events come from two goroutines; with one
	// partition in flight they are ordered by the pipeline's semaphore.
	overlapped := func(events []PhaseEvent) bool {
		proven := map[int]bool{}
		for _, ev := range events {
			switch {
			case ev.Phase == PhaseProven:
				proven[ev.Partition] = true
			case ev.Partition > 0 && !proven[ev.Partition-1]:
				return true
			}
		}
		return false
	}
	one, ev1, err := run(&toyFamily{n: 3}, WithMaxPartitionsInFlight(1), WithSynthesisWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 3*groth16.ProofSize {
		t.Fatalf("%d bytes for 3 partitions", len(one))
	}
	if overlapped(ev1) {
		t.Errorf("one partition in flight: a synthesis overlapped a proof: %+v", ev1)
	}
	// The pipeline hands partition k+1 to synthesis as soon as k is
	// synthesized, so with two in flight some synthesis starts before the
	// previous proof is done (proving takes far longer than this toy's
	// synthesis; a few tries absorb scheduling noise).
	seen := false
	for try := 0; try < 5 && !seen; try++ {
		two, ev2, err := run(&toyFamily{n: 3}, WithMaxPartitionsInFlight(2), WithSynthesisWorkers(2))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(two, one) {
			t.Fatal("two partitions in flight and two workers: other bytes than one and one")
		}
		seen = overlapped(ev2)
	}
	if !seen {
		t.Error("two partitions in flight: no synthesis overlapped a proof")
	}
	// Blinding comes from the family: circuit 1 alone, blinded as 1, is
	// the whole run's partition 1.
	alone, _, err := run(&toyFamily{n: 1, first: 1, base: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(alone, one[groth16.ProofSize:2*groth16.ProofSize]) {
		t.Error("circuit 1 blinded as 1 alone: not the whole run's partition 1")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := run(&toyFamily{n: 2}, WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}
