// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// sectorConfigForSize parses a --sector-size value and returns the sector configuration of
// its V1_1 registered proof, the one Lotus uses for new sectors today.
func sectorConfigForSize(s string) (stacked.SectorConfig, error) {
	size, err := parseSectorSize(s)
	if err != nil {
		return stacked.SectorConfig{}, inputError(err)
	}
	proof, ok := stacked.SealProofV1_1(size)
	if !ok { // parseSectorSize accepts only published sizes
		return stacked.SectorConfig{}, internalError(fmt.Errorf("--sector-size %s: no registered proof for %d bytes", s, size))
	}
	cfg, err := stacked.ConfigFor(proof)
	if err != nil {
		return stacked.SectorConfig{}, internalError(fmt.Errorf("--sector-size %s: %w", s, err))
	}
	return cfg, nil
}

// parseMiner reads a miner actor address as Lotus prints it ("t01000", "f01000") or a bare
// actor ID ("1000").
func parseMiner(s string) (abi.ActorID, error) {
	t := s
	if len(t) >= 2 && (t[0] == 't' || t[0] == 'f') && t[1] == '0' {
		t = t[2:]
	}
	id, err := strconv.ParseUint(t, 10, 64)
	if err != nil || t == "" {
		return 0, fmt.Errorf("--miner %q: want an ID address such as t01000", s)
	}
	return abi.ActorID(id), nil
}

// parseHex32 reads a 32-byte value written as 64 hex digits (an optional 0x prefix allowed).
func parseHex32(flag, s string) ([32]byte, error) {
	var out [32]byte
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "0x"), "0X")
	b, err := hex.DecodeString(t)
	if err != nil {
		return out, fmt.Errorf("--%s: not hex: %v", flag, err)
	}
	if len(b) != 32 {
		return out, fmt.Errorf("--%s: %d bytes, want 32 (64 hex digits)", flag, len(b))
	}
	copy(out[:], b)
	return out, nil
}
