// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/crypto/blake2b"

	"github.com/cuseal/cuseal/porep/groth16"
)

// OfficialParam is one entry of rust-fil-proofs' parameters.json or
// srs-inner-product.json (groth16.ParamInfo): the IPFS CID the file is
// published under, its digest (BLAKE2b-512 of the whole file, first 16
// bytes, hex; groth16.FileDigest) and the sector size it is for (0 for the
// aggregation SRS).
type OfficialParam = groth16.ParamInfo

// OfficialParamsVersion names the release the official table comes from.
const OfficialParamsVersion = "rust-fil-proofs 19.1.0 parameters.json"

// LookupOfficialParam returns the official entry for a parameter file name
// (its base name: v28-….params, .vk or v28-fil-inner-product-v1.srs).
func LookupOfficialParam(name string) (OfficialParam, bool) {
	name = filepath.Base(name)
	if e, ok := officialParameters[name]; ok {
		return e, true
	}
	e, ok := officialSRS[name]
	return e, ok
}

// OfficialParams returns a copy of the whole official table (parameters.json
// and srs-inner-product.json together), keyed by file name.
func OfficialParams() map[string]OfficialParam {
	m := make(map[string]OfficialParam, len(officialParameters)+len(officialSRS))
	for k, v := range officialParameters {
		m[k] = v
	}
	for k, v := range officialSRS {
		m[k] = v
	}
	return m
}

// ParamsState classifies a parameter file (ParamsStatus).
type ParamsState int

const (
	// ParamsUnknown: the name is not in the official table and there is no
	// cuseal test stamp: cuseal cannot say where the file comes from.
	ParamsUnknown ParamsState = iota
	// ParamsOfficial: the name is in the official table and the file's
	// digest is the one listed there.
	ParamsOfficial
	// ParamsTest: cuseal test parameters (a "<stem>.cuseal-test.json" stamp
	// sits next to the file, and the digest is not the official one).
	ParamsTest
	// ParamsMismatch: the name is in the official table, the digest is not
	// the listed one, and there is no test stamp: a corrupt, truncated or
	// foreign file under an official name.
	ParamsMismatch
)

func (s ParamsState) String() string {
	switch s {
	case ParamsOfficial:
		return "official"
	case ParamsTest:
		return "test"
	case ParamsMismatch:
		return "mismatch"
	}
	return "unknown"
}

// ParamStatus is what ParamsStatus finds out about a parameter file.
type ParamStatus struct {
	Path  string
	State ParamsState
	// Digest is the file's Filecoin parameter digest.
	Digest string
	// Official is the table entry for the file name, when it is listed.
	Official *OfficialParam
	// Stamp is the path of the cuseal test stamp next to the file, if any.
	Stamp string
}

// Describe says in one line what s means, naming the file and the digests.
func (s *ParamStatus) Describe() string {
	switch s.State {
	case ParamsOfficial:
		return fmt.Sprintf("%s: official (digest %s, as in %s)", s.Path, s.Digest, OfficialParamsVersion)
	case ParamsTest:
		return fmt.Sprintf("%s: TEST parameters (cuseal stamp %s; digest %s): proofs will not verify on chain", s.Path, filepath.Base(s.Stamp), s.Digest)
	case ParamsMismatch:
		return fmt.Sprintf("%s: digest %s, but the official digest of this name is %s (%s): a corrupt, truncated or foreign file", s.Path, s.Digest, s.Official.Digest, OfficialParamsVersion)
	}
	return fmt.Sprintf("%s: unknown (digest %s; the name is not in the official table and there is no cuseal test stamp)", s.Path, s.Digest)
}

// testStampPath returns the cuseal test stamp that would vouch for the
// parameter file path ("<stem>.cuseal-test.json" next to it).
func testStampPath(path string) string {
	dir, base := filepath.Split(path)
	for _, ext := range []string{".params", ".vk", ".meta"} {
		if stem, ok := strings.CutSuffix(base, ext); ok {
			return filepath.Join(dir, stem+".cuseal-test.json")
		}
	}
	return ""
}

// hasTestStamp returns the stamp path when path's test stamp exists.
func hasTestStamp(path string) string {
	sp := testStampPath(path)
	if sp == "" {
		return ""
	}
	if _, err := os.Stat(sp); err != nil {
		return ""
	}
	return sp
}

// ParamsStatus classifies the parameter file at path as official (its name
// is in the official table and its digest verified), test (a cuseal stamp,
// and not the official digest), mismatch or unknown. The file is hashed
// streamed (a 32 GiB .params is ~47 GB: minutes); with WithProgress the
// callback gets events with the bytes hashed so far. Digests are
// cached for the life of the process by path, size and mtime, so a worker
// hashes each file once. Errors: the file is missing (ErrParamsNotFound)
// or cannot be read (ErrBadInput).
func ParamsStatus(path string, opts ...Option) (*ParamStatus, error) {
	s := newSettings(opts)
	digest, err := cachedFileDigest(path, s)
	if err != nil {
		return nil, err
	}
	st := &ParamStatus{Path: path, Digest: digest, Stamp: hasTestStamp(path)}
	if e, ok := LookupOfficialParam(path); ok {
		st.Official = &e
	}
	switch {
	case st.Official != nil && st.Official.Digest == digest:
		st.State = ParamsOfficial
	case st.Stamp != "":
		st.State = ParamsTest
	case st.Official != nil:
		st.State = ParamsMismatch
	default:
		st.State = ParamsUnknown
	}
	return st, nil
}

