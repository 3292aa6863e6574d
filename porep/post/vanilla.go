// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"encoding/binary"
	"fmt"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// SectorProof is storage-proofs-post fallback/vanilla.rs SectorProof: one
// tree R inclusion proof per challenge (root = comm_r_last, leaf = the
// challenged replica node), comm_c and comm_r_last.
type SectorProof struct {
	InclusionProofs  []stacked.MerkleProof
	CommC, CommRLast stacked.Domain
}

// VanillaProof is filecoin-proofs FallbackPoStSectorProof: the bytes
// filecoin-ffi's GenerateSingleVanillaProof returns, decoded. Sectors holds
// the fallback::Proof's sector proofs (exactly one from
// generate_single_vanilla_proof).
type VanillaProof struct {
	SectorID abi.SectorNumber
	CommR    stacked.Domain
	Sectors  []SectorProof
}

// vanillaErr is a defect of the vanilla proof bytes: the field (a path such
// as sector_proofs[0].inclusion_proofs[3].path[1].index) and the byte offset
// where it starts.
func vanillaErr(field string, off int, format string, args ...any) error {
	return fmt.Errorf("vanilla proof: %s at byte %d: %s", field, off, fmt.Sprintf(format, args...))
}

// vanillaReader is a bincode 1.x (legacy options) cursor over the bytes.
type vanillaReader struct {
	b   []byte
	off int
}

func (r *vanillaReader) need(field string, n int) error {
	if len(r.b)-r.off < n {
		return vanillaErr(field, r.off, "truncated: %d bytes left, need %d", len(r.b)-r.off, n)
	}
	return nil
}

func (r *vanillaReader) u64(field string) (uint64, error) {
	if err := r.need(field, 8); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v, nil
}

