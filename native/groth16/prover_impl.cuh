// SPDX-License-Identifier: Apache-2.0 OR MIT

// prover_impl.cuh: the Groth16 query-sum driver, a template over the
// executor (Exec) and the source of SRS bases on it (Bases). For a planned
// batch (plan.hpp) it runs, per circuit:
//   H chain  a, b, c uploaded into three m-element buffers (zero tail);
//            each: inverse NTT (natural → bit-reversed) then coset NTT
//            (bit-reversed → natural) on 7·⟨ω⟩; a = (a·b − c)·(7^m − 1)⁻¹;
//            inverse coset NTT (natural → natural): the coefficients of H;
//            H MSM over the first m − 1 of them (device-resident scalars; they
//            come down only on the host path);
//   L, A, B_G1, B_G2  per query: if split, the union tail bases are gathered
//            once for the batch, each circuit's tail scalars go through the
//            MSM and its 1-slots through the batch addition; otherwise one MSM
//            over the density-compacted scalars.
// The MSMs and NTTs go through the Kernels hooks first (reference_kernels:
// none; prover_cuda.cu: sppark's, see kernels.hpp); the pointwise step, base
// gathering and the 0/1 batch addition are always ours.
// Bases must provide get<Aff>(q) (an executor pointer to SRS query q, valid
// until done(q), or nullptr when q cannot be placed in executor memory: then
// that query runs on the host path, msm::run over host bases in chunks) and
// done(q).
#pragma once

#include <chrono>

#include "kernels.cuh"
#include "plan.hpp"
#include "prover.hpp"
#include "../ntt/ref_ntt.cuh"
#include "../util/parallel.hpp"

