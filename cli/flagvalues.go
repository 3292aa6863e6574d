// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"
	"github.com/urfave/cli/v2"
)

// Parsers of flag values several commands share: miner addresses, 32-byte hex, PoSt
// randomness and commitments (CIDs or hex). Registered proofs and sizes: circuits.go.

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
	b, err := hex.DecodeString(trimHexPrefix(strings.TrimSpace(s)))
	if err != nil {
		return out, fmt.Errorf("--%s: not hex: %v", flag, err)
	}
	if len(b) != 32 {
		return out, fmt.Errorf("--%s: %d bytes, want 32 (64 hex digits)", flag, len(b))
	}
	copy(out[:], b)
	return out, nil
}

// postRandomness reads --randomness: 64 hex digits.
func postRandomness(s string) (abi.PoStRandomness, error) {
	b, err := hex.DecodeString(trimHexPrefix(strings.TrimSpace(s)))
	if err != nil || len(b) != 32 {
		return nil, usageErrorf("--randomness %q: want 64 hex digits (32 bytes)", s)
	}
	return b, nil
}

// sealedCID reads a comm_r given as 64 hex digits or as its sealed CID.
func sealedCID(s string) (cid.Cid, error) {
	return commitmentCID(s, commcid.ReplicaCommitmentV1ToCID, commcid.CIDToReplicaCommitmentV1, "a sealed CID (bagboea4b5abc…)")
}

// unsealedCID reads a comm_d given as 64 hex digits or as its unsealed CID.
func unsealedCID(s string) (cid.Cid, error) {
	return commitmentCID(s, commcid.DataCommitmentV1ToCID, commcid.CIDToDataCommitmentV1, "an unsealed CID (baga6ea4seaq…)")
}

// commitmentCID reads a commitment given as 64 hex digits (made a CID by toCID) or as a
// CID (checked by fromCID: codec and hash; a CID of another kind is named against want).
func commitmentCID(s string, toCID func([]byte) (cid.Cid, error), fromCID func(cid.Cid) ([]byte, error), want string) (cid.Cid, error) {
	if b, err := hex.DecodeString(trimHexPrefix(s)); err == nil {
		if len(b) != 32 {
			return cid.Undef, fmt.Errorf("%d bytes, want 32", len(b))
		}
		return toCID(b)
	}
	k, err := cid.Decode(s)
	if err != nil {
		return cid.Undef, fmt.Errorf("neither 64 hex digits nor a CID: %v", err)
	}
	if _, err := fromCID(k); err != nil {
		return cid.Undef, fmt.Errorf("%v: %s, want %s", err, cidKind(k), want)
	}
	return k, nil
}

// cidKind names what a commitment CID is: sealed (comm_r), unsealed (comm_d) or its codec.
func cidKind(k cid.Cid) string {
	if _, err := commcid.CIDToReplicaCommitmentV1(k); err == nil {
		return "a sealed CID (comm_r)"
	}
	if _, err := commcid.CIDToDataCommitmentV1(k); err == nil {
		return "an unsealed CID (comm_d)"
	}
	p := k.Prefix()
	return fmt.Sprintf("a CID of codec 0x%x, multihash 0x%x", p.Codec, p.MhType)
}

// updateCommitments are a SnapDeals update's commitments as CIDs (commitmentFlags).
type updateCommitments struct {
	oldSealed, newSealed, unsealed cid.Cid
}

// readUpdateCommitments reads --comm-r-old, --comm-r-new (sealed) and --comm-d-new
// (unsealed), each a CID or 64 hex digits; a value of the wrong kind is a usage error
// naming the flag. An empty flag is missing(flag)'s error (missing may be nil when the
// flags are required).
func readUpdateCommitments(c *cli.Context, missing func(flag string) error) (updateCommitments, error) {
	var u updateCommitments
	for _, f := range []struct {
		name  string
		dst   *cid.Cid
		parse func(string) (cid.Cid, error)
	}{{"comm-r-old", &u.oldSealed, sealedCID}, {"comm-r-new", &u.newSealed, sealedCID}, {"comm-d-new", &u.unsealed, unsealedCID}} {
		v := c.String(f.name)
		if v == "" && missing != nil {
			return u, missing(f.name)
		}
		var err error
		if *f.dst, err = f.parse(v); err != nil {
			return u, usageErrorf("--%s %s: %v", f.name, v, err)
		}
	}
	return u, nil
}

// trimHexPrefix drops a leading 0x or 0X.
func trimHexPrefix(s string) string {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return s[2:]
	}
	return s
}
