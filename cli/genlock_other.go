// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package cli

// lockFile: no advisory locks here; concurrent runs are not detected.
func lockFile(string) (func(), bool, error) { return func() {}, false, nil }
