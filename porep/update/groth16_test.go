// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

// Byte-identity of the Groth16 layer with bellperson 0.27.0: test
// parameters generated from meta.json's toxic_seed for the
// EmptySectorUpdate R1CS are bellperson's files (BLAKE2b of .params and
// .vk, the .vk byte for byte), a proof with r, s from rs_seed is proof.bin,
// and both proof.bin and a fresh proof verify with the shipped .vk against
// the public inputs.

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// updateParamsDir is where the update test parameters are cached between
// runs (2 KiB: 656 MB): <CUSEAL_TEST_PARAMS_DIR or the temp default>/update.
func updateParamsDir() string { return filepath.Join(testparams.Dir(), "update") }

func hex32(t testing.TB, name, s string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%s: %q is not 32 bytes of hex", name, s)
	}
	return [32]byte(b)
}

// TestReferenceParamsAndProof runs the whole Groth16 check for the 2 KiB
// reference vector: the test parameters from its toxic seed are
// bellperson's files (BLAKE2b; ./build.sh test generates them once,
// minutes), and a CPU proof of the 1.7 M-constraint circuit with r, s from
// rs_seed is proof.bin — the unit tier's SnapDeals byte identity. The long
// tier also proves with fresh randomness and verifies that proof.
func TestReferenceParamsAndProof(t *testing.T) {
	m, cfg, _ := loadRef(t)
	rec := cs.NewRecorder()
	if err := BlankCircuit(cfg).Synthesize(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	r1cs := rec.R1CS()
	seed := hex32(t, "toxic_seed", m.ToxicSeed)
	start := time.Now()
	official, _, _ := cfg.ParameterPaths("")
	params, path := testparams.CachedParams(t, r1cs, seed, "update", filepath.Base(official))
	t.Cleanup(func() { params.Close() })
	rec, r1cs = nil, nil
	t.Logf("%s parameters in %v (%s)", cfg.Name, time.Since(start), path)

	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := groth16.FileDigest(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != m.ParamsBlake2b16 || info.Size() != m.ParamsSize {
		t.Errorf(".params: BLAKE2b-512[:16] %s (%d bytes), bellperson %s (%d bytes)", got, info.Size(), m.ParamsBlake2b16, m.ParamsSize)
	}
	vk := params.VK.Bytes()
	sum := blake2b.Sum512(vk)
	if hex.EncodeToString(sum[:16]) != m.VKBlake2b16 {
		t.Errorf(".vk: BLAKE2b-512[:16] %x, bellperson %s", sum[:16], m.VKBlake2b16)
	}
	refVK, err := os.ReadFile(filepath.Join(refDir, m.VKFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(vk, refVK) {
		t.Errorf("generated .vk differs from %s/%s", refDir, m.VKFile)
	}
	parsed, err := groth16.ParseVerifyingKey(refVK, m.VKFile)
	if err != nil {
		t.Fatal(err)
	}
	pvk, err := groth16.PrepareVerifyingKey(parsed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(refDir, m.ProofFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != cfg.Partitions*groth16.ProofSize {
		t.Fatalf("proof.bin: %d bytes, want %d", len(want), cfg.Partitions*groth16.ProofSize)
	}
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	hint, err := SizeHintFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < cfg.Partitions; k++ {
		c, _, _ := refCircuit(t, k)
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
		ref := want[k*groth16.ProofSize : (k+1)*groth16.ProofSize]
		if b := proofs[0].Bytes(); !bytes.Equal(b[:], ref) {
			t.Errorf("partition %d: proof %x\nbellperson %x", k, b, ref)
		}
		if m.Partition[k].ProofHex != hex.EncodeToString(ref) {
			t.Errorf("partition %d: meta.json proof_hex differs from proof.bin", k)
		}
		in, err := PublicInputs(cfg, k, &commROld, &commDNew, &commRNew)
		if err != nil {
			t.Fatal(err)
		}
		var bell groth16.Proof
		if err := bell.SetBytes(ref); err != nil {
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
		// Another comm_r_new must not verify.
		bad := append(in[:0:0], in...)
		bad[3] = commROld
		if err := pvk.Verify(&bell, bad); err == nil {
			t.Errorf("partition %d: proof.bin verifies with comm_r_new replaced", k)
		}
	}
}
