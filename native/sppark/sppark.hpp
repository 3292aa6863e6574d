// SPDX-License-Identifier: Apache-2.0 OR MIT

// sppark.hpp: the fast kernel set of the CUDA build — sppark's (supranational,
// Apache-2.0, crate sppark =0.1.16) Pippenger MSM and multi-step NTT
// instantiated for BLS12-381 in sppark_*.cu. sppark's headers come from the
// crate's source in cargo's registry cache (scripts/sppark-root.sh → CMake
// SPPARK_ROOT); nothing of sppark is copied into this repository.
//
// This header includes nothing of sppark, so our sources and sppark's (whose
// fr_t/fp_t live in the global namespace) never meet in one translation unit.
//
// Memory layouts (checked by native/tests/test_sppark_layout.cpp):
//   Fr, Fp  sppark device fr_t/fp_t are mont_t over 8/12 32-bit limbs, host
//           blst_256_t/blst_384_t over 4/6 64-bit limbs, both little-endian
//           Montgomery with R = 2^256 (Fr) / 2^384 (Fp): byte-identical to
//           gnark-crypto's fr.Element / fp.Element (our ff::fr_t, ff::fp_t).
//   Fp2     (c0, c1) = gnark-crypto E2 (A0, A1).
//   affine  sppark Affine_t (X, Y), infinity (0, 0) = our affine_t.
//   jacobian sppark jacobian_t (X, Y, Z), infinity Z = 0 = our jacobian_t.
// So points and scalars go to sppark as they are; no conversion pass.
// Scalars are passed in Montgomery form (sppark's mont = true converts them
// to canonical digits on the device).
#pragma once

#include <cstddef>

namespace cuseal::spk {

// built: the library was compiled with sppark (CUSEAL_SPPARK=ON).
bool built();
// version: the sppark crate version compiled in ("0.1.16"), "" when not built.
const char* version();
// gpu_index: sppark's index of CUDA device dev, or -1 when sppark does not
// list it (compute capability < 7.0 or no cooperative launch).
int gpu_index(int dev);

// msm_g1 / msm_g2: *out = Σ scalars[i]·points[i], i < n, on CUDA device dev.
// points (affine, 96/192 bytes each) and scalars (Montgomery Fr) are each in
// host memory or in device memory of dev (*_dev). out: one Jacobian point in
// our layout (144/288 bytes). Throws cuseal::error.
void msm_g1(int dev, const void* points, bool points_dev, const void* scalars, bool scalars_dev, size_t n,
            void* out);
void msm_g2(int dev, const void* points, bool points_dev, const void* scalars, bool scalars_dev, size_t n,
            void* out);

// ntt transforms 2^lg Fr elements in device memory of dev in place.
// in_bitrev / out_bitrev: input and output order (natural or bit-reversed);
// inverse includes the 1/n scaling; coset: forward multiplies x_j by g^j
// first, inverse multiplies the result by g^(-j), g = 7 (as ntt/ref_ntt.cuh).
// stream (a cudaStream_t, may be null) is synchronised before the transform
// so earlier work on it is ordered before; the call returns when done.
void ntt(int dev, void* d_data, unsigned lg, bool in_bitrev, bool out_bitrev, bool inverse, bool coset,
         void* stream);

} // namespace cuseal::spk
