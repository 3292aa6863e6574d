// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build amd64 && !purego

package poseidon

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"golang.org/x/sys/cpu"
)

// haveADX says innerProductADX can run (MULX and ADCX/ADOX).
var haveADX = cpu.X86.HasADX && cpu.X86.HasBMI2

// maxADXTerms is the most terms innerProductADX sums before its one
// reduction (its nine-limb bound).
const maxADXTerms = 12

// innerProductADX sets res = Σ_{i<n} a[i]·b[i], 1 ≤ n ≤ maxADXTerms
// (innerprod_amd64.s, written by scripts/gen-innerprod-asm.py).
//
//go:noescape
func innerProductADX(res, a, b *fr.Element, n uint64)

// innerProduct returns Σ a[i]·b[i] over len(a) terms (b at least as long),
// reduced, as fr.Vector.InnerProduct does. The permutation's products are
// of t ≤ 37 terms, where gnark-crypto's AVX-512 kernel is built for long
// vectors; this one reduces once per twelve terms.
func innerProduct(a, b []fr.Element) (res fr.Element) {
	if n := len(a); haveADX && n > 0 && n <= maxADXTerms && len(b) >= n {
		innerProductADX(&res, &a[0], &b[0], uint64(n))
		return res
	}
	return innerProductLong(a, b)
}

// innerProductLong is innerProduct past twelve terms, or without ADX.
func innerProductLong(a, b []fr.Element) (res fr.Element) {
	b = b[:len(a)]
	if !haveADX {
		av := fr.Vector(a)
		return av.InnerProduct(b)
	}
	for len(a) > 0 {
		n := min(len(a), maxADXTerms)
		var p fr.Element
		innerProductADX(&p, &a[0], &b[0], uint64(n))
		res.Add(&res, &p)
		a, b = a[n:], b[n:]
	}
	return res
}
