// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"runtime"

	"github.com/cuseal/cuseal/internal/buildinfo"
	"github.com/cuseal/cuseal/porep"
)

// libInfo is the JSON object cuseal_porep_info returns.
type libInfo struct {
	ABIVersion    int      `json:"abi_version"`
	Version       string   `json:"version"`
	GoVersion     string   `json:"go_version"`
	OS            string   `json:"os"`
	Arch          string   `json:"arch"`
	CUDA          bool     `json:"cuda"`                     // built with -tags cuda (the native core linked in)
	NativeVersion string   `json:"native_version,omitempty"` // the linked native library (cuda builds)
	NativeError   string   `json:"native_error,omitempty"`   // why it could not be asked
	Backends      []string `json:"backends"`                 // registered proving backends
	// Warnings is every warning the calls of this process gave so far
	// (test parameters in use), in order.
	Warnings []string `json:"warnings"`
	// Build is the library's build facts, as `cuseal version --json`
	// prints a binary's (internal/buildinfo; native fields from the bridge).
	Build buildinfo.Info `json:"build"`
}

func collectInfo() libInfo {
	info := libInfo{
		ABIVersion: abiVersion,
		Version:    version,
		GoVersion:  runtime.Version(),
		OS:         runtime.GOOS,
		Arch:       runtime.GOARCH,
		CUDA:       cudaBuild,
		Backends:   porep.Backends(),
		Warnings:   testWarnings.all(),
		Build:      buildinfo.Read(),
	}
	probeNative(&info)
	info.Build.CUDA = cudaBuild
	info.Build.NativeVersion = info.NativeVersion
	return info
}
