// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/cuseal/cuseal/porep/groth16"
)

// TestReadProofFileErrors: a corrupt proof file is reported at the offset of its first bad
// character or point in file order (raw or hex), with no internal names such as "<memory>".
func TestReadProofFileErrors(t *testing.T) {
	_, _, g1, g2 := bls.Generators()
	good := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	two := append(append([]byte{}, good[:]...), good[:]...)
	badB := append([]byte{}, good[:]...)
	badB[48] &^= 0x80 // compression flag of B cleared
	badC2 := append([]byte{}, two...)
	badC2[groth16.ProofSize+144] &^= 0x80
	hexGood := hex.EncodeToString(good[:])
	for _, tc := range []struct {
		name       string
		content    string
		partitions int
		want       string // "" = accepted
	}{
		{"good raw", string(good[:]), 1, ""},
		{"good hex", hexGood + "\n", 1, ""},
		{"good 0x hex", "  0x" + hexGood, 1, ""},
		{"all-zero raw", string(make([]byte, groth16.ProofSize)), 1, "offset 0, proof[0].a:"},
		{"all-zero hex", strings.Repeat("0", 384), 1, "offset 0 (byte 0 of the hex-decoded proof), proof[0].a:"},
		{"bad B", string(badB), 1, "offset 48, proof[0].b:"},
		{"bad C of partition 1", string(badC2), 2, "offset 336, proof[1].c:"},
		{"bad C of partition 1, hex", hex.EncodeToString(badC2), 2, "offset 672 (byte 336 of the hex-decoded proof), proof[1].c:"},
		{"bad hex digit", hexGood[:10] + "zz" + hexGood[12:], 1, `offset 10: 'z' is not a hex digit`},
		{"bad hex digit after 0x", "0x" + hexGood[:101] + "g" + hexGood[102:], 1, `offset 103: 'g' is not a hex digit`},
		{"short", string(good[:100]), 1, fmt.Sprintf("100 bytes, want %d", groth16.ProofSize)},
		{"empty", "", 1, fmt.Sprintf("empty file, want %d bytes", groth16.ProofSize)},
		{"blank", " \n", 1, "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "proof")
			if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readProofFile(p, tc.partitions)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("error %v; want one naming %s and %q", err, p, tc.want)
			}
			if strings.Contains(err.Error(), "<memory>") {
				t.Fatalf("error names <memory>: %v", err)
			}
			if got := exitCode(err, &strings.Builder{}); got != exitUsage {
				t.Fatalf("exit %d, want %d", got, exitUsage)
			}
		})
	}
}
