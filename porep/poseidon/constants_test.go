// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Round numbers per width t at Strength::Standard: neptune v11.0.0
// src/round_numbers.rs test_round_numbers_against_known_values (R_F = 8 for all).
var knownPartialRounds = []struct{ t, rp int }{
	{2, 55}, {3, 55}, {4, 56}, {5, 56}, {6, 56}, {7, 56}, {8, 57}, {9, 57},
	{10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57}, {16, 59},
	{17, 59}, {25, 59}, {37, 60}, {65, 61},
}

func TestRoundNumbersKnownValues(t *testing.T) {
	for _, k := range knownPartialRounds {
		rf, rp := calcRoundNumbers(k.t)
		if rf != 8 || rp != k.rp {
			t.Errorf("t=%d: got (R_F, R_P) = (%d, %d), want (8, %d)", k.t, rf, rp, k.rp)
		}
	}
}

// Grain check values from docs/porep-circuit.md §3.8.2 (first constant and count
// per width), cross-checked for t = 9 against neptune's reference file.
var grainChecks = []struct {
	arity int
	first string
	count int
}{
	{2, "0x669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8", 189},
	{8, "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9", 585},
	{11, "0x1f6c9576e648b5047399bfc5f38902e0d506f18e0f3ab77de6de096bd089bce4", 780},
}

func TestRoundConstantCheckValues(t *testing.T) {
	for _, g := range grainChecks {
		c := mustConstants(g.arity)
		if len(c.RoundConstants) != g.count {
			t.Errorf("arity %d: %d round constants, want %d", g.arity, len(c.RoundConstants), g.count)
			continue
		}
		if got := hexOf(&c.RoundConstants[0]); got != g.first {
			t.Errorf("arity %d: first constant %s, want %s", g.arity, got, g.first)
		}
	}
}

// TestRoundConstantsReferenceFile checks all 585 constants for t = 9 against
// neptune's parameters file (testdata/README.md names the source).
func TestRoundConstantsReferenceFile(t *testing.T) {
	f, err := os.Open("testdata/round_constants-1-1-255-9-8-57.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var line string
	for i := 0; sc.Scan(); i++ {
		if i == 8 {
			line = sc.Text()
			break
		}
	}
	line = strings.Trim(line, "[]")
	var want []string
	for _, s := range strings.Split(line, ",") {
		want = append(want, strings.Trim(strings.TrimSpace(s), "'"))
	}
	c := mustConstants(8)
	if len(want) != 585 || len(c.RoundConstants) != 585 {
		t.Fatalf("file has %d constants, generated %d, want 585", len(want), len(c.RoundConstants))
	}
	for i := range want {
		if got := hexOf(&c.RoundConstants[i]); got != want[i] {
			t.Fatalf("constant %d: got %s, want %s", i, got, want[i])
		}
	}
}

func hexOf(e *fr.Element) string {
	b := e.Bytes() // big-endian canonical
	const digits = "0123456789abcdef"
	out := make([]byte, 2, 66)
	copy(out, "0x")
	for _, x := range b {
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(out)
}

// Partial rounds per arity (docs/porep-circuit.md §3.8.1).
var partialRoundsByArity = map[int]int{2: 55, 4: 56, 8: 57, 11: 57, 16: 59, 24: 59, 36: 60}

func TestConstantsShape(t *testing.T) {
	for arity, rp := range partialRoundsByArity {
		c := mustConstants(arity)
		w := arity + 1
		if c.Width != w || c.FullRounds != 8 || c.PartialRounds != rp {
			t.Errorf("arity %d: width %d R_F %d R_P %d, want %d 8 %d", arity, c.Width, c.FullRounds, c.PartialRounds, w, rp)
		}
		if len(c.Compressed) != 8*w+rp || len(c.Sparse) != rp || len(c.PreSparse) != w*w {
			t.Errorf("arity %d: %d compressed, %d sparse, %d pre-sparse cells", arity, len(c.Compressed), len(c.Sparse), len(c.PreSparse))
		}
		var tag fr.Element
		tag.SetUint64(1<<uint(arity) - 1)
		if !c.DomainTag.Equal(&tag) {
			t.Errorf("arity %d: domain tag %s", arity, c.DomainTag.String())
		}
		// M·M⁻¹ = I.
		m, inv := rows(c.MDS, w), rows(c.MDSInv, w)
		p := mul(m, inv)
		for i := 0; i < w; i++ {
			for j := 0; j < w; j++ {
				if p[i][j].IsOne() != (i == j) || (i != j && !p[i][j].IsZero()) {
					t.Fatalf("arity %d: (M·M⁻¹)[%d][%d] = %s", arity, i, j, p[i][j].String())
				}
			}
		}
	}
}

// TestSparseFactorisation checks, as neptune's mds.rs tests do, that
// applying pre-sparse then the sparse factors with S-boxes in between gives
// the same as applying M each time.
func TestSparseFactorisation(t *testing.T) {
	for _, arity := range []int{2, 8, 11} {
		c := mustConstants(arity)
		w := c.Width
		m := rows(c.MDS, w)
		x := randomElements(w, int64(arity))
		keys := randomElements(c.PartialRounds+1, int64(100+arity))
		want := append([]fr.Element(nil), x...)
		for r := 0; r <= c.PartialRounds; r++ {
			want = applyMatrix(m, want)
			sbox5(&want[0])
			want[0].Add(&want[0], &keys[r])
		}
		got := applyMatrix(rows(c.PreSparse, w), x)
		sbox5(&got[0])
		got[0].Add(&got[0], &keys[0])
		for r := 0; r < c.PartialRounds; r++ {
			sparseProduct(got, c.Sparse[r].WHat, c.Sparse[r].VRest)
			sbox5(&got[0])
			got[0].Add(&got[0], &keys[r+1])
		}
		for i := range got {
			if !got[i].Equal(&want[i]) {
				t.Fatalf("arity %d: element %d differs", arity, i)
			}
		}
	}
}

func rows(flat []fr.Element, n int) matrix {
	m := make(matrix, n)
	for i := range m {
		m[i] = flat[i*n : (i+1)*n]
	}
	return m
}
