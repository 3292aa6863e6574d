// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
)

// TestHStageCollectsTwiddles: the H stage in place leaves at most the
// last transform's twiddles (4·m bytes) uncollected, not the seven sets its
// transforms allocate: at 32 GiB (m = 2^27) the difference was 2.1 GB of
// the peak RSS (docs/BENCHMARKS.md). The heap is read right after the call,
// before any collection of ours; one the runtime starts on its own only
// lowers the figure. CUSEAL_HSTAGE_LOG=N measures at 2^N instead of 2^20.
func TestHStageCollectsTwiddles(t *testing.T) {
	lg := 20
	if s := os.Getenv("CUSEAL_HSTAGE_LOG"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 20 || n > 28 {
			t.Fatalf("CUSEAL_HSTAGE_LOG=%q: want 20…28", s)
		}
		lg = n
	}
	m := 1 << lg
	a, b, c := make([]fr.Element, m), make([]fr.Element, m), make([]fr.Element, m)
	for i := range a {
		a[i].SetUint64(uint64(i) + 1)
		b[i].SetUint64(uint64(3*i) + 2)
		c[i].Mul(&a[i], &b[i])
	}
	dom := fft.NewDomain(uint64(m), fft.WithoutPrecompute())
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hCoefficients(dom, a, b, c, true)
	runtime.ReadMemStats(&after)
	set := uint64(4 * m) // one transform's twiddles: ~m/8 elements of 32 bytes
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("m = 2^%d: heap +%d bytes after the H stage (one twiddle set %d bytes; %d collections during it)", lg, grew, set, after.NumGC-before.NumGC)
	if grew > int64(2*set) {
		t.Fatalf("heap +%d bytes after the H stage, over two twiddle sets (%d): the transforms' twiddles were not collected between rounds", grew, 2*set)
	}
}
