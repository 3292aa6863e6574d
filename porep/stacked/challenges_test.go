// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"reflect"
	"testing"
)

// TestSynthChallengesGolden: challenges.rs test_synth_challenges_against_hardcoded.
func TestSynthChallengesGolden(t *testing.T) {
	var replicaID, commR, seed [32]byte
	replicaID[0], commR[0] = 55, 101
	for i := range seed {
		seed[i] = 1
	}
	g, err := NewSynthGenerator(1<<10, replicaID, commR, 21)
	if err != nil {
		t.Fatal(err)
	}
	wantSynth := []uint64{178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856, 801, 176, 692, 429, 691, 290, 204, 986, 210, 973}
	if got := g.All(); !reflect.DeepEqual(got, wantSynth) {
		t.Fatalf("synthetic set %v\nwant %v", got, wantSynth)
	}
	for i := len(wantSynth) - 1; i >= 0; i-- {
		if got := g.Challenge(uint64(i)); got != wantSynth[i] {
			t.Fatalf("S[%d] = %d want %d", i, got, wantSynth[i])
		}
	}
	wantPoRep := []uint64{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}
	if got := g.PartitionChallenges(seed, 10, 0); !reflect.DeepEqual(got, wantPoRep) {
		t.Fatalf("porep challenges %v\nwant %v", got, wantPoRep)
	}
	// Partition equivalence: 5 × 2 equals 1 × 10.
	var all []uint64
	for k := 0; k < 5; k++ {
		all = append(all, g.PartitionChallenges(seed, 2, k)...)
	}
	if !reflect.DeepEqual(all, wantPoRep) {
		t.Fatalf("partitioned %v", all)
	}
}

// TestInteractivePartitionEquivalence mirrors challenge_partition_equivalence.
func TestInteractivePartitionEquivalence(t *testing.T) {
	var rid, seed [32]byte
	for i := range rid {
		rid[i], seed[i] = byte(i), byte(3*i+1)
	}
	rid[31] &= 0x3f
	one := InteractiveChallenges(1<<30, rid, seed, 40, 0)
	var many []uint64
	for k := 0; k < 5; k++ {
		many = append(many, InteractiveChallenges(1<<30, rid, seed, 8, k)...)
	}
	if !reflect.DeepEqual(one[:40], many) {
		t.Fatal("partitioned interactive challenges differ")
	}
	for _, c := range one {
		if c == 0 || c >= 1<<30 {
			t.Fatalf("challenge %d out of range", c)
		}
	}
	ni := NonInteractiveChallenges(1<<30, rid, seed, 18, 3)
	ni2 := NonInteractiveChallenges(1<<30, rid, seed, 72, 0)
	if !reflect.DeepEqual(ni, ni2[54:]) {
		t.Fatal("NI partition equivalence")
	}
}
