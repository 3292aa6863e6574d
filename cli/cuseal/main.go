// SPDX-License-Identifier: Apache-2.0 OR MIT

// Command cuseal is the cuseal command line (package cli): `go install
// github.com/cuseal/cuseal/cli/cuseal@vX.Y.Z` installs it as cuseal.
package main

import "github.com/cuseal/cuseal/cli"

func main() { cli.Main() }
