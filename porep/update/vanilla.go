// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"encoding/binary"
	"fmt"

	"github.com/cuseal/cuseal/porep/stacked"
)

// ChallengeProof is vanilla.rs ChallengeProof<TreeR>: the challenged node's
// inclusion proofs in the old replica's TreeR, the new data's TreeD (binary
// SHA-256, full path to comm_d_new) and the new replica's TreeR.
type ChallengeProof struct {
	ProofROld, ProofDNew, ProofRNew stacked.MerkleProof
}

// PartitionProof is vanilla.rs PartitionProof<TreeR>: comm_c, the
// partition's ApexLeafCount apex leaves (TreeD nodes, in row order) and one
// ChallengeProof per challenge, in derivation order. It is one element of
// the [][]byte filecoin-ffi's GenerateUpdateVanillaProofs returns, decoded
// (ParsePartitionProof); Bytes encodes it back.
type PartitionProof struct {
	CommC           stacked.Domain
	ApexLeafs       []stacked.Domain
	ChallengeProofs []ChallengeProof
}

// vanillaErr is a defect of the partition proof bytes: the field (a path
// such as challenge_proofs[3].proof_d_new.path[1].index) and the byte offset
// where it starts.
func vanillaErr(field string, off int, format string, args ...any) error {
	return fmt.Errorf("update vanilla proof: %s at byte %d: %s", field, off, fmt.Sprintf(format, args...))
}

// reader is a bincode 1.x (default options) cursor.
type reader struct {
	b   []byte
	off int
}

