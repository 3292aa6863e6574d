// SPDX-License-Identifier: Apache-2.0 OR MIT

// prover.cpp: cuseal_groth16_query_sums behind the C ABI: validation and
// planning on the host (outside the device mutex), then the device part under
// device_mutex(dev).
#include <mutex>

#include "prover_impl.cuh"

namespace cuseal::g16 {

void query_sums(int dev, srs::srs& s, const cuseal_assignment* cs, size_t n, const prove_options& o, sums* out,
                cuseal_prove_timings* tp) {
	cuseal_prove_timings t{};
	stopwatch total, sw;
	check_batch(s, cs, n);
	batch_plan p;
	plan_batch(s, cs, n, o.split_mode, p);
	for (int q = 0; q < NPQ; q++) {
		t.split[q] = p.q[q].split ? 1 : 0;
		t.tail[q] = p.q[q].split ? p.q[q].tail_slots.size() : p.q[q].slots;
		t.ones[q] = p.q[q].ones_total;
	}
	t.prep = sw.lap();
	if (n) {
		std::unique_lock<std::mutex> lk(device_mutex(dev));
		t.wait_lock = sw.lap();
		if (dev == CUSEAL_DEVICE_HOST)
			run_host(s, p, cs, o, out, t);
		else
			run_cuda(dev, s, p, cs, o, out, t);
	}
	t.total = total.lap();
	if (tp) *tp = t;
}

} // namespace cuseal::g16
