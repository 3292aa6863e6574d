// SPDX-License-Identifier: Apache-2.0 OR MIT

// backend_host.cpp: host emulation of the MSM and NTT drivers (device index
// CUSEAL_DEVICE_HOST) and the per-device mutexes.
#include "backend.hpp"

namespace cuseal {

std::mutex& device_mutex(int dev) {
	static std::mutex m[MAX_DEVICES + 1];
	if (dev < -1 || dev >= MAX_DEVICES) fail(CUSEAL_ERR_INVALID_ARGUMENT, "device index %d out of range", dev);
	return m[dev + 1];
}

ec::g1_jacobian host_msm_g1(const ec::g1_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o) {
	host_exec ex;
	return msm::run<host_exec, ec::g1_affine, ec::g1_xyzz, ec::g1_jacobian>(ex, p, s, n, o);
}

ec::g2_jacobian host_msm_g2(const ec::g2_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o) {
	host_exec ex;
	return msm::run<host_exec, ec::g2_affine, ec::g2_xyzz, ec::g2_jacobian>(ex, p, s, n, o);
}

const std::vector<ff::fr_t>& host_ntt_tables() {
	static const std::vector<ff::fr_t> t = [] {
		std::vector<ff::fr_t> v;
		ntt::build_tables(v);
		return v;
	}();
	return t;
}

void host_ntt(ff::fr_t* data, const ntt::options& o) {
	host_exec ex;
	ntt::run(ex, data, o, ntt::tables{host_ntt_tables().data()});
}

} // namespace cuseal