func (r *vanillaReader) u32(field string) (uint32, error) {
	if err := r.need(field, 4); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

// count reads a sequence length and checks it equals want.
func (r *vanillaReader) count(field string, want int) error {
	off := r.off
	n, err := r.u64(field)
	if err != nil {
		return err
	}
	if n != uint64(want) {
		return vanillaErr(field, off, "%d elements, want %d", n, want)
	}
	return nil
}

// domain reads a 32-byte PoseidonDomain and checks it is a canonical field
// element (the circuit's From<PoseidonDomain> for Fr would panic on it).
func (r *vanillaReader) domain(field string, d *stacked.Domain) error {
	if err := r.need(field, 32); err != nil {
		return err
	}
	copy(d[:], r.b[r.off:r.off+32])
	if !stacked.IsCanonical((*[32]byte)(d)) {
		return vanillaErr(field, r.off, "%x is not a canonical field element", d[:])
	}
	r.off += 32
	return nil
}

// path reads an InclusionPath of levels elements of the given arity.
func (r *vanillaReader) path(field string, levels, arity int) ([]stacked.PathElement, error) {
	if err := r.count(field+".len", levels); err != nil {
		return nil, err
	}
	out := make([]stacked.PathElement, levels)
	for i := range out {
		name := fmt.Sprintf("%s[%d]", field, i)
		if err := r.count(name+".hashes.len", arity-1); err != nil {
			return nil, err
		}
		out[i].Hashes = make([]stacked.Domain, arity-1)
		for j := range out[i].Hashes {
			if err := r.domain(fmt.Sprintf("%s.hashes[%d]", name, j), &out[i].Hashes[j]); err != nil {
				return nil, err
			}
		}
		off := r.off
		idx, err := r.u64(name + ".index")
		if err != nil {
			return nil, err
		}
		if idx >= uint64(arity) {
			return nil, vanillaErr(name+".index", off, "%d, want < %d (arity)", idx, arity)
		}
		out[i].Index = idx
	}
	return out, nil
}

// merkleProof reads one MerkleProof{data: ProofData} of cfg's tree shape.
func (r *vanillaReader) merkleProof(field string, cfg *Config, p *stacked.MerkleProof) error {
	off := r.off
	tag, err := r.u32(field + ".variant")
	if err != nil {
		return err
	}
	want := cfg.ProofKind()
	if tag != uint32(want) {
		return vanillaErr(field+".variant", off, "tag %d (%s), want %d (%s) for tree %s of %s",
			tag, stacked.ProofKind(tag), int(want), want, cfg.Shape, stacked.SizeLabel(cfg.SectorSize))
	}
	p.Kind = want
	if want == stacked.ProofSingle {
		if err := r.domain(field+".root", &p.Root); err != nil {
			return err
		}
		if err := r.domain(field+".leaf", &p.Leaf); err != nil {
			return err
		}
		p.Base, err = r.path(field+".path", cfg.BasePathLen, cfg.Shape.Base)
		return err
	}
	if p.Base, err = r.path(field+".base_path", cfg.BasePathLen, cfg.Shape.Base); err != nil {
		return err
	}
	if p.Sub, err = r.path(field+".sub_path", 1, cfg.Shape.Sub); err != nil {
		return err
	}
	if want == stacked.ProofTop {
		if p.Top, err = r.path(field+".top_path", 1, cfg.Shape.Top); err != nil {
			return err
		}
	}
	if err := r.domain(field+".root", &p.Root); err != nil {
		return err
	}
	return r.domain(field+".leaf", &p.Leaf)
}

// ParseVanillaProof decodes one vanilla proof — bincode 1.x of
// FallbackPoStSectorProof<Tree> as filecoin-proofs-api
// generate_single_vanilla_proof serializes it (post-circuit.md §8) — and
// checks it has the exact shape cfg implies: one sector proof of
// cfg.ChallengeCount inclusion proofs, each of the tree's variant
// (Single/Sub/Top), BasePathLen base levels of arity-1 siblings and index <
// arity, every 32-byte value a canonical field element, no trailing bytes.
// An error names the field and its byte offset. It does not check the
// Merkle paths or the challenges (CheckVanillaProof does).
func ParseVanillaProof(data []byte, cfg *Config) (*VanillaProof, error) {
	r := &vanillaReader{b: data}
	v := &VanillaProof{}
	id, err := r.u64("sector_id")
	if err != nil {
		return nil, err
	}
	v.SectorID = abi.SectorNumber(id)
	if err := r.domain("comm_r", &v.CommR); err != nil {
		return nil, err
	}
	// generate_single_vanilla_proof always writes one sector proof.
	if err := r.count("sector_proofs.len", 1); err != nil {
		return nil, err
	}
	v.Sectors = make([]SectorProof, 1)
	for s := range v.Sectors {
		sp := &v.Sectors[s]
		name := fmt.Sprintf("sector_proofs[%d]", s)
		if err := r.count(name+".inclusion_proofs.len", cfg.ChallengeCount); err != nil {
			return nil, err
		}
		sp.InclusionProofs = make([]stacked.MerkleProof, cfg.ChallengeCount)
		for i := range sp.InclusionProofs {
			if err := r.merkleProof(fmt.Sprintf("%s.inclusion_proofs[%d]", name, i), cfg, &sp.InclusionProofs[i]); err != nil {
				return nil, err
			}
		}
		if err := r.domain(name+".comm_c", &sp.CommC); err != nil {
			return nil, err
		}
		if err := r.domain(name+".comm_r_last", &sp.CommRLast); err != nil {
			return nil, err
		}
	}
	if r.off != len(data) {
		return nil, vanillaErr("end", r.off, "%d trailing bytes", len(data)-r.off)
	}
	return v, nil
}

// VanillaProofSize is the encoded size of one vanilla proof of cfg.
func VanillaProofSize(cfg *Config) int {
	pathSize := func(levels, arity int) int { return 8 + levels*(8+32*(arity-1)+8) }
	incl := 4 + 64 + pathSize(cfg.BasePathLen, cfg.Shape.Base)
	if cfg.Shape.Sub > 0 {
		incl += pathSize(1, cfg.Shape.Sub)
	}
	if cfg.Shape.Top > 0 {
		incl += pathSize(1, cfg.Shape.Top)
	}
	return 8 + 32 + 8 + 8 + cfg.ChallengeCount*incl + 64
}

// Bytes encodes v as bincode 1.x of FallbackPoStSectorProof, the inverse of
// ParseVanillaProof (GenerateSingleVanillaProof's bytes).
func (v *VanillaProof) Bytes() []byte {
	var out []byte
	u64 := func(x uint64) { out = binary.LittleEndian.AppendUint64(out, x) }
	path := func(p []stacked.PathElement) {
		u64(uint64(len(p)))
		for _, e := range p {
			u64(uint64(len(e.Hashes)))
			for _, h := range e.Hashes {
				out = append(out, h[:]...)
			}
			u64(e.Index)
		}
	}
	u64(uint64(v.SectorID))
	out = append(out, v.CommR[:]...)
	u64(uint64(len(v.Sectors)))
	for _, sp := range v.Sectors {
		u64(uint64(len(sp.InclusionProofs)))
		for i := range sp.InclusionProofs {
			p := &sp.InclusionProofs[i]
			out = binary.LittleEndian.AppendUint32(out, uint32(p.Kind))
			if p.Kind == stacked.ProofSingle {
				out = append(out, p.Root[:]...)
				out = append(out, p.Leaf[:]...)
				path(p.Base)
				continue
			}
			path(p.Base)
			path(p.Sub)
			if p.Kind == stacked.ProofTop {
				path(p.Top)
			}
			out = append(out, p.Root[:]...)
			out = append(out, p.Leaf[:]...)
		}
		out = append(out, sp.CommC[:]...)
		out = append(out, sp.CommRLast[:]...)
	}
	return out
}
