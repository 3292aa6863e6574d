// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// TestConfigs checks every supported registered PoSt proof against
// post-circuit.md §1.2–§1.3 and §7.2: names, slots × challenges, tree
// shape, path length, inputs and the parameter identifier digests
// (parameters.json names).
func TestConfigs(t *testing.T) {
	want := []struct {
		id         abi.RegisteredPoStProof
		name, api  string
		shape      string
		pathLevels int
		slots, ch  int
		inputs     int
		idDigest   string
	}{
		{0, "StackedDrgWinning2KiBV1", "StackedDrgWinning2KiBV1", "8-0-0", 2, 66, 1, 133, "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
		{1, "StackedDrgWinning8MiBV1", "StackedDrgWinning8MiBV1", "8-0-0", 6, 66, 1, 133, "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
		{2, "StackedDrgWinning512MiBV1", "StackedDrgWinning512MiBV1", "8-0-0", 8, 66, 1, 133, "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
		{3, "StackedDrgWinning32GiBV1", "StackedDrgWinning32GiBV1", "8-8-0", 10, 66, 1, 133, "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
		{4, "StackedDrgWinning64GiBV1", "StackedDrgWinning64GiBV1", "8-8-2", 11, 66, 1, 133, "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
		{10, "StackedDrgWindow2KiBV1_1", "StackedDrgWindow2KiBV1_2", "8-0-0", 2, 2, 10, 23, "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
		{11, "StackedDrgWindow8MiBV1_1", "StackedDrgWindow8MiBV1_2", "8-0-0", 6, 2, 10, 23, "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
		{12, "StackedDrgWindow512MiBV1_1", "StackedDrgWindow512MiBV1_2", "8-0-0", 8, 2, 10, 23, "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
		{13, "StackedDrgWindow32GiBV1_1", "StackedDrgWindow32GiBV1_2", "8-8-0", 10, 2349, 10, 25840, "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
		{14, "StackedDrgWindow64GiBV1_1", "StackedDrgWindow64GiBV1_2", "8-8-2", 11, 2300, 10, 25301, "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
	}
	all := Configs()
	if len(all) != len(want) {
		t.Fatalf("Configs() lists %d, want %d", len(all), len(want))
	}
	for i, w := range want {
		c := all[i]
		if c.Proof != w.id || c.Name != w.name || c.APIName != w.api || c.Shape.String() != w.shape ||
			len(c.PathArities()) != w.pathLevels || c.Slots != w.slots || c.SlotChallenges != w.ch || c.NumPublicInputs() != w.inputs {
			t.Errorf("%d: %s/%s %s, %d levels, %d×%d, %d inputs; want %+v", c.Proof, c.Name, c.APIName, c.Shape,
				len(c.PathArities()), c.Slots, c.SlotChallenges, c.NumPublicInputs(), w)
		}
		h := sha256.Sum256([]byte(c.ParameterIdentifier()))
		if hex.EncodeToString(h[:]) != w.idDigest || !strings.HasSuffix(c.ParameterFileStem(), w.shape+"-"+w.idDigest) {
			t.Errorf("%s: identifier %q (sha256 %x), stem %s; want sha256 %s", c.Name, c.ParameterIdentifier(), h, c.ParameterFileStem(), w.idDigest)
		}
		// The tree R path has one bit per halving of the leaves.
		bits := 0
		for _, a := range c.PathArities() {
			for ; a > 1; a >>= 1 {
				bits++
			}
		}
		if uint64(1)<<bits != c.Leaves() {
			t.Errorf("%s: path of %d index bits for %d leaves", c.Name, bits, c.Leaves())
		}
	}
	for _, bad := range []struct {
		id   abi.RegisteredPoStProof
		want string
	}{{5, "legacy WindowPoSt V1"}, {9, "use the V1_1 proof 14"}, {15, "unknown registered PoSt proof 15"}, {-1, "unknown"}} {
		if _, err := ConfigFor(bad.id); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ConfigFor(%d): %v, want %q", bad.id, err, bad.want)
		}
	}
}

// TestPartitions: get_num_partition_for_fallback_post.
func TestPartitions(t *testing.T) {
	w := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow32GiBV1_1)
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {2349, 1}, {2350, 2}, {4698, 2}, {4699, 3}} {
		if got := w.Partitions(c.n); got != c.want {
			t.Errorf("window 32 GiB, %d sectors: %d partitions, want %d", c.n, got, c.want)
		}
	}
	if got := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWinning2KiBV1).Partitions(5); got != 1 {
		t.Errorf("winning: %d partitions", got)
	}
}

// TestConfigByName: numbers and both names (any case) of every supported
// proof; legacy, unknown numbers and unknown names are errors saying what
// is wanted.
func TestConfigByName(t *testing.T) {
	for _, c := range Configs() {
		for _, s := range []string{strconv.FormatInt(int64(c.Proof), 10), c.Name, c.APIName, strings.ToLower(c.Name)} {
			if got, err := ConfigByName(s); err != nil || got.Proof != c.Proof {
				t.Errorf("ConfigByName(%q) = %v, %v; want %s", s, got.Proof, err, c.Name)
			}
		}
	}
	for s, want := range map[string]string{
		"7":                        "legacy WindowPoSt V1",
		"15":                       "unknown registered PoSt proof 15",
		"-1":                       "unknown registered PoSt proof -1",
		"StackedDrgWindow3KiBV1_1": `unknown registered PoSt proof name "StackedDrgWindow3KiBV1_1" (want 0–4: StackedDrgWinning<size>V1, or 10–14`,
		"":                         "unknown registered PoSt proof name",
	} {
		if _, err := ConfigByName(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ConfigByName(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}
