// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// specCounts is update-circuit.md §8: circuit constraints (without the
// per-input rows) and aux of one partition.
var specCounts = map[string][2]int{
	"StackedDrg2KiBV1":   {1705039, 1703569},
	"StackedDrg8MiBV1":   {10007503, 9998039},
	"StackedDrg512MiBV1": {57450479, 57401314},
	"StackedDrg32GiBV1":  {81049499, 80978488},
	"StackedDrg64GiBV1":  {85006101, 84931220},
}

// TestBlankCircuitCounts counts the blank circuit (SizeHintFor) of 2 KiB
// against §8, 8 MiB in the long tier, the larger sizes in the huge tier
// (each a shape-only synthesis of 57–85 M constraints: ~4.5 min in all).
func TestBlankCircuitCounts(t *testing.T) {
	for _, cfg := range Configs() {
		if cfg.SectorSize > 8<<20 && !testenv.Enabled(testenv.TierHuge) {
			continue
		}
		if cfg.SectorSize > 2<<10 && !testenv.Enabled(testenv.TierLong) {
			continue
		}
		want := specCounts[cfg.Name]
		h, err := SizeHintFor(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		if h.Constraints != want[0] || h.Aux != want[1] || h.Inputs != cfg.NumPublicInputs() {
			t.Errorf("%s: %d constraints, %d aux, %d inputs; want %d, %d, %d", cfg.Name, h.Constraints, h.Aux, h.Inputs, want[0], want[1], cfg.NumPublicInputs())
		}
	}
}

// TestCircuitBadInput: structural defects are errors before synthesis, and
// a witness whose leaf_r_new is not the encoding of its leaves is an error.
func TestCircuitBadInput(t *testing.T) {
	m, cfg, data := loadRef(t)
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	p, err := ParsePartitionProof(data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewCircuit(cfg, 1, &commROld, &commDNew, &commRNew, p); err == nil || !strings.Contains(err.Error(), "partition 1 out of range") {
		t.Errorf("k = 1: %v", err)
	}
	short := *p
	short.ApexLeafs = short.ApexLeafs[:7]
	if _, err := NewCircuit(cfg, 0, &commROld, &commDNew, &commRNew, &short); err == nil || !strings.Contains(err.Error(), "7 apex leaves") {
		t.Errorf("7 apex leaves: %v", err)
	}

	mutate := []struct {
		name string
		f    func(c *Circuit)
		want string
	}{
		{"path_r_old levels", func(c *Circuit) { c.Challenges[3].PathROld = c.Challenges[3].PathROld[:1] }, "challenge 3 path_r_old: 1 levels, want 2"},
		{"path_r_new siblings", func(c *Circuit) { c.Challenges[2].PathRNew[1] = c.Challenges[2].PathRNew[1][:6] }, "challenge 2 path_r_new level 1: 6 siblings, want 7"},
		{"path_d_new levels", func(c *Circuit) { c.Challenges[0].PathDNew = c.Challenges[0].PathDNew[:5] }, "challenge 0 path_d_new: 5 levels, want 6"},
		{"challenges", func(c *Circuit) { c.Challenges = c.Challenges[:9] }, "9 challenges"},
	}
	for _, tc := range mutate {
		c, err := NewCircuit(cfg, 0, &commROld, &commDNew, &commRNew, p)
		if err != nil {
			t.Fatal(err)
		}
		tc.f(c)
		cnt := cs.NewCounter()
		if err := c.Synthesize(context.Background(), cnt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		} else if cnt.Constraints != 0 || cnt.Aux != 0 {
			t.Errorf("%s: %d constraints written before the error", tc.name, cnt.Constraints)
		}
	}

	c, err := NewCircuit(cfg, 0, &commROld, &commDNew, &commRNew, p)
	if err != nil {
		t.Fatal(err)
	}
	c.Challenges[4].LeafDNew.Add(&c.Challenges[4].LeafDNew, new(fr.Element).SetOne())
	if err := c.Synthesize(context.Background(), cs.NewCounter()); err == nil || !strings.Contains(err.Error(), "challenge 4: leaf_r_new") {
		t.Errorf("tampered leaf_d_new: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := BlankCircuit(cfg).Synthesize(ctx, cs.NewCounter()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestCircuitChallengesLargerSizes checks, where the 2 KiB vector cannot
// (pbl > 0, several digests, h = 10), that the circuit derives the
// challenges Challenges computes: the top part of a blank 8 MiB (k = 3) and
// 512 MiB (k = 11, 8 digests) circuit with a non-zero comm_r_new into a
// cs.Counter, then each challenge's bits (random bits + partition bits) and
// its c_high (get_challenge_high_bits) against Challenges and
// ChallengeHigh. Also: challenges of another partition's path are refused.
func TestCircuitChallengesLargerSizes(t *testing.T) {
	testenv.Long(t, "two shape-only top parts of ~6 M constraints each")
	for _, tc := range []struct {
		proof abi.RegisteredUpdateProof
		k     int
	}{{abi.RegisteredUpdateProof_StackedDrg8MiBV1, 3}, {abi.RegisteredUpdateProof_StackedDrg512MiBV1, 11}} {
		cfg, err := ConfigFor(tc.proof)
		if err != nil {
			t.Fatal(err)
		}
		c := BlankCircuit(&cfg)
		c.K = tc.k
		c.CommRNew.SetUint64(0x1234_5678_9abc)
		want, err := Challenges(&cfg, &c.CommRNew, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		cnt := cs.NewCounter()
		top, err := c.synthesizeTop(cnt)
		if err != nil {
			t.Fatal(err)
		}
		if len(top.challengeBits) != len(want) {
			t.Fatalf("%s: %d challenges, want %d", cfg.Name, len(top.challengeBits), len(want))
		}
		for i, w := range want {
			var got uint64
			bits := append(isBits(top.challengeBits[i]), isBits(top.partitionBits)...)
			for j, b := range bits {
				if b.Value() {
					got |= 1 << j
				}
			}
			high := c.challengeHigh(cnt, bits, top.hSelectBits)
			wantHigh := stacked.FrFromUint64(cfg.ChallengeHigh(w))
			if got != w || !high.Val.Equal(&wantHigh) {
				t.Errorf("%s k=%d challenge %d: circuit %d (c_high %s), Challenges %d (c_high %d)", cfg.Name, tc.k, i, got, high.Val.String(), w, cfg.ChallengeHigh(w))
			}
		}

		other := BlankCircuit(&cfg)
		other.Challenges[5].PathDNew[cfg.ChallengeBitLen-1].SetOne()
		if err := other.Validate(); err == nil || !strings.Contains(err.Error(), "challenge 5 path_d_new level") {
			t.Errorf("%s: other partition path: %v", cfg.Name, err)
		}
	}
}
