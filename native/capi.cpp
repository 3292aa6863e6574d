// SPDX-License-Identifier: Apache-2.0 OR MIT

// capi.cpp: the only file that exports symbols (include/cuseal_native.h). Every
// entry point validates its arguments, takes the device mutex where it
// touches a device, and converts every exception into a cuseal_error.
#include <cstdio>
#include <cstring>
#include <new>

#include "backend.hpp"

using namespace cuseal;

namespace {

cuseal_error ok() {
	cuseal_error e;
	e.code = CUSEAL_OK;
	e.message[0] = 0;
	return e;
}

cuseal_error make_error(int code, const char* msg) {
	cuseal_error e;
	e.code = code;
	std::snprintf(e.message, sizeof e.message, "%s", msg);
	return e;
}

// guard runs f and maps exceptions to error codes.
template <class F>
cuseal_error guard(const char* fn, F&& f) noexcept {
	char buf[CUSEAL_ERROR_MESSAGE_SIZE];
	try {
		f();
		return ok();
	} catch (const cuseal::error& e) {
		std::snprintf(buf, sizeof buf, "%s: %s", fn, e.what());
		return make_error(e.code(), buf);
	} catch (const std::bad_alloc&) {
		std::snprintf(buf, sizeof buf, "%s: out of host memory", fn);
		return make_error(CUSEAL_ERR_OUT_OF_MEMORY, buf);
	} catch (const std::exception& e) {
		std::snprintf(buf, sizeof buf, "%s: %s", fn, e.what());
		return make_error(CUSEAL_ERR_INTERNAL, buf);
	} catch (...) {
		std::snprintf(buf, sizeof buf, "%s: unknown exception", fn);
		return make_error(CUSEAL_ERR_INTERNAL, buf);
	}
}

void need(const void* p, const char* what) {
	if (!p) fail(CUSEAL_ERR_INVALID_ARGUMENT, "%s is NULL", what);
}

void check_device_index(int32_t dev) {
	if (dev < CUSEAL_DEVICE_HOST || dev >= MAX_DEVICES)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "device index %d: want %d (host emulation) or 0..%d", dev, CUSEAL_DEVICE_HOST,
		     MAX_DEVICES - 1);
}

msm::options msm_opts(const cuseal_msm_options* o) {
	msm::options r;
	if (o) {
		r.window_bits = o->window_bits;
		r.chunk_points = o->chunk_points;
		if (o->window_bits > msm::MAX_WINDOW)
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "msm window_bits %u above %u", o->window_bits, msm::MAX_WINDOW);
	}
	return r;
}

// msm_entry is cuseal_msm_g1 and cuseal_msm_g2 (one path for both groups):
// checks the arguments, runs on_host (host emulation) or on_cuda under the
// device mutex and copies the Jacobian result out.
template <class Aff, class Jac>
cuseal_error msm_entry(const char* fn, Jac (*on_host)(const Aff*, const ff::fr_t*, uint64_t, const msm::options&),
                       Jac (*on_cuda)(int, const Aff*, const ff::fr_t*, uint64_t, const msm::options&), int32_t device,
                       const void* points, const void* scalars, uint64_t n, const cuseal_msm_options* opts,
                       void* out) {
	return guard(fn, [&] {
		need(out, "out");
		if (n) {
			need(points, "points");
			need(scalars, "scalars");
		}
		check_device_index(device);
		msm::options o = msm_opts(opts);
		auto p = static_cast<const Aff*>(points);
		auto s = static_cast<const ff::fr_t*>(scalars);
		Jac r;
		{
			std::lock_guard<std::mutex> lk(device_mutex(device));
			r = device == CUSEAL_DEVICE_HOST ? on_host(p, s, n, o) : on_cuda(device, p, s, n, o);
		}
		std::memcpy(out, &r, sizeof r);
	});
}

ntt::options ntt_opts(const cuseal_ntt_options* o) {
	need(o, "ntt options");
	if (o->log_n > CUSEAL_NTT_MAX_LOG)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "ntt log_n %u above %d", o->log_n, CUSEAL_NTT_MAX_LOG);
	if (o->in_order > 1 || o->out_order > 1)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "ntt order in=%u out=%u: want 0 (natural) or 1 (bit-reversed)", o->in_order,
		     o->out_order);
	if (o->inverse > 1 || o->coset > 1)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "ntt inverse=%u coset=%u: want 0 or 1", o->inverse, o->coset);
	ntt::options r;
	r.lg = o->log_n;
	r.inverse = o->inverse != 0;
	r.in = ntt::order(o->in_order);
	r.out = ntt::order(o->out_order);
	r.coset = o->coset != 0;
	return r;
}

} // namespace

