// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/crypto/blake2b"
)

// ParamInfo is one entry of Filecoin's parameters.json (docs/formats.md §4.2).
type ParamInfo struct {
	CID        string `json:"cid"`
	Digest     string `json:"digest"`
	SectorSize uint64 `json:"sector_size"`
}

// ParseParametersJSON decodes a parameters.json table: file name → entry.
func ParseParametersJSON(r io.Reader) (map[string]ParamInfo, error) {
	var m map[string]ParamInfo
	dec := json.NewDecoder(r)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("groth16: parameters.json: %w", err)
	}
	for name, e := range m {
		if len(e.Digest) != 32 {
			return nil, fmt.Errorf("groth16: parameters.json: %s: digest %q is not 32 hex characters", name, e.Digest)
		}
		if _, err := hex.DecodeString(e.Digest); err != nil {
			return nil, fmt.Errorf("groth16: parameters.json: %s: digest %q: %w", name, e.Digest, err)
		}
	}
	return m, nil
}

// FileDigest returns the Filecoin parameter digest of a file: the first 16
// bytes of BLAKE2b-512 over the whole file, as 32 lower-case hex characters
// (rust-fil-proofs get_digest_for_file_within_cache, go-paramfetch).
func FileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("groth16: digest: %w", err)
	}
	defer f.Close()
	h, _ := blake2b.New512(nil)
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("groth16: digest %s: %w", path, err)
	}
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:16]), nil
}

// VerifyFileDigest looks up path's base name in table and compares its
// digest (FIL_PROOFS_VERIFY_PRODUCTION_PARAMS behaviour): an error names
// the file and both digests, or says the file is not in the table.
func VerifyFileDigest(path string, table map[string]ParamInfo) error {
	name := filepath.Base(path)
	e, ok := table[name]
	if !ok {
		return fmt.Errorf("groth16: %s: not listed in parameters.json", path)
	}
	got, err := FileDigest(path)
	if err != nil {
		return err
	}
	if got != e.Digest {
		return fmt.Errorf("groth16: %s: digest %s, parameters.json says %s", path, got, e.Digest)
	}
	return nil
}
