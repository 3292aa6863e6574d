// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// C1 output types: serde_json of rust-filecoin-proofs-api seal.rs
// SealCommitPhase1Output and its vanilla proofs (storage-proofs-porep
// stacked/vanilla/{params.rs,column.rs,column_proof.rs,labeling_proof.rs,
// encoding_proof.rs}, storage-proofs-core merkle/proof.rs). Field order and
// names follow the Rust declarations; Marshal writes serde_json's compact form.
// Checked once with serde_json 1.0.154 on Rust types mirroring those derives
// (PhantomData `_h` as null, externally tagged enums, skipped `_arity`/`_h`):
// serde decodes the testdata fixtures and re-encodes them byte for byte.

// ProofKind is the ProofData variant of a MerkleProof.
type ProofKind int

const (
	ProofSingle ProofKind = iota // "Single": {root, leaf, path}
	ProofSub                     // "Sub": {base_proof, sub_proof, root, leaf}
	ProofTop                     // "Top": {base_proof, sub_proof, top_proof, root, leaf}
)

func (k ProofKind) String() string {
	switch k {
	case ProofSingle:
		return "Single"
	case ProofSub:
		return "Sub"
	case ProofTop:
		return "Top"
	}
	return "ProofKind(" + strconv.Itoa(int(k)) + ")"
}

// PathElement is one level of an inclusion path: the arity−1 sibling hashes
// in stored order and the position (0..arity−1) of the current node.
type PathElement struct {
	Hashes []Domain
	Index  uint64
}

// MerkleProof is storage-proofs-core MerkleProof. Base holds the base-tree
// path (the only path of a Single proof), Sub and Top hold one element each
// for Sub / Top proofs.
type MerkleProof struct {
	Kind       ProofKind
	Root, Leaf Domain
	Base       []PathElement
	Sub        []PathElement
	Top        []PathElement
}

// Path returns the path elements base-first, then sub, then top (the order of
// MerkleProofTrait::path / as_options, leaf to root).
func (p *MerkleProof) Path() []PathElement {
	out := make([]PathElement, 0, len(p.Base)+len(p.Sub)+len(p.Top))
	out = append(out, p.Base...)
	out = append(out, p.Sub...)
	return append(out, p.Top...)
}

// PathIndex returns the leaf index the path proves, given the arities of the
// base, sub and top levels (path_index of Single/Sub/TopProof).
func (p *MerkleProof) PathIndex(base, sub, top int) uint64 {
	var idx, mul uint64 = 0, 1
	for _, e := range p.Base {
		idx += e.Index * mul
		mul *= uint64(base)
	}
	for _, e := range p.Sub {
		idx += e.Index * mul
		mul *= uint64(sub)
	}
	for _, e := range p.Top {
		idx += e.Index * mul
		mul *= uint64(top)
	}
	return idx
}

// Column is stacked/vanilla/column.rs Column: the labels of one node in layer
// order 1..L. Its PhantomData `_h` is written as null.
type Column struct {
	Index uint32
	Rows  []Domain
}

// ColumnProof is a column with its inclusion proof in tree C.
type ColumnProof struct {
	Column         Column
	InclusionProof MerkleProof
}

// ReplicaColumnProof holds the column proofs of the challenge (CX), of its 6
// DRG parents and of its 8 expander parents, in graph order.
type ReplicaColumnProof struct {
	CX         ColumnProof
	DRGParents []ColumnProof
	ExpParents []ColumnProof
}

// LabelingProof (and EncodingProof, same shape) carry the 37 parent labels,
// the 1-based layer index and the node.
type LabelingProof struct {
	Parents    []Domain
	LayerIndex uint32
	Node       uint64
}

// EncodingProof has the same fields as LabelingProof (layer = L).
type EncodingProof = LabelingProof

// VanillaProof is stacked/vanilla/params.rs Proof<Tree, Sha256Hasher>: one
// challenge.
type VanillaProof struct {
	CommDProofs         MerkleProof
	CommRLastProof      MerkleProof
	ReplicaColumnProofs ReplicaColumnProof
	LabelingProofs      []LabelingProof
	EncodingProof       EncodingProof
}

// Challenge returns the challenged node (labeling_proofs[0].node, or the c_x
// column index when there are no labeling proofs).
func (v *VanillaProof) Challenge() uint64 {
	if len(v.LabelingProofs) > 0 {
		return v.LabelingProofs[0].Node
	}
	return uint64(v.ReplicaColumnProofs.CX.Column.Index)
}

