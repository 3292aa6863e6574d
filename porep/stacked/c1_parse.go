// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A small schema-driven JSON reader for C1: one pass, no reflection, every
// error names the JSON path and byte offset. Like serde (without
// deny_unknown_fields) it skips unknown object keys; it rejects duplicate and
// missing fields as serde does.

// jpath is a lazily formatted JSON path: a key (key != "") or an array index.
type jpath struct {
	parent *jpath
	key    string
	idx    int
}

func (p *jpath) String() string {
	if p == nil {
		return "$"
	}
	var parts []*jpath
	for q := p; q != nil; q = q.parent {
		parts = append(parts, q)
	}
	var sb strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		q := parts[i]
		if q.key != "" {
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(q.key)
		} else {
			fmt.Fprintf(&sb, "[%d]", q.idx)
		}
	}
	return sb.String()
}

func (p *jpath) k(key string) *jpath { return &jpath{parent: p, key: key} }
func (p *jpath) i(i int) *jpath      { return &jpath{parent: p, idx: i} }

// ParseError is returned for malformed C1 input. Path is the JSON path of the
// offending value (e.g. vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs),
// Offset its byte offset (−1 for semantic errors found after parsing).
type ParseError struct {
	Path   string
	Offset int
	Msg    string
}

func (e *ParseError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("c1: %s (byte %d): %s", e.Path, e.Offset, e.Msg)
	}
	return fmt.Sprintf("c1: %s: %s", e.Path, e.Msg)
}

type jreader struct {
	data  []byte
	pos   int
	depth int
}

const maxDepth = 64

func (r *jreader) fail(path *jpath, format string, args ...any) error {
	return &ParseError{Path: path.String(), Offset: r.pos, Msg: fmt.Sprintf(format, args...)}
}

func (r *jreader) ws() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *jreader) peek() byte {
	r.ws()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

func (r *jreader) expect(path *jpath, c byte, what string) error {
	if r.peek() != c {
		return r.fail(path, "expected %s, found %s", what, r.describe())
	}
	r.pos++
	return nil
}

func (r *jreader) describe() string {
	if r.pos >= len(r.data) {
		return "end of input"
	}
	c := r.data[r.pos]
	switch {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return strconv.Quote(string(c))
}

func (r *jreader) str(path *jpath) (string, error) {
	if r.peek() != '"' {
		return "", r.fail(path, "expected a string, found %s", r.describe())
	}
	start := r.pos
	r.pos++
	escaped := false
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '\\':
			escaped = true
			r.pos += 2
			continue
		case c == '"':
			r.pos++
			raw := r.data[start:r.pos]
			if !escaped {
				if !utf8.Valid(raw) {
					return "", r.fail(path, "invalid UTF-8 in string")
				}
				return string(raw[1 : len(raw)-1]), nil
			}
			s, err := strconv.Unquote(string(raw))
			if err != nil {
				return "", r.fail(path, "invalid string escape")
			}
			return s, nil
		case c < 0x20:
			return "", r.fail(path, "control character in string")
		}
		r.pos++
	}
	return "", r.fail(path, "unterminated string")
}

// uint reads a non-negative integer ≤ max.
func (r *jreader) uint(path *jpath, max uint64) (uint64, error) {
	v, msg, off := r.uintRaw(max)
	if msg != "" {
		return 0, &ParseError{Path: path.String(), Offset: off, Msg: msg}
	}
	return v, nil
}

// uintRaw is uint without a path: it returns an error message and offset.
func (r *jreader) uintRaw(max uint64) (uint64, string, int) {
	r.ws()
	start := r.pos
	var v uint64
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		d := uint64(r.data[r.pos] - '0')
		if v > (max-d)/10 {
			return 0, fmt.Sprintf("integer out of range (max %d)", max), start
		}
		v = v*10 + d
		r.pos++
	}
	if r.pos == start {
		return 0, "expected an unsigned integer, found " + r.describe(), start
	}
	if r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '.', 'e', 'E':
			return 0, "expected an unsigned integer, found a fractional number", start
		}
	}
	if r.data[start] == '0' && r.pos-start > 1 {
		return 0, "leading zero in number", start
	}
	return v, "", 0
}

func (r *jreader) literal(path *jpath, lit string) bool {
	r.ws()
	if strings.HasPrefix(string(r.data[r.pos:min(len(r.data), r.pos+len(lit))]), lit) {
		r.pos += len(lit)
		return true
	}
	return false
}

