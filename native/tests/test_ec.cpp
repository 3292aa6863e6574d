// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_ec.cpp: G1/G2 addition and doubling in Jacobian and XYZZ coordinates
// against gnark-crypto vectors (testdata/native/g{1,2}_ops.bin: P, Q, P+Q, 2P,
// including Q = P, Q = -P and infinities), and coordinate conversions.
#include "ec/point.cuh"
#include "testutil.hpp"

using namespace cuseal::ec;

template <class F>
void check_group(const char* file, const char* name) {
	using A = affine_t<F>;
	using J = jacobian_t<F>;
	using X = xyzz_t<F>;
	const size_t E = sizeof(A);
	auto v = testutil::load(file, 4 * E);
	CHECK(v.count >= 30, "%s: %llu records", file, (unsigned long long)v.count);
	for (uint64_t i = 0; i < v.count; i++) {
		A p = v.get<A>(i, 0), q = v.get<A>(i, E), sum = v.get<A>(i, 2 * E), dbl = v.get<A>(i, 3 * E);
		unsigned long long k = i;
		J pj = J::from_affine(p), qj = J::from_affine(q);
		CHECK(pj.add_affine(q).to_affine() == sum, "%s jac madd #%llu", name, k);
		CHECK(pj.add(qj).to_affine() == sum, "%s jac add #%llu", name, k);
		CHECK(pj.dbl().to_affine() == dbl, "%s jac dbl #%llu", name, k);
		X px = X::from_affine(p), qx = X::from_affine(q);
		CHECK(px.add_affine(q).to_affine() == sum, "%s xyzz madd #%llu", name, k);
		CHECK(px.add(qx).to_affine() == sum, "%s xyzz add #%llu", name, k);
		CHECK(px.dbl().to_affine() == dbl, "%s xyzz dbl #%llu", name, k);
		CHECK(X::dbl_affine(p).to_affine() == dbl, "%s xyzz mdbl #%llu", name, k);
		// Non-trivial Z: go through 2P, 2P+Q, then compare conversions.
		X t = px.dbl().add_affine(q);
		CHECK(t.to_jacobian().to_affine() == t.to_affine(), "%s xyzz→jac #%llu", name, k);
		CHECK(px.mul_small(3).to_affine() == px.dbl().add(px).to_affine(), "%s mul_small #%llu", name, k);
		CHECK(px.add(px.neg()).is_infinity(), "%s P + -P #%llu", name, k);
		CHECK(pj.dbl().add(pj).to_affine() == px.mul_small(3).to_affine(), "%s jac 3P #%llu", name, k);
	}
}

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	check_group<cuseal::ff::fp_t>("g1_ops.bin", "g1");
	check_group<cuseal::ff::fp2_t>("g2_ops.bin", "g2");
	return testutil::finish("test_ec");
}
