// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

// abiVersion is CUSEAL_POREP_ABI_VERSION (include/cuseal_porep.h), which
// exports.go checks at compile time.
const abiVersion = 3

// main is required by -buildmode=c-shared and c-archive and never runs.
func main() {}