namespace cuseal::g16 {

struct stopwatch {
	std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
	double lap() {
		auto now = std::chrono::steady_clock::now();
		double s = std::chrono::duration<double>(now - t).count();
		t = now;
		return s;
	}
};

// Point-type bundles for the per-query lambda in run_batch.
struct g1_tag {
	using aff = ec::g1_affine;
	using xyzz = ec::g1_xyzz;
	using jac = ec::g1_jacobian;
};
struct g2_tag {
	using aff = ec::g2_affine;
	using xyzz = ec::g2_xyzz;
	using jac = ec::g2_jacobian;
};

// query_host computes one query's sums with the SRS bases in host memory
// (when the query cannot be placed on the device): per circuit the core's
// chunked, double-buffered msm::run over the tail bases (gathered on the
// host) followed by the circuit's 1-slot bases with scalar 1.
template <class Exec, class Aff, class Xyzz, class Jac, class Kernels, class Store>
void query_host(Exec& ex, Kernels& kn, const Aff* q, const query_plan& qp, size_t n, const msm::options& mo,
                Store&& store) {
	// run: the hook's MSM over host data, else the core's chunked msm::run.
	auto run = [&](const Aff* pts, const fr_t* sc, uint64_t m) {
		Jac r;
		if (kn.msm(ex, pts, false, sc, false, m, mo.window_bits, r)) return r;
		return msm::run<Exec, Aff, Xyzz, Jac>(ex, pts, sc, m, mo);
	};
	if (!qp.split) {
		for (size_t i = 0; i < n; i++) store(i, run(q, qp.sc[i].p, qp.slots));
		return;
	}
	const uint64_t tail = qp.tail_slots.size();
	std::vector<Aff> b(tail);
	parallel_for(tail, 0, [&](uint64_t lo, uint64_t hi) {
		for (uint64_t k = lo; k < hi; k++) b[k] = q[qp.tail_slots[k]];
	});
	std::vector<fr_t> sc;
	for (size_t i = 0; i < n; i++) {
		const std::vector<uint32_t>& ones = qp.ones[i];
		b.resize(tail + ones.size());
		for (size_t k = 0; k < ones.size(); k++) b[tail + k] = q[ones[k]];
		sc.assign(qp.sc[i].p, qp.sc[i].p + tail);
		sc.resize(tail + ones.size(), fr_t::one());
		store(i, run(b.data(), sc.data(), b.size()));
	}
}

// reference_kernels: run_batch's kernel hooks when everything runs on our
// kernels (host emulation; CUDA with CUSEAL_KERNELS=reference). A Kernels
// type provides
//   bool ntt(ex, d, opts)  — transform executor data d, or return false;
//   bool msm(ex, points, points_dev, scalars, scalars_dev, n, window, out)
//                          — Σ scalars·points into out (Jacobian), or false.
// Returning false runs the reference code (ntt::run, msm_resident, msm::run).
struct reference_kernels {
	template <class Exec>
	bool ntt(Exec&, fr_t*, const ntt::options&) {
		return false;
	}
	template <class Exec, class Aff, class Jac>
	bool msm(Exec&, const Aff*, bool, const fr_t*, bool, uint64_t, unsigned, Jac&) {
		return false;
	}
};

template <class Exec, class Bases, class Kernels = reference_kernels>
void run_batch(Exec& ex, Bases& bases, ntt::tables tw, srs::srs& s, const batch_plan& p,
               const cuseal_assignment* cs, const prove_options& o, sums* out, cuseal_prove_timings& t,
               Kernels kn = Kernels{}) {
	using ec::g1_affine;
	using ec::g1_jacobian;
	using ec::g1_xyzz;
	using ec::g2_affine;
	using ec::g2_jacobian;
	using ec::g2_xyzz;
	stopwatch sw;
	msm::options host_opts;
	host_opts.window_bits = o.msm_window;

	// ---- H --------------------------------------------------------------
	for (size_t i = 0; i < p.n; i++) out[i].h = g1_jacobian::infinity();
	if (s.n[srs::Q_H] > 0) {
		const unsigned lg = p.lg;
		const size_t m = size_t(1) << lg;
		const fr_t g = fr_t::from_u64(7);
		const fr_t zinv = (g.pow_u64(m) - fr_t::one()).inv();
		ntt::options to_coeff, to_coset, from_coset;
		to_coeff.lg = to_coset.lg = from_coset.lg = lg;
		to_coeff.inverse = true, to_coeff.in = ntt::NATURAL, to_coeff.out = ntt::BIT_REVERSED;
		to_coset.coset = true, to_coset.in = ntt::BIT_REVERSED, to_coset.out = ntt::NATURAL;
		from_coset.inverse = true, from_coset.coset = true, from_coset.in = from_coset.out = ntt::NATURAL;
		dbuf<Exec, fr_t> da(ex, m), db(ex, m), dc(ex, m);
		fr_t* d[3] = {da.get(), db.get(), dc.get()};
		sw.lap();
		const g1_affine* hb = nullptr;
		bool h_host = false;
		for (size_t i = 0; i < p.n; i++) {
			const cuseal_assignment& c = cs[i];
			const void* src[3] = {c.a, c.b, c.c};
			// Vector k's upload (copy stream) overlaps the NTTs of vector k−1:
			// copies from pageable memory block the host while staging, so
			// each copy is issued after the previous vector's kernels.
			for (int k = 0; k < 3; k++) {
				ex.h2d(d[k], src[k], c.abc_size * sizeof(fr_t), STREAM_COPY);
				ex.zero(d[k] + c.abc_size, (m - c.abc_size) * sizeof(fr_t), STREAM_COPY);
				ex.record(k, STREAM_COPY);
				t.upload += sw.lap();
				ex.wait(STREAM_COMPUTE, k);
				if (!kn.ntt(ex, d[k], to_coeff)) ntt::run(ex, d[k], to_coeff, tw);
				if (!kn.ntt(ex, d[k], to_coset)) ntt::run(ex, d[k], to_coset, tw);
			}
			ex.template launch<k_hpoint>(m, STREAM_COMPUTE, d[0], (const fr_t*)d[1], (const fr_t*)d[2], zinv);
			if (!kn.ntt(ex, d[0], from_coset)) ntt::run(ex, d[0], from_coset, tw);
			ex.sync();
			t.h_ntt += sw.lap();
			if (!hb && !h_host) {
				hb = bases.template get<g1_affine>(srs::Q_H);
				h_host = hb == nullptr;
				t.upload += sw.lap();
			}
			if (hb) {
				if (!kn.msm(ex, hb, true, d[0], true, m - 1, o.msm_window, out[i].h))
					out[i].h = msm_resident<Exec, g1_affine, g1_xyzz, g1_jacobian>(ex, hb, d[0], m - 1, o.msm_window);
			} else { // host path: coefficients down, the core's chunked MSM over host bases
				std::vector<fr_t> coef(m - 1);
				ex.d2h(coef.data(), d[0], (m - 1) * sizeof(fr_t), STREAM_COMPUTE);
				ex.sync();
				if (!kn.msm(ex, s.h, false, coef.data(), false, m - 1, o.msm_window, out[i].h))
					out[i].h = msm::run<Exec, g1_affine, g1_xyzz, g1_jacobian>(ex, s.h, coef.data(), m - 1, host_opts);
			}
			t.h_msm += sw.lap();
		}
		bases.done(srs::Q_H);
	}

	// ---- L, A, B_G1, B_G2 -----------------------------------------------
	auto query = [&](auto tag, int sq, const query_plan& qp, auto&& store, double& acc) {
		using Aff = typename decltype(tag)::aff;
		using Xyzz = typename decltype(tag)::xyzz;
		using Jac = typename decltype(tag)::jac;
		sw.lap();
		const Aff* base = bases.template get<Aff>(sq);
		t.upload += sw.lap();
		if (!base) { // host path: bases stay in host memory, the core's chunked MSM
			query_host<Exec, Aff, Xyzz, Jac>(ex, kn, static_cast<const Aff*>(s.query_ptr(sq)), qp, p.n, host_opts,
			                                  [&](size_t i, const Jac& r) { store(out[i], r); });
			acc += sw.lap();
			return;
		}
		const Aff* msm_base = base;
		const uint64_t tail = qp.split ? qp.tail_slots.size() : qp.slots;
		dbuf<Exec, Aff> gathered(ex, qp.split ? tail : 0);
		if (qp.split && tail) {
			dbuf<Exec, uint32_t> idx(ex, tail);
			ex.h2d(idx.get(), qp.tail_slots.data(), tail * 4, STREAM_COMPUTE);
			ex.template launch<k_gather<Aff>>(tail, STREAM_COMPUTE, gathered.get(), base, (const uint32_t*)idx.get());
			ex.sync();
			msm_base = gathered.get();
		}
		uint64_t max_ones = 0;
		for (size_t i = 0; i < p.n; i++)
			if (qp.split) max_ones = std::max<uint64_t>(max_ones, qp.ones[i].size());
		dbuf<Exec, fr_t> sc(ex, tail);
		dbuf<Exec, uint32_t> ones(ex, max_ones);
		for (size_t i = 0; i < p.n; i++) {
			ex.h2d(sc.get(), qp.sc[i].p, tail * sizeof(fr_t), STREAM_COMPUTE);
			Jac r;
			if (!kn.msm(ex, msm_base, true, (const fr_t*)sc.get(), true, tail, o.msm_window, r))
				r = msm_resident<Exec, Aff, Xyzz, Jac>(ex, msm_base, sc.get(), tail, o.msm_window);
			if (qp.split && !qp.ones[i].empty()) {
				ex.h2d(ones.get(), qp.ones[i].data(), qp.ones[i].size() * 4, STREAM_COMPUTE);
				Xyzz b = batch_add<Exec, Aff, Xyzz>(ex, base, ones.get(), qp.ones[i].size());
				r = r.add(b.to_jacobian());
			}
			store(out[i], r);
		}
		ex.sync();
		bases.done(sq);
		acc += sw.lap();
	};
	query(g1_tag{}, srs::Q_L, p.q[PQ_L], [](sums& x, const g1_jacobian& r) { x.l = r; }, t.l_msm);
	query(g1_tag{}, srs::Q_A, p.q[PQ_A], [](sums& x, const g1_jacobian& r) { x.a = r; }, t.a_msm);
	query(g1_tag{}, srs::Q_BG1, p.q[PQ_B], [](sums& x, const g1_jacobian& r) { x.b_g1 = r; }, t.b_g1_msm);
	if (o.skip_b_g2) {
		for (size_t i = 0; i < p.n; i++) out[i].b_g2 = g2_jacobian::infinity();
	} else {
		query(g2_tag{}, srs::Q_BG2, p.q[PQ_B], [](sums& x, const g2_jacobian& r) { x.b_g2 = r; }, t.b_g2_msm);
	}
}

} // namespace cuseal::g16
