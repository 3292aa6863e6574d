// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package atomicfile writes files so that their path never holds a partial
// one: the bytes go to a temporary file in the same directory (mode 0644,
// synced), which is then renamed over the path; on any error the temporary
// file is removed. It is the one such writer for parameters, verifying keys,
// proofs, C1 outputs, metadata and caches.
package atomicfile
