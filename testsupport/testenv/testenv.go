// SPDX-License-Identifier: Apache-2.0 OR MIT

package testenv

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// EnvVar names the environment variable that chooses the tier: unit, long
// or huge; empty means unit.
const EnvVar = "CUSEAL_TEST"

// Tier is a test tier; each includes the ones below it.
type Tier int

// The tiers, smallest first.
const (
	TierUnit Tier = iota // the default run: minutes on 2 cores
	TierLong             // conformance: every layer's real proofs; CI runs it
	TierHuge             // opt-in: 32 GiB circuits, big counts, large benchmarks
)

// String is the tier's name as CUSEAL_TEST spells it.
func (t Tier) String() string {
	switch t {
	case TierUnit:
		return "unit"
	case TierLong:
		return "long"
	case TierHuge:
		return "huge"
	}
	return fmt.Sprintf("Tier(%d)", int(t))
}

// ParseTier reads a CUSEAL_TEST value: "" and "unit" are TierUnit, "long"
// and "huge" their tiers; anything else is an error naming the value.
func ParseTier(s string) (Tier, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "unit":
		return TierUnit, nil
	case "long":
		return TierLong, nil
	case "huge":
		return TierHuge, nil
	}
	return TierUnit, fmt.Errorf("%s=%q: want unit, long or huge", EnvVar, s)
}

// Current is this run's tier: CUSEAL_TEST, except that -short means unit.
// A CUSEAL_TEST it cannot read is an error (a typo must not silently run
// fewer tests than asked for).
func Current() (Tier, error) {
	tier, err := ParseTier(os.Getenv(EnvVar))
	if err != nil {
		return TierUnit, err
	}
	if testing.Short() {
		return TierUnit, nil
	}
	return tier, nil
}

// Enabled reports whether this run includes tier: for a part of a test (a
// larger size, more partitions) whose test itself runs in a smaller tier.
// An unreadable CUSEAL_TEST panics, naming the value: only tests call it.
func Enabled(tier Tier) bool {
	cur, err := Current()
	if err != nil {
		panic(err)
	}
	return cur >= tier
}

// Long skips t unless this run is long or huge; reason says in one line
// why the test is long (what it proves or sweeps, roughly how long).
func Long(t testing.TB, reason string) {
	t.Helper()
	skipBelow(t, TierLong, reason)
}

// Huge skips t unless this run is huge; reason says in one line why.
func Huge(t testing.TB, reason string) {
	t.Helper()
	skipBelow(t, TierHuge, reason)
}

func skipBelow(t testing.TB, tier Tier, reason string) {
	t.Helper()
	if strings.TrimSpace(reason) == "" {
		t.Fatalf("testenv: a %s test needs a reason", tier)
	}
	cur, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if cur < tier {
		t.Skipf("%s tier (%s=%s): %s", tier, EnvVar, tier, reason)
	}
}
