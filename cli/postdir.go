// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// vanillaDirMeta is the file of a vanilla-proof directory that names what
// the verifier is given; next to it, one sector-<n>.bin per sector holding
// GenerateSingleVanillaProof's bytes.
const vanillaDirMeta = "vanilla.json"

// postVanillaSet is a set of PoSt vanilla proofs with what proving and
// verifying them needs: `bench vanilla` and `post vanilla` write it,
// `bench synth|prove --vanilla DIR` read it.
type postVanillaSet struct {
	cfg        *post.Config
	miner      abi.ActorID
	randomness abi.PoStRandomness
	sectors    []proof.SectorInfo // in the vanilla proofs' order
	vanilla    [][]byte
	files      []string // the vanilla proofs' files, when read from a directory
	synthetic  bool
	source     string // "synthetic" or the directory read
}

// vanillaDirJSON is vanilla.json.
type vanillaDirJSON struct {
	RegisteredProof string `json:"registered_proof"` // go-state-types name
	ProofType       int64  `json:"proof_type"`       // go-state-types number
	Miner           uint64 `json:"miner"`            // actor id
	Randomness      string `json:"randomness"`       // 64 hex digits, byte 31 ≤ 0x3f
	// Synthetic: made by `cuseal bench vanilla` (valid proofs of sparse
	// synthetic trees R), not from sealed sectors.
	Synthetic bool               `json:"synthetic"`
	Sectors   []vanillaDirSector `json:"sectors"` // in proving order (ascending number)
}

type vanillaDirSector struct {
	SectorNumber uint64 `json:"sector_number"`
	CommR        string `json:"comm_r"` // 64 hex digits
	SealedCID    string `json:"sealed_cid"`
	File         string `json:"file"` // relative to the directory
}

func vanillaFileName(n abi.SectorNumber) string { return fmt.Sprintf("sector-%d.bin", n) }

// writeVanillaDir writes the set into dir (created if missing): the
// sector files first, vanilla.json last, each atomically. An existing
// vanilla.json is refused unless force.
func writeVanillaDir(dir string, s *postVanillaSet, force bool) error {
	meta := filepath.Join(dir, vanillaDirMeta)
	if err := prepareVanillaOut(dir, vanillaDirMeta, force); err != nil {
		return err
	}
	j := vanillaDirJSON{RegisteredProof: s.cfg.Name, ProofType: int64(s.cfg.Proof), Miner: uint64(s.miner),
		Randomness: hex.EncodeToString(s.randomness), Synthetic: s.synthetic}
	for i, si := range s.sectors {
		commR, err := commcid.CIDToReplicaCommitmentV1(si.SealedCID)
		if err != nil {
			return internalError(fmt.Errorf("sector %d: %w", si.SectorNumber, err))
		}
		name := vanillaFileName(si.SectorNumber)
		if err := writeFileAtomic(filepath.Join(dir, name), s.vanilla[i]); err != nil {
			return inputError(fmt.Errorf("--out: %w", fileError(err)))
		}
		j.Sectors = append(j.Sectors, vanillaDirSector{SectorNumber: uint64(si.SectorNumber), CommR: hex.EncodeToString(commR),
			SealedCID: si.SealedCID.String(), File: name})
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return internalError(err)
	}
	if err := writeFileAtomic(meta, append(b, '\n')); err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	return nil
}

