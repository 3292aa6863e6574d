// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_field.cpp: Fp, Fr, Fp2 arithmetic against gnark-crypto vectors
// (testdata/native/{fp,fr,fp2}_ops.bin), and the device's 32-bit carry-chain
// algorithms (run on the host with an emulated carry flag) against the host
// 64-bit path.
#include "ff/bls12_381.hpp"
#include "testutil.hpp"

using namespace cuseal::ff;
using testutil::hex;

template <class F>
void check_ops(const char* file, const char* name) {
	const size_t E = sizeof(F);
	auto v = testutil::load(file, 7 * E);
	CHECK(v.count >= 100, "%s: only %llu records", file, (unsigned long long)v.count);
	std::vector<F> invs, invs_want;
	for (uint64_t i = 0; i < v.count; i++) {
		F a = v.get<F>(i, 0), b = v.get<F>(i, E), sum = v.get<F>(i, 2 * E), diff = v.get<F>(i, 3 * E),
		  prod = v.get<F>(i, 4 * E), inv = v.get<F>(i, 5 * E), canon = v.get<F>(i, 6 * E);
		CHECK(a + b == sum, "%s add #%llu: got %s", name, (unsigned long long)i, hex(a + b).c_str());
		CHECK(a - b == diff, "%s sub #%llu", name, (unsigned long long)i);
		CHECK(a * b == prod, "%s mul #%llu: got %s want %s", name, (unsigned long long)i, hex(a * b).c_str(),
		      hex(prod).c_str());
		CHECK(a.inv() == inv, "%s inv #%llu", name, (unsigned long long)i);
		CHECK(a.from_mont() == canon, "%s from_mont #%llu", name, (unsigned long long)i);
		CHECK(canon.to_mont() == a, "%s to_mont #%llu", name, (unsigned long long)i);
		CHECK(-a + a == F::zero(), "%s neg #%llu", name, (unsigned long long)i);
		CHECK(a.sqr() == a * a && a.dbl() == a + a, "%s sqr/dbl #%llu", name, (unsigned long long)i);
		// Device algorithms, emulated.
		CHECK(F::emu_add(a, b) == sum, "%s emu add #%llu", name, (unsigned long long)i);
		CHECK(F::emu_sub(a, b) == diff, "%s emu sub #%llu", name, (unsigned long long)i);
		CHECK(F::emu_mul(a, b) == prod, "%s emu mul #%llu: got %s", name, (unsigned long long)i,
		      hex(F::emu_mul(a, b)).c_str());
		invs.push_back(a);
		invs_want.push_back(inv);
	}
	std::vector<F> scratch(invs.size());
	batch_inverse(invs.data(), invs.size(), scratch.data());
	for (size_t i = 0; i < invs.size(); i++) CHECK(invs[i] == invs_want[i], "%s batch inverse #%zu", name, i);
	CHECK(F::one().from_mont() == F::from_u64(1).from_mont(), "%s one", name);
}

// Random property checks of the emulated device path against the host path,
// including operands near p.
template <class F>
void check_emulated_random(const char* name) {
	testutil::rng r(42);
	F pm1 = -F::one(); // p - 1 in Montgomery form is -R; just an element near p
	for (int i = 0; i < 20000; i++) {
		F a, b;
		for (int k = 0; k < F::N64; k++) {
			a.set64(k, r.next());
			b.set64(k, r.next());
		}
		a.set64(F::N64 - 1, a.get64(F::N64 - 1) >> 4); // may still be ≥ p; reduce by mul by one
		b.set64(F::N64 - 1, b.get64(F::N64 - 1) >> 4);
		a = a * F::one();
		b = b * F::one();
		if (i % 7 == 0) b = pm1;
		if (i % 11 == 0) a = pm1;
		CHECK(a.is_reduced() && b.is_reduced(), "%s operands reduced", name);
		CHECK(F::emu_mul(a, b) == a * b, "%s random emu mul %d", name, i);
		CHECK(F::emu_add(a, b) == a + b, "%s random emu add %d", name, i);
		CHECK(F::emu_sub(a, b) == a - b, "%s random emu sub %d", name, i);
	}
}

void check_fp2() {
	const size_t E = sizeof(fp2_t);
	auto v = testutil::load("fp2_ops.bin", 7 * E);
	for (uint64_t i = 0; i < v.count; i++) {
		fp2_t a = v.get<fp2_t>(i, 0), b = v.get<fp2_t>(i, E);
		CHECK(a + b == v.get<fp2_t>(i, 2 * E), "fp2 add #%llu", (unsigned long long)i);
		CHECK(a - b == v.get<fp2_t>(i, 3 * E), "fp2 sub #%llu", (unsigned long long)i);
		CHECK(a * b == v.get<fp2_t>(i, 4 * E), "fp2 mul #%llu", (unsigned long long)i);
		CHECK(a.sqr() == v.get<fp2_t>(i, 5 * E), "fp2 sqr #%llu", (unsigned long long)i);
		CHECK(a.inv() == v.get<fp2_t>(i, 6 * E), "fp2 inv #%llu", (unsigned long long)i);
	}
}

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	check_ops<fp_t>("fp_ops.bin", "fp");
	check_ops<fr_t>("fr_ops.bin", "fr");
	check_fp2();
	check_emulated_random<fp_t>("fp");
	check_emulated_random<fr_t>("fr");
	return testutil::finish("test_field");
}