// object iterates the members of an object; fields lists the known keys
// (duplicates of those are rejected, others are skipped). With fields nil and
// fn non-nil, fn sees every key (enum variants).
func (r *jreader) object(path *jpath, fields []string, fn func(key string, kp *jpath) error) error {
	if err := r.expect(path, '{', "an object"); err != nil {
		return err
	}
	r.depth++
	if r.depth > maxDepth {
		return r.fail(path, "nesting too deep")
	}
	defer func() { r.depth-- }()
	var seen uint64
	if r.peek() == '}' {
		r.pos++
		return nil
	}
	for {
		key, err := r.str(path)
		if err != nil {
			return err
		}
		if err := r.expect(path.k(key), ':', "':'"); err != nil {
			return err
		}
		known := -1
		for i, f := range fields {
			if f == key {
				known = i
				break
			}
		}
		kp := path.k(key)
		if fields == nil && fn != nil {
			if err := fn(key, kp); err != nil {
				return err
			}
		} else if known >= 0 {
			if seen&(1<<known) != 0 {
				return r.fail(kp, "duplicate field %q", key)
			}
			seen |= 1 << known
			if err := fn(key, kp); err != nil {
				return err
			}
		} else if err := r.skip(kp); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.pos++
		case '}':
			r.pos++
			return nil
		default:
			return r.fail(path, "expected ',' or '}' in object, found %s", r.describe())
		}
	}
}

// array iterates the elements of an array.
func (r *jreader) array(path *jpath, fn func(i int, ip *jpath) error) error {
	if err := r.expect(path, '[', "an array"); err != nil {
		return err
	}
	r.depth++
	if r.depth > maxDepth {
		return r.fail(path, "nesting too deep")
	}
	defer func() { r.depth-- }()
	if r.peek() == ']' {
		r.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i, path.i(i)); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			return nil
		default:
			return r.fail(path, "expected ',' or ']' in array, found %s", r.describe())
		}
	}
}

// skip consumes any JSON value.
func (r *jreader) skip(path *jpath) error {
	switch c := r.peek(); {
	case c == '{':
		return r.object(path, nil, nil)
	case c == '[':
		return r.array(path, func(_ int, ip *jpath) error { return r.skip(ip) })
	case c == '"':
		_, err := r.str(path)
		return err
	case c == 't':
		if r.literal(path, "true") {
			return nil
		}
	case c == 'f':
		if r.literal(path, "false") {
			return nil
		}
	case c == 'n':
		if r.literal(path, "null") {
			return nil
		}
	case c == '-' || (c >= '0' && c <= '9'):
		start := r.pos
		for r.pos < len(r.data) && strings.IndexByte("+-0123456789.eE", r.data[r.pos]) >= 0 {
			r.pos++
		}
		if _, err := strconv.ParseFloat(string(r.data[start:r.pos]), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return &ParseError{Path: path.String(), Offset: start, Msg: "malformed number"}
		}
		return nil
	}
	return r.fail(path, "expected a JSON value, found %s", r.describe())
}

func (r *jreader) domain(path *jpath, d *Domain) error {
	// A tight loop instead of array(): 32 numbers per domain dominate C1, and
	// element paths are only built on error.
	if err := r.expect(path, '[', "an array"); err != nil {
		return err
	}
	for i := 0; ; i++ {
		if r.peek() == ']' && i == 0 {
			r.pos++
			return r.fail(path, "expected 32 bytes, found 0")
		}
		if i >= 32 {
			return r.fail(path, "more than 32 bytes")
		}
		v, msg, off := r.uintRaw(255)
		if msg != "" {
			return &ParseError{Path: path.i(i).String(), Offset: off, Msg: msg}
		}
		d[i] = byte(v)
		switch r.peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			if i != 31 {
				return r.fail(path, "expected 32 bytes, found %d", i+1)
			}
			return nil
		default:
			return r.fail(path, "expected ',' or ']' in array, found %s", r.describe())
		}
	}
}

func (r *jreader) domains(path *jpath, out *[]Domain) error {
	return r.array(path, func(i int, ip *jpath) error {
		*out = append(*out, Domain{})
		return r.domain(ip, &(*out)[i])
	})
}

func (r *jreader) required(path *jpath, have map[string]bool, fields ...string) error {
	for _, f := range fields {
		if !have[f] {
			return r.fail(path, "missing field %q", f)
		}
	}
	return nil
}

