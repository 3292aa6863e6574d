// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// TestWinningPoStParamsChanged: the Go API proving a 2 KiB WinningPoSt on
// the CPU while its .params is truncated (then restored by copying it
// back), or replaced by rename, between two chunks of the l query: the
// call fails with an error naming the file and saying it changed while in
// use, the process goes on, and the next call — the file whole again —
// loads it afresh and returns bellperson's proof.
func TestWinningPoStParamsChanged(t *testing.T) {
	g := loadPostGolden(t, "post-winning-2KiB-s22")
	dir, path, restore := g.OwnParamsDir(t)
	prove := func() ([]byte, error) {
		got, err := GenerateWinningPoStWithVanilla(g.Proof, g.Miner, g.Randomness, g.Vanilla,
			WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(g.RSSeed))
		if err != nil {
			return nil, err
		}
		return got[0].ProofBytes, nil
	}
	for _, c := range testparams.Changes(t, path) {
		t.Run(c.Name, func(t *testing.T) {
			fired := testparams.ChangeBetweenChunks(t, path, groth16.SectionL, 1, c.Do)
			_, err := prove()
			if !fired() {
				t.Fatal("the l query was not read in chunks: the change never happened")
			}
			if !errors.Is(err, groth16.ErrParamsChanged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "changed while in use") {
				t.Fatalf("prove while the file changed: %v", err)
			}
			t.Log(err)
			restore()
			proof, err := prove()
			if err != nil {
				t.Fatalf("prove after the file was restored: %v", err)
			}
			if !bytes.Equal(proof, g.Want) {
				t.Fatalf("proof %x, bellperson %x", proof, g.Want)
			}
		})
	}
}
