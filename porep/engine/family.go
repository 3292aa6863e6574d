// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// jobFamily is a built-in kind: a porep.Job family. A kind's file says
// what a request means — the circuit its registered_proof names, its job —
// and how cuzk names the kind's circuits; checking sector_size, the plan,
// the parameters and the memory estimate are shared here.
type jobFamily struct {
	kind    Kind
	opts    []porep.Option
	backend string         // what the memory estimate assumes ("cpu" or a GPU backend)
	pool    *cs.BufferPool // the engine's synthesis buffers
	// field is the request field porep's bad input is about ("": the
	// message names it).
	field string
	// circuit is the circuit req's registered_proof names.
	circuit func(req *Request) (paramfile.Circuit, error)
	// job is req's job of circuit c; errors wrapping porep.ErrBadInput are
	// the request's.
	job func(req *Request, c paramfile.Circuit, opts []porep.Option) (*porep.Job, error)
	// all is every circuit of the kind; id is a circuit's cuzk id.
	all func() []paramfile.Circuit
	id  func(c paramfile.Circuit) string
}

// requestField is the Request field (cuzk's name) that carries the
// porep argument a porep.FieldError names. porep checks each argument's
// length and meaning; the engine only names the field.
var requestField = map[string]string{
	porep.FieldProofType:  "registered_proof",
	porep.FieldRandomness: "randomness",
	porep.FieldCommROld:   "comm_r_old",
	porep.FieldCommRNew:   "comm_r_new",
	porep.FieldCommDNew:   "comm_d_new",
}

func (f *jobFamily) Prepare(req *Request) (Plan, error) {
	c, err := f.circuit(req)
	if err != nil {
		return nil, badInputf("engine: %s: registered_proof: %d: %w", f.kind, req.RegisteredProof, err)
	}
	if req.SectorSize != 0 && req.SectorSize != c.ProofSectorSize() {
		return nil, badInputf("engine: %s: sector_size: %d, but registered_proof %d (%s) is for %d-byte sectors",
			f.kind, req.SectorSize, req.RegisteredProof, c.ProofName(), c.ProofSectorSize())
	}
	job, err := f.job(req, c, f.opts)
	var fe *porep.FieldError
	switch {
	case err == nil:
	case errors.Is(err, ErrBadInput):
		return nil, err
	case errors.As(err, &fe) && requestField[fe.Field] != "":
		return nil, badInput(fmt.Errorf("engine: %s: %s: %w", f.kind, requestField[fe.Field], fe.Err))
	case errors.Is(err, porep.ErrBadInput) && f.field != "":
		return nil, badInput(fmt.Errorf("engine: %s: %s: %w", f.kind, f.field, err))
	case errors.Is(err, porep.ErrBadInput):
		return nil, badInput(fmt.Errorf("engine: %s: %w", f.kind, err))
	default:
		return nil, err
	}
	keys := job.Keys()
	m, err := keys.Memory(f.backend)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return newJobPlan(job, f.pool, f.params(job.Circuit(), keys, m.Params), m.PerPartition+m.Backend), nil
}

// Circuit knows the kind's circuits by cuzk id.
func (f *jobFamily) Circuit(id string) (*Params, bool) {
	for _, c := range f.all() {
		if f.id(c) != id {
			continue
		}
		keys := porep.KeysFor(c, f.opts...)
		m, err := keys.Memory(f.backend)
		if err != nil {
			return nil, false
		}
		return f.params(c, keys, m.Params), true
	}
	return nil, false
}

// params is circuit c's parameters, keys k (loaded and evicted through
// porep/paramfile's process-wide cache), resident size bytes.
func (f *jobFamily) params(c paramfile.Circuit, k *porep.Keys, bytes uint64) *Params {
	file, _ := k.Paths()
	return &Params{
		ID: f.id(c), File: file, Bytes: bytes,
		Load: func() (*Keys, error) {
			p, pvk, err := k.Load()
			if err != nil {
				return nil, err
			}
			return &Keys{Params: p, PVK: pvk, Evict: func() { k.Evict() }}, nil
		},
	}
}

// sizeID is a sector size as cuzk's circuit ids write it: 2k, 32g.
func sizeID(size uint64) string {
	return strings.ToLower(strings.TrimSuffix(stacked.SizeLabel(size), "iB"))
}

// jobPlan is the plan of a porep.Job, of any kind.
type jobPlan struct {
	job   *porep.Job
	pool  *cs.BufferPool
	spec  *Params
	bytes uint64
	// public[k] is partition k's public inputs, checked against its
	// assignment at synthesis (a mismatch is no prover's fault); written by
	// the synthesis goroutine, read by the proving one after the engine's
	// lock hands the partition over.
	public [][]fr.Element
}

func newJobPlan(job *porep.Job, pool *cs.BufferPool, spec *Params, bytes uint64) *jobPlan {
	return &jobPlan{job: job, pool: pool, spec: spec, bytes: bytes, public: make([][]fr.Element, job.Partitions())}
}

func (p *jobPlan) Partitions() int        { return p.job.Partitions() }
func (p *jobPlan) Params() *Params        { return p.spec }
func (p *jobPlan) PartitionBytes() uint64 { return p.bytes }

// BlindingIndex: a WindowPoSt partition is blinded as partition
// partition_index, as porep blinds it.
func (p *jobPlan) BlindingIndex(k int) int { return p.job.BlindingIndex(k) }

func (p *jobPlan) Synthesize(ctx context.Context, k, threads int) (*cs.Assignment, error) {
	a, err := p.job.SynthesizePartition(ctx, k, p.pool, threads)
	if err != nil {
		return nil, err
	}
	if p.public[k], err = p.job.PublicInputs(k, a); err != nil {
		p.pool.Release(a)
		return nil, err
	}
	return a, nil
}

func (p *jobPlan) Release(a *cs.Assignment) { p.pool.Release(a) }

func (p *jobPlan) Verify(k int, _ *cs.Assignment, proof *groth16.Proof, keys *Keys) error {
	return p.job.VerifyPartition(keys.PVK, k, proof, p.public[k])
}

func (p *jobPlan) Finish(proofs []groth16.Proof) ([]byte, error) { return p.job.Finish(proofs) }
