// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_ntt.cpp: the NTT driver in host emulation against direct evaluation
// (testdata/native/ntt_*: sizes 2^0..2^12, plain and coset 7·⟨ω⟩), for all
// four input/output orders, forward and inverse.
#include <string>

#include "backend.hpp"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

std::vector<fr_t> bitrev(const std::vector<fr_t>& x, unsigned lg) {
	std::vector<fr_t> y(x.size());
	for (uint32_t i = 0; i < x.size(); i++) y[ntt::bit_reverse(i, lg)] = x[i];
	return y;
}

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	auto in = testutil::load("ntt_input.bin", sizeof(fr_t));
	const fr_t* X = reinterpret_cast<const fr_t*>(in.data.data());
	for (unsigned lg : {0u, 1u, 2u, 3u, 5u, 8u, 12u}) {
		const size_t n = size_t(1) << lg;
		char name[32];
		std::snprintf(name, sizeof name, "ntt_expected_%02u.bin", lg);
		auto exp = testutil::load(name, 8 + n * sizeof(fr_t));
		CHECK(exp.count == 2, "%s: %llu records", name, (unsigned long long)exp.count);
		std::vector<fr_t> x(X, X + n);
		for (uint64_t r = 0; r < exp.count; r++) {
			const bool coset = exp.get<uint64_t>(r, 0) != 0;
			const fr_t* E = reinterpret_cast<const fr_t*>(exp.rec(r) + 8);
			std::vector<fr_t> want(E, E + n);
			for (int in_o = 0; in_o < 2; in_o++)
				for (int out_o = 0; out_o < 2; out_o++) {
					ntt::options o;
					o.lg = lg;
					o.coset = coset;
					o.in = ntt::order(in_o);
					o.out = ntt::order(out_o);
					// forward
					std::vector<fr_t> d = in_o ? bitrev(x, lg) : x;
					host_ntt(d.data(), o);
					std::vector<fr_t> w = out_o ? bitrev(want, lg) : want;
					CHECK(d == w, "forward lg=%u coset=%d in=%d out=%d", lg, coset, in_o, out_o);
					// inverse
					o.inverse = true;
					d = in_o ? bitrev(want, lg) : want;
					host_ntt(d.data(), o);
					w = out_o ? bitrev(x, lg) : x;
					CHECK(d == w, "inverse lg=%u coset=%d in=%d out=%d", lg, coset, in_o, out_o);
				}
		}
	}
	// Radix-2^R steps equal R radix-2 stages (DIT ascending, DIF descending).
	{
		const unsigned lg = 7;
		const size_t n = size_t(1) << lg;
		std::vector<fr_t> a(X, X + n);
		ntt::tables tw{host_ntt_tables().data()};
		for (unsigned s = 0; s + 3 <= lg; s++) {
			std::vector<fr_t> r2 = a, r8 = a, f2 = a, f8 = a;
			for (unsigned q = 0; q < 3; q++)
				for (size_t t = 0; t < n / 2; t++) ntt::k_dit::run(t, r2.data(), s + q, tw, ntt::TW_OMEGA);
			for (size_t g = 0; g < n / 8; g++) ntt::k_dit_radix<3>::run(g, r8.data(), s, tw, ntt::TW_OMEGA);
			CHECK(r2 == r8, "dit radix-8 step at stage %u", s);
			for (unsigned q = 3; q-- > 0;)
				for (size_t t = 0; t < n / 2; t++) ntt::k_dif::run(t, f2.data(), s + q, tw, ntt::TW_OMEGA_INV);
			for (size_t g = 0; g < n / 8; g++) ntt::k_dif_radix<3>::run(g, f8.data(), s, tw, ntt::TW_OMEGA_INV);
			CHECK(f2 == f8, "dif radix-8 step at stage %u", s);
		}
	}
	// Size checks: 2^29 is rejected before touching memory.
	ntt::options o;
	o.lg = 29;
	bool threw = false;
	try {
		fr_t dummy;
		host_ntt(&dummy, o);
	} catch (const cuseal::error& e) {
		threw = e.code() == CUSEAL_ERR_INVALID_ARGUMENT;
	}
	CHECK(threw, "lg 29 rejected");
	// Twiddle tables: ω_max has order exactly 2^28.
	const auto& t = host_ntt_tables();
	ntt::tables tw{t.data()};
	fr_t w = tw.pow(ntt::TW_OMEGA, 1);
	fr_t w27 = w;
	for (int i = 0; i < 27; i++) w27 = w27.sqr();
	CHECK(w27 == -fr_t::one(), "ω_max^(2^27) = -1");
	CHECK(tw.pow(ntt::TW_OMEGA, (1u << 28) - 1) * w == fr_t::one(), "ω_max^(2^28) = 1 via tables");
	CHECK(tw.pow(ntt::TW_G, 123457) * tw.pow(ntt::TW_G_INV, 123457) == fr_t::one(), "g^k·g^-k = 1");
	return testutil::finish("test_ntt");
}