struct cuseal_buffer {
	int32_t device;
	void* ptr;
	uint64_t bytes;
};

extern "C" {

cuseal_error cuseal_version(cuseal_version_info* out) {
	return guard("cuseal_version", [&] {
		need(out, "out");
		std::memset(out, 0, sizeof *out);
		out->abi_version = CUSEAL_ABI_VERSION;
		out->built_with_cuda = cuda_built() ? 1 : 0;
		out->cuda_runtime_version = cuda_runtime_version();
		std::snprintf(out->build, sizeof out->build, "%s", cuda_build_info());
	});
}

cuseal_error cuseal_device_count(int32_t* out) {
	return guard("cuseal_device_count", [&] {
		need(out, "out");
		*out = cuda_device_count();
	});
}

cuseal_error cuseal_device_get_info(int32_t device, cuseal_device_info* out) {
	return guard("cuseal_device_get_info", [&] {
		need(out, "out");
		std::memset(out, 0, sizeof *out);
		if (device == CUSEAL_DEVICE_HOST) {
			std::snprintf(out->name, sizeof out->name, "host emulation");
			return;
		}
		check_device_index(device);
		std::lock_guard<std::mutex> lk(device_mutex(device));
		cuda_device_info(device, out);
	});
}

cuseal_error cuseal_msm_g1(int32_t device, const void* points, const void* scalars, uint64_t n,
                           const cuseal_msm_options* opts, void* out) {
	static_assert(sizeof(ec::g1_affine) == CUSEAL_G1_AFFINE_BYTES && sizeof(ec::g1_jacobian) == CUSEAL_G1_JAC_BYTES, "");
	return msm_entry("cuseal_msm_g1", host_msm_g1, cuda_msm_g1, device, points, scalars, n, opts, out);
}

cuseal_error cuseal_msm_g2(int32_t device, const void* points, const void* scalars, uint64_t n,
                           const cuseal_msm_options* opts, void* out) {
	static_assert(sizeof(ec::g2_affine) == CUSEAL_G2_AFFINE_BYTES && sizeof(ec::g2_jacobian) == CUSEAL_G2_JAC_BYTES, "");
	return msm_entry("cuseal_msm_g2", host_msm_g2, cuda_msm_g2, device, points, scalars, n, opts, out);
}

cuseal_error cuseal_ntt(int32_t device, void* data, const cuseal_ntt_options* opts) {
	return guard("cuseal_ntt", [&] {
		need(data, "data");
		check_device_index(device);
		ntt::options o = ntt_opts(opts);
		auto d = static_cast<ff::fr_t*>(data);
		std::lock_guard<std::mutex> lk(device_mutex(device));
		if (device == CUSEAL_DEVICE_HOST)
			host_ntt(d, o);
		else
			cuda_ntt_host(device, d, o);
	});
}

cuseal_error cuseal_buffer_alloc(int32_t device, uint64_t bytes, cuseal_buffer** out) {
	return guard("cuseal_buffer_alloc", [&] {
		need(out, "out");
		*out = nullptr;
		check_device_index(device);
		auto b = new cuseal_buffer{device, nullptr, bytes};
		try {
			std::lock_guard<std::mutex> lk(device_mutex(device));
			if (device == CUSEAL_DEVICE_HOST) {
				b->ptr = std::malloc(bytes ? bytes : 1);
				if (!b->ptr) fail(CUSEAL_ERR_OUT_OF_MEMORY, "cannot allocate %llu host bytes", (unsigned long long)bytes);
			} else {
				b->ptr = cuda_alloc(device, bytes);
			}
		} catch (...) {
			delete b;
			throw;
		}
		*out = b;
	});
}

cuseal_error cuseal_buffer_free(cuseal_buffer* buf) {
	return guard("cuseal_buffer_free", [&] {
		if (!buf) return;
		{
			std::lock_guard<std::mutex> lk(device_mutex(buf->device));
			if (buf->device == CUSEAL_DEVICE_HOST)
				std::free(buf->ptr);
			else
				cuda_free(buf->device, buf->ptr);
		}
		delete buf;
	});
}

cuseal_error cuseal_buffer_size(const cuseal_buffer* buf, uint64_t* bytes) {
	return guard("cuseal_buffer_size", [&] {
		need(buf, "buf");
		need(bytes, "bytes");
		*bytes = buf->bytes;
	});
}

namespace {
void check_range(const cuseal_buffer* buf, uint64_t offset, uint64_t bytes) {
	need(buf, "buf");
	if (offset > buf->bytes || bytes > buf->bytes - offset)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "range [%llu, +%llu) outside buffer of %llu bytes", (unsigned long long)offset,
		     (unsigned long long)bytes, (unsigned long long)buf->bytes);
}
} // namespace