func (r *jreader) path(path *jpath, out *[]PathElement) error {
	have := map[string]bool{}
	err := r.object(path, []string{"path"}, func(key string, kp *jpath) error {
		have[key] = true
		return r.array(kp, func(i int, ip *jpath) error {
			*out = append(*out, PathElement{})
			e := &(*out)[i]
			h := map[string]bool{}
			err := r.object(ip, []string{"hashes", "index"}, func(key string, kp *jpath) error {
				h[key] = true
				if key == "hashes" {
					return r.domains(kp, &e.Hashes)
				}
				v, err := r.uint(kp, 1<<63-1)
				e.Index = v
				return err
			})
			if err != nil {
				return err
			}
			return r.required(ip, h, "hashes", "index")
		})
	})
	if err != nil {
		return err
	}
	return r.required(path, have, "path")
}

func (r *jreader) merkle(path *jpath, p *MerkleProof) error {
	have := map[string]bool{}
	err := r.object(path, []string{"data"}, func(_ string, dp *jpath) error {
		have["data"] = true
		variants := 0
		err := r.object(dp, []string{"Single", "Sub", "Top"}, func(variant string, vp *jpath) error {
			variants++
			fields := []string{"root", "leaf", "path"}
			switch variant {
			case "Sub":
				p.Kind = ProofSub
				fields = []string{"base_proof", "sub_proof", "root", "leaf"}
			case "Top":
				p.Kind = ProofTop
				fields = []string{"base_proof", "sub_proof", "top_proof", "root", "leaf"}
			default:
				p.Kind = ProofSingle
			}
			h := map[string]bool{}
			err := r.object(vp, fields, func(key string, kp *jpath) error {
				h[key] = true
				switch key {
				case "root":
					return r.domain(kp, &p.Root)
				case "leaf":
					return r.domain(kp, &p.Leaf)
				case "path", "base_proof":
					return r.path(kp, &p.Base)
				case "sub_proof":
					return r.path(kp, &p.Sub)
				default:
					return r.path(kp, &p.Top)
				}
			})
			if err != nil {
				return err
			}
			return r.required(vp, h, fields...)
		})
		if err != nil {
			return err
		}
		if variants != 1 {
			return r.fail(dp, "expected exactly one of Single, Sub, Top; found %d", variants)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return r.required(path, have, "data")
}

func (r *jreader) columnProof(path *jpath, c *ColumnProof) error {
	have := map[string]bool{}
	err := r.object(path, []string{"column", "inclusion_proof"}, func(key string, kp *jpath) error {
		have[key] = true
		if key == "inclusion_proof" {
			return r.merkle(kp, &c.InclusionProof)
		}
		h := map[string]bool{}
		err := r.object(kp, []string{"index", "rows", "_h"}, func(key string, fp *jpath) error {
			h[key] = true
			switch key {
			case "index":
				v, err := r.uint(fp, 1<<32-1)
				c.Column.Index = uint32(v)
				return err
			case "rows":
				return r.domains(fp, &c.Column.Rows)
			default: // PhantomData: serde writes null
				if !r.literal(fp, "null") {
					return r.fail(fp, "expected null, found %s", r.describe())
				}
				return nil
			}
		})
		if err != nil {
			return err
		}
		return r.required(kp, h, "index", "rows")
	})
	if err != nil {
		return err
	}
	return r.required(path, have, "column", "inclusion_proof")
}

func (r *jreader) columnProofs(path *jpath, out *[]ColumnProof) error {
	return r.array(path, func(i int, ip *jpath) error {
		*out = append(*out, ColumnProof{})
		return r.columnProof(ip, &(*out)[i])
	})
}

func (r *jreader) labeling(path *jpath, l *LabelingProof) error {
	h := map[string]bool{}
	err := r.object(path, []string{"parents", "layer_index", "node"}, func(key string, kp *jpath) error {
		h[key] = true
		switch key {
		case "parents":
			return r.domains(kp, &l.Parents)
		case "layer_index":
			v, err := r.uint(kp, 1<<32-1)
			l.LayerIndex = uint32(v)
			return err
		default:
			v, err := r.uint(kp, 1<<64-1)
			l.Node = v
			return err
		}
	})
	if err != nil {
		return err
	}
	return r.required(path, h, "parents", "layer_index", "node")
}

func (r *jreader) vanilla(path *jpath, v *VanillaProof) error {
	fields := []string{"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs", "encoding_proof"}
	have := map[string]bool{}
	err := r.object(path, fields, func(key string, kp *jpath) error {
		have[key] = true
		switch key {
		case "comm_d_proofs":
			return r.merkle(kp, &v.CommDProofs)
		case "comm_r_last_proof":
			return r.merkle(kp, &v.CommRLastProof)
		case "replica_column_proofs":
			h := map[string]bool{}
			rc := &v.ReplicaColumnProofs
			err := r.object(kp, []string{"c_x", "drg_parents", "exp_parents"}, func(key string, cp *jpath) error {
				h[key] = true
				switch key {
				case "c_x":
					return r.columnProof(cp, &rc.CX)
				case "drg_parents":
					return r.columnProofs(cp, &rc.DRGParents)
				default:
					return r.columnProofs(cp, &rc.ExpParents)
				}
			})
			if err != nil {
				return err
			}
			return r.required(kp, h, "c_x", "drg_parents", "exp_parents")
		case "labeling_proofs":
			return r.array(kp, func(i int, ip *jpath) error {
				v.LabelingProofs = append(v.LabelingProofs, LabelingProof{})
				return r.labeling(ip, &v.LabelingProofs[i])
			})
		default:
			return r.labeling(kp, &v.EncodingProof)
		}
	})
	if err != nil {
		return err
	}
	return r.required(path, have, fields...)
}

// DecodeC1 parses C1 JSON bytes into a C1Output without semantic checks
// (syntax, field names, 32-byte arrays, integer ranges only). Besides
// filecoin-proofs-api's SealCommitPhase1Output (what filecoin-ffi returns:
// registered_proof and a tagged vanilla_proofs) it reads filecoin-proofs'
// own SealCommitPhase1Output<Tree> (no registered_proof, vanilla_proofs a
// bare [[…]] array; what rust-fil-proofs' tests of test-only shapes write),
// marking it Bare. Most callers
// want ParseC1, which also validates against the sector configuration.
func DecodeC1(data []byte) (*C1Output, error) {
	r := &jreader{data: data}
	out := &C1Output{}
	fields := []string{"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket", SyntheticMarkerField}
	have := map[string]bool{}
	var root *jpath
	err := r.object(root, fields, func(key string, kp *jpath) error {
		have[key] = true
		switch key {
		case "registered_proof":
			s, err := r.str(kp)
			out.RegisteredProof = s
			return err
		case "vanilla_proofs":
			partitions := func(tp *jpath) error {
				return r.array(tp, func(k int, pp *jpath) error {
					out.VanillaProofs = append(out.VanillaProofs, nil)
					return r.array(pp, func(i int, ip *jpath) error {
						out.VanillaProofs[k] = append(out.VanillaProofs[k], VanillaProof{})
						return r.vanilla(ip, &out.VanillaProofs[k][i])
					})
				})
			}
			if r.peek() == '[' {
				// filecoin-proofs' own SealCommitPhase1Output<Tree>: the
				// bare Vec<Vec<VanillaSealProof>> without the enum tag.
				out.Bare = true
				return partitions(kp)
			}
			variants := 0
			err := r.object(kp, nil, func(tag string, tp *jpath) error {
				variants++
				if variants > 1 {
					return r.fail(kp, "more than one VanillaSealProof variant")
				}
				out.VanillaTag = tag
				return partitions(tp)
			})
			if err != nil {
				return err
			}
			if variants != 1 {
				return r.fail(kp, "expected one VanillaSealProof variant, found none")
			}
			return nil
		case "comm_r":
			return r.domain(kp, &out.CommR)
		case "comm_d":
			return r.domain(kp, &out.CommD)
		case "replica_id":
			return r.domain(kp, &out.ReplicaID)
		case "seed":
			return r.domain(kp, &out.Seed)
		case "ticket":
			return r.domain(kp, &out.Ticket)
		default:
			switch {
			case r.literal(kp, "true"):
				out.SyntheticInvalid = true
			case r.literal(kp, "false"):
			default:
				return r.fail(kp, "expected a boolean, found %s", r.describe())
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	if r.peek() != 0 {
		return nil, r.fail(root, "trailing data after the C1 object")
	}
	req := fields[:7]
	if out.Bare {
		// filecoin-proofs' own format has no registered_proof.
		req = fields[1:7]
	}
	if err := r.required(root, have, req...); err != nil {
		return nil, err
	}
	return out, nil
}
