// SPDX-License-Identifier: Apache-2.0 OR MIT

package bridge

import (
	"strings"
	"testing"
)

// TestCheckConstants: a header constant that drifts from its Go mirror is
// reported by name and value on both sides (checkLibrary runs this at init
// with the real include/cuseal_native.h values under -tags cuda).
func TestCheckConstants(t *testing.T) {
	ok := []headerConst{{"CUSEAL_DEVICE_HOST", "HostDevice", -1, HostDevice}, {"CUSEAL_NTT_MAX_LOG", "MaxNTTLog", 28, MaxNTTLog}}
	if err := checkConstants(ok); err != nil {
		t.Fatalf("matching constants: %v", err)
	}
	bad := append(ok, headerConst{"CUSEAL_ERR_NO_CUDA", "CodeNoCUDA", 7, CodeNoCUDA})
	err := checkConstants(bad)
	if err == nil {
		t.Fatal("drifted constant accepted")
	}
	want := "include/cuseal_native.h defines CUSEAL_ERR_NO_CUDA = 7 but package bridge has CodeNoCUDA = 5"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
}
