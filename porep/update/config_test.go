// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"strconv"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// TestConfigs checks every registered update proof against
// update-circuit.md §1.2–§1.3, §2.2 and §3.2: partitions, challenges, bit
// lengths, apex leaves, h, h_select, digests per partition, the parameter
// file stems of parameters.json and the partition proof sizes.
func TestConfigs(t *testing.T) {
	want := []struct {
		name           string
		nodes          uint64
		cbl, p, n, pbl int
		a, albl, d, h  int
		hsel           uint64
		rb, per, dpp   int
		shape          string
		stem           string
		vanillaSize    int
	}{
		{"StackedDrg2KiBV1", 1 << 6, 6, 1, 10, 0, 8, 3, 3, 1, 1, 6, 42, 1, "8-0-0", "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194", 15064},
		{"StackedDrg8MiBV1", 1 << 18, 18, 4, 10, 2, 128, 7, 9, 10, 8, 16, 15, 1, "8-0-0", "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63", 43864},
		{"StackedDrg512MiBV1", 1 << 24, 24, 16, 86, 4, 128, 7, 13, 10, 8, 20, 12, 8, "8-0-0", "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c", 453064},
		{"StackedDrg32GiBV1", 1 << 30, 30, 16, 86, 4, 128, 7, 19, 10, 8, 26, 9, 10, "8-8-0", "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18", 561768},
		{"StackedDrg64GiBV1", 1 << 31, 31, 16, 86, 4, 128, 7, 20, 10, 8, 27, 9, 10, "8-8-2", "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7", 575528},
	}
	all := Configs()
	if len(all) != len(want) {
		t.Fatalf("Configs() lists %d, want %d", len(all), len(want))
	}
	for i, w := range want {
		c := all[i]
		if c.Proof != abi.RegisteredUpdateProof(i) || c.Name != w.name || c.Nodes != w.nodes || c.ChallengeBitLen != w.cbl ||
			c.Partitions != w.p || c.ChallengeCount != w.n || c.PartitionBitLen != w.pbl || c.ApexLeafCount != w.a ||
			c.ApexLeafBitLen != w.albl || c.ApexDepth() != w.d || c.H != w.h || c.HSelect != w.hsel ||
			c.RandomBits() != w.rb || c.ChallengesPerDigest() != w.per || c.DigestsPerPartition() != w.dpp || c.Shape.String() != w.shape {
			t.Errorf("%d: %+v; want %+v", i, c, w)
		}
		wantStem := "v28-empty-sector-update-merkletree-poseidon_hasher-" + w.shape + "-" + w.stem
		if c.ParameterFileStem() != wantStem {
			t.Errorf("%s: stem %s (identifier %q), want %s", c.Name, c.ParameterFileStem(), c.ParameterIdentifier(), wantStem)
		}
		if got := PartitionProofSize(&c); got != w.vanillaSize {
			t.Errorf("%s: partition proof size %d, want %d", c.Name, got, w.vanillaSize)
		}
		if got := c.KAndHSelect(1 % c.Partitions); got != uint64(1%c.Partitions)|w.hsel<<uint(w.pbl) {
			t.Errorf("%s: k_and_h_select(1) = %d", c.Name, got)
		}
	}
	for _, bad := range []abi.RegisteredUpdateProof{-1, 5, 100} {
		if _, err := ConfigFor(bad); err == nil || !strings.Contains(err.Error(), "unknown registered update proof") {
			t.Errorf("ConfigFor(%d): %v, want an unknown-proof error", bad, err)
		}
	}
}

// TestConfigAgainstMeta compares the 2 KiB config with the reference
// vector's update_config and file names.
func TestConfigAgainstMeta(t *testing.T) {
	m, cfg, _ := loadRef(t)
	u := m.UpdateConfig
	if cfg.Name != m.UpdateName || int64(cfg.Proof) != m.UpdateProof || cfg.SectorSize != m.SectorSize ||
		cfg.Nodes != u.SectorNodes || cfg.Partitions != u.Partitions || cfg.ChallengeCount != u.Challenges ||
		cfg.ChallengeBitLen != u.ChallengeBitLen || cfg.PartitionBitLen != u.PartitionBitLen ||
		cfg.ApexLeafCount != u.ApexLeafCount || cfg.ApexLeafBitLen != u.ApexLeafBitLen || cfg.H != u.H || cfg.HSelect != u.HSelect {
		t.Errorf("config %+v, meta %+v", cfg, u)
	}
	for i, h := range u.HS {
		if cfg.HS[i] != h {
			t.Errorf("hs %v, meta %v", cfg.HS, u.HS)
			break
		}
	}
	if cfg.CacheIdentifier() != m.CacheIdentifier || "merkletree-poseidon_hasher-"+cfg.Shape.String() != m.TreeR {
		t.Errorf("cache id %s, meta %s (tree %s)", cfg.CacheIdentifier(), m.CacheIdentifier, m.TreeR)
	}
	params, vk, _ := cfg.ParameterPaths("/p")
	if params != "/p/"+m.ParamsFile || vk != "/p/"+m.VKFile {
		t.Errorf("paths %s %s, meta %s %s", params, vk, m.ParamsFile, m.VKFile)
	}
}

// TestConfigByName: the number and the name (any case) of every registered
// update proof; unknown numbers and names are errors saying what is wanted.
func TestConfigByName(t *testing.T) {
	for _, c := range Configs() {
		for _, s := range []string{strconv.FormatInt(int64(c.Proof), 10), c.Name, strings.ToUpper(c.Name)} {
			if got, err := ConfigByName(s); err != nil || got.Proof != c.Proof {
				t.Errorf("ConfigByName(%q) = %v, %v; want %s", s, got.Proof, err, c.Name)
			}
		}
	}
	for s, want := range map[string]string{
		"7":                  "unknown registered update proof 7 (want 0–4",
		"StackedDrg2KiBV1_1": `unknown registered update proof name "StackedDrg2KiBV1_1" (want 0–4 or StackedDrg<size>V1)`,
	} {
		if _, err := ConfigByName(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ConfigByName(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}
