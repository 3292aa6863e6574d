// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !amd64 || purego

package poseidon

import "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

// haveADX is false off amd64: innerProduct is gnark-crypto's.
var haveADX = false

// innerProduct returns Σ a[i]·b[i] over len(a) terms (b at least as long).
func innerProduct(a, b []fr.Element) fr.Element {
	av := fr.Vector(a)
	return av.InnerProduct(b[:len(a)])
}
