// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !supraseal || !cgo

package supraseal

import "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

// Built reports whether supraseal is compiled into this binary.
const Built = false

// DeviceCount is 0 without the supraseal build tag.
func DeviceCount() int { return 0 }

// SRS cannot be loaded without the supraseal build tag.
type SRS struct{ path string }

// LoadSRS returns ErrNotBuilt without the supraseal build tag.
func LoadSRS(path string) (*SRS, error) { return nil, ErrNotBuilt }

// Path is the file the SRS was loaded from.
func (s *SRS) Path() string { return s.path }

// Close is a no-op without the supraseal build tag.
func (s *SRS) Close() error { return nil }

// Prove returns ErrNotBuilt without the supraseal build tag.
func (s *SRS) Prove(circuits []Circuit, r, sv []fr.Element) ([]Proof, error) {
	return nil, ErrNotBuilt
}

// ValidateCircuits returns ErrNotBuilt without the supraseal build tag.
func ValidateCircuits(circuits []Circuit) error { return ErrNotBuilt }
