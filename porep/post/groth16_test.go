// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

// Byte-identity of the Groth16 layer with bellperson 0.27.0: test
// parameters generated from meta.json's toxic_seed for the FallbackPoSt
// R1CS are bellperson's files (BLAKE2b of .params and .vk, the .vk byte for
// byte), a proof with r, s from rs_seed is proof.bin, and both proof.bin and
// a fresh proof verify with the shipped .vk against the verifier's public
// inputs.

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"golang.org/x/crypto/blake2b"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// goldenParams returns the test parameters of a golden folder's circuit from
// its toxic seed (testparams.CachedParams: the file ./build.sh test
// generated, else a cached setup under <test params>/post) and their path.
func goldenParams(t *testing.T, g golden) (*groth16.Params, string, *refMeta) {
	t.Helper()
	m := loadMeta(t, g.folder)
	cfg := mustConfig(t, g.proof)
	rec := cs.NewRecorder()
	if err := BlankCircuit(cfg).Synthesize(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	r1cs := rec.R1CS()
	seed := hex32(t, "toxic_seed", m.ToxicSeed)
	start := time.Now()
	official, _, _ := cfg.ParameterPaths("")
	p, path := testparams.CachedParams(t, r1cs, seed, "post", filepath.Base(official))
	t.Cleanup(func() { p.Close() })
	t.Logf("%s parameters in %v (%s)", cfg.Name, time.Since(start), path)
	return p, path, m
}

// TestReferenceParamsAndProofs runs the whole Groth16 check for both golden
// folders: the test parameters from the toxic seed are bellperson's files
// (BLAKE2b), and a CPU proof with r, s from rs_seed is proof.bin — the
// unit tier's WinningPoSt and WindowPoSt byte identity. The long tier also
// proves with fresh randomness and verifies that proof.
func TestReferenceParamsAndProofs(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.folder, func(t *testing.T) {
			params, path, m := goldenParams(t, g)
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := groth16.FileDigest(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != m.ParamsBlake2b || info.Size() != m.ParamsSize {
				t.Errorf(".params: BLAKE2b-512[:16] %s (%d bytes), bellperson %s (%d bytes)", got, info.Size(), m.ParamsBlake2b, m.ParamsSize)
			}
			vk := params.VK.Bytes()
			sum := blake2b.Sum512(vk)
			if hex.EncodeToString(sum[:16]) != m.VKBlake2b {
				t.Errorf(".vk: BLAKE2b-512[:16] %x, bellperson %s", sum[:16], m.VKBlake2b)
			}
			refVK, err := os.ReadFile(filepath.Join("testdata", g.folder, m.VKFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(vk, refVK) {
				t.Errorf("generated .vk differs from testdata/%s/%s", g.folder, m.VKFile)
			}
			pvk, err := groth16.PrepareVerifyingKey(mustVK(t, refVK, m.VKFile))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", g.folder, m.ProofFile))
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != groth16.ProofSize*m.Partitions {
				t.Fatalf("proof.bin: %d bytes for %d partitions", len(want), m.Partitions)
			}
			cfg := mustConfig(t, g.proof)
			_, _, vps := loadGolden(t, g)
			pub := make([]PublicSector, len(vps))
			for i, v := range vps {
				pub[i] = PublicSector{ID: v.SectorID, CommR: v.CommR}
			}
			rnd := hex32(t, "randomness", m.Randomness)
			for k := 0; k < m.Partitions; k++ {
				c, _, _ := goldenCircuit(t, g, k)
				hint, err := SizeHintFor(cfg)
				if err != nil {
					t.Fatal(err)
				}
				pa := cs.NewProvingAssignment(hint)
				if err := c.Synthesize(context.Background(), pa); err != nil {
					t.Fatal(err)
				}
				a := pa.Assignment()
				as, rs := []*cs.Assignment{a}, []groth16.Randomness{groth16.RandomnessFromSeed(hex32(t, "rs_seed", m.RSSeed), uint64(k))}
				if testenv.Enabled(testenv.TierLong) {
					fresh, err := groth16.NewRandomness()
					if err != nil {
						t.Fatal(err)
					}
					as, rs = append(as, a), append(rs, fresh)
				}
				start := time.Now()
				proofs, err := groth16.ProveAndVerify(context.Background(), &groth16.CPUBackend{}, params, as, rs)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("partition %d: %d CPU proofs in %v", k, len(proofs), time.Since(start))
				b := proofs[0].Bytes()
				if ref := want[k*groth16.ProofSize : (k+1)*groth16.ProofSize]; !bytes.Equal(b[:], ref) {
					t.Errorf("partition %d: proof %x\nbellperson %x", k, b, ref)
				}
				if m.Partition[k].ProofHex != hex.EncodeToString(want[k*groth16.ProofSize:(k+1)*groth16.ProofSize]) {
					t.Errorf("partition %d: meta.json proof_hex differs from proof.bin", k)
				}
				// The verifier's inputs (from sectors and randomness only).
				vs, err := VerifierSlots(cfg, rnd, verifierSectors(cfg, pub), k)
				if err != nil {
					t.Fatal(err)
				}
				in, err := PublicInputs(vs)
				if err != nil {
					t.Fatal(err)
				}
				var bell groth16.Proof
				if err := bell.SetBytes(want[k*groth16.ProofSize : (k+1)*groth16.ProofSize]); err != nil {
					t.Fatal(err)
				}
				check := map[string]*groth16.Proof{"proof.bin": &bell}
				if len(proofs) > 1 {
					check["fresh proof"] = &proofs[1]
				}
				for name, p := range check {
					if err := pvk.Verify(p, in); err != nil {
						t.Errorf("partition %d: %s does not verify with the shipped .vk: %v", k, name, err)
					}
				}
				// Another sector's inputs must not verify.
				bad := append([]fr.Element(nil), in...)
				bad[1].SetUint64(bad[1].Uint64() ^ 1)
				if err := pvk.Verify(&bell, bad); err == nil {
					t.Errorf("partition %d: proof.bin verifies with a changed challenge", k)
				}
			}
		})
	}
}

// verifierSectors is the verifier's sector list: window all sectors,
// winning the one challenged sector.
func verifierSectors(cfg *Config, pub []PublicSector) []PublicSector {
	if cfg.Kind == Winning {
		return pub[:1]
	}
	return pub
}

func mustVK(t *testing.T, b []byte, name string) *groth16.VerifyingKey {
	t.Helper()
	vk, err := groth16.ParseVerifyingKey(b, name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(name, "v28-proof-of-spacetime-fallback-") {
		t.Fatalf("%s is not a FallbackPoSt key", name)
	}
	return vk
}
