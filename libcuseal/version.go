// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import "github.com/cuseal/cuseal/internal/buildinfo"

// version is libcuseal's version string, cuseal_porep_info's "version": cuseal's release
// (internal/buildinfo, its one home).
const version = buildinfo.Version
