// SPDX-License-Identifier: Apache-2.0 OR MIT

package testprover

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cuseal/cuseal/internal/goldentest"
	"github.com/cuseal/cuseal/internal/testenv"
	"github.com/cuseal/cuseal/internal/testpost"
	"github.com/cuseal/cuseal/internal/testupdate"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// Name is the backend name Register gives the double in porep's registry
// (WithBackend, `--backend`, libcuseal's backend option).
const Name = "reference"

// ErrNotReference is returned for an assignment or randomness that no
// reference vector has: the double proves nothing else.
var ErrNotReference = errors.New("testprover: not a reference vector's partition")

// entry is one reference partition: its proof and the randomness that
// made it.
type entry struct {
	what  string // "2KiB-s10 partition 0"
	rs    groth16.Randomness
	proof groth16.Proof
}

// Reference is the double (see the package doc). Safe for concurrent use.
type Reference struct {
	byWitness map[[32]byte]entry
	calls     atomic.Int64
}

// QuerySums is not offered: the double makes whole proofs (ProveWith).
func (r *Reference) QuerySums(context.Context, *groth16.Params, []*cs.Assignment) ([]groth16.Sums, error) {
	return nil, errors.New("testprover: the reference double returns whole proofs only (ProveWith)")
}

// ProveWith returns, for each assignment, the reference proof of the
// vector partition with that witness digest, after checking that the
// assignment fits params (groth16.ValidateAssignment) and that rs[i] is
// the randomness the vector's rs_seed gives it; else an error wrapping
// ErrNotReference that names what differs.
func (r *Reference) ProveWith(ctx context.Context, params *groth16.Params, as []*cs.Assignment, rs []groth16.Randomness) ([]groth16.Proof, error) {
	r.calls.Add(1)
	if len(rs) != len(as) {
		return nil, fmt.Errorf("testprover: %d assignments, %d randomness pairs", len(as), len(rs))
	}
	out := make([]groth16.Proof, len(as))
	for i, a := range as {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := groth16.ValidateAssignment(params, a); err != nil {
			return nil, err
		}
		wd := a.WitnessDigest()
		e, ok := r.byWitness[wd]
		if !ok {
			return nil, fmt.Errorf("%w: witness digest %x (%d inputs, %d aux)", ErrNotReference, wd, len(a.Input), len(a.Aux))
		}
		if !rs[i].R.Equal(&e.rs.R) || !rs[i].S.Equal(&e.rs.S) {
			return nil, fmt.Errorf("%w: %s proven with other randomness than its rs_seed's (r %s, want %s)", ErrNotReference, e.what, rs[i].R.String(), e.rs.R.String())
		}
		out[i] = e.proof
	}
	return out, nil
}

// Calls is the number of ProveWith calls so far.
func (r *Reference) Calls() int { return int(r.calls.Load()) }

var (
	once   sync.Once
	shared *Reference
	regErr error
)

// Register builds the double from every reference vector (once per
// process), registers it in porep's backend registry under Name and
// returns it.
func Register(t testing.TB) *Reference {
	t.Helper()
	once.Do(func() {
		shared, regErr = load(t)
		if regErr == nil {
			regErr = porep.RegisterBackend(Name, func() (groth16.Backend, error) { return shared, nil })
		}
	})
	if regErr != nil {
		t.Fatal(regErr)
	}
	return shared
}

// Backend is the backend name a test of an upper layer proves the
// reference vectors with: Name (the double, registered) in the unit tier,
// porep.BackendCPU (real Groth16 proofs, the same bytes) in the long tier.
func Backend(t testing.TB) string {
	t.Helper()
	if testenv.Enabled(testenv.TierLong) {
		return porep.BackendCPU
	}
	Register(t)
	return Name
}

// load reads the reference partitions of every vector.
func load(t testing.TB) (*Reference, error) {
	r := &Reference{byWitness: map[[32]byte]entry{}}
	add := func(vector string, parts []goldentest.Partition, rsSeed [32]byte, proofs []byte) error {
		ps, err := groth16.DecodeProofs(proofs)
		if err != nil {
			return fmt.Errorf("testprover: %s proof.bin: %w", vector, err)
		}
		if len(ps) != len(parts) {
			return fmt.Errorf("testprover: %s: %d proofs for %d partitions", vector, len(ps), len(parts))
		}
		for i, p := range parts {
			wd, err := hex.DecodeString(p.Witness)
			if err != nil || len(wd) != 32 {
				return fmt.Errorf("testprover: %s partition %d: witness_digest %q", vector, p.K, p.Witness)
			}
			r.byWitness[[32]byte(wd)] = entry{
				what:  fmt.Sprintf("%s partition %d", vector, p.K),
				rs:    groth16.RandomnessFromSeed(rsSeed, uint64(p.K)),
				proof: ps[i],
			}
		}
		return nil
	}
	for _, folder := range []string{"2KiB-s10", "2KiB-s14", "2KiB-ni-s12"} {
		v := PoRep(t, folder)
		if err := add(folder, v.Partitions, v.RSSeed, v.Want); err != nil {
			return nil, err
		}
	}
	for _, folder := range []string{"post-winning-2KiB-s22", "post-window-2KiB-s21"} {
		v := testpost.Load(t, folder)
		if err := add(folder, v.Partitions, v.RSSeed, v.Want); err != nil {
			return nil, err
		}
	}
	u := testupdate.Load(t)
	if err := add("update-2KiB-s31", u.Partitions, u.RSSeed, u.Want); err != nil {
		return nil, err
	}
	return r, nil
}
