// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package atomicfile

const lockable = false
