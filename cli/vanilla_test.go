// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/stacked"
)

// c1Fixture is a real 2 KiB V1_1 C1 output written by the test sealer (porep/stacked/testdata,
// whose SOURCES.md says how it was made; its R1CS matches rust-fil-proofs').
const c1Fixture = "../porep/stacked/testdata/c1-2KiB-V1_1.json"

func TestVerifyVanilla(t *testing.T) {
	data, err := os.ReadFile(c1Fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	// A valid C1: exit 0, JSON says valid.
	code, stdout, stderr := runCLI(t, "verify-vanilla", "--c1", c1Fixture, "--json")
	if code != exitOK {
		t.Fatalf("valid C1: exit %d: %s", code, stderr)
	}
	var out vanillaOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("--json output %q: %v", stdout, err)
	}
	if !out.Valid || out.Partitions != 1 || out.Challenges != 2 || out.RegisteredProof != "StackedDrg2KiBV1_1" {
		t.Fatalf("unexpected output %+v", out)
	}

	// One flipped bit in a comm_r_last leaf: still well-formed, so exit 1 naming the path.
	c1, err := stacked.DecodeC1(data)
	if err != nil {
		t.Fatal(err)
	}
	c1.VanillaProofs[0][1].CommRLastProof.Leaf[0] ^= 1
	tampered := filepath.Join(dir, "tampered.json")
	if err := os.WriteFile(tampered, c1.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "verify-vanilla", "--c1", tampered)
	if code != exitInvalidProof {
		t.Fatalf("tampered C1: exit %d, want %d: %s", code, exitInvalidProof, stderr)
	}
	wantOneLineError(t, stderr, "vanilla_proofs")

	// Malformed input: exit 2.
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("{", 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"verify-vanilla", "--c1", garbage},
		{"verify-vanilla", "--c1", filepath.Join(dir, "missing.json")},
		{"verify-vanilla", "--c1", c1Fixture, "junk"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Fatalf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
	}
}
