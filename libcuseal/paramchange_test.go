// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// TestWinningPoStParamsChanged: the C ABI's WinningPoSt call (in process,
// as calls_test.go calls the exports) while its .params is truncated, or
// replaced by rename, between two chunks of the l query returns
// CUSEAL_POREP_ERR_INTERNAL (the environment failed) with a message naming
// the file and the change, and the host process goes on; the next call,
// the file whole again, returns bellperson's proof.
func TestWinningPoStParamsChanged(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	dir, path, restore := win.OwnParamsDir(t)
	o := options(t, dir, false)
	o.test_only_randomness_seed = cPtr(win.RSSeed[:])
	prove := func() res { return winningProve(win.Proof, win.Randomness, win.Miner, byteList(win.Vanilla...), o) }
	for _, c := range testparams.Changes(t, path) {
		t.Run(c.Name, func(t *testing.T) {
			fired := testparams.ChangeBetweenChunks(t, path, groth16.SectionL, 1, c.Do)
			r := prove()
			if !fired() {
				t.Fatal("the l query was not read in chunks: the change never happened")
			}
			if r.status != statusInternal || r.partial || !strings.HasPrefix(r.msg, "libcuseal: generate_winning_post_with_vanilla: ") ||
				!strings.Contains(r.msg, path) || !strings.Contains(r.msg, "changed while in use") {
				t.Fatalf("the call while the file changed: %v", r)
			}
			restore()
			if r := prove(); r.status != statusOK || !bytes.Equal(r.out, win.Want) {
				t.Fatalf("the call after the file was restored: %v", r)
			}
		})
	}
}
