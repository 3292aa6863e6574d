// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/internal/testpost"
	"github.com/cuseal/cuseal/porep/groth16"
)

// postCLIVector is one PoSt reference vector of porep/post/testdata (made
// by rust-fil-proofs 19.1.0; values from its meta.json).
type postCLIVector struct {
	folder, proofType, randomness, vk string
	proof                             abi.RegisteredPoStProof
	sectors                           []string // NUMBER=COMM_R
	vanilla                           []string
}

var (
	postWinningVector = postCLIVector{folder: "post-winning-2KiB-s22", proofType: "0", proof: abi.RegisteredPoStProof_StackedDrgWinning2KiBV1,
		randomness: "3afb0e0e3e28d5874f643ce66362f823df1cecad924e4b80736c3003e13b4a1c",
		vk:         "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk",
		sectors:    []string{"22000=ed6eb2e29515b35b26abeeb0691777a29cbda0ccdb7d5b30c86012aac9a4d015"}, vanilla: []string{"000.bin"}}
	postWindowVector = postCLIVector{folder: "post-window-2KiB-s21", proofType: "StackedDrgWindow2KiBV1_1", proof: abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1,
		randomness: "6803aa9b437048d329d54da9b4645f82934d5bc8835bf6123dae70ed32f52217",
		vk:         "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk",
		sectors: []string{"21000=2d34634b9b6ac60420b5978b94273059c12547f19f37572a8d8c84362383cc51",
			"21001=3493e9111628ebe41ba01e759e6d37893d467670580586e2df694ff06f59934e"}, vanilla: []string{"000.bin", "001.bin"}}
)

func (v postCLIVector) dir() string {
	return filepath.Join("..", "porep", "post", "testdata", v.folder)
}

// paramsDir holds the vector's test parameters (its toxic seed, its .vk).
func (v postCLIVector) paramsDir(t *testing.T) string {
	var toxic [32]byte
	for i := range toxic {
		toxic[i] = byte(i) // both vectors' toxic_seed: 00 01 … 1f
	}
	return testpost.ParamsDir(t, v.proof, toxic, filepath.Join(v.dir(), v.vk))
}

func (v postCLIVector) vanillaArgs() []string {
	var out []string
	for _, f := range v.vanilla {
		out = append(out, "--vanilla", filepath.Join(v.dir(), "vanilla", f))
	}
	return out
}

// TestPostCLI proves both reference vectors with `cuseal post winning` and
// `post window` on the CPU backend and verifies the proofs with `post
// verify`, the sectors from --sector and from the vanilla proofs; another
// randomness makes the proof invalid (exit 1). A single partition's proof
// verifies as the proof of its sectors.
func TestPostCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: PoSt test parameters and CPU proofs")
	}
	for _, tc := range []struct {
		sub  string
		v    postCLIVector
		more []string
	}{
		{"winning", postWinningVector, nil},
		{"window", postWindowVector, nil},
		{"window", postWindowVector, []string{"--partition", "0"}},
	} {
		v := tc.v
		params := v.paramsDir(t)
		out := filepath.Join(t.TempDir(), "proof.bin")
		args := append([]string{"post", tc.sub, "--backend", "cpu", "--params-dir", params, "--proof-type", v.proofType,
			"--randomness", v.randomness, "--miner", "t01000", "--out", out, "--json"}, v.vanillaArgs()...)
		code, stdout, stderr := runCLI(t, append(args, tc.more...)...)
		if code != 0 {
			t.Fatalf("post %s: exit %d: %s", tc.sub, code, stderr)
		}
		var res postOutput
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Sectors != len(v.vanilla) || res.Partitions != 1 {
			t.Fatalf("post %s: %s (%v)", tc.sub, stdout, err)
		}
		pf, err := os.ReadFile(out)
		if err != nil || len(pf) != groth16.ProofSize || hex.EncodeToString(pf) != res.Proof {
			t.Fatalf("post %s: proof file %d bytes (%v)", tc.sub, len(pf), err)
		}
		verify := []string{"post", "verify", "--params-dir", params, "--proof-type", v.proofType, "--randomness", v.randomness, "--proof", out}
		var bySector []string
		for _, s := range v.sectors {
			bySector = append(bySector, "--sector", s)
		}
		for what, extra := range map[string][]string{"--sector": bySector, "--vanilla": v.vanillaArgs()} {
			if code, stdout, stderr := runCLI(t, append(verify, extra...)...); code != 0 || !strings.HasPrefix(stdout, "valid: ") {
				t.Fatalf("post verify %s (%s): exit %d: %s %s", tc.sub, what, code, stdout, stderr)
			}
		}
		other := []byte(v.randomness)
		other[0] ^= 1 // another hex digit: other randomness, still canonical
		verify[7] = string(other)
		if code, _, stderr := runCLI(t, append(verify, bySector...)...); code != exitInvalidProof {
			t.Fatalf("post verify %s with other randomness: exit %d: %s", tc.sub, code, stderr)
		}
	}
}

// TestPostCLIBadInput: each defect is a one-line error, exit 2, and
// nothing is written (no parameters needed: checked before).
func TestPostCLIBadInput(t *testing.T) {
	v := postWinningVector
	tmp := t.TempDir()
	out := filepath.Join(tmp, "proof.bin")
	short := filepath.Join(tmp, "short.bin")
	b, err := os.ReadFile(filepath.Join(v.dir(), "vanilla", v.vanilla[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, b[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	base := func(sub, proofType, rnd string, vanilla ...string) []string {
		a := []string{"post", sub, "--backend", "cpu", "--params-dir", tmp, "--proof-type", proofType, "--randomness", rnd, "--out", out}
		for _, f := range vanilla {
			a = append(a, "--vanilla", f)
		}
		return a
	}
	good := filepath.Join(v.dir(), "vanilla", v.vanilla[0])
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"window type for winning", base("winning", "10", v.randomness, good), "is a WindowPoSt proof"},
		{"unknown type", base("window", "StackedDrgWindow3KiBV1_1", v.randomness, good), `--proof-type "StackedDrgWindow3KiBV1_1"`},
		{"short randomness", base("winning", "0", "abcd", good), "--randomness"},
		{"no vanilla", base("winning", "0", v.randomness), "--vanilla: no vanilla proof files"},
		{"missing vanilla", base("winning", "0", v.randomness, filepath.Join(tmp, "nope.bin")), "nope.bin"},
		{"missing params", base("winning", "0", v.randomness, good), "cuseal params generate --circuit winning-post"},
		{"negative partition", append(base("window", "10", v.randomness, good), "--partition", "-2"), "--partition -2"},
		{"verify without sectors", []string{"post", "verify", "--proof-type", "0", "--randomness", v.randomness, "--proof", good}, "no challenged sectors"},
		{"verify bad sector", []string{"post", "verify", "--proof-type", "0", "--randomness", v.randomness, "--proof", good, "--sector", "5=zz"}, `--sector "5=zz"`},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, exitUsage, stderr)
			continue
		}
		wantOneLineError(t, stderr, tc.want)
	}
	// A truncated vanilla proof is refused naming it, once parameters exist.
	params := v.paramsDir(t)
	a := base("winning", "0", v.randomness, short)
	a[5] = params
	code, _, stderr := runCLI(t, a...)
	if code != exitUsage {
		t.Fatalf("truncated vanilla: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "vanilla proof 0 (100 bytes")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--out written after refusals: %v", err)
	}
}
