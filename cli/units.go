// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cuseal/cuseal/porep/stacked"
)

// Binary size units, as Lotus prints sector sizes (2KiB, 32GiB).
var sizeUnits = []struct {
	suffix string
	shift  uint
}{
	{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10},
}

// parseSize reads a byte count written as a plain integer or with a binary unit: "2KiB",
// "32GiB", "2048". Units are case-insensitive; "K", "KB", "Ki" and "KiB" all mean 1024 bytes
// (Lotus prints KiB; users type the others).
func parseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty size")
	}
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSpace(t[len(num):]))
	n, err := strconv.ParseUint(num, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("size %q: out of range (at most %d bytes)", s, ^uint64(0))
	}
	if err != nil {
		return 0, fmt.Errorf("size %q: not a number with an optional unit (2KiB, 32GiB)", s)
	}
	var shift uint
	switch unit {
	case "", "b":
	case "k", "kb", "ki", "kib":
		shift = 10
	case "m", "mb", "mi", "mib":
		shift = 20
	case "g", "gb", "gi", "gib":
		shift = 30
	case "t", "tb", "ti", "tib":
		shift = 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (use KiB, MiB, GiB or TiB)", s, unit)
	}
	if n > (^uint64(0))>>shift {
		return 0, fmt.Errorf("size %q: out of range (at most %d bytes)", s, ^uint64(0))
	}
	return n << shift, nil
}

// formatSize writes n bytes with the largest binary unit that divides it exactly: 2048 →
// "2KiB", 34359738368 → "32GiB", 1000 → "1000B". Sector sizes are named with
// stacked.SizeLabel (go-state-types' ShortString), which agrees on them; formatSize is for
// other byte counts, which ShortString would truncate (1536 → "1KiB").
func formatSize(n uint64) string {
	for _, u := range sizeUnits {
		if n != 0 && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d%s", n>>u.shift, u.suffix)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// parseSectorSize parses a --sector-size value and checks that it names a Filecoin sector
// size.
//
// Only binary units spelled out (KiB, MiB, GiB, case-insensitive) or a plain byte count
// are accepted: "32GB" and "32G" are refused with a hint, because Filecoin sizes are
// binary and a decimal reading would silently name another size.
func parseSectorSize(s string) (uint64, error) {
	n, err := parseSize(s)
	if err != nil {
		return 0, fmt.Errorf("--sector-size: %w", err)
	}
	t := strings.TrimSpace(s)
	unit := strings.TrimLeftFunc(t, func(r rune) bool { return r >= '0' && r <= '9' })
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "", "b", "kib", "mib", "gib", "tib":
	default:
		hint := ""
		if u := strings.ToUpper(strings.TrimSpace(unit)[:1]); u != "B" {
			hint = fmt.Sprintf(" (did you mean %s%siB?)", t[:len(t)-len(unit)], u)
		}
		return 0, fmt.Errorf("--sector-size %s: ambiguous unit %q: sector sizes are binary, write KiB, MiB or GiB%s", s, strings.TrimSpace(unit), hint)
	}
	if _, ok := stacked.SealProofV1_1(n); ok {
		return n, nil
	}
	sizes := stacked.SectorSizes()
	names := make([]string, len(sizes))
	for i, v := range sizes {
		names[i] = stacked.SizeLabel(v)
	}
	return 0, fmt.Errorf("--sector-size %s: not a Filecoin sector size (one of %s)", s, strings.Join(names, ", "))
}

// humanBytes writes n bytes rounded to one decimal in the largest binary unit below it:
// 1536 → "1.5KiB", 2048 → "2.0KiB", 100 → "100B".
func humanBytes(n uint64) string {
	for _, u := range sizeUnits {
		if n >= 1<<u.shift {
			return fmt.Sprintf("%.1f%s", float64(n)/float64(uint64(1)<<u.shift), u.suffix)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// countOf is "1 file", "4 files".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
