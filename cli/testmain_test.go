// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"os"
	"testing"
)

// TestMain keeps the tests' parameter digests out of the user's cache directory.
func TestMain(m *testing.M) {
	if os.Getenv("CUSEAL_DIGEST_CACHE") == "" {
		os.Setenv("CUSEAL_DIGEST_CACHE", "off")
	}
	os.Exit(m.Run())
}
