// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/porep/update"
)

// updateCommitmentsFile is what bench vanilla --circuit update writes next
// to the partition proofs.
const updateCommitmentsFile = "commitments.json"

// updateCommitmentsJSON is updateCommitmentsFile: the synthetic updated
// sector's commitments, raw (64 hex digits) and as CIDs.
type updateCommitmentsJSON struct {
	UpdateProof string `json:"update_proof"`
	ProofType   int64  `json:"proof_type"`
	Seed        uint64 `json:"seed"`
	CommROld    string `json:"comm_r_old"`
	CommDNew    string `json:"comm_d_new"`
	CommRNew    string `json:"comm_r_new"`
	OldSealed   string `json:"old_sealed_cid"`
	Unsealed    string `json:"new_unsealed_cid"`
	NewSealed   string `json:"new_sealed_cid"`
	Partitions  []int  `json:"partitions"` // the partition-K.bin written
	Synthetic   bool   `json:"synthetic"`
}

// benchVanillaUpdate is bench vanilla --circuit update.
func benchVanillaUpdate(c *cli.Context, _ *circuitSpec, start time.Time) error {
	for _, f := range []string{"sectors", "miner", "sector"} {
		if c.IsSet(f) {
			return usageErrorf("--%s: not with --circuit %s", f, circuitUpdate)
		}
	}
	cfg, err := configForSize[*update.Config](circuitNamed(circuitUpdate), c.String("sector-size"))
	if err != nil {
		return err
	}
	parts := make([]int, cfg.Partitions)
	for k := range parts {
		parts[k] = k
	}
	if c.IsSet("partition") {
		k := c.Int("partition")
		if k < 0 || k >= cfg.Partitions {
			return usageErrorf("--partition %d: %s has partitions 0 to %d", k, cfg.Name, cfg.Partitions-1)
		}
		parts = []int{k}
	}
	dir := c.String("out")
	meta := filepath.Join(dir, updateCommitmentsFile)
	stop, err := benchVanillaStart(c, updateCommitmentsFile)
	if err != nil {
		return err
	}
	seed := c.Uint64("seed")
	set, err := synthetic.Update(cfg.Proof, synthetic.UpdateOptions{Seed: seed})
	proofs := make([][]byte, len(parts))
	for i, k := range parts {
		if err != nil {
			break
		}
		p, perr := set.PartitionProof(k)
		if err = perr; err == nil {
			proofs[i] = p.Bytes()
		}
	}
	if serr := stop(); err == nil && serr != nil {
		return serr
	}
	if err != nil {
		return internalError(err)
	}
	total := 0
	for i, k := range parts {
		if err := writeFileAtomic(filepath.Join(dir, partitionProofFile(k)), proofs[i]); err != nil {
			return inputError(fmt.Errorf("--out: %w", fileError(err)))
		}
		total += len(proofs[i])
	}
	j := updateCommitmentsJSON{UpdateProof: cfg.Name, ProofType: int64(cfg.Proof), Seed: seed,
		CommROld: hex.EncodeToString(set.CommROld[:]), CommDNew: hex.EncodeToString(set.CommDNew[:]), CommRNew: hex.EncodeToString(set.CommRNew[:]),
		OldSealed: set.OldSealed.String(), Unsealed: set.Unsealed.String(), NewSealed: set.NewSealed.String(), Partitions: parts, Synthetic: true}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return internalError(err)
	}
	if err := writeFileAtomic(meta, append(b, '\n')); err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	out := benchVanillaOutput{RegisteredProof: cfg.Name, Partitions: len(parts), Bytes: total, Dir: dir, Seconds: time.Since(start).Seconds(), PeakRSSBytes: peakRSS()}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "%s (%s): %d partition proof(s), %s, and %s in %s (%.3fs)\n", cfg.Name, stacked.SizeLabel(cfg.SectorSize),
		len(parts), humanBytes(uint64(total)), updateCommitmentsFile, dir, out.Seconds)
	return nil
}