func (r *reader) take(field string, n int) ([]byte, error) {
	if len(r.b)-r.off < n {
		return nil, vanillaErr(field, r.off, "truncated: %d bytes left, need %d", len(r.b)-r.off, n)
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s, nil
}

// length reads a u64 sequence length and checks it equals want.
func (r *reader) length(field string, want int) error {
	off := r.off
	s, err := r.take(field, 8)
	if err != nil {
		return err
	}
	if n := binary.LittleEndian.Uint64(s); n != uint64(want) {
		return vanillaErr(field, off, "%d elements, want %d", n, want)
	}
	return nil
}

// domain reads 32 bytes that must be a canonical field element (the
// circuit's Fr conversions fail on any other).
func (r *reader) domain(field string, d *stacked.Domain) error {
	off := r.off
	s, err := r.take(field, 32)
	if err != nil {
		return err
	}
	copy(d[:], s)
	if !stacked.IsCanonical((*[32]byte)(d)) {
		return vanillaErr(field, off, "%x is not a canonical field element", d[:])
	}
	return nil
}

// inclusionPath reads an InclusionPath of the given arities (leaf side
// first): per element the arity−1 siblings and the index < arity.
func (r *reader) inclusionPath(field string, arities []int) ([]stacked.PathElement, error) {
	if err := r.length(field+".len", len(arities)); err != nil {
		return nil, err
	}
	out := make([]stacked.PathElement, len(arities))
	for i, a := range arities {
		name := fmt.Sprintf("%s[%d]", field, i)
		if err := r.length(name+".hashes.len", a-1); err != nil {
			return nil, err
		}
		out[i].Hashes = make([]stacked.Domain, a-1)
		for j := range out[i].Hashes {
			if err := r.domain(fmt.Sprintf("%s.hashes[%d]", name, j), &out[i].Hashes[j]); err != nil {
				return nil, err
			}
		}
		off := r.off
		s, err := r.take(name+".index", 8)
		if err != nil {
			return nil, err
		}
		if out[i].Index = binary.LittleEndian.Uint64(s); out[i].Index >= uint64(a) {
			return nil, vanillaErr(name+".index", off, "%d, want < %d (arity)", out[i].Index, a)
		}
	}
	return out, nil
}

// treeShape is what a MerkleProof must look like: its variant and the
// arities of its base, sub and top paths.
type treeShape struct {
	kind           stacked.ProofKind
	base, sub, top []int
	name           string
}

func (c *Config) treeRShape() treeShape {
	s := treeShape{kind: c.ProofKind(), name: "TreeR " + c.Shape.String()}
	for i := 0; i < c.BasePathLen; i++ {
		s.base = append(s.base, c.Shape.Base)
	}
	if c.Shape.Sub > 0 {
		s.sub = []int{c.Shape.Sub}
	}
	if c.Shape.Top > 0 {
		s.top = []int{c.Shape.Top}
	}
	return s
}

func (c *Config) treeDShape() treeShape {
	s := treeShape{kind: stacked.ProofSingle, name: "TreeD (binary SHA-256)"}
	for i := 0; i < c.ChallengeBitLen; i++ {
		s.base = append(s.base, 2)
	}
	return s
}

// merkleProof reads one MerkleProof{data: ProofData} of shape s.
func (r *reader) merkleProof(field string, s *treeShape, size uint64, p *stacked.MerkleProof) error {
	off := r.off
	b, err := r.take(field+".variant", 4)
	if err != nil {
		return err
	}
	if tag := binary.LittleEndian.Uint32(b); tag != uint32(s.kind) {
		return vanillaErr(field+".variant", off, "tag %d (%s), want %d (%s) for %s of %s",
			tag, stacked.ProofKind(tag), int(s.kind), s.kind, s.name, stacked.SizeLabel(size))
	}
	p.Kind = s.kind
	rootLeaf := func() error {
		if err := r.domain(field+".root", &p.Root); err != nil {
			return err
		}
		return r.domain(field+".leaf", &p.Leaf)
	}
	if s.kind == stacked.ProofSingle {
		if err := rootLeaf(); err != nil {
			return err
		}
		p.Base, err = r.inclusionPath(field+".path", s.base)
		return err
	}
	if p.Base, err = r.inclusionPath(field+".base_proof", s.base); err != nil {
		return err
	}
	if p.Sub, err = r.inclusionPath(field+".sub_proof", s.sub); err != nil {
		return err
	}
	if s.kind == stacked.ProofTop {
		if p.Top, err = r.inclusionPath(field+".top_proof", s.top); err != nil {
			return err
		}
	}
	return rootLeaf()
}

// ParsePartitionProof decodes one partition proof — bincode 1.x of
// PartitionProof<TreeR>, one element of filecoin-ffi's
// GenerateUpdateVanillaProofs result (update-circuit.md §3) — and checks it
// has the exact shape cfg implies: cfg.ApexLeafCount apex leaves,
// cfg.ChallengeCount challenge proofs, TreeR proofs of the shape's variant
// and levels, TreeD proofs of ChallengeBitLen binary levels, every index <
// arity, every 32-byte value a canonical field element, no trailing bytes.
// An error names the field and its byte offset. It checks neither the
// Merkle paths nor the challenges.
func ParsePartitionProof(data []byte, cfg *Config) (*PartitionProof, error) {
	r := &reader{b: data}
	p := &PartitionProof{}
	if err := r.domain("comm_c", &p.CommC); err != nil {
		return nil, err
	}
	if err := r.length("apex_leafs.len", cfg.ApexLeafCount); err != nil {
		return nil, err
	}
	p.ApexLeafs = make([]stacked.Domain, cfg.ApexLeafCount)
	for i := range p.ApexLeafs {
		if err := r.domain(fmt.Sprintf("apex_leafs[%d]", i), &p.ApexLeafs[i]); err != nil {
			return nil, err
		}
	}
	if err := r.length("challenge_proofs.len", cfg.ChallengeCount); err != nil {
		return nil, err
	}
	rs, ds := cfg.treeRShape(), cfg.treeDShape()
	p.ChallengeProofs = make([]ChallengeProof, cfg.ChallengeCount)
	for i := range p.ChallengeProofs {
		cp := &p.ChallengeProofs[i]
		name := fmt.Sprintf("challenge_proofs[%d]", i)
		for _, f := range []struct {
			field string
			s     *treeShape
			p     *stacked.MerkleProof
		}{{".proof_r_old", &rs, &cp.ProofROld}, {".proof_d_new", &ds, &cp.ProofDNew}, {".proof_r_new", &rs, &cp.ProofRNew}} {
			if err := r.merkleProof(name+f.field, f.s, cfg.SectorSize, f.p); err != nil {
				return nil, err
			}
		}
	}
	if r.off != len(data) {
		return nil, vanillaErr("end", r.off, "%d trailing bytes", len(data)-r.off)
	}
	return p, nil
}

// PartitionProofSize is the encoded size of one partition proof of cfg
// (update-circuit.md §3.2: 15,064 bytes at 2 KiB).
func PartitionProofSize(cfg *Config) int {
	proofSize := func(s treeShape) int {
		path := func(a []int) int {
			n := 8
			for _, x := range a {
				n += 8 + 32*(x-1) + 8
			}
			return n
		}
		n := 4 + 64 + path(s.base)
		if s.kind != stacked.ProofSingle {
			n += path(s.sub)
		}
		if s.kind == stacked.ProofTop {
			n += path(s.top)
		}
		return n
	}
	return 32 + 8 + 32*cfg.ApexLeafCount + 8 + cfg.ChallengeCount*(2*proofSize(cfg.treeRShape())+proofSize(cfg.treeDShape()))
}

// appendMerkleProof encodes a MerkleProof as bincode.
func appendMerkleProof(out []byte, p *stacked.MerkleProof) []byte {
	path := func(elems []stacked.PathElement) {
		out = binary.LittleEndian.AppendUint64(out, uint64(len(elems)))
		for _, e := range elems {
			out = binary.LittleEndian.AppendUint64(out, uint64(len(e.Hashes)))
			for _, h := range e.Hashes {
				out = append(out, h[:]...)
			}
			out = binary.LittleEndian.AppendUint64(out, e.Index)
		}
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(p.Kind))
	if p.Kind == stacked.ProofSingle {
		out = append(out, p.Root[:]...)
		out = append(out, p.Leaf[:]...)
		path(p.Base)
		return out
	}
	path(p.Base)
	path(p.Sub)
	if p.Kind == stacked.ProofTop {
		path(p.Top)
	}
	out = append(out, p.Root[:]...)
	return append(out, p.Leaf[:]...)
}

// Bytes encodes p as bincode 1.x of PartitionProof<TreeR>, the inverse of
// ParsePartitionProof (one element of GenerateUpdateVanillaProofs' result).
func (p *PartitionProof) Bytes() []byte {
	out := append([]byte(nil), p.CommC[:]...)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(p.ApexLeafs)))
	for _, l := range p.ApexLeafs {
		out = append(out, l[:]...)
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(len(p.ChallengeProofs)))
	for i := range p.ChallengeProofs {
		cp := &p.ChallengeProofs[i]
		out = appendMerkleProof(out, &cp.ProofROld)
		out = appendMerkleProof(out, &cp.ProofDNew)
		out = appendMerkleProof(out, &cp.ProofRNew)
	}
	return out
}
