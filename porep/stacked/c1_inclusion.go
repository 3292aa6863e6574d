// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
)

// ValidateInclusionProofs recomputes every Merkle inclusion proof of the C1
// output from its leaf and path and compares the result with the proof's
// root (which Validate has already tied to comm_d, comm_c or comm_r_last),
// and checks that the leaf of every column proof is the Poseidon hash of the
// column's rows (column.rs Column::hash). These are the checks the circuit
// enforces on the Merkle paths; a corrupted vanilla proof would otherwise
// only show up as a proof that does not verify, after synthesis and proving.
//
// Errors are *ParseError values naming the JSON path of the first bad proof
// (lowest partition, challenge, then field order). Call it after Validate.
// It costs about 15 column hashes and 16 inclusion paths per challenge
// (≈ 240 Poseidon and 30 SHA-256 compressions), run across partitions in
// parallel: milliseconds to about a second, far below synthesis (measured:
// docs/BENCHMARKS.md, "Figures cited by code comments"). It does not recompute labels or the encoding (the
// circuit checks those too; porep/seal.VerifyC1 does the full vanilla check).
func (c *C1Output) ValidateInclusionProofs(cfg *SectorConfig) error {
	vp := "vanilla_proofs." + c.VanillaTag
	errs := make([]error, len(c.VanillaProofs))
	workers := min(runtime.GOMAXPROCS(0), len(c.VanillaProofs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				for i := range c.VanillaProofs[k] {
					p := fmt.Sprintf("%s[%d][%d]", vp, k, i)
					if err := checkVanillaInclusion(&c.VanillaProofs[k][i], p); err != nil {
						errs[k] = err
						break
					}
				}
			}
		}()
	}
	for k := range c.VanillaProofs {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkVanillaInclusion checks the comm_d proof, the comm_r_last proof and
// the 15 column proofs of one challenge; p is its JSON path.
func checkVanillaInclusion(v *VanillaProof, p string) error {
	if err := checkRoot(&v.CommDProofs, p+".comm_d_proofs", true); err != nil {
		return err
	}
	if err := checkRoot(&v.CommRLastProof, p+".comm_r_last_proof", false); err != nil {
		return err
	}
	rc := &v.ReplicaColumnProofs
	rp := p + ".replica_column_proofs"
	if err := checkColumnProof(&rc.CX, rp+".c_x"); err != nil {
		return err
	}
	for j := range rc.DRGParents {
		if err := checkColumnProof(&rc.DRGParents[j], fmt.Sprintf("%s.drg_parents[%d]", rp, j)); err != nil {
			return err
		}
	}
	for j := range rc.ExpParents {
		if err := checkColumnProof(&rc.ExpParents[j], fmt.Sprintf("%s.exp_parents[%d]", rp, j)); err != nil {
			return err
		}
	}
	return nil
}

// checkRoot recomputes m's root (SHA-256 or Poseidon) and compares it with
// the root it carries; p is the proof's JSON path.
func checkRoot(m *MerkleProof, p string, sha bool) error {
	var got Domain
	var err error
	if sha {
		got, err = m.RootSha256()
	} else {
		got, err = m.RootPoseidon()
	}
	lp := p + ".data." + m.Kind.String()
	if err != nil {
		return semErr(lp, "%v", err)
	}
	if got != m.Root {
		return semErr(lp+".leaf", "leaf and path hash to %x, not to the root %x: corrupted leaf or path (little-endian bytes)", got[:], m.Root[:])
	}
	return nil
}

// checkColumnProof checks that the column proof's leaf is the Poseidon hash
// of the column rows and that its path leads to its root.
func checkColumnProof(cp *ColumnProof, p string) error {
	var buf [16]fr.Element
	rows := cp.Column.Rows
	if len(rows) > len(buf) {
		return semErr(p+".column.rows", "%d rows, at most %d supported", len(rows), len(buf))
	}
	for r := range rows {
		var err error
		if buf[r], err = FrFromBytes((*[32]byte)(&rows[r])); err != nil {
			return semErr(fmt.Sprintf("%s.column.rows[%d]", p, r), "%v", err)
		}
	}
	h := poseidon.Hash(buf[:len(rows)])
	ip := p + ".inclusion_proof"
	if FrToBytes(&h) != [32]byte(cp.InclusionProof.Leaf) {
		return semErr(ip+".data."+cp.InclusionProof.Kind.String()+".leaf", "is not the Poseidon hash of column.rows (%x): corrupted leaf or rows", FrToBytes(&h))
	}
	return checkRoot(&cp.InclusionProof, ip, false)
}
