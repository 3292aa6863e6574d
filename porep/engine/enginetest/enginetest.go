// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package enginetest has the proving engine's test doubles, plugged in
// through engine.Config: Family, a simulated proof kind without circuits,
// and Prover, a simulated device. The engine's, the service's and the
// CLI's tests use them, and `cuseal bench engine` as its scheduling
// workload; production engines never register them.
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/groth16"
)

// Kind is the simulated kind's number where a test registers it beside
// cuzk's four (Families); it is outside cuzk.v1's enum, so over the wire a
// test registers the Family under one of cuzk's kinds instead.
const Kind engine.Kind = 1000

// Families is the engine.Config.Families that registers f as Kind.
func Families(f *Family) map[engine.Kind]engine.Family {
	return map[engine.Kind]engine.Family{Kind: f}
}

// Family is a simulated proof kind (an engine.Family) for tests and the
// scheduling benchmark: each job has Partitions partitions
// (len(Request.VanillaProofs) when that is not 0), each synthesized by
// sleeping SynthesisTime and counted as PartitionBytes in the budget; its
// "parameters" count ParamsBytes. Request.VanillaProof steers a job:
// "bad" is refused as bad input, "panic" panics in synthesis, "fail"
// fails synthesis; Request.SectorSize, when not 0, is the job's
// PartitionBytes. Only a Prover makes proofs this kind accepts.
type Family struct {
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

// Prover is a simulated device: it takes PerPartition per partition
// (honouring ctx unless IgnoreCancel), then returns Inner's proof when
// Inner is set (a real backend behind a faulty or slow device), else the
// marker proof Family accepts. Fail, when set, is asked first with the
// call's number (from 1): a non-nil error fails that call.
type Prover struct {
	ProverName   string // "": "double"
	PerPartition time.Duration
	// IgnoreCancel: the partition cannot be interrupted (it runs its
	// PerPartition whatever ctx says), as a device kernel in flight.
	IgnoreCancel bool
	Inner        engine.Prover
	Fail         func(call int, w *engine.Work) error

	calls atomic.Int64
}

// Name is the prover's name in status and metrics.
func (d *Prover) Name() string {
	if d.ProverName == "" {
		return "double"
	}
	return d.ProverName
}

// Backend is Inner's backend, else "double" (a host backend to the
// engine's memory estimate).
func (d *Prover) Backend() string {
	if d.Inner != nil {
		return d.Inner.Backend()
	}
	return "double"
}

// Calls is the number of Prove calls so far.
func (d *Prover) Calls() int { return int(d.calls.Load()) }

// Prove is engine.Prover's Prove.
func (d *Prover) Prove(ctx context.Context, w *engine.Work) (groth16.Proof, error) {
	n := int(d.calls.Add(1))
	if d.Fail != nil {
		if err := d.Fail(n, w); err != nil {
			return groth16.Proof{}, err
		}
	}
	if d.IgnoreCancel {
		time.Sleep(d.PerPartition)
	} else if err := sleepCtx(ctx, d.PerPartition); err != nil {
		return groth16.Proof{}, err
	}
	if d.Inner != nil {
		return d.Inner.Prove(ctx, w)
	}
	return MarkerProof(), nil
}

// MarkerProof is the simulated "proof": the generators.
func MarkerProof() groth16.Proof {
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

// Prepare is engine.Family's Prepare.
func (f *Family) Prepare(req *engine.Request) (engine.Plan, error) {
	if string(req.VanillaProof) == "bad" {
		return nil, fmt.Errorf("%w: enginetest: vanilla_proof %q asks to be refused", engine.ErrBadInput, req.VanillaProof)
	}
	n := len(req.VanillaProofs)
	if n == 0 {
		n = f.Partitions
	}
	if n == 0 {
		n = 4
	}
	b := f.PartitionBytes
	if req.SectorSize != 0 {
		b = req.SectorSize
	}
	if b == 0 {
		b = 1 << 20
	}
	return &plan{n: n, bytes: b, spec: f.params(), synth: f.SynthesisTime, alloc: f.Allocate, mode: string(req.VanillaProof)}, nil
}

func (f *Family) params() *engine.Params {
	if f.ParamsBytes == 0 {
		return nil
	}
	return &engine.Params{ID: "double", File: "double.params", Bytes: f.ParamsBytes, Load: func() (*engine.Keys, error) {
		if f.ParamsError != nil {
			return nil, f.ParamsError
		}
		return &engine.Keys{}, nil
	}}
}

// Circuit is engine.Family's Circuit: "double", when it has parameters.
func (f *Family) Circuit(id string) (*engine.Params, bool) {
	s := f.params()
	return s, s != nil && id == s.ID
}

type plan struct {
	n     int
	bytes uint64
	spec  *engine.Params
	synth time.Duration
	alloc bool
	mode  string
}

func (p *plan) Partitions() int        { return p.n }
func (p *plan) Params() *engine.Params { return p.spec }
func (p *plan) PartitionBytes() uint64 { return p.bytes }
func (p *plan) Release(*cs.Assignment) {}

func (p *plan) Synthesize(ctx context.Context, k, _ int) (*cs.Assignment, error) {
	switch p.mode {
	case "panic":
		panic(fmt.Sprintf("enginetest: synthesis of partition %d panics on purpose", k))
	case "fail":
		return nil, fmt.Errorf("enginetest: synthesis of partition %d fails on purpose", k)
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

// ErrNotMarker is Verify's error for a proof that is not MarkerProof.
var ErrNotMarker = errors.New("enginetest: the proof is not the marker proof")

func (p *plan) Verify(k int, _ *cs.Assignment, proof *groth16.Proof, _ *engine.Keys) error {
	m := MarkerProof()
	if proof.Bytes() != m.Bytes() {
		return fmt.Errorf("partition %d: %w", k, ErrNotMarker)
	}
	return nil
}

func (p *plan) Finish(proofs []groth16.Proof) ([]byte, error) {
	return groth16.EncodeProofs(proofs), nil
}

// LeakyDevice is a Prover on a simulated device of Total bytes whose free
// memory drops by Leak after every proof, as a leaking driver or library
// makes it (for the device-memory guard; engine.DeviceReporter).
type LeakyDevice struct {
	Prover
	Total, Leak uint64
	lost        atomic.Uint64
	reads       atomic.Int64
}

// Reads is how many times DeviceInfo was called.
func (d *LeakyDevice) Reads() int { return int(d.reads.Load()) }

// Prove is Prover.Prove, then the leak.
func (d *LeakyDevice) Prove(ctx context.Context, w *engine.Work) (groth16.Proof, error) {
	p, err := d.Prover.Prove(ctx, w)
	d.lost.Add(d.Leak)
	return p, err
}

// DeviceInfo reports the simulated device: Total, less what leaked.
func (d *LeakyDevice) DeviceInfo() (string, uint64, uint64, error) {
	defer d.reads.Add(1)
	return d.Name() + " (simulated device)", d.Total, d.Total - min(d.lost.Load(), d.Total), nil
}
