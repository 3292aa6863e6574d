// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

// version is libcuseal's version string (as the CLI's); release builds set
// it with -ldflags "-X main.version=v1.2.3".
var version = "0.1.0-dev"

// abiVersion is CUSEAL_POREP_ABI_VERSION (include/cuseal_porep.h), which
// exports.go checks at compile time.
const abiVersion = 3

// main is required by -buildmode=c-shared and c-archive and never runs.
func main() {}
