// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"2KiB", 2048}, {"2kib", 2048}, {"2K", 2048}, {"2048", 2048}, {"2048B", 2048},
		{"8MiB", 8 << 20}, {"512MiB", 512 << 20}, {"32GiB", 32 << 30}, {"32G", 32 << 30},
		{"64GiB", 64 << 30}, {" 1TiB ", 1 << 40},
	} {
		got, err := parseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "KiB", "2XiB", "-2KiB", "1.5GiB", "99999999999999999999", "17179869184GiB"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q): no error", bad)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for _, tc := range []struct {
		in   uint64
		want string
	}{
		{2048, "2KiB"}, {8 << 20, "8MiB"}, {32 << 30, "32GiB"}, {1000, "1000B"}, {0, "0B"}, {3 << 40, "3TiB"},
	} {
		if got := formatSize(tc.in); got != tc.want {
			t.Errorf("formatSize(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseSectorSize(t *testing.T) {
	for _, ok := range []string{"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"} {
		if _, err := parseSectorSize(ok); err != nil {
			t.Errorf("parseSectorSize(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"4KiB", "1GiB", "abc"} {
		if _, err := parseSectorSize(bad); err == nil {
			t.Errorf("parseSectorSize(%q): no error", bad)
		}
	}
}

// TestParseSectorSizeErrors: decimal or abbreviated units are refused with a hint naming the
// binary size, and an overflowing number is "out of range", not "not a number".
func TestParseSectorSizeErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"32GB", "did you mean 32GiB?"},
		{"32gb", "did you mean 32GiB?"},
		{"32G", "did you mean 32GiB?"},
		{"2KB", "did you mean 2KiB?"},
		{"512MB", "did you mean 512MiB?"},
		{"99999999999999999999GiB", "out of range"},
		{"17179869184GiB", "out of range"},
		{"4KiB", "not a Filecoin sector size"},
		{"abc", "not a number"},
	} {
		_, err := parseSectorSize(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseSectorSize(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	for _, ok := range []string{"2kib", "32gib", "2048", "2048B", " 64GiB "} {
		if _, err := parseSectorSize(ok); err != nil {
			t.Errorf("parseSectorSize(%q): %v", ok, err)
		}
	}
}
