// SPDX-License-Identifier: Apache-2.0 OR MIT

// msm_impl.cuh: one sppark MSM behind cuseal::spk::msm_g1/msm_g2. Included by
// sppark_msm_g1.cu / sppark_msm_g2.cu after they define sppark's point_t,
// bucket_t, affine_t and scalar_t and include <msm/pippenger.cuh>.
#pragma once

#include <cstring>
#include <type_traits>

#include "common.cuh"
#include "sppark.hpp"

namespace cuseal::spk::detail {

// dptr marks a device pointer for msm_t::invoke (sppark's is_device_ptr).
template <class T>
struct dptr {
	const T* p;
	const T& operator[](size_t i) const { return p[i]; }
};

} // namespace cuseal::spk::detail

template <class T>
struct is_device_ptr<cuseal::spk::detail::dptr<T>> {
	static const bool value{true};
};

namespace cuseal::spk::detail {

template <size_t AffBytes, size_t JacBytes>
void msm(int dev, const void* points, bool points_dev, const void* scalars, bool scalars_dev, size_t n, void* out,
         const char* what) {
#ifndef __CUDA_ARCH__ // host types (in the device pass an fp2_t is one lane's half)
	static_assert(sizeof(affine_t) == AffBytes, "sppark affine_t layout differs from ours");
	static_assert(sizeof(point_t) == JacBytes, "sppark jacobian_t layout differs from ours");
	static_assert(sizeof(scalar_t) == 32, "sppark fr_t layout differs from ours");
#endif
	point_t r;
	r.inf();
	if (n > 0) {
		const gpu_t& g = gpu(dev, what);
		const auto* P = static_cast<const affine_t*>(points);
		const auto* S = static_cast<const scalar_t*>(scalars);
		try {
			msm_t<bucket_t, point_t, affine_t, scalar_t> m(static_cast<const affine_t*>(nullptr), n,
			                                               sizeof(affine_t), g.id());
			RustError e;
			if (points_dev && scalars_dev)
				e = m.invoke(r, dptr<affine_t>{P}, n, dptr<scalar_t>{S}, true);
			else if (points_dev)
				e = m.invoke(r, dptr<affine_t>{P}, n, S, true);
			else if (scalars_dev)
				e = m.invoke(r, P, n, dptr<scalar_t>{S}, true);
			else
				e = m.invoke(r, P, n, S, true);
			check(e, what);
		} catch (const cuda_error& e) {
			cudaGetLastError();
			raise(e.code(), what, e.what());
		}
	}
	std::memcpy(out, &r, JacBytes);
}

} // namespace cuseal::spk::detail
