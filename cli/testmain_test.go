// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/cuseal/cuseal/testsupport/testprover"
)

// TestMain keeps the tests' parameter digests out of the user's cache directory. With
// CUSEAL_TEST_AS_CUSEAL=1 the test binary is the cuseal command instead (its arguments are
// cuseal's), for tests that need a separate process (serve: signals, kill -9); it knows the
// reference prover doubles (--backend reference, reference-any-rs: testsupport/testprover).
func TestMain(m *testing.M) {
	if os.Getenv("CUSEAL_TEST_AS_CUSEAL") == "1" {
		if err := testprover.RegisterMain(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(run(append([]string{"cuseal"}, os.Args[1:]...), os.Stdout, os.Stderr))
	}
	if os.Getenv("CUSEAL_DIGEST_CACHE") == "" {
		os.Setenv("CUSEAL_DIGEST_CACHE", "off")
	}
	os.Exit(m.Run())
}
