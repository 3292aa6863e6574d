// SPDX-License-Identifier: Apache-2.0 OR MIT

// prover_host.cpp: the Groth16 driver in host emulation (device index
// CUSEAL_DEVICE_HOST): the same kernel bodies over the same grids, "device"
// memory in host allocations and the SRS bases read in place from the host
// image (always "resident").
#include <cstdlib>
#include <cstring>

#include "prover_impl.cuh"

namespace cuseal::g16 {

bool srs_host_path_forced() {
	const char* v = std::getenv("CUSEAL_SRS_RESIDENT");
	return v && std::strcmp(v, "host") == 0;
}

namespace {
struct host_bases {
	srs::srs& s;
	bool host_path = srs_host_path_forced(); // exercise the device-memory fallback
	template <class Aff>
	const Aff* get(int q) { return host_path ? nullptr : static_cast<const Aff*>(s.query_ptr(q)); }
	void done(int) {}
};
} // namespace

void run_host(srs::srs& s, const batch_plan& p, const cuseal_assignment* cs, const prove_options& o, sums* out,
              cuseal_prove_timings& t) {
	host_exec ex;
	host_bases b{s};
	t.resident = 1;
	run_batch(ex, b, ntt::tables{host_ntt_tables().data()}, s, p, cs, o, out, t);
}

} // namespace cuseal::g16