cuseal_error cuseal_buffer_upload(cuseal_buffer* buf, uint64_t offset, const void* src, uint64_t bytes) {
	return guard("cuseal_buffer_upload", [&] {
		check_range(buf, offset, bytes);
		if (!bytes) return;
		need(src, "src");
		char* dst = static_cast<char*>(buf->ptr) + offset;
		std::lock_guard<std::mutex> lk(device_mutex(buf->device));
		if (buf->device == CUSEAL_DEVICE_HOST)
			std::memcpy(dst, src, bytes);
		else
			cuda_upload(buf->device, dst, src, bytes);
	});
}

cuseal_error cuseal_buffer_download(const cuseal_buffer* buf, uint64_t offset, void* dst, uint64_t bytes) {
	return guard("cuseal_buffer_download", [&] {
		check_range(buf, offset, bytes);
		if (!bytes) return;
		need(dst, "dst");
		const char* src = static_cast<const char*>(buf->ptr) + offset;
		std::lock_guard<std::mutex> lk(device_mutex(buf->device));
		if (buf->device == CUSEAL_DEVICE_HOST)
			std::memcpy(dst, src, bytes);
		else
			cuda_download(buf->device, dst, src, bytes);
	});
}

cuseal_error cuseal_ntt_buffer(cuseal_buffer* buf, uint64_t offset, const cuseal_ntt_options* opts) {
	return guard("cuseal_ntt_buffer", [&] {
		ntt::options o = ntt_opts(opts);
		if (offset % sizeof(ff::fr_t))
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "ntt buffer offset %llu not a multiple of 32", (unsigned long long)offset);
		check_range(buf, offset, (uint64_t(1) << o.lg) * sizeof(ff::fr_t));
		auto d = reinterpret_cast<ff::fr_t*>(static_cast<char*>(buf->ptr) + offset);
		std::lock_guard<std::mutex> lk(device_mutex(buf->device));
		if (buf->device == CUSEAL_DEVICE_HOST)
			host_ntt(d, o);
		else
			cuda_ntt_device(buf->device, d, o);
	});
}

} // extern "C"

// ==== GPU Groth16 prover: SRS handle and query sums ==========================
// (native/srs, native/groth16; see include/cuseal_native.h "GPU Groth16 prover")
#include <chrono>
#include <unordered_map>

#include "groth16/prover.hpp"

struct cuseal_srs {
	cuseal::srs::srs impl;
};

namespace {
cuseal::srs::srs* srs_of(cuseal_srs* s) { return reinterpret_cast<cuseal::srs::srs*>(s); }
const cuseal::srs::srs* srs_of(const cuseal_srs* s) { return reinterpret_cast<const cuseal::srs::srs*>(s); }
} // namespace

extern "C" {

cuseal_error cuseal_srs_create(const cuseal_srs_vectors* v, const cuseal_srs_options* opts, cuseal_srs** out) {
	return guard("cuseal_srs_create", [&] {
		need(out, "out");
		*out = nullptr;
		need(v, "vectors");
		cuseal_srs_options o{};
		if (opts) o = *opts;
		if (o.validate > 1 || o.pin_host > 1 || o.format > CUSEAL_SRS_ZCASH)
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs options validate=%u pin_host=%u format=%u: want 0 or 1", o.validate,
			     o.pin_host, o.format);
		*out = reinterpret_cast<cuseal_srs*>(srs::create(*v, o));
	});
}

cuseal_error cuseal_srs_retain(cuseal_srs* s) {
	return guard("cuseal_srs_retain", [&] {
		need(s, "srs");
		srs::retain(srs_of(s));
	});
}

cuseal_error cuseal_srs_release(cuseal_srs* s) {
	return guard("cuseal_srs_release", [&] {
		if (s) srs::release(srs_of(s));
	});
}

cuseal_error cuseal_srs_get_info(const cuseal_srs* s, cuseal_srs_info* out) {
	return guard("cuseal_srs_get_info", [&] {
		need(s, "srs");
		need(out, "out");
		const srs::srs& x = *srs_of(s);
		std::memset(out, 0, sizeof *out);
		out->n_h = x.n[srs::Q_H];
		out->n_l = x.n[srs::Q_L];
		out->n_a = x.n[srs::Q_A];
		out->n_b_g1 = x.n[srs::Q_BG1];
		out->n_b_g2 = x.n[srs::Q_BG2];
		out->host_bytes = x.host_bytes;
		out->resident_mask = x.resident_mask.load();
		out->pinned = x.pinned ? 1 : 0;
		out->refcount = x.refs.load();
		out->pin_seconds = x.pin_seconds;
		out->create_seconds = x.create_seconds;
		static_assert(sizeof out->pin_skipped == sizeof x.pin_skipped, "");
		std::memcpy(out->pin_skipped, x.pin_skipped, sizeof out->pin_skipped);
		out->pin_skipped[sizeof out->pin_skipped - 1] = 0;
	});
}

