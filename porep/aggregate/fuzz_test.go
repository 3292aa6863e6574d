// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseAggregateProof: any input either fails with a *ProofError or
// parses into a proof that re-encodes to the same bytes; never a panic.
func FuzzParseAggregateProof(f *testing.F) {
	for _, d := range []string{"agg-2KiB-s10-s14", "agg-2KiB-ni-s12"} {
		b, err := os.ReadFile(filepath.Join(goldenDir, d, "aggregate.bin"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseAggregateProof(data)
		if err != nil {
			if _, ok := err.(*ProofError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		b, err := p.Bytes()
		if err != nil {
			return // e.g. a Gt element that blstrs could not compress either
		}
		if !bytes.Equal(b, data) {
			t.Fatal("parse → encode changed the bytes")
		}
	})
}

// FuzzParseSRS: a corrupt SRS is an *SRSError, never a panic.
func FuzzParseSRS(f *testing.F) {
	b, err := os.ReadFile(goldenSRSPath())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b[:4+3*48])
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSRS(data, "fuzz.srs", 8)
		if err != nil {
			if _, ok := err.(*SRSError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		_, _, _ = s.Specialize(2)
	})
}
