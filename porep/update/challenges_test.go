// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"testing"
)

// TestPhiRhoChallenges recomputes phi, the partition challenges, c_high and
// rho of the reference vector and the public inputs.
func TestPhiRhoChallenges(t *testing.T) {
	m, cfg, _ := loadRef(t)
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	phi := Phi(&commDNew, &commROld)
	if got := frHex(&phi); got != m.Phi {
		t.Fatalf("phi %s, want %s", got, m.Phi)
	}
	for _, p := range m.Partition {
		chs, err := Challenges(cfg, &commRNew, p.K)
		if err != nil {
			t.Fatal(err)
		}
		if len(chs) != len(p.Challenges) {
			t.Fatalf("partition %d: %d challenges, want %d", p.K, len(chs), len(p.Challenges))
		}
		for i, w := range p.Challenges {
			if chs[i] != w.C {
				t.Errorf("partition %d challenge %d: %d, want %d", p.K, i, chs[i], w.C)
			}
			high := cfg.ChallengeHigh(w.C)
			rho := Rho(&phi, high)
			if high != w.CHigh || frHex(&rho) != w.Rho {
				t.Errorf("partition %d challenge %d: c_high %d rho %s, want %d %s", p.K, i, high, frHex(&rho), w.CHigh, w.Rho)
			}
		}
		pub, err := PublicInputs(cfg, p.K, &commROld, &commDNew, &commRNew)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.KAndHSelect(p.K) != p.KAndHSelect || len(pub) != len(p.PublicInputs) {
			t.Fatalf("partition %d: k_and_h_select %d, %d inputs; want %d, %d", p.K, cfg.KAndHSelect(p.K), len(pub), p.KAndHSelect, len(p.PublicInputs))
		}
		for i := range pub {
			if got := frHex(&pub[i]); got != p.PublicInputs[i] {
				t.Errorf("partition %d public input %d: %s, want %s", p.K, i, got, p.PublicInputs[i])
			}
		}
	}
	if _, err := Challenges(cfg, &commRNew, cfg.Partitions); err == nil {
		t.Error("Challenges accepted a partition out of range")
	}
	if _, err := PublicInputs(cfg, -1, &commROld, &commDNew, &commRNew); err == nil {
		t.Error("PublicInputs accepted partition -1")
	}
}
