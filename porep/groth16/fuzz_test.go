// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bytes"
	"testing"
)

// Fuzz targets for every parser. The default suite runs only the seed
// corpora; fuzz with e.g.
//
//	go test -run XXX -fuzz=FuzzParseParams -fuzztime=60s -fuzzminimizetime=0 ./porep/groth16
//
// (-fuzzminimizetime=0: minimising each new 2.5 KB params input otherwise
// stalls progress for minutes on a busy 2-core box; 123k execs, no
// failures, were run this way.)
// Property: no panic, and whatever parses re-encodes to the same bytes
// (all three encodings are canonical).

func FuzzParseParams(f *testing.F) {
	_, data := tinyParamsBytes(f)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add(data[:870])
	bad := append([]byte(nil), data...)
	bad[len(bad)-100] ^= 0xff
	f.Add(bad)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, checked := range []bool{false, true} {
			p, err := ParseParams(b, "fuzz", checked)
			if err != nil {
				continue
			}
			_, errH := p.H()
			_, errL := p.L()
			_, errA := p.A()
			_, errB1 := p.BG1()
			_, errB2 := p.BG2()
			var out bytes.Buffer
			if _, err := p.WriteTo(&out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), b) {
				t.Fatal("file-backed params do not re-encode to their input")
			}
			if errH != nil || errL != nil || errA != nil || errB1 != nil || errB2 != nil {
				continue
			}
			// fully decodable: a memory-backed copy re-encodes identically
			h, _ := p.H()
			l, _ := p.L()
			a, _ := p.A()
			b1, _ := p.BG1()
			b2, _ := p.BG2()
			m := &Params{VK: p.VK, mem: &queries{h: h, l: l, a: a, bg1: b1, bg2: b2}}
			out.Reset()
			m.WriteTo(&out)
			if !bytes.Equal(out.Bytes(), b) {
				t.Fatal("decoded params do not re-encode to their input")
			}
		}
	})
}

func FuzzParseVerifyingKey(f *testing.F) {
	p, _ := tinyParamsBytes(f)
	vk := p.VK.Bytes()
	f.Add(vk)
	f.Add(vk[:864])
	f.Add(append(append([]byte(nil), vk...), 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		vk, err := ParseVerifyingKey(b, "fuzz.vk")
		if err != nil {
			return
		}
		if !bytes.Equal(vk.Bytes(), b) {
			t.Fatal("vk does not re-encode to its input")
		}
		if _, err := PrepareVerifyingKey(vk); err != nil && len(vk.IC) > 0 {
			t.Fatal(err)
		}
	})
}

func FuzzDecodeProofs(f *testing.F) {
	pr := Proof{A: randomG1(f), B: randomG2(f), C: randomG1(f)}
	enc := pr.Bytes()
	f.Add(enc[:])
	f.Add(append(enc[:], enc[:]...))
	f.Add(enc[:100])
	inf := enc
	inf[0] = 0xc0
	f.Add(inf[:])
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := DecodeProofs(b)
		if err != nil {
			return
		}
		if !bytes.Equal(EncodeProofs(ps), b) {
			t.Fatal("proofs do not re-encode to their input")
		}
	})
}
