// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

// C1's schema over the JSON reader in c1_json.go: each decoder reads one
// rust-fil-proofs type and names the JSON path of what it rejects.

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
