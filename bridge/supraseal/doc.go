// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package supraseal proves Groth16 circuits with supraseal-c2 (Supranational's CUDA prover,
// the one bellperson's cuda-supraseal feature and Curio use), linked through cgo from the
// Rust staticlib native/supraseal (a shim with the C ABI of native/supraseal/cuseal_supraseal.h).
//
// It is compiled in with the build tag supraseal (./build.sh supraseal builds the staticlib
// with cargo, then bin/cuseal-supraseal); without the tag every entry point returns
// ErrNotBuilt. The package knows nothing of PoRep: it takes synthesized circuits (a, b, c,
// assignments, densities) and the blinding (r, s), and returns whole proofs.
//
// Layouts: gnark-crypto's fr.Element / fp.Element are Montgomery little-endian 64-bit limbs,
// which is exactly sppark's host fr_t / fp_t (blst), so scalars go to supraseal and points come
// back without any conversion or copy (see cuseal_supraseal.h).
package supraseal
