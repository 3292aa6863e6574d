// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cuseal/cuseal/porep/groth16"
)

type goldenMeta struct {
	RegisteredProof string `json:"registered_proof"`
	CommR           string `json:"comm_r"`
	Seed            string `json:"seed"`
	Partition       []struct {
		PublicInputs []string `json:"public_inputs"`
	} `json:"partition"`
}

func readMeta(t testing.TB, dir string) goldenMeta {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldenDir, dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m goldenMeta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readProofs(t testing.TB, dir string) []groth16.Proof {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldenDir, dir, "proof.bin"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := groth16.DecodeProofs(b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	goldenSRSOnce sync.Once
	goldenSRS     *GenericSRS
	goldenSRSErr  error
)

func loadGoldenSRS(t testing.TB) *GenericSRS {
	t.Helper()
	goldenSRSOnce.Do(func() { goldenSRS, goldenSRSErr = ReadSRSFile(goldenSRSPath()) })
	if goldenSRSErr != nil {
		t.Fatal(goldenSRSErr)
	}
	return goldenSRS
}

// interactiveCase is agg-2KiB-s10-s14: filecoin-proofs'
// aggregate_seal_commit_proofs over the proofs of 2KiB-s10 and 2KiB-s14,
// transcript include SHA-256(seed_10 ‖ comm_r_10 ‖ seed_14 ‖ comm_r_14).
func interactiveCase(t testing.TB) (include []byte, proofs []groth16.Proof) {
	h := sha256.New()
	for _, d := range []string{"2KiB-s10", "2KiB-s14"} {
		m := readMeta(t, d)
		h.Write(unhex(t, m.Seed))
		h.Write(unhex(t, m.CommR))
		proofs = append(proofs, readProofs(t, d)...)
	}
	return h.Sum(nil), proofs
}

// niCase is agg-2KiB-ni-s12: the 13 partition proofs padded to 16 with the
// last one (pad_proofs_to_target), include SHA-256(comm_r) (NI-PoRep
// leaves the seed out).
func niCase(t testing.TB) (include []byte, proofs []groth16.Proof) {
	m := readMeta(t, "2KiB-ni-s12")
	h := sha256.Sum256(unhex(t, m.CommR))
	proofs = readProofs(t, "2KiB-ni-s12")
	for len(proofs) < 16 {
		proofs = append(proofs, proofs[len(proofs)-1])
	}
	return h[:], proofs
}

func checkAggregateGolden(t *testing.T, dir string, include []byte, proofs []groth16.Proof) {
	want, err := os.ReadFile(filepath.Join(goldenDir, dir, "aggregate.bin"))
	if err != nil {
		t.Fatal(err)
	}
	pk, _, err := loadGoldenSRS(t).Specialize(len(proofs))
	if err != nil {
		t.Fatal(err)
	}
	agg, err := Aggregate(pk, include, proofs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := agg.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != ProofSize(len(proofs)) {
		t.Fatalf("encoded %d bytes, ProofSize says %d", len(got), ProofSize(len(proofs)))
	}
	if !bytes.Equal(got, want) {
		for i := range got {
			if i >= len(want) || got[i] != want[i] {
				t.Fatalf("aggregate differs from %s/aggregate.bin (%d vs %d bytes) from byte %d", dir, len(got), len(want), i)
			}
		}
		t.Fatalf("aggregate is a prefix of the golden one (%d vs %d bytes)", len(got), len(want))
	}
	// The parser round-trips bellperson's bytes.
	p, err := ParseAggregateProof(want)
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.Bytes()
	if err != nil || !bytes.Equal(again, want) {
		t.Fatalf("parse → encode does not round-trip: %v", err)
	}
}

func TestAggregateGoldenInteractive(t *testing.T) {
	inc, proofs := interactiveCase(t)
	checkAggregateGolden(t, "agg-2KiB-s10-s14", inc, proofs)
}

func TestAggregateGoldenNI(t *testing.T) {
	inc, proofs := niCase(t)
	checkAggregateGolden(t, "agg-2KiB-ni-s12", inc, proofs)
}
