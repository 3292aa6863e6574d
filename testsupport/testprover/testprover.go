// SPDX-License-Identifier: Apache-2.0 OR MIT

package testprover

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// Name is the backend name Register gives the strict double in porep's
// registry (WithBackend, `--backend`, libcuseal's backend option): the
// randomness must be the vector's rs_seed's.
const Name = "reference"

// NameAnyRS is the double that takes any randomness (and still returns
// the reference proof): for prove paths that draw fresh r, s, such as
// `cuseal serve` and the CLI's prove commands, which have no
// deterministic-randomness option.
const NameAnyRS = "reference-any-rs"

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
	// anyRS: return the reference proof whatever the randomness.
	anyRS bool
	calls atomic.Int64
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
		if !r.anyRS && (!rs[i].R.Equal(&e.rs.R) || !rs[i].S.Equal(&e.rs.S)) {
			return nil, fmt.Errorf("%w: %s proven with other randomness than its rs_seed's (r %s, want %s)", ErrNotReference, e.what, rs[i].R.String(), e.rs.R.String())
		}
		out[i] = e.proof
	}
	return out, nil
}

// Calls is the number of ProveWith calls so far.
func (r *Reference) Calls() int { return int(r.calls.Load()) }

var (
	once          sync.Once
	strict, anyRS *Reference
	regErr        error
)

// RegisterMain builds the doubles from every reference vector (once per
// process) and registers them in porep's backend registry as Name and
// NameAnyRS: for a test binary's TestMain when it runs as a command
// (cuseal serve in a child process).
func RegisterMain() error {
	once.Do(func() {
		strict, regErr = load()
		if regErr != nil {
			return
		}
		anyRS = &Reference{byWitness: strict.byWitness, anyRS: true}
		if regErr = porep.RegisterBackend(Name, func() (groth16.Backend, error) { return strict, nil }); regErr == nil {
			regErr = porep.RegisterBackend(NameAnyRS, func() (groth16.Backend, error) { return anyRS, nil })
		}
	})
	return regErr
}

// Register is RegisterMain for a test, and returns the strict double.
func Register(t testing.TB) *Reference {
	t.Helper()
	if err := RegisterMain(); err != nil {
		t.Fatal(err)
	}
	return strict
}

// Backend is the backend name a test of an upper layer proves the
// reference vectors with, r, s from their rs_seed: Name (the strict
// double, registered) in the unit tier, porep.BackendCPU (real Groth16
// proofs, the same bytes) in the long tier.
func Backend(t testing.TB) string {
	t.Helper()
	return backendFor(t, Name)
}

// BackendAnyRS is Backend for prove paths that draw fresh randomness:
// NameAnyRS in the unit tier, porep.BackendCPU in the long tier.
func BackendAnyRS(t testing.TB) string {
	t.Helper()
	return backendFor(t, NameAnyRS)
}

func backendFor(t testing.TB, double string) string {
	t.Helper()
	if testenv.Enabled(testenv.TierLong) {
		return porep.BackendCPU
	}
	Register(t)
	return double
}

// vectors are the reference vectors' folders, relative to the module root.
var vectors = []string{
	"testdata/golden/2KiB-s10", "testdata/golden/2KiB-s14", "testdata/golden/2KiB-ni-s12",
	"porep/post/testdata/post-winning-2KiB-s22", "porep/post/testdata/post-window-2KiB-s21",
	"porep/update/testdata/update-2KiB-s31",
}

// load reads the reference partitions of every vector: meta.json's
// partition records (k, witness_digest), rs_seed and proof file.
func load() (*Reference, error) {
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	r := &Reference{byWitness: map[[32]byte]entry{}}
	for _, v := range vectors {
		var m struct {
			Partition []goldentest.Partition `json:"partition"`
			RSSeed    string                 `json:"rs_seed"`
			ProofFile string                 `json:"proof_file"`
		}
		dir := filepath.Join(root, v)
		raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
		if err != nil {
			return nil, fmt.Errorf("testprover: %w", err)
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("testprover: %s/meta.json: %w", v, err)
		}
		seed, err := hex.DecodeString(m.RSSeed)
		if err != nil || len(seed) != 32 {
			return nil, fmt.Errorf("testprover: %s: rs_seed %q", v, m.RSSeed)
		}
		b, err := os.ReadFile(filepath.Join(dir, m.ProofFile))
		if err != nil {
			return nil, fmt.Errorf("testprover: %w", err)
		}
		ps, err := groth16.DecodeProofs(b)
		if err != nil {
			return nil, fmt.Errorf("testprover: %s/%s: %w", v, m.ProofFile, err)
		}
		if len(ps) != len(m.Partition) {
			return nil, fmt.Errorf("testprover: %s: %d proofs for %d partitions", v, len(ps), len(m.Partition))
		}
		for i, p := range m.Partition {
			wd, err := hex.DecodeString(p.Witness)
			if err != nil || len(wd) != 32 {
				return nil, fmt.Errorf("testprover: %s partition %d: witness_digest %q", v, p.K, p.Witness)
			}
			r.byWitness[[32]byte(wd)] = entry{
				what:  fmt.Sprintf("%s partition %d", filepath.Base(v), p.K),
				rs:    groth16.RandomnessFromSeed([32]byte(seed), uint64(p.K)),
				proof: ps[i],
			}
		}
	}
	return r, nil
}
