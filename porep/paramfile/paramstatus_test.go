// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/groth16"
)

// TestOfficialTable: the table is rust-fil-proofs 19.1.0's parameters.json (44 entries) and
// srs-inner-product.json (1), with the 2 KiB and 32 GiB PoRep entries as published there.
func TestOfficialTable(t *testing.T) {
	if len(officialParameters) != 44 || len(officialSRS) != 1 || len(OfficialParams()) != 45 {
		t.Fatalf("%d parameters.json + %d srs entries, want 44 + 1", len(officialParameters), len(officialSRS))
	}
	cfg := config2K(t)
	pp, vp, _ := cfg.ParameterPaths("/x")
	for _, c := range []struct {
		name, digest, cid string
	}{
		{pp, "434fb1338ecfaf0f59256f30dde4968f", "QmWceMgnWYLopMuM4AoGMvGEau7tNe5UK83XFjH5V9B17h"},
		{vp, "dc1ade9929ade1708238f155343044ac", "QmamahpFCstMUqHi2qGtVoDnRrsXhid86qsfvoyCTKJqHr"},
		{"v28-fil-inner-product-v1.srs", "ae20310138f5ba81451d723f858e3797", "Qmdq44DjcQnFfU3PJcdX7J49GCqcUYszr1TxMbHtAkvQ3g"},
	} {
		e, ok := LookupOfficialParam(c.name)
		if !ok || e.Digest != c.digest || e.CID != c.cid {
			t.Errorf("%s: %+v %v, want digest %s CID %s", c.name, e, ok, c.digest, c.cid)
		}
	}
	for name, e := range OfficialParams() {
		if len(e.Digest) != 32 || !strings.HasPrefix(name, "v28-") {
			t.Errorf("%s: %+v", name, e)
		}
	}
}

// TestFileDigestMatchesB2sum: the digest of a small file is the first 32 hex digits of
// b2sum (BLAKE2b-512) — the known vector for "abc", and b2sum itself where installed.
func TestFileDigestMatchesB2sum(t *testing.T) {
	path := filepath.Join(t.TempDir(), "abc.vk")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := ParamsStatus(path)
	if err != nil {
		t.Fatal(err)
	}
	// RFC 7693 Appendix A: BLAKE2b-512("abc") = ba80a53f981c4d0d6a2797b69f12f6e9…
	if st.Digest != "ba80a53f981c4d0d6a2797b69f12f6e9" || st.State != ParamsUnknown {
		t.Fatalf("status %+v", st)
	}
	b2sum, err := exec.LookPath("b2sum")
	if err != nil {
		t.Skip("b2sum not installed")
	}
	big := filepath.Join(t.TempDir(), "big.params")
	data := make([]byte, 3<<20+17)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(b2sum, big).Output()
	if err != nil {
		t.Fatal(err)
	}
	st, err = ParamsStatus(big)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(out[:32]); st.Digest != want {
		t.Fatalf("digest %s, b2sum %s", st.Digest, want)
	}
	if d, _ := groth16.FileDigest(big); d != st.Digest {
		t.Fatalf("groth16.FileDigest %s", d)
	}
}

// TestParamsStatusStatesAndCache: official-name files classify as mismatch (no stamp) or
// test (stamp); a digest is computed once per (path, size, mtime) and again after a change.
func TestParamsStatusStatesAndCache(t *testing.T) {
	cfg := config2K(t)
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	for _, p := range []string{pp, vp} {
		if err := os.WriteFile(p, []byte("not the official "+filepath.Ext(p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hashes := 0
	count := WithProgress(func(ev Event) {
		if ev.File != "" && ev.Done == 0 {
			hashes++
		}
	})
	st, err := ParamsStatus(pp, count)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != ParamsMismatch || st.Official == nil || st.Official.Digest != "434fb1338ecfaf0f59256f30dde4968f" ||
		!strings.Contains(st.Describe(), st.Digest) || !strings.Contains(st.Describe(), "434fb1338ecfaf0f59256f30dde4968f") {
		t.Fatalf("status %+v: %s", st, st.Describe())
	}
	if _, err := ParamsStatus(pp, count); err != nil || hashes != 1 {
		t.Fatalf("second status: %v, %d hashes, want 1 (cached)", err, hashes)
	}
	// Same size, new mtime: hashed again.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(pp, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := ParamsStatus(pp, count); err != nil || hashes != 2 {
		t.Fatalf("after touch: %v, %d hashes, want 2", err, hashes)
	}
	stamp := filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json")
	if err := os.WriteFile(stamp, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := ParamsStatus(vp); err != nil || st.State != ParamsTest || st.Stamp != stamp {
		t.Fatalf("stamped: %+v, %v", st, err)
	}
	if _, err := ParamsStatus(filepath.Join(dir, "nope.vk")); !errors.Is(err, ErrParamsNotFound) {
		t.Fatalf("missing file: %v", err)
	}
}

// TestDigestCacheFile (issue 19): with WithDigestCacheFile a digest computed by one process
// is reused by the next (simulated by dropping the in-process cache) while the file's path,
// size and mtime are unchanged, and recomputed after a change.
func TestDigestCacheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.params")
	if err := os.WriteFile(path, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache", "digests.json")
	hashes := 0
	opts := []Option{WithDigestCacheFile(cache), WithProgress(func(ev Event) {
		if ev.File != "" && ev.Done == 0 {
			hashes++
		}
	})}
	forget := func() {
		digestMu.Lock()
		delete(digestCache, path)
		digestMu.Unlock()
	}
	st1, err := ParamsStatus(path, opts...)
	if err != nil || hashes != 1 {
		t.Fatalf("first: %v, %d hashes", err, hashes)
	}
	if b, err := os.ReadFile(cache); err != nil || !strings.Contains(string(b), st1.Digest) {
		t.Fatalf("cache file: %v %s", err, b)
	}
	forget()
	st2, err := ParamsStatus(path, opts...)
	if err != nil || hashes != 1 || st2.Digest != st1.Digest {
		t.Fatalf("second process: %v, %d hashes, digest %s vs %s", err, hashes, st2.Digest, st1.Digest)
	}
	forget()
	if err := os.WriteFile(path, []byte("second!"), 0o644); err != nil {
		t.Fatal(err)
	}
	st3, err := ParamsStatus(path, opts...)
	if err != nil || hashes != 2 || st3.Digest == st1.Digest {
		t.Fatalf("after a change: %v, %d hashes, digest %s", err, hashes, st3.Digest)
	}
	// A corrupt cache file is ignored.
	forget()
	if err := os.WriteFile(cache, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st4, err := ParamsStatus(path, opts...); err != nil || hashes != 3 || st4.Digest != st3.Digest {
		t.Fatalf("corrupt cache: %v, %d hashes", err, hashes)
	}
}
