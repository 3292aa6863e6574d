// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"bytes"
	"fmt"
	"testing"
)

// TestTo32: 32 bytes come back as the array; any other length is an error
// naming the value and its length.
func TestTo32(t *testing.T) {
	in := bytes.Repeat([]byte{7}, 32)
	in[0], in[31] = 1, 2
	got, err := To32(in, "ticket")
	if err != nil || !bytes.Equal(got[:], in) {
		t.Fatalf("To32(32 bytes) = %x, %v", got, err)
	}
	for _, n := range []int{0, 31, 33} {
		_, err := To32(make([]byte, n), "seed")
		if want := fmt.Sprintf("seed is %d bytes, want 32", n); err == nil || err.Error() != want {
			t.Errorf("To32(%d bytes): err = %v, want %q", n, err, want)
		}
	}
}
