// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"
)

// Domain is a 32-byte tree/commitment value: the little-endian encoding of a
// BLS12-381 scalar (PoseidonDomain, Sha256Domain, Commitment, Ticket).
type Domain [32]byte

// TrimFr32 clears the two top bits of byte 31 (fr32 bytes_into_fr_repr_safe):
// the result is always a canonical field element (< 2^254 < p).
func TrimFr32(b *[32]byte) { b[31] &= 0x3f }

// To32 returns b, a 32-byte value from a caller's slice (ticket, seed,
// comm_r, comm_d), as an array; any other length is an error naming it:
// "<name> is <len> bytes, want 32".
func To32(b []byte, name string) ([32]byte, error) {
	var out [32]byte
	if len(b) != 32 {
		return out, fmt.Errorf("%s is %d bytes, want 32", name, len(b))
	}
	copy(out[:], b)
	return out, nil
}

// FrFromBytes decodes a little-endian canonical field element
// (Fr::from_repr_vartime). It fails when the value is ≥ p.
func FrFromBytes(b *[32]byte) (fr.Element, error) {
	e, err := fr.LittleEndian.Element(b)
	if err != nil {
		return fr.Element{}, fmt.Errorf("value 0x%x (little-endian) is not a canonical field element", reverse(b[:]))
	}
	return e, nil
}

// FrToBytes encodes e as 32 little-endian bytes (Fr::to_repr).
func FrToBytes(e *fr.Element) [32]byte {
	var b [32]byte
	fr.LittleEndian.PutElement(&b, *e)
	return b
}

// FrFromUint64 returns Fr::from(x).
func FrFromUint64(x uint64) fr.Element {
	var e fr.Element
	e.SetUint64(x)
	return e
}

// IsCanonical reports whether b is the encoding of a value < p.
func IsCanonical(b *[32]byte) bool {
	_, err := fr.LittleEndian.Element(b)
	return err == nil
}

func reverse(b []byte) []byte {
	r := make([]byte, len(b))
	for i := range b {
		r[len(b)-1-i] = b[i]
	}
	return r
}

// ProverID returns the 32-byte prover id of an actor: the payload of its ID
// address (the uvarint of the actor ID), zero-padded (abi.MakeProverID).
func ProverID(miner abi.ActorID) [32]byte {
	var out [32]byte
	binary.PutUvarint(out[:], uint64(miner))
	return out
}

// ReplicaID computes replica_id = trim(sha256(prover_id ‖ sector u64 BE ‖
// ticket ‖ comm_d ‖ porep_id)) (storage-proofs-porep stacked/vanilla/params.rs
// generate_replica_id; go-state-types abi ReplicaId).
func ReplicaID(proverID [32]byte, sector abi.SectorNumber, ticket, commD, porepID [32]byte) [32]byte {
	h := sha256.New()
	h.Write(proverID[:])
	var s [8]byte
	binary.BigEndian.PutUint64(s[:], uint64(sector))
	h.Write(s[:])
	h.Write(ticket[:])
	h.Write(commD[:])
	h.Write(porepID[:])
	var out [32]byte
	h.Sum(out[:0])
	TrimFr32(&out)
	return out
}
