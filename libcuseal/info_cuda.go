// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda

package main

import (
	"fmt"

	"github.com/cuseal/cuseal/bridge"
)

// cudaBuild reports whether the library was built with -tags cuda.
const cudaBuild = true

// probeNative asks the linked native library for its version.
func probeNative(info *libInfo) {
	v, err := bridge.Version()
	if err != nil {
		info.NativeError = err.Error()
		return
	}
	info.NativeVersion = fmt.Sprintf("ABI %d, %s", v.ABIVersion, v.Build)
}
