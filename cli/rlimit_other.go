// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package main

// addressSpaceLimit: no RLIMIT_AS outside unix.
func addressSpaceLimit() (uint64, bool) { return 0, false }
