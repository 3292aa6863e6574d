// SPDX-License-Identifier: Apache-2.0 OR MIT

// srs.hpp: the Groth16 proving-key image behind cuseal_srs (include/cuseal_native.h):
// the h, l, a, b_g1, b_g2 queries in one host allocation owned by the
// library, a reference count, optional page-locking (cudaHostRegister, timed
// once) and per-device resident copies made on first use by the prover.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "backend.hpp"

namespace cuseal::srs {

using ec::g1_affine;
using ec::g2_affine;

// Query indices, in file order after h.
enum query : int { Q_H = 0, Q_L = 1, Q_A = 2, Q_BG1 = 3, Q_BG2 = 4, NQUERY = 5 };
const char* query_name(int q);

// device_image: one device's resident copy (device pointers), or empty.
struct device_image {
	void* base = nullptr;
	uint64_t bytes = 0;
	const void* q[NQUERY] = {};
};

struct srs {
	// Host image: the five queries back to back, each 4 KiB aligned.
	void* host = nullptr;
	uint64_t host_bytes = 0;
	const g1_affine *h = nullptr, *l = nullptr, *a = nullptr, *b_g1 = nullptr;
	const g2_affine* b_g2 = nullptr;
	uint64_t n[NQUERY] = {};
	uint64_t off[NQUERY] = {}; // byte offsets of the queries in the host image

	std::atomic<int> refs{1};
	bool pinned = false;
	double pin_seconds = 0, create_seconds = 0;
	char pin_skipped[128] = {}; // why a requested pin was not done (cuseal_srs_info.pin_skipped)

	// Resident copies per CUDA device; touched only under device_mutex(d).
	device_image dev[MAX_DEVICES];
	std::atomic<uint64_t> resident_mask{0};

	const void* query_ptr(int q) const { return static_cast<const char*>(host) + off[q]; }
	uint64_t query_bytes(int q) const { return n[q] * (q == Q_BG2 ? sizeof(g2_affine) : sizeof(g1_affine)); }

	// domain_log: log2(n_h + 1), the FFT domain of the H polynomial (0 when n_h = 0).
	unsigned domain_log() const;
	~srs();
};

// create copies v into a new srs (refcount 1), validating shapes and, when
// opts->validate, every point (on curve, not infinity). Throws cuseal::error.
srs* create(const cuseal_srs_vectors& v, const cuseal_srs_options& opts);
// create_tiled builds an srs with query lengths n[] whose points repeat the
// given tiles (for benchmarks of large shapes: MSM cost does not depend on
// the points being distinct). No validation, no pinning.
srs* create_tiled(const uint64_t n[NQUERY], const g1_affine* t1, size_t nt1, const g2_affine* t2, size_t nt2);
void retain(srs* s);
void release(srs* s);

// evict frees s's resident copy on CUDA device d. Caller holds device_mutex(d).
void evict_locked(srs* s, int d);

} // namespace cuseal::srs
