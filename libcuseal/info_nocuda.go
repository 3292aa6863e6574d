// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !cuda

package main

// cudaBuild reports whether the library was built with -tags cuda.
const cudaBuild = false

// probeNative: without the cuda tag no native library is linked.
func probeNative(*libInfo) {}
