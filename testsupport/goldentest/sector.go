// SPDX-License-Identifier: Apache-2.0 OR MIT

package goldentest

import (
	"encoding/binary"

	"golang.org/x/crypto/chacha20"
)

// SectorInputs is what rust-fil-proofs' golden tool (`golden-rs gen`,
// `golden-rs update`) draws for one data seed (meta.json data_derivation):
// rand_chacha 0.3 ChaCha20Rng::from_seed(u64_le(seed) ‖ 0^24) filled in this
// order: prover_id[32], sector_id[8], ticket[32], seed[32], then the
// unpadded data. The tool replaces prover_id and sector_id with its --miner
// and --sector; for `update` the data is the NEW data (the CC piece is
// zeros) and the seed is unused.
type SectorInputs struct {
	ProverID [32]byte
	SectorID uint64 // u64 LE of the stream; the vectors use --sector instead
	Ticket   [32]byte
	Seed     [32]byte
	Data     []byte // unpaddedSize bytes
}

// NewSectorInputs draws SectorInputs from dataSeed with unpaddedSize bytes
// of data (sector size·127/128). rand_chacha's stream is the RFC 8439
// keystream with a zero nonce (every field is a whole number of u32 words,
// so fill_bytes discards nothing).
func NewSectorInputs(dataSeed uint64, unpaddedSize int) SectorInputs {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], dataSeed)
	c, err := chacha20.NewUnauthenticatedCipher(key[:], make([]byte, chacha20.NonceSize))
	if err != nil {
		panic(err) // unreachable: key and nonce sizes are fixed
	}
	buf := make([]byte, 104+unpaddedSize)
	c.XORKeyStream(buf, buf)
	var in SectorInputs
	copy(in.ProverID[:], buf[0:32])
	in.SectorID = binary.LittleEndian.Uint64(buf[32:40])
	copy(in.Ticket[:], buf[40:72])
	copy(in.Seed[:], buf[72:104])
	in.Data = buf[104:]
	return in
}
