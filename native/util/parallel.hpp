// SPDX-License-Identifier: Apache-2.0 OR MIT

// parallel.hpp: parallel_for, the host-side range split used by the SRS
// decoding/validation, the batch planner and the prover's host steps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace cuseal {

// parallel_for runs f(lo, hi) over [0, n) split into up to `threads` ranges
// (0 = hardware concurrency) of at least `grain` indices, on std::threads;
// the calling thread runs the first range. n < 2·grain runs f(0, n) inline.
template <class F>
void parallel_for(uint64_t n, unsigned threads, F&& f, uint64_t grain = 2048) {
	if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
	if (grain == 0) grain = 1;
	if (n < 2 * grain || threads == 1) {
		f(uint64_t(0), n);
		return;
	}
	uint64_t parts = std::min<uint64_t>(threads, n / grain);
	std::vector<std::thread> th;
	uint64_t step = (n + parts - 1) / parts;
	for (uint64_t lo = step; lo < n; lo += step) th.emplace_back([&f, lo, step, n] { f(lo, std::min(n, lo + step)); });
	f(0, std::min(n, step));
	for (auto& t : th) t.join();
}

} // namespace cuseal
