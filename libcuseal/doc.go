// SPDX-License-Identifier: Apache-2.0 OR MIT

// Command libcuseal is not a program: it is the Go side of libcuseal, the C
// ABI declared in include/cuseal_porep.h (Filecoin PoRep commit phase 2 and
// seal verification, WindowPoSt and WinningPoSt, SnapDeals, SnarkPack
// aggregation and test parameters, under filecoin-ffi's names, for C, C++,
// Rust and Python callers). Build it as a library:
//
//	go build -buildmode=c-shared -o build/lib/libcuseal.so ./libcuseal
//	go build -buildmode=c-archive -o build/lib/libcuseal.a ./libcuseal
//
// or run `./build.sh lib`, which builds both and copies the header next to
// them. With -tags cuda (and the native library from `./build.sh cuda`,
// found through build/native/cuseal.pc on PKG_CONFIG_PATH, which build.sh
// sets) the library carries the native CUDA core and offers the "cuda"
// backend, exactly as bin/cuseal-cuda does.
//
// Every function of the header is a C entry point (entry.go) that refuses
// a call from a forked child without touching the Go runtime, then calls
// its Go side, a cgo export named libcuseal_go_<call> (entry.h): a thin
// shell over package porep that converts the C arguments (args.go: arrays
// copied and checked, naming the argument, index and field; options.go:
// cuseal_porep_options), calls the Go API, and returns through one frame
// (call.go: outputs cleared and checked, the error mapped to a status code
// — the CLI's exit-code classes — and a "libcuseal: CALL: ..." message,
// panics recovered). No proving logic lives here; aggregate_seal_proofs
// only verifies the aggregate it returns. exports.go holds the version 1
// calls, exports_post.go, exports_update.go and exports_aggregate.go those
// of version 2; ctypes.go names the C types for the tests, which call the
// Go side in-process.
package main
