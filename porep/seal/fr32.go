// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import "fmt"

// Fr32 padding (filecoin-proofs fr32 crate): every 254 bits of input go into
// one 32-byte node whose two top bits are zero; 127 input bytes become 128
// output bytes. Bits are taken least-significant first within each byte.

// UnpaddedSize returns the unpadded size of a padded size (size·127/128).
func UnpaddedSize(padded uint64) uint64 { return padded / 128 * 127 }

// Fr32Pad pads in (a multiple of 127 bytes) into out (len(in)/127·128 bytes).
func Fr32Pad(out, in []byte) error {
	if len(in)%127 != 0 || len(out) != len(in)/127*128 {
		return fmt.Errorf("fr32 pad: input %d bytes (want a multiple of 127), output %d bytes", len(in), len(out))
	}
	for c := 0; c < len(in)/127; c++ {
		src := in[127*c : 127*c+127]
		dst := out[128*c : 128*c+128]
		for q := 0; q < 4; q++ {
			bit := 254 * q
			for b := 0; b < 32; b++ {
				pos := bit + 8*b
				i, sh := pos/8, uint(pos%8)
				var v uint16
				if i < 127 {
					v = uint16(src[i])
				}
				if i+1 < 127 {
					v |= uint16(src[i+1]) << 8
				}
				dst[32*q+b] = byte(v >> sh)
			}
			dst[32*q+31] &= 0x3f
		}
	}
	return nil
}

// Fr32Unpad reverses Fr32Pad: in is a multiple of 128 bytes whose nodes have
// their two top bits clear.
func Fr32Unpad(out, in []byte) error {
	if len(in)%128 != 0 || len(out) != len(in)/128*127 {
		return fmt.Errorf("fr32 unpad: input %d bytes (want a multiple of 128), output %d bytes", len(in), len(out))
	}
	for c := 0; c < len(in)/128; c++ {
		src := in[128*c : 128*c+128]
		dst := out[127*c : 127*c+127]
		clear(dst)
		for q := 0; q < 4; q++ {
			for b := 0; b < 32; b++ {
				v := uint16(src[32*q+b])
				if b == 31 {
					v &= 0x3f
				}
				pos := 254*q + 8*b
				i, sh := pos/8, uint(pos%8)
				v <<= sh
				if i < 127 {
					dst[i] |= byte(v)
				}
				if i+1 < 127 {
					dst[i+1] |= byte(v >> 8)
				}
			}
		}
	}
	return nil
}
