// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package atomicfile

import "os"

// holdTemp: no advisory locks here; abandoned temporary files are not swept.
func holdTemp(*os.File) {}

func probe(string) lockState { return lockUnknown }