// C1Output is SealCommitPhase1Output.
type C1Output struct {
	// RegisteredProof is the registered_proof variant name.
	RegisteredProof string
	// VanillaTag is the VanillaSealProof variant ("StackedDrg2KiBV1" …).
	VanillaTag string
	// Bare marks C1 read in filecoin-proofs' own format (no
	// registered_proof, untagged vanilla_proofs). ParseC1ForConfig fills
	// RegisteredProof and VanillaTag from a test configuration then.
	Bare bool
	// VanillaProofs[k][i] is challenge i of partition k.
	VanillaProofs [][]VanillaProof
	CommR         Domain
	CommD         Domain
	ReplicaID     Domain
	Seed          Domain
	Ticket        Domain
	// SyntheticInvalid marks C1 data made for benchmarks (porep/synthetic):
	// correctly shaped, cryptographically invalid. It is written as the extra
	// top-level field "cuseal_synthetic_invalid": true, which serde (no
	// deny_unknown_fields) ignores. The marker is the one piece of benchmark
	// scaffolding in the product parser, and it must stay here: a synthetic
	// C1 must never become a proof, and the parser is what every prover
	// entry reads a C1 through.
	SyntheticInvalid bool
}

// SyntheticMarkerField is the JSON field that marks synthetic (invalid) C1.
const SyntheticMarkerField = "cuseal_synthetic_invalid"

// ErrSyntheticC1 is the error of a prover entry given C1 data marked
// SyntheticInvalid: it has the right shape but random values, so no valid
// proof exists for it.
var ErrSyntheticC1 = errors.New("C1 output is synthetic (" + SyntheticMarkerField + "), it cannot be proven")

// CommC returns comm_c (root of vanilla_proofs[0][0].c_x's inclusion proof).
func (c *C1Output) CommC() Domain {
	return c.VanillaProofs[0][0].ReplicaColumnProofs.CX.InclusionProof.Root
}

// CommRLast returns comm_r_last (root of vanilla_proofs[0][0].comm_r_last_proof).
func (c *C1Output) CommRLast() Domain { return c.VanillaProofs[0][0].CommRLastProof.Root }

// Marshal writes the C1 output as serde_json::to_vec does (compact, fields
// in declaration order, 32-byte values as arrays of numbers).
func (c *C1Output) Marshal() []byte {
	w := make([]byte, 0, 1<<16)
	w = append(w, `{"registered_proof":`...)
	w = strconv.AppendQuote(w, c.RegisteredProof)
	w = append(w, `,"vanilla_proofs":{`...)
	w = strconv.AppendQuote(w, c.VanillaTag)
	w = append(w, ":["...)
	for k, part := range c.VanillaProofs {
		if k > 0 {
			w = append(w, ',')
		}
		w = append(w, '[')
		for i := range part {
			if i > 0 {
				w = append(w, ',')
			}
			w = appendVanilla(w, &part[i])
		}
		w = append(w, ']')
	}
	w = append(w, "]}"...)
	w = appendField(w, "comm_r", &c.CommR)
	w = appendField(w, "comm_d", &c.CommD)
	w = appendField(w, "replica_id", &c.ReplicaID)
	w = appendField(w, "seed", &c.Seed)
	w = appendField(w, "ticket", &c.Ticket)
	if c.SyntheticInvalid {
		w = append(w, `,"`+SyntheticMarkerField+`":true`...)
	}
	return append(w, '}')
}

func appendField(w []byte, name string, d *Domain) []byte {
	w = append(w, ',', '"')
	w = append(w, name...)
	w = append(w, '"', ':')
	return appendDomain(w, d)
}

func appendDomain(w []byte, d *Domain) []byte {
	w = append(w, '[')
	for i, b := range d {
		if i > 0 {
			w = append(w, ',')
		}
		w = strconv.AppendUint(w, uint64(b), 10)
	}
	return append(w, ']')
}

func appendDomains(w []byte, ds []Domain) []byte {
	w = append(w, '[')
	for i := range ds {
		if i > 0 {
			w = append(w, ',')
		}
		w = appendDomain(w, &ds[i])
	}
	return append(w, ']')
}

func appendPath(w []byte, path []PathElement) []byte {
	w = append(w, `{"path":[`...)
	for i := range path {
		if i > 0 {
			w = append(w, ',')
		}
		w = append(w, `{"hashes":`...)
		w = appendDomains(w, path[i].Hashes)
		w = append(w, `,"index":`...)
		w = strconv.AppendUint(w, path[i].Index, 10)
		w = append(w, '}')
	}
	return append(w, "]}"...)
}

func appendMerkle(w []byte, p *MerkleProof) []byte {
	w = append(w, `{"data":{"`...)
	w = append(w, p.Kind.String()...)
	w = append(w, `":{`...)
	switch p.Kind {
	case ProofSingle:
		w = append(w, `"root":`...)
		w = appendDomain(w, &p.Root)
		w = append(w, `,"leaf":`...)
		w = appendDomain(w, &p.Leaf)
		w = append(w, `,"path":`...)
		w = appendPath(w, p.Base)
	default:
		w = append(w, `"base_proof":`...)
		w = appendPath(w, p.Base)
		w = append(w, `,"sub_proof":`...)
		w = appendPath(w, p.Sub)
		if p.Kind == ProofTop {
			w = append(w, `,"top_proof":`...)
			w = appendPath(w, p.Top)
		}
		w = append(w, `,"root":`...)
		w = appendDomain(w, &p.Root)
		w = append(w, `,"leaf":`...)
		w = appendDomain(w, &p.Leaf)
	}
	return append(w, "}}}"...)
}