// readVanillaDir reads a directory writeVanillaDir wrote. Every defect is an
// input error naming the file and field: a missing or malformed
// vanilla.json, an unknown proof type, bad randomness, a sector file that
// is missing, does not parse as cfg's vanilla proof, or names another
// sector or comm_r than vanilla.json.
func readVanillaDir(dir string) (*postVanillaSet, error) {
	meta := filepath.Join(dir, vanillaDirMeta)
	raw, err := os.ReadFile(meta)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, inputError(fmt.Errorf("--vanilla %s: no %s (write one with cuseal bench vanilla or cuseal post vanilla)", dir, vanillaDirMeta))
		}
		return nil, inputError(fmt.Errorf("--vanilla: %w", fileError(err)))
	}
	j, err := decodeVanillaDirJSON(raw)
	if err != nil {
		return nil, inputError(fmt.Errorf("%s: %v", meta, err))
	}
	cfg, err := post.ConfigFor(abi.RegisteredPoStProof(j.ProofType))
	if err != nil {
		return nil, inputError(fmt.Errorf("%s: proof_type: %v", meta, err))
	}
	if named, err := post.ConfigByName(j.RegisteredProof); err != nil || named.Proof != cfg.Proof {
		return nil, inputError(fmt.Errorf("%s: registered_proof %q and proof_type %d (%s) disagree", meta, clip(j.RegisteredProof), j.ProofType, cfg.Name))
	}
	rnd, err := hex.DecodeString(trimHexPrefix(j.Randomness))
	if err != nil || len(rnd) != 32 {
		return nil, inputError(fmt.Errorf("%s: randomness %q: want 64 hex digits", meta, clip(j.Randomness)))
	}
	if err := post.CheckCommitment("randomness", (*[32]byte)(rnd)); err != nil {
		return nil, inputError(fmt.Errorf("%s: %v", meta, err))
	}
	if len(j.Sectors) == 0 {
		return nil, inputError(fmt.Errorf("%s: sectors: none", meta))
	}
	seal, _ := stacked.SealProofV1_1(cfg.SectorSize)
	s := &postVanillaSet{cfg: &cfg, miner: abi.ActorID(j.Miner), randomness: rnd, synthetic: j.Synthetic}
	seen := make(map[uint64]int, len(j.Sectors))
	for i, js := range j.Sectors {
		field := fmt.Sprintf("%s: sectors[%d]", meta, i)
		if k, dup := seen[js.SectorNumber]; dup {
			return nil, inputError(fmt.Errorf("%s.sector_number %d: listed twice (also sectors[%d])", field, js.SectorNumber, k))
		}
		seen[js.SectorNumber] = i
		c, err := sealedCID(js.CommR)
		if err != nil {
			return nil, inputError(fmt.Errorf("%s.comm_r %q: want 64 hex digits or a sealed CID: %v", field, clip(js.CommR), err))
		}
		commR, _ := commcid.CIDToReplicaCommitmentV1(c)
		if js.File == "" || js.File == "." || js.File == ".." || js.File == vanillaDirMeta || filepath.IsAbs(js.File) || filepath.Base(js.File) != js.File {
			return nil, inputError(fmt.Errorf("%s.file %q: want the name of a sector's file in %s", field, clip(js.File), dir))
		}
		path := filepath.Join(dir, js.File)
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, inputError(fmt.Errorf("%s.file: %w", field, fileError(err)))
		}
		v, err := post.ParseVanillaProof(b, &cfg)
		if err != nil {
			return nil, inputError(fmt.Errorf("%s: %s %v", path, cfg.Name, err))
		}
		if uint64(v.SectorID) != js.SectorNumber || !bytes.Equal(v.CommR[:], commR) {
			return nil, inputError(fmt.Errorf("%s: the vanilla proof is for sector %d with comm_r %x, %s lists sector %d with comm_r %x",
				path, v.SectorID, v.CommR[:], vanillaDirMeta, js.SectorNumber, commR))
		}
		sealed, err := commcid.ReplicaCommitmentV1ToCID(v.CommR[:])
		if err != nil {
			return nil, inputError(fmt.Errorf("%s: comm_r: %v", path, err))
		}
		if js.SealedCID != "" && js.SealedCID != sealed.String() {
			return nil, inputError(fmt.Errorf("%s.sealed_cid %q: comm_r %x is sealed CID %s", field, clip(js.SealedCID), commR, sealed))
		}
		s.sectors = append(s.sectors, proof.SectorInfo{SealProof: seal, SectorNumber: v.SectorID, SealedCID: sealed})
		s.vanilla, s.files = append(s.vanilla, b), append(s.files, path)
	}
	return s, nil
}

// decodeVanillaDirJSON decodes vanilla.json strictly: every field present
// and not null (sealed_cid and synthetic may be left out), no key but
// these exactly (Go's decoder would take "Randomness" for randomness and
// skip a misspelt one), each error named by field, sectors by index.
func decodeVanillaDirJSON(raw []byte) (*vanillaDirJSON, error) {
	if err := checkJSONKeys(raw, "", vanillaDirJSON{}, "synthetic"); err != nil {
		return nil, err
	}
	// The sectors stay raw here (the outer field hides the embedded one), so
	// that each is checked and named by its index.
	var top struct {
		vanillaDirJSON
		Sectors []json.RawMessage `json:"sectors"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, jsonError(err, "")
	}
	j := &top.vanillaDirJSON
	j.Sectors = make([]vanillaDirSector, len(top.Sectors))
	for i, r := range top.Sectors {
		where := fmt.Sprintf("sectors[%d]", i)
		if err := checkJSONKeys(r, where, vanillaDirSector{}, "sealed_cid"); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(r, &j.Sectors[i]); err != nil {
			return nil, jsonError(err, where)
		}
	}
	return j, nil
}

// checkJSONKeys fails unless raw is a JSON object whose keys are exactly
// proto's json tags, each present and not null unless optional; where
// names the object in messages ("" for the document).
func checkJSONKeys(raw []byte, where string, proto any, optional ...string) error {
	name := func(key string) string {
		if where == "" {
			return key
		}
		return where + "." + key
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%v (at byte %d)", err, se.Offset)
		}
		if where == "" {
			return errors.New("want a JSON object")
		}
		return fmt.Errorf("%s: want a JSON object", where)
	}
	t := reflect.TypeOf(proto)
	known := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		known[tag] = true
		v, ok := m[tag]
		if (!ok || string(v) == "null") && !slices.Contains(optional, tag) {
			return fmt.Errorf("%s: missing", name(tag))
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !known[k] {
			return fmt.Errorf("%s: unknown field", name(fmt.Sprintf("%q", clip(k))))
		}
	}
	return nil
}

// jsonError is a JSON decoding error named by the document's field rather
// than the Go type it decodes into; where prefixes the field.
func jsonError(err error, where string) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		switch {
		case where != "" && field != "":
			field = where + "." + field
		case where != "":
			field = where
		case field == "":
			field = "the document"
		}
		return fmt.Errorf("%s: a JSON %s, want %s (at byte %d)", field, clip(te.Value), jsonKind(te.Type.Kind()), te.Offset)
	}
	return err
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:64], len(s))
}

// jsonKind is what JSON value a Go kind decodes from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a 64-bit integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer from 0 to 2^64-1"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}
