// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/cuseal/cuseal/porep/cs"
)

var cacheLocks sync.Map // path → *sync.Mutex

// CachedSetup returns test parameters for r1cs and the toxic-waste seed,
// generating them on first use (the streamed setup: StreamSetup, bytes as
// Setup(r1cs, ToxicWasteFromSeed(seed))) and storing them in dir as
// "cuseal-test-v1-<r1cs digest>-<seed>.params" (+ ".meta" JSON naming the
// seed and digest). This call and later ones — in this process or another — open the
// stored file (unchecked decoding, it is ours). FOR TESTS ONLY. The file is
// written atomically; a stored file that fails to parse is regenerated.
// Setup is deterministic, so a name fixes the content; "v1" changes if
// Setup's output ever must.
func CachedSetup(dir string, r1cs *cs.R1CS, seed [32]byte) (*Params, error) {
	if err := validateR1CS(r1cs); err != nil {
		return nil, err
	}
	d := r1cs.Digest() // cuseal-r1cs-v1, docs/digests.md §1
	base := fmt.Sprintf("cuseal-test-v1-%s-%s", hex.EncodeToString(d[:]), hex.EncodeToString(seed[:]))
	path := filepath.Join(dir, base+".params")
	mu, _ := cacheLocks.LoadOrStore(path, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()

	if _, err := os.Stat(path); err == nil {
		if p, err := OpenParams(path, false); err == nil {
			return p, nil
		}
	}
	s, err := streamR1CS(r1cs, ToxicWasteFromSeed(seed))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("groth16: param cache: %w", err)
	}
	if _, err := s.WriteParamsFile(context.Background(), path); err != nil {
		return nil, err
	}
	meta := map[string]string{
		"warning":     "TEST PARAMETERS: toxic waste derived from the seed (cuseal-toxic-v1); never use in production",
		"seed":        hex.EncodeToString(seed[:]),
		"r1cs_digest": hex.EncodeToString(d[:]),
	}
	if err := writeFileAtomic(filepath.Join(dir, base+".meta"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(meta)
	}); err != nil {
		return nil, err
	}
	return OpenParams(path, false)
}
