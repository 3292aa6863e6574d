// SPDX-License-Identifier: Apache-2.0 OR MIT

package testenv

import (
	"testing"
)

func TestParseTier(t *testing.T) {
	for in, want := range map[string]Tier{"": TierUnit, "unit": TierUnit, "long": TierLong, " LONG ": TierLong, "huge": TierHuge} {
		got, err := ParseTier(in)
		if err != nil || got != want {
			t.Errorf("ParseTier(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1", "full", "short", "longer"} {
		if _, err := ParseTier(in); err == nil {
			t.Errorf("ParseTier(%q): no error", in)
		}
	}
}

func TestCurrentFollowsEnv(t *testing.T) {
	if testing.Short() {
		t.Setenv(EnvVar, "huge")
		if got, err := Current(); err != nil || got != TierUnit {
			t.Fatalf("-short with %s=huge: %v, %v; want unit", EnvVar, got, err)
		}
		return
	}
	for _, c := range []struct {
		env  string
		want Tier
	}{{"", TierUnit}, {"long", TierLong}, {"huge", TierHuge}} {
		t.Setenv(EnvVar, c.env)
		if got, err := Current(); err != nil || got != c.want {
			t.Errorf("%s=%q: %v, %v; want %v", EnvVar, c.env, got, err, c.want)
		}
		if !Enabled(TierUnit) || Enabled(TierLong) != (c.want >= TierLong) || Enabled(TierHuge) != (c.want >= TierHuge) {
			t.Errorf("%s=%q: Enabled disagrees with %v", EnvVar, c.env, c.want)
		}
	}
	t.Setenv(EnvVar, "bogus")
	if _, err := Current(); err == nil {
		t.Fatalf("%s=bogus: no error", EnvVar)
	}
}

func TestSkipBelow(t *testing.T) {
	t.Setenv(EnvVar, "unit")
	ran := false
	t.Run("long", func(t *testing.T) {
		Long(t, "testing the gate")
		ran = true
	})
	if ran {
		t.Fatal("a long test ran in the unit tier")
	}
	if testing.Short() {
		return
	}
	t.Setenv(EnvVar, "long")
	t.Run("long-in-long", func(t *testing.T) {
		Long(t, "testing the gate")
		ran = true
	})
	if !ran {
		t.Fatal("a long test did not run in the long tier")
	}
	ran = false
	t.Run("huge-in-long", func(t *testing.T) {
		Huge(t, "testing the gate")
		ran = true
	})
	if ran {
		t.Fatal("a huge test ran in the long tier")
	}
}
