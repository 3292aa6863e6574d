// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"reflect"
	"testing"
)

func TestArchsFromBuild(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		// The string native/backend_cuda.cu builds from CMakeLists.txt's default list.
		{"nvcc 11.8; archs 75-real 80-real 86-real 89-real 90",
			[]string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "compute_90"}},
		{"nvcc 12.4; archs 89-real 90-virtual", []string{"sm_89", "compute_90"}},
		{"host only (CUSEAL_CUDA=OFF)", []string{}},
		{"nvcc 11.8; archs unknown", []string{}},
	} {
		if got := archsFromBuild(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("archsFromBuild(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestKernelsFromBuild(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// The strings native/backend_cuda.cu builds (native/kernels.cpp kernels_info).
		{"nvcc 11.8; archs 90-real; kernels sppark-0.1.16", "sppark-0.1.16"},
		{"nvcc 11.8; archs 90-real; kernels reference (CUSEAL_KERNELS=reference; sppark-0.1.16 built in)", "reference"},
		{"nvcc 11.8; archs 90-real; kernels reference", "reference"},
		{"host only (CUSEAL_CUDA=OFF)", ""},
		{"nvcc 11.8; archs 75-real 80-real", ""},
	} {
		if got := kernelsFromBuild(tc.in); got != tc.want {
			t.Errorf("kernelsFromBuild(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
