// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// A digest cache file lets separate processes (a `cuseal commit2` per sector) skip hashing
// a parameter file whose path, size and modification time have not changed since it was
// hashed: a 32 GiB .params file is 47 GB. It is a JSON object, absolute path → entry. It
// trusts the file system as much as the in-process cache does: whoever can rewrite a
// parameter file and restore its mtime can rewrite the cache too.

// WithDigestCacheFile makes ParamsStatus and RequireProductionParams remember digests in
// the JSON file at path, by path, size and modification time, across processes (the
// in-process cache always applies). The file is rewritten atomically after each new
// digest; an unreadable or corrupt cache is ignored.
func WithDigestCacheFile(path string) Option {
	return func(s *settings) { s.digestCacheFile = path }
}

type digestCacheEntry struct {
	Size    int64  `json:"size"`
	MtimeNS int64  `json:"mtime_ns"`
	Digest  string `json:"digest"`
}

var digestFileMu sync.Mutex

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func readDigestCache(file string) map[string]digestCacheEntry {
	m := map[string]digestCacheEntry{}
	if b, err := os.ReadFile(file); err == nil {
		if json.Unmarshal(b, &m) != nil {
			return map[string]digestCacheEntry{}
		}
	}
	return m
}

// lookupDigestFile returns the digest the cache file holds for path with identity id.
func lookupDigestFile(file, path string, id FileID) (string, bool) {
	if file == "" {
		return "", false
	}
	digestFileMu.Lock()
	defer digestFileMu.Unlock()
	e, ok := readDigestCache(file)[absPath(path)]
	if !ok || e.Size != id.size || e.MtimeNS != id.mtime || len(e.Digest) != 32 {
		return "", false
	}
	return e.Digest, true
}

// storeDigestFile records path's digest in the cache file (best effort).
func storeDigestFile(file, path string, id FileID, digest string) {
	if file == "" {
		return
	}
	digestFileMu.Lock()
	defer digestFileMu.Unlock()
	m := readDigestCache(file)
	m[absPath(path)] = digestCacheEntry{Size: id.size, MtimeNS: id.mtime, Digest: digest}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	_ = writeAtomic(file, b)
}
