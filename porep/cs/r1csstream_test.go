// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import "testing"

// TestR1CSStreamMatchesRecorder: the streamed digest equals Recorder's on
// random circuits (duplicates, cancelling pairs, zeros, long LCs), and
// wrong counts are an error.
func TestR1CSStreamMatchesRecorder(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		r := NewRecorder()
		cnt := NewCounter()
		randomCircuit(seed, 3000, r, cnt)
		in, aux, rows := cnt.Inputs, cnt.Aux, cnt.Constraints+cnt.Inputs
		s := NewR1CSStream(in, aux, rows)
		randomCircuit(seed, 3000, s)
		got, err := s.Digest()
		if err != nil {
			t.Fatal(err)
		}
		if want := r.Digest(); got != want {
			t.Fatalf("seed %d: stream %x, recorder %x", seed, got, want)
		}
		bad := NewR1CSStream(in, aux, rows+1)
		randomCircuit(seed, 3000, bad)
		if _, err := bad.Digest(); err == nil {
			t.Fatalf("seed %d: a wrong row count was accepted", seed)
		}
	}
}
