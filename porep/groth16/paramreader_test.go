// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParamsChangedWhileReading: a .params file truncated, appended to,
// rewritten in place or replaced by rename between two chunks of a query
// read makes that read fail with ErrParamsChanged naming the file (never a
// fault), Changed reports it, the other queries fail too, and the file
// opened afresh once whole again decodes to the same points.
func TestParamsChangedWhileReading(t *testing.T) {
	p, err := Setup(randomCircuit{shapeSeed: 5, valueSeed: 1, nPub: 2, nAux0: 40, nCons: 120}.r1cs(t), ToxicWasteFromSeed(seed32(3)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.L()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.params")
	orig := filepath.Join(dir, "orig.params")
	if err := WriteParamsFile(orig, p); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Error(err)
		}
	}
	changes := []struct {
		name   string
		change func()
	}{
		{"truncated", func() { write(path, whole[:len(whole)/2]) }},
		{"appended to", func() { write(path, append(append([]byte(nil), whole...), 0)) }},
		{"rewritten", func() { // same size, one byte of an L point changed
			b := append([]byte(nil), whole...)
			b[p.Sections()[qL].Offset+100] ^= 1
			write(path, b)
		}},
		{"replaced by rename", func() {
			write(path+".tmp", whole)
			if err := os.Rename(path+".tmp", path); err != nil {
				t.Error(err)
			}
		}},
		{"removed", func() { os.Remove(path) }},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			write(path, whole)
			old := time.Now().Add(-time.Hour) // any later write changes the mtime
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			fp, err := OpenParams(path, false)
			if err != nil {
				t.Fatal(err)
			}
			defer fp.Close()
			var chunks int
			restore := SetReadHook(4*G1UncompressedSize, func(file, section string, k int) {
				if file == path && section == SectionL {
					chunks++
					if k == 1 {
						c.change()
					}
				}
			})
			defer restore()
			_, err = fp.L()
			if !errors.Is(err, ErrParamsChanged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "changed while in use") {
				t.Fatalf("L after the file was %s: %v", c.name, err)
			}
			if chunks != 2 {
				t.Errorf("read %d chunks, want 2 (the change is seen after the chunk that follows it)", chunks)
			}
			if !fp.Changed() {
				t.Error("Changed: false")
			}
			if _, err := fp.H(); !errors.Is(err, ErrParamsChanged) {
				t.Errorf("H after the change: %v", err)
			}
			restore()
			write(path, whole)
			fresh, err := OpenParams(path, false)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			got, err := fresh.L()
			if err != nil || fresh.Changed() || len(got) != len(want) {
				t.Fatalf("L afresh: %d points, %v", len(got), err)
			}
			for i := range got {
				if !got[i].Equal(&want[i]) {
					t.Fatalf("L afresh [%d] differs", i)
				}
			}
		})
	}
}
