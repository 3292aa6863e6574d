// SPDX-License-Identifier: Apache-2.0 OR MIT

// point.cuh: short-Weierstrass points (a = 0) over a field F (fp_t for G1,
// fp2_t for G2) in three coordinate systems, usable on host and device.
//
//   affine_t   (x, y); gnark-crypto G1Affine/G2Affine layout; infinity = (0, 0).
//   jacobian_t (X, Y, Z), x = X/Z², y = Y/Z³; gnark-crypto G1Jac/G2Jac layout;
//              infinity has Z = 0 (gnark writes (1, 1, 0)).
//   xyzz_t     (X, Y, ZZ, ZZZ), x = X/ZZ, y = Y/ZZZ; the MSM bucket type;
//              infinity has ZZ = 0 (all-zero memory is infinity).
//
// Formulas: EFD "g1p/shortw/xyzz" add-2008-s, madd-2008-s, dbl-2008-s-1,
// mdbl-2008-s-1; "jacobian-0" dbl-2009-l, madd-2007-bl.
#pragma once

#include "../ff/bls12_381.hpp"

namespace cuseal::ec {

template <class F>
struct affine_t {
	F x, y;
	CUSEAL_HD static affine_t infinity() { return {F::zero(), F::zero()}; }
	CUSEAL_HD bool is_infinity() const { return x.is_zero() && y.is_zero(); }
	CUSEAL_HD affine_t neg() const { return is_infinity() ? *this : affine_t{x, -y}; }
	CUSEAL_HD bool operator==(const affine_t& o) const { return x == o.x && y == o.y; }
};

template <class F>
struct jacobian_t {
	F X, Y, Z;

	CUSEAL_HD static jacobian_t infinity() { return {F::one(), F::one(), F::zero()}; }
	CUSEAL_HD bool is_infinity() const { return Z.is_zero(); }
	CUSEAL_HD static jacobian_t from_affine(const affine_t<F>& a) {
		return a.is_infinity() ? infinity() : jacobian_t{a.x, a.y, F::one()};
	}

	// dbl-2009-l
	CUSEAL_HD_NOINLINE jacobian_t dbl() const {
		if (is_infinity()) return *this;
		F A = X.sqr(), B = Y.sqr(), C = B.sqr();
		F D = ((X + B).sqr() - A - C).dbl();
		F E = A.dbl() + A, Fv = E.sqr();
		jacobian_t r;
		r.X = Fv - D.dbl();
		r.Y = E * (D - r.X) - C.dbl().dbl().dbl();
		r.Z = (Y * Z).dbl();
		return r;
	}

	// madd-2007-bl (this + affine q), falling back to doubling when equal.
	CUSEAL_HD_NOINLINE jacobian_t add_affine(const affine_t<F>& q) const {
		if (q.is_infinity()) return *this;
		if (is_infinity()) return from_affine(q);
		F Z1Z1 = Z.sqr();
		F U2 = q.x * Z1Z1, S2 = q.y * Z * Z1Z1;
		F H = U2 - X, rr = (S2 - Y).dbl();
		if (H.is_zero()) {
			if (rr.is_zero()) return dbl();
			return infinity();
		}
		F HH = H.sqr(), I = HH.dbl().dbl(), J = H * I, V = X * I;
		jacobian_t r;
		r.X = rr.sqr() - J - V.dbl();
		r.Y = rr * (V - r.X) - (Y * J).dbl();
		r.Z = (Z + H).sqr() - Z1Z1 - HH;
		return r;
	}

	// add-2007-bl (general addition).
	CUSEAL_HD_NOINLINE jacobian_t add(const jacobian_t& q) const {
		if (q.is_infinity()) return *this;
		if (is_infinity()) return q;
		F Z1Z1 = Z.sqr(), Z2Z2 = q.Z.sqr();
		F U1 = X * Z2Z2, U2 = q.X * Z1Z1;
		F S1 = Y * q.Z * Z2Z2, S2 = q.Y * Z * Z1Z1;
		F H = U2 - U1, rr = (S2 - S1).dbl();
		if (H.is_zero()) {
			if (rr.is_zero()) return dbl();
			return infinity();
		}
		F I = H.dbl().sqr(), J = H * I, V = U1 * I;
		jacobian_t r;
		r.X = rr.sqr() - J - V.dbl();
		r.Y = rr * (V - r.X) - (S1 * J).dbl();
		r.Z = ((Z + q.Z).sqr() - Z1Z1 - Z2Z2) * H;
		return r;
	}

	CUSEAL_HD jacobian_t neg() const { return {X, -Y, Z}; }

	// to_affine costs one inversion (host or device).
	CUSEAL_HD_NOINLINE affine_t<F> to_affine() const {
		if (is_infinity()) return affine_t<F>::infinity();
		F zi = Z.inv(), zi2 = zi.sqr();
		return {X * zi2, Y * zi2 * zi};
	}
};

template <class F>
struct xyzz_t {
	F X, Y, ZZ, ZZZ;

