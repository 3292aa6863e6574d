// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// refbench is bellperson 0.27's verifier (testdata/refbench, built with
// `cargo build --release --offline` there).
const refbench = "testdata/refbench/target/release/cuseal-aggregate-refbench"

// TestBellpersonVerifiesCusealAggregates: bellperson's
// verify_aggregate_proof accepts cuseal's aggregates of 3 (padded to 4),
// 8 and 13 (padded to 16) NI partition proofs over the golden SRS — cases
// without a golden aggregate — and rejects one under another transcript
// include. Skipped when the Rust tool is not built.
func TestBellpersonVerifiesCusealAggregates(t *testing.T) {
	if _, err := os.Stat(refbench); err != nil {
		t.Skipf("%s not built (cd testdata/refbench && cargo build --release --offline): %v", refbench, err)
	}
	c := loadVerifyCase(t, true)
	_, all := niCase(t)
	dir := t.TempDir()
	run := func(name string, n, pad int, include, claimed []byte) error {
		ps := all[:n]
		pub := c.public[:n]
		for len(ps) < pad {
			ps = append(ps, ps[len(ps)-1])
			pub = append(pub, pub[len(pub)-1])
		}
		pk, _, err := loadGoldenSRS(t).Specialize(pad)
		if err != nil {
			t.Fatal(err)
		}
		agg, err := Aggregate(pk, include, ps)
		if err != nil {
			t.Fatal(err)
		}
		b, err := agg.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		aggPath := filepath.Join(dir, name+".agg")
		inPath := filepath.Join(dir, name+".inputs")
		if err := os.WriteFile(aggPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, v := range pub {
			var hs []string
			for i := range v {
				le := v[i].Bytes()
				for l, r := 0, len(le)-1; l < r; l, r = l+1, r-1 {
					le[l], le[r] = le[r], le[l]
				}
				hs = append(hs, hex.EncodeToString(le[:]))
			}
			lines = append(lines, strings.Join(hs, ","))
		}
		if err := os.WriteFile(inPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(refbench, "verify", goldenSRSPath(), filepath.Join(goldenDir, "2KiB-s10", vkName),
			aggPath, inPath, hex.EncodeToString(claimed)).CombinedOutput()
		t.Logf("%s: bellperson says %s", name, strings.TrimSpace(string(out)))
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return errInvalid
		}
		return err
	}
	for _, tc := range []struct {
		name   string
		n, pad int
	}{{"3of4", 3, 4}, {"8", 8, 8}, {"13of16", 13, 16}} {
		if err := run(tc.name, tc.n, tc.pad, []byte("cuseal"), []byte("cuseal")); err != nil {
			t.Errorf("%s: bellperson rejects cuseal's aggregate: %v", tc.name, err)
		}
	}
	if err := run("other-include", 3, 4, []byte("cuseal"), []byte("other")); !errors.Is(err, errInvalid) {
		t.Errorf("other include: bellperson returned %v, want invalid", err)
	}
}

var errInvalid = errors.New("invalid")
