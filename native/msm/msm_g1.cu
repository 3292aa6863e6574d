// SPDX-License-Identifier: Apache-2.0 OR MIT

// msm_g1.cu: the G1 MSM on a CUDA device: sppark's kernels (sppark/sppark.hpp) unless
// kernels.hpp selects the reference set (ref_pippenger.cuh with cuda_exec).
#include "../backend.hpp"
#include "../exec/exec_cuda.cuh"
#include "../kernels.hpp"
#include "../sppark/sppark.hpp"

namespace cuseal {

void check_device(int dev); // backend_cuda.cu

ec::g1_jacobian cuda_msm_g1(int dev, const ec::g1_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o) {
	if (n == 0) return ec::g1_jacobian::infinity();
	check_device(dev);
	if (o.window_bits == 0 && o.chunk_points == 0 && kernels_for(dev) == kernel_set::sppark) {
		ec::g1_jacobian r;
		spk::msm_g1(dev, p, false, s, false, n, &r);
		return r;
	}
	cuda_exec ex(dev);
	return msm::run<cuda_exec, ec::g1_affine, ec::g1_xyzz, ec::g1_jacobian>(ex, p, s, n, o);
}

} // namespace cuseal
