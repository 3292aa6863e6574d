// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"golang.org/x/sys/unix"
)

// allocFr returns n zeroed field elements in an anonymous mapping outside
// the Go heap, and the function that unmaps them. The streamed setup's
// per-variable vectors live there so that the garbage collector's heap
// target follows the small heap of synthesis, not gigabytes of vectors it
// never needs to scan (fr.Element holds no pointers).
func allocFr(n int) ([]fr.Element, func(), error) {
	if n == 0 {
		return nil, func() {}, nil
	}
	b, err := unix.Mmap(-1, 0, n*fr.Bytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, nil, fmt.Errorf("groth16: setup: map %d bytes for %d field elements: %w", n*fr.Bytes, n, err)
	}
	return unsafe.Slice((*fr.Element)(unsafe.Pointer(&b[0])), n), func() { _ = unix.Munmap(b) }, nil
}