// digestCache holds digests by path and file identity (size, mtime).
var (
	digestMu    sync.Mutex
	digestCache = map[string]cachedDigest{}
)

type cachedDigest struct {
	id     FileID
	digest string
}

// hashChunk is how many bytes are hashed between two progress events.
const hashChunk = 256 << 20

// cachedFileDigest returns the Filecoin digest of path (groth16.FileDigest's
// definition: BLAKE2b-512, first 16 bytes), from the cache when path's size
// and mtime have not changed, reporting progress (Event) while hashing.
func cachedFileDigest(path string, s *settings) (string, error) {
	id, err := StatID(path)
	if err != nil {
		return "", err
	}
	digestMu.Lock()
	c, ok := digestCache[path]
	digestMu.Unlock()
	if ok && c.id == id {
		return c.digest, nil
	}
	if d, ok := lookupDigestFile(s.digestCacheFile, path, id); ok {
		digestMu.Lock()
		digestCache[path] = cachedDigest{id, d}
		digestMu.Unlock()
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", paramFileError(path, err)
	}
	defer f.Close()
	h, _ := blake2b.New512(nil)
	var done int64
	s.progress(Event{File: path, Total: id.size})
	for {
		if err := s.ctx.Err(); err != nil {
			return "", err
		}
		n, err := io.CopyN(h, f, hashChunk)
		done += n
		s.progress(Event{File: path, Done: done, Total: id.size})
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", badInputf("porep: %s: read: %w", path, err)
		}
	}
	sum := h.Sum(nil)
	digest := hex.EncodeToString(sum[:16])
	// A file replaced while it was hashed is not cached under its old identity.
	if id2, err := StatID(path); err == nil && id2 == id {
		digestMu.Lock()
		digestCache[path] = cachedDigest{id, digest}
		digestMu.Unlock()
		storeDigestFile(s.digestCacheFile, path, id, digest)
	}
	return digest, nil
}

// RequireProductionParams hashes each file against the official table
// (rust-fil-proofs verify_production_entry, FIL_PROOFS_VERIFY_PRODUCTION_PARAMS)
// with ParamsStatus and opts, and returns an error wrapping ErrBadInput for
// the first one that is not official, naming it, its digest and the
// expected one.
func RequireProductionParams(paths []string, opts ...Option) error {
	for _, p := range paths {
		st, err := ParamsStatus(p, opts...)
		if err != nil {
			return err
		}
		if st.State != ParamsOfficial {
			return badInputf("porep: production parameters required (FIL_PROOFS_VERIFY_PRODUCTION_PARAMS): %s", st.Describe())
		}
	}
	return nil
}

// warnedTest records the test stamps already warned about in this process:
// the warning is given once per parameter set, not per file or proof.
var warnedTest sync.Map

// TestParamsWarning returns the one-line TEST-parameters warning for path
// when a cuseal test stamp vouches for it, the first time in this process
// for its parameter set (stamp); "" otherwise. The caller shows it.
func TestParamsWarning(path string) string {
	stamp := hasTestStamp(path)
	if stamp == "" {
		return ""
	}
	if _, seen := warnedTest.LoadOrStore(stamp, true); seen {
		return ""
	}
	return fmt.Sprintf("TEST parameters: proofs will not verify on chain (%s has a cuseal test stamp, .cuseal-test.json)", path)
}

// whichKeyIsWrong says, for a .vk and .params pair that disagree, which one
// is not what it claims to be, from the official table (hashing the small
// .vk only) and the test stamp.
func whichKeyIsWrong(vkPath, paramsPath string) string {
	if e, ok := LookupOfficialParam(vkPath); ok {
		if d, err := groth16.FileDigest(vkPath); err == nil {
			if d == e.Digest {
				return fmt.Sprintf("%s is the official one (digest %s), so %s is not: replace it with the official file", vkPath, d, paramsPath)
			}
			if hasTestStamp(vkPath) == "" {
				return fmt.Sprintf("%s is not the official one either (digest %s, official %s): replace both from one source (paramfetch)", vkPath, d, e.Digest)
			}
		}
	}
	if hasTestStamp(vkPath) != "" {
		return "both are named as cuseal test parameters: regenerate them together (cuseal params generate into an empty directory) or restore the matching .vk"
	}
	return "replace both from one source (paramfetch, or cuseal params generate for tests)"
}
