// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
)

// TestPoStOfficialParams: every registered PoSt proof's parameter files
// (ParameterPaths: the circuit identifier's hash and the tree shape) are
// entries of rust-fil-proofs 19.1.0's parameters.json with the CID,
// digest and sector size listed there (the rows below, as Lotus'
// paramfetch and parameters.json give them), and every PoSt entry of the
// table belongs to exactly one proof. A circuit added later (SnapDeals'
// update) gets rows of its own.
func TestPoStOfficialParams(t *testing.T) {
	rows := []struct {
		proof                   abi.RegisteredPoStProof
		file                    string // after v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-
		paramsCID, paramsDigest string
		vkCID, vkDigest         string
	}{
		{abi.RegisteredPoStProof_StackedDrgWinning2KiBV1, "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e", "QmcSTqDcFVLGGVYz1njhUZ7B6fkKtBumsLUwx4nkh22TzS", "82c88066be968bb550a05e30ff6c2413", "QmSTCXF2ipGA3f6muVo6kHc2URSx6PzZxGUqu7uykaH5KU", "ffd79788d614d27919ae5bd2d94eacb6"},
		{abi.RegisteredPoStProof_StackedDrgWinning8MiBV1, "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331", "QmU9SBzJNrcjRFDiFc4GcApqdApN6z9X7MpUr66mJ2kAJP", "700171ecf7334e3199437c930676af82", "QmbmUMa3TbbW3X5kFhExs6WgC4KeWT18YivaVmXDkB6ANG", "79ebb55f56fda427743e35053edad8fc"},
		{abi.RegisteredPoStProof_StackedDrgWinning512MiBV1, "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781", "QmVgCsJFRXKLuuUhT3aMYwKVGNA9rDeR6DCrs7cAe8riBT", "827359440349fe8f5a016e7598993b79", "QmfA31fbCWojSmhSGvvfxmxaYCpMoXP95zEQ9sLvBGHNaN", "bd2cd62f65c1ab84f19ca27e97b7c731"},
		{abi.RegisteredPoStProof_StackedDrgWinning32GiBV1, "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e", "Qmdtczp7p4wrbDofmHdGhiixn9irAcN77mV9AEHZBaTt1i", "d84f79a16fe40e9e25a36e2107bb1ba0", "QmZCvxKcKP97vDAk8Nxs9R1fWtqpjQrAhhfXPoCi1nkDoF", "fc02943678dd119e69e7fab8420e8819"},
		{abi.RegisteredPoStProof_StackedDrgWinning64GiBV1, "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c", "QmVkrXc1SLcpgcudK5J25HH93QvR9tNsVhVTYHm5UymXAz", "2170a91ad5bae22ea61f2ea766630322", "QmbfQjPD7EpzjhWGmvWAsyN2mAZ4PcYhsf3ujuhU9CSuBm", "6d3789148fb6466d07ee1e24d6292fd6"},
		{abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1, "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0", "QmVxjFRyhmyQaZEtCh7nk2abc7LhFkzhnRX4rcHqCCpikR", "7610b9f82bfc88405b7a832b651ce2f6", "QmcS5JZs8X3TdtkEBpHAdUYjdNDqcL7fWQFtQz69mpnu2X", "0e0958009936b9d5e515ec97b8cb792d"},
		{abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1, "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9", "QmdNEL2RtqL52GQNuj8uz6mVj5Z34NVnbaJ1yMyh1oXtBx", "c49499bb76a0762884896f9683403f55", "QmUiVYCQUgr6Y13pZFr8acWpSM4xvTXUdcvGmxyuHbKhsc", "34d4feeacd9abf788d69ef1bb4d8fd00"},
		{abi.RegisteredPoStProof_StackedDrgWindow512MiBV1_1, "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9", "QmUiRx71uxfmUE8V3H9sWAsAXoM88KR4eo1ByvvcFNeTLR", "1a7d4a9c8a502a497ed92a54366af33f", "QmfCeddjFpWtavzfEzZpJfzSajGNwfL4RjFXWAvA9TSnTV", "4dae975de4f011f101f5a2f86d1daaba"},
		{abi.RegisteredPoStProof_StackedDrgWindow32GiBV1_1, "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc", "QmaUmfcJt6pozn8ndq1JVBzLRjRJdHMTPd4foa8iw5sjBZ", "2cf49eb26f1fee94c85781a390ddb4c8", "QmR9i9KL3vhhAqTBGj1bPPC7LvkptxrH9RvxJxLN1vvsBE", "0f8ec542485568fa3468c066e9fed82b"},
		{abi.RegisteredPoStProof_StackedDrgWindow64GiBV1_1, "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def", "QmeAN4vuANhXsF8xP2Lx5j2L6yMSdogLzpcvqCJThRGK1V", "3810b7780ac0e299b22ae70f1f94c9bc", "QmWV8rqZLxs1oQN9jxNWmnT1YdgLwCcscv94VARrhHf1T7", "59d2bf1857adc59a4f08fcf2afaa916b"},
	}
	const prefix = "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-"
	claimed := map[string]abi.RegisteredPoStProof{}
	for _, r := range rows {
		cfg, err := post.ConfigFor(r.proof)
		if err != nil {
			t.Fatal(err)
		}
		pp, vp, _ := cfg.ParameterPaths(t.TempDir())
		for _, f := range []struct{ path, cid, digest string }{{pp, r.paramsCID, r.paramsDigest}, {vp, r.vkCID, r.vkDigest}} {
			base := filepath.Base(f.path)
			if want := prefix + r.file; strings.TrimSuffix(strings.TrimSuffix(base, ".params"), ".vk") != want {
				t.Errorf("%s: file %s, want %s.*", cfg.Name, base, want)
			}
			e, ok := paramfile.LookupOfficialParam(f.path)
			if !ok {
				t.Errorf("%s: %s is not in parameters.json", cfg.Name, base)
				continue
			}
			if e.CID != f.cid || e.Digest != f.digest || e.SectorSize != cfg.SectorSize {
				t.Errorf("%s: %s is cid %s, digest %s, sector size %d; want %s, %s, %d", cfg.Name, base, e.CID, e.Digest, e.SectorSize, f.cid, f.digest, cfg.SectorSize)
			}
			claimed[base] = r.proof
		}
	}
	if len(rows) != len(post.Configs()) {
		t.Errorf("%d rows for %d registered PoSt proofs", len(rows), len(post.Configs()))
	}
	for name := range paramfile.OfficialParams() {
		if _, ok := claimed[name]; strings.HasPrefix(name, prefix) && !ok {
			t.Errorf("parameters.json's %s belongs to no registered PoSt proof", name)
		}
	}
}