func appendColumnProof(w []byte, c *ColumnProof) []byte {
	w = append(w, `{"column":{"index":`...)
	w = strconv.AppendUint(w, uint64(c.Column.Index), 10)
	w = append(w, `,"rows":`...)
	w = appendDomains(w, c.Column.Rows)
	w = append(w, `,"_h":null},"inclusion_proof":`...)
	w = appendMerkle(w, &c.InclusionProof)
	return append(w, '}')
}

func appendColumnProofs(w []byte, cs []ColumnProof) []byte {
	w = append(w, '[')
	for i := range cs {
		if i > 0 {
			w = append(w, ',')
		}
		w = appendColumnProof(w, &cs[i])
	}
	return append(w, ']')
}

func appendLabeling(w []byte, l *LabelingProof) []byte {
	w = append(w, `{"parents":`...)
	w = appendDomains(w, l.Parents)
	w = append(w, `,"layer_index":`...)
	w = strconv.AppendUint(w, uint64(l.LayerIndex), 10)
	w = append(w, `,"node":`...)
	w = strconv.AppendUint(w, l.Node, 10)
	return append(w, '}')
}

func appendVanilla(w []byte, v *VanillaProof) []byte {
	w = append(w, `{"comm_d_proofs":`...)
	w = appendMerkle(w, &v.CommDProofs)
	w = append(w, `,"comm_r_last_proof":`...)
	w = appendMerkle(w, &v.CommRLastProof)
	w = append(w, `,"replica_column_proofs":{"c_x":`...)
	w = appendColumnProof(w, &v.ReplicaColumnProofs.CX)
	w = append(w, `,"drg_parents":`...)
	w = appendColumnProofs(w, v.ReplicaColumnProofs.DRGParents)
	w = append(w, `,"exp_parents":`...)
	w = appendColumnProofs(w, v.ReplicaColumnProofs.ExpParents)
	w = append(w, `},"labeling_proofs":[`...)
	for i := range v.LabelingProofs {
		if i > 0 {
			w = append(w, ',')
		}
		w = appendLabeling(w, &v.LabelingProofs[i])
	}
	w = append(w, `],"encoding_proof":`...)
	w = appendLabeling(w, &v.EncodingProof)
	return append(w, '}')
}

// Commit2In is lotus-bench's `prove` input (cmd/lotus-bench/main.go):
// Phase1Out holds the C1 JSON bytes and is base64 in JSON.
type Commit2In struct {
	SectorNum  int64
	Phase1Out  []byte
	SectorSize uint64
}

// MarshalCommit2In wraps C1 JSON bytes in lotus-bench's Commit2In JSON.
func MarshalCommit2In(sectorNum int64, sectorSize uint64, c1 []byte) []byte {
	b, _ := json.Marshal(Commit2In{SectorNum: sectorNum, Phase1Out: c1, SectorSize: sectorSize})
	return b
}

// utf8BOM is the UTF-8 encoding of U+FEFF.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// UnwrapC1Input returns the C1 JSON bytes of data, which is either the C1
// JSON itself or a lotus-bench Commit2In wrapper (recognised by its
// "Phase1Out" field). For a wrapper it also returns the wrapper.
//
// A leading UTF-8 byte order mark (which some Windows editors write) is
// skipped. A wrapper's SectorNum must not be negative.
func UnwrapC1Input(data []byte) ([]byte, *Commit2In, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	// Cheap probe: a C1 output starts with "registered_proof" (serde order).
	r := &jreader{data: data}
	if r.peek() == '{' {
		r.pos++
		if k, err := r.str(nil); err == nil && k == "registered_proof" {
			return data, nil, nil
		}
	}
	var probe struct {
		Phase1Out *string `json:"Phase1Out"`
	}
	// A C1 output has no Phase1Out field; a failed probe means "not a wrapper".
	if err := json.Unmarshal(data, &probe); err != nil || probe.Phase1Out == nil {
		return data, nil, nil
	}
	var in struct {
		SectorNum  int64
		Phase1Out  string
		SectorSize uint64
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, nil, fmt.Errorf("commit2 input: %w", err)
	}
	if in.SectorNum < 0 {
		return nil, nil, fmt.Errorf("commit2 input: SectorNum %d: a sector number is not negative", in.SectorNum)
	}
	raw, err := base64.StdEncoding.DecodeString(in.Phase1Out)
	if err != nil {
		return nil, nil, fmt.Errorf("commit2 input: Phase1Out is not base64: %w", err)
	}
	raw = bytes.TrimPrefix(raw, utf8BOM)
	return raw, &Commit2In{SectorNum: in.SectorNum, Phase1Out: raw, SectorSize: in.SectorSize}, nil
}
