// SPDX-License-Identifier: Apache-2.0 OR MIT

// sppark_msm_g1.cu: sppark's Pippenger MSM (msm/pippenger.cuh) for
// BLS12-381 G1: XYZZ buckets over Fp, Jacobian result, Fr scalars.
#include "prefix.hpp"

#include "msm_pre.hpp"

#include <ff/bls12-381.hpp>
#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>

typedef jacobian_t<fp_t> point_t;
typedef xyzz_t<fp_t> bucket_t;
typedef bucket_t::affine_t affine_t;
typedef fr_t scalar_t;

#define sort cuseal_spk_sort_g1 // see msm_pre.hpp
#include <msm/pippenger.cuh>
#undef sort

#include "msm_impl.cuh"

namespace cuseal::spk {

void msm_g1(int dev, const void* points, bool points_dev, const void* scalars, bool scalars_dev, size_t n,
            void* out) {
	detail::msm<96, 144>(dev, points, points_dev, scalars, scalars_dev, n, out, "msm g1");
}

} // namespace cuseal::spk
