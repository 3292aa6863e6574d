// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import "strings"

// archsFromBuild extracts the compiled CUDA architectures from the native library's build
// string ("nvcc 11.8; archs 75-real 80-real 90") in nvcc's words: CMake's "75-real" is SASS
// only (sm_75); a bare "90" is SASS plus PTX (sm_90, compute_90), which newer GPUs JIT.
func archsFromBuild(build string) []string {
	out := []string{}
	_, rest, ok := strings.Cut(build, "archs ")
	if !ok {
		return out
	}
	rest, _, _ = strings.Cut(rest, ";")
	for _, a := range strings.Fields(rest) {
		if a == "" || a[0] < '0' || a[0] > '9' {
			continue // "unknown": the library was built without the list
		}
		if num, ok := strings.CutSuffix(a, "-real"); ok {
			out = append(out, "sm_"+num)
		} else if num, ok := strings.CutSuffix(a, "-virtual"); ok {
			out = append(out, "compute_"+num)
		} else {
			out = append(out, "sm_"+a, "compute_"+a)
		}
	}
	return out
}

// kernelsFromBuild extracts the GPU kernel set from the native library's build string
// ("...; kernels sppark-0.1.16" or "...; kernels reference (CUSEAL_KERNELS=reference; ...)"):
// "sppark-0.1.16" (sppark's MSM/NTT, the CUDA build's default), "reference" (our kernels: a
// build without sppark, or CUSEAL_KERNELS=reference), or "" when the string names none.
func kernelsFromBuild(build string) string {
	_, rest, ok := strings.Cut(build, "kernels ")
	if !ok {
		return ""
	}
	if f := strings.Fields(strings.TrimSpace(rest)); len(f) > 0 {
		return strings.TrimSuffix(f[0], ";")
	}
	return ""
}