cuseal_error cuseal_srs_evict(cuseal_srs* s, int32_t device) {
	return guard("cuseal_srs_evict", [&] {
		need(s, "srs");
		check_device_index(device);
		if (device == CUSEAL_DEVICE_HOST) return;
		std::lock_guard<std::mutex> lk(device_mutex(device));
		srs::evict_locked(srs_of(s), device);
	});
}

namespace {
// Host allocations handed out by cuseal_host_alloc: pointer → pinned.
std::mutex host_alloc_mu;
std::unordered_map<void*, bool>& host_allocs() {
	static std::unordered_map<void*, bool> m;
	return m;
}
} // namespace

cuseal_error cuseal_host_alloc(uint64_t bytes, uint32_t pinned, void** out, int32_t* is_pinned, double* seconds) {
	return guard("cuseal_host_alloc", [&] {
		need(out, "out");
		*out = nullptr;
		if (pinned > 1) fail(CUSEAL_ERR_INVALID_ARGUMENT, "pinned=%u: want 0 or 1", pinned);
		auto t0 = std::chrono::steady_clock::now();
		void* p = nullptr;
		bool pin = false;
		if (pinned) {
			char why[200] = {0};
			p = g16::cuda_host_alloc(bytes, why, sizeof why);
			pin = p != nullptr;
		}
		if (!p) {
			p = std::aligned_alloc(4096, ((bytes ? bytes : 1) + 4095) & ~uint64_t(4095));
			if (!p) fail(CUSEAL_ERR_OUT_OF_MEMORY, "cannot allocate %llu host bytes", (unsigned long long)bytes);
		}
		{
			std::lock_guard<std::mutex> lk(host_alloc_mu);
			host_allocs()[p] = pin;
		}
		*out = p;
		if (is_pinned) *is_pinned = pin ? 1 : 0;
		if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	});
}

cuseal_error cuseal_host_free(void* p) {
	return guard("cuseal_host_free", [&] {
		if (!p) return;
		bool pin;
		{
			std::lock_guard<std::mutex> lk(host_alloc_mu);
			auto it = host_allocs().find(p);
			if (it == host_allocs().end())
				fail(CUSEAL_ERR_INVALID_ARGUMENT, "pointer %p was not allocated by cuseal_host_alloc (or freed twice)", p);
			pin = it->second;
			host_allocs().erase(it);
		}
		if (pin)
			g16::cuda_host_free(p);
		else
			std::free(p);
	});
}

cuseal_error cuseal_groth16_query_sums(int32_t device, cuseal_srs* s, const cuseal_assignment* circuits, uint64_t n,
                                       const cuseal_prove_options* opts, cuseal_query_sums* out,
                                       cuseal_prove_timings* timings) {
	return guard("cuseal_groth16_query_sums", [&] {
		need(s, "srs");
		check_device_index(device);
		if (n) {
			need(circuits, "circuits");
			need(out, "out");
		}
		g16::prove_options o;
		if (opts) {
			if (opts->flags & ~CUSEAL_PROVE_SKIP_B_G2)
				fail(CUSEAL_ERR_INVALID_ARGUMENT, "prove flags 0x%x: unknown bits", opts->flags);
			if (opts->msm_window > msm::MAX_WINDOW)
				fail(CUSEAL_ERR_INVALID_ARGUMENT, "msm_window %u above %u", opts->msm_window, msm::MAX_WINDOW);
			o.skip_b_g2 = (opts->flags & CUSEAL_PROVE_SKIP_B_G2) != 0;
			o.split_mode = int(opts->split_mode);
			o.msm_window = opts->msm_window;
		}
		std::vector<g16::sums> res(n);
		g16::query_sums(device, *srs_of(s), circuits, n, o, res.data(), timings);
		for (uint64_t i = 0; i < n; i++) {
			static_assert(sizeof(res[i].h) == CUSEAL_G1_JAC_BYTES && sizeof(res[i].b_g2) == CUSEAL_G2_JAC_BYTES, "");
			std::memcpy(out[i].h, &res[i].h, CUSEAL_G1_JAC_BYTES);
			std::memcpy(out[i].l, &res[i].l, CUSEAL_G1_JAC_BYTES);
			std::memcpy(out[i].a, &res[i].a, CUSEAL_G1_JAC_BYTES);
			std::memcpy(out[i].b_g1, &res[i].b_g1, CUSEAL_G1_JAC_BYTES);
			std::memcpy(out[i].b_g2, &res[i].b_g2, CUSEAL_G2_JAC_BYTES);
		}
	});
}

} // extern "C"
