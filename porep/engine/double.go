// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// TestDouble configures KindTestDouble, a proof kind without circuits for
// tests and the scheduling benchmark: each job has Partitions partitions
// (len(Request.VanillaProofs) when that is not 0), each synthesized by
// sleeping SynthesisTime and counted as PartitionBytes in the budget; its
// "parameters" count ParamsBytes. Request.VanillaProof steers a job:
// "bad" is refused as bad input, "panic" panics in synthesis, "fail"
// fails synthesis; Request.SectorSize, when not 0, is the job's
// PartitionBytes. Only a DoubleProver makes proofs this kind accepts.
type TestDouble struct {
	Partitions     int           // 0: 4
	SynthesisTime  time.Duration // per partition
	PartitionBytes uint64        // 0: 1 MiB
	ParamsBytes    uint64        // 0: no parameters
	// Allocate makes each synthesized partition hold PartitionBytes of
	// touched memory until it is proven, so the resident set follows the
	// schedule (the benchmark's peak RSS against the budget).
	Allocate bool
	// ParamsError, when set (with ParamsBytes), is the error of loading
	// the "parameters".
	ParamsError error
}

// DoubleProver is a test double of a device: it takes PerPartition per
// partition (honouring ctx), then returns Inner's proof when Inner is set
// (a real backend behind a faulty or slow device), else the double's
// marker proof. Fail, when set, is asked first with the call's number
// (from 1): a non-nil error fails that call.
type DoubleProver struct {
	ProverName   string // "": "double"
	PerPartition time.Duration
	Inner        Prover
	Fail         func(call int, w *Work) error

	calls atomic.Int64
}

func (d *DoubleProver) Name() string {
	if d.ProverName == "" {
		return "double"
	}
	return d.ProverName
}

func (d *DoubleProver) Backend() string {
	if d.Inner != nil {
		return d.Inner.Backend()
	}
	return "double"
}

// Calls is the number of Prove calls so far.
func (d *DoubleProver) Calls() int { return int(d.calls.Load()) }

func (d *DoubleProver) Prove(ctx context.Context, w *Work) (groth16.Proof, error) {
	n := int(d.calls.Add(1))
	if d.Fail != nil {
		if err := d.Fail(n, w); err != nil {
			return groth16.Proof{}, err
		}
	}
	if err := sleepCtx(ctx, d.PerPartition); err != nil {
		return groth16.Proof{}, err
	}
	if d.Inner != nil {
		return d.Inner.Prove(ctx, w)
	}
	return markerProof(), nil
}

// markerProof is the double's "proof": the generators.
func markerProof() groth16.Proof {
	_, _, g1, g2 := bls.Generators()
	return groth16.Proof{A: g1, B: g2, C: g1}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// doubleKind is KindTestDouble.
type doubleKind struct{ cfg TestDouble }

func (dk *doubleKind) prepare(req *Request) (plan, error) {
	switch string(req.VanillaProof) {
	case "bad":
		return nil, badInputf("engine: TEST_DOUBLE: vanilla_proof %q asks to be refused", req.VanillaProof)
	}
	n := len(req.VanillaProofs)
	if n == 0 {
		n = dk.cfg.Partitions
	}
	if n == 0 {
		n = 4
	}
	b := dk.cfg.PartitionBytes
	if req.SectorSize != 0 {
		b = req.SectorSize
	}
	if b == 0 {
		b = 1 << 20
	}
	return &doublePlan{n: n, bytes: b, spec: dk.spec(), synth: dk.cfg.SynthesisTime, alloc: dk.cfg.Allocate, mode: string(req.VanillaProof)}, nil
}

func (dk *doubleKind) spec() *paramsSpec {
	if dk.cfg.ParamsBytes == 0 {
		return nil
	}
	return &paramsSpec{id: "double", file: "double.params", bytes: dk.cfg.ParamsBytes, load: func() (*keys, error) {
		if dk.cfg.ParamsError != nil {
			return nil, dk.cfg.ParamsError
		}
		return &keys{}, nil
	}}
}

func (dk *doubleKind) circuit(id string) (*paramsSpec, bool) {
	s := dk.spec()
	return s, s != nil && id == s.id
}

type doublePlan struct {
	n     int
	bytes uint64
	spec  *paramsSpec
	synth time.Duration
	alloc bool
	mode  string
}

func (p *doublePlan) partitions() int        { return p.n }
func (p *doublePlan) params() *paramsSpec    { return p.spec }
func (p *doublePlan) partitionBytes() uint64 { return p.bytes }
func (p *doublePlan) release(*cs.Assignment) {}

func (p *doublePlan) synthesize(ctx context.Context, k, _ int) (*cs.Assignment, error) {
	switch p.mode {
	case "panic":
		panic(fmt.Sprintf("test double: synthesis of partition %d panics on purpose", k))
	case "fail":
		return nil, fmt.Errorf("test double: synthesis of partition %d fails on purpose", k)
	}
	if err := sleepCtx(ctx, p.synth); err != nil || !p.alloc {
		return nil, err
	}
	v := make([]fr.Element, p.bytes/fr.Bytes)
	for i := 0; i < len(v); i += 4096 / fr.Bytes {
		v[i][0] = 1 // fault the page in
	}
	return &cs.Assignment{Aux: v}, nil
}

var errNotMarker = errors.New("engine: TEST_DOUBLE: the proof is not the double's marker")

func (p *doublePlan) verify(k int, _ *cs.Assignment, proof *groth16.Proof, _ *keys) error {
	m := markerProof()
	if proof.Bytes() != m.Bytes() {
		return fmt.Errorf("partition %d: %w", k, errNotMarker)
	}
	return nil
}

func (p *doublePlan) finish(proofs []groth16.Proof) ([]byte, error) {
	return groth16.EncodeProofs(proofs), nil
}
