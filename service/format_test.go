// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"testing"

	"github.com/cuseal/cuseal/service"
)

// secondsCases are durations and how the page writes them, at every unit's
// edge: rounding to the unit shown never gives "60 s" or "60 min".
var secondsCases = []struct {
	in   float64
	want string
}{
	{-1, "0 ms"},
	{0, "0 ms"},
	{0.0004, "0 ms"},
	{0.25, "250 ms"},
	{0.9994, "999 ms"},
	{0.9996, "1.00 s"},
	{1, "1.00 s"},
	{4.2, "4.20 s"},
	{9.994, "9.99 s"},
	{9.996, "10.0 s"},
	{12.54, "12.5 s"},
	{59.94, "59.9 s"},
	{59.96, "1 min 0 s"},
	{60, "1 min 0 s"},
	{119.6, "2 min 0 s"},
	{185, "3 min 5 s"},
	{3599.4, "59 min 59 s"},
	{3599.6, "1 h 0 min"},
	{7199, "2 h 0 min"},
	{7800, "2 h 10 min"},
	{86412.5, "24 h 0 min"},
}

// TestFormatSeconds: the server-rendered page's durations.
func TestFormatSeconds(t *testing.T) {
	for _, c := range secondsCases {
		if got := service.FormatSeconds(c.in); got != c.want {
			t.Errorf("formatSeconds(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
