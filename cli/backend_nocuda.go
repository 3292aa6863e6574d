// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !cuda

package cli

import "github.com/cuseal/cuseal/internal/buildinfo"

// cudaBuild reports whether this binary was built with the CUDA backend (tag cuda).
const cudaBuild = false

// probeBackend fills in what the native library reports; without the cuda tag there is none
// (the bridge stub would only return bridge.ErrNoCUDA).
func probeBackend(*buildInfo) {}

// nativeBuild fills in the native library's version and archs: none without the cuda tag.
func nativeBuild(*buildinfo.Info) {}

// gpuProbe is doctor's view of the GPUs: none without the cuda tag.
func gpuProbe() gpuFacts { return gpuFacts{} }
