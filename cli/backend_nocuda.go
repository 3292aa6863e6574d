// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !cuda

package main

// cudaBuild reports whether this binary was built with the CUDA backend (tag cuda).
const cudaBuild = false

// probeBackend fills in what the native library reports; without the cuda tag there is none
// (the bridge stub would only return bridge.ErrNoCUDA).
func probeBackend(*buildInfo) {}
