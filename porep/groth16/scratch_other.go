// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package groth16

// scratchBytes returns n bytes of zeroed memory on the Go heap (unix:
// outside it, see scratch_unix.go).
func scratchBytes(n int) ([]byte, func()) { return make([]byte, n), func() {} }