	CUSEAL_HD static xyzz_t infinity() { return {F::zero(), F::zero(), F::zero(), F::zero()}; }
	CUSEAL_HD bool is_infinity() const { return ZZ.is_zero(); }
	CUSEAL_HD static xyzz_t from_affine(const affine_t<F>& a) {
		return a.is_infinity() ? infinity() : xyzz_t{a.x, a.y, F::one(), F::one()};
	}

	// dbl-2008-s-1
	CUSEAL_HD_NOINLINE xyzz_t dbl() const {
		if (is_infinity()) return *this;
		F U = Y.dbl(), V = U.sqr(), W = U * V, S = X * V;
		F X2 = X.sqr(), M = X2.dbl() + X2;
		xyzz_t r;
		r.X = M.sqr() - S.dbl();
		r.Y = M * (S - r.X) - W * Y;
		r.ZZ = V * ZZ;
		r.ZZZ = W * ZZZ;
		return r;
	}

	// mdbl-2008-s-1: 2·q for affine q.
	CUSEAL_HD_NOINLINE static xyzz_t dbl_affine(const affine_t<F>& q) {
		if (q.is_infinity()) return infinity();
		F U = q.y.dbl(), V = U.sqr(), W = U * V, S = q.x * V;
		F X2 = q.x.sqr(), M = X2.dbl() + X2;
		xyzz_t r;
		r.X = M.sqr() - S.dbl();
		r.Y = M * (S - r.X) - W * q.y;
		r.ZZ = V;
		r.ZZZ = W;
		return r;
	}

	// madd-2008-s: this + affine q.
	CUSEAL_HD_NOINLINE xyzz_t add_affine(const affine_t<F>& q) const {
		if (q.is_infinity()) return *this;
		if (is_infinity()) return from_affine(q);
		F U2 = q.x * ZZ, S2 = q.y * ZZZ;
		F P = U2 - X, R = S2 - Y;
		if (P.is_zero()) {
			if (R.is_zero()) return dbl_affine(q);
			return infinity();
		}
		F PP = P.sqr(), PPP = P * PP, Q = X * PP;
		xyzz_t r;
		r.X = R.sqr() - PPP - Q.dbl();
		r.Y = R * (Q - r.X) - Y * PPP;
		r.ZZ = ZZ * PP;
		r.ZZZ = ZZZ * PPP;
		return r;
	}

	// add-2008-s: this + q.
	CUSEAL_HD_NOINLINE xyzz_t add(const xyzz_t& q) const {
		if (q.is_infinity()) return *this;
		if (is_infinity()) return q;
		F U1 = X * q.ZZ, U2 = q.X * ZZ;
		F S1 = Y * q.ZZZ, S2 = q.Y * ZZZ;
		F P = U2 - U1, R = S2 - S1;
		if (P.is_zero()) {
			if (R.is_zero()) return dbl();
			return infinity();
		}
		F PP = P.sqr(), PPP = P * PP, Q = U1 * PP;
		xyzz_t r;
		r.X = R.sqr() - PPP - Q.dbl();
		r.Y = R * (Q - r.X) - S1 * PPP;
		r.ZZ = ZZ * q.ZZ * PP;
		r.ZZZ = ZZZ * q.ZZZ * PPP;
		return r;
	}

	CUSEAL_HD xyzz_t neg() const { return {X, -Y, ZZ, ZZZ}; }

	// to_jacobian: X' = X·ZZ·ZZZ², Y' = Y·ZZ³·ZZZ², Z' = ZZ·ZZZ (no inversion).
	CUSEAL_HD_NOINLINE jacobian_t<F> to_jacobian() const {
		if (is_infinity()) return jacobian_t<F>::infinity();
		F zzz2 = ZZZ.sqr();
		F zz3 = ZZ.sqr() * ZZ;
		return {X * ZZ * zzz2, Y * zz3 * zzz2, ZZ * ZZZ};
	}

	CUSEAL_HD_NOINLINE affine_t<F> to_affine() const {
		if (is_infinity()) return affine_t<F>::infinity();
		F zzzi = ZZZ.inv();
		F zi = zzzi * ZZ;   // 1/Z  (ZZ = Z², ZZZ = Z³)
		F zzi = zi.sqr();   // 1/ZZ
		return {X * zzi, Y * zzzi};
	}

	// mul_small returns k·this for a small non-negative k (double-and-add).
	CUSEAL_HD_NOINLINE xyzz_t mul_small(uint64_t k) const {
		xyzz_t r = infinity();
		for (int b = 63; b >= 0; b--) {
			r = r.dbl();
			if ((k >> b) & 1) r = r.add(*this);
		}
		return r;
	}
};

using g1_affine = affine_t<ff::fp_t>;
using g1_jacobian = jacobian_t<ff::fp_t>;
using g1_xyzz = xyzz_t<ff::fp_t>;
using g2_affine = affine_t<ff::fp2_t>;
using g2_jacobian = jacobian_t<ff::fp2_t>;
using g2_xyzz = xyzz_t<ff::fp2_t>;

static_assert(sizeof(g1_affine) == 96, "G1Affine layout");
static_assert(sizeof(g1_jacobian) == 144, "G1Jac layout");
static_assert(sizeof(g2_affine) == 192, "G2Affine layout");
static_assert(sizeof(g2_jacobian) == 288, "G2Jac layout");

} // namespace cuseal::ec
