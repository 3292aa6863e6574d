// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package synthetic is benchmark and test support: correctly shaped but
// cryptographically invalid C1 outputs (C1) for any sector size, so that
// synthesis of 32 and 64 GiB partitions can be measured and tested without
// sealing. Only `cuseal bench` commands and tests import it; nothing it makes
// can become a proof (its C1 carries stacked.SyntheticMarkerField, which
// every prover entry refuses with stacked.ErrSyntheticC1).
package synthetic
