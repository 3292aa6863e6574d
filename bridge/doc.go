// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package bridge is the cgo boundary between Go and the native C++/CUDA
// library (libcuseal_native.a, include/cuseal_native.h): multi-scalar
// multiplication over BLS12-381 G1 and G2, the Fr number-theoretic transform,
// long-lived device buffers, the SRS handle and the GPU Groth16 prover's
// query sums (SRS.QuerySums).
//
// Build: with the tag `cuda` (and cgo) the package links the native library
// through pkg-config (`#cgo pkg-config: cuseal`): the CMake build writes
// cuseal.pc into its build directory (build/native/cuseal.pc for
// ./build.sh), naming include/ and libcuseal_native.a + libcuseal_cudart.a,
// so put that directory on PKG_CONFIG_PATH (./build.sh does). Without the
// tag every function returns ErrNoCUDA; nothing panics. A native library
// built without nvcc (CUSEAL_CUDA=OFF) also links: DeviceCount is then 0 and
// only the host emulation (HostDevice) works.
//
// At init the package checks the library against itself (checkLibrary): the
// ABI version of the header and of the linked library, the type sizes, the
// error codes and the constants mirrored here; a mismatch makes every call
// return one error that names it.
//
// Data crosses the boundary without conversion: fr.Element, G1Affine,
// G2Affine, G1Jac and G2Jac have the layout the native code uses
// (gnark-crypto v0.22.0, Montgomery form, little-endian 64-bit limbs).
// Go memory passed in is used only during the call.
//
// Every call names its device: 0..DeviceCount()-1, or HostDevice for the host
// emulation, which runs the same kernel bodies on the CPU (slow; for tests).
package bridge
