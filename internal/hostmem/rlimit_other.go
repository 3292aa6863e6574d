// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package hostmem

// AddressSpaceLimit: no RLIMIT_AS outside unix.
func AddressSpaceLimit() (uint64, bool) { return 0, false }
