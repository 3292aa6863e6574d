package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
)

// backendUsage is the --backend help of commit2 and bench prove.
const backendUsage = "proving backend: auto, cpu, cuda or supraseal (supraseal: bin/cuseal-supraseal only)"

// resolveBackend checks one --backend value against this binary and --no-gpu / BELLMAN_NO_GPU
// and returns the porep backend name to use.
func resolveBackend(c *cli.Context, b string) (string, error) {
	switch b {
	case porep.BackendAuto, porep.BackendCPU, porep.BackendCUDA, porep.BackendSupraSeal:
	default:
		return "", usageErrorf("--backend %q: want auto, cpu, cuda or supraseal", b)
	}
	if noGPU(c) {
		if b == porep.BackendCUDA || b == porep.BackendSupraSeal {
			return "", usageErrorf("--backend %s contradicts --no-gpu (BELLMAN_NO_GPU)", b)
		}
		return porep.BackendCPU, nil
	}
	if b == porep.BackendCUDA && !cudaBuild {
		return "", usageErrorf("--backend cuda: this binary was built without CUDA (pure Go); use bin/cuseal-cuda (built by ./build.sh build where nvcc is installed), or --backend cpu")
	}
	if b == porep.BackendSupraSeal && !slices.Contains(porep.Backends(), porep.BackendSupraSeal) {
		return "", usageErrorf("--backend supraseal: this binary was built without the supraseal backend; use bin/cuseal-supraseal (./build.sh supraseal: needs cargo and nvcc), or --backend cpu")
	}
	return b, nil
}

// backendList parses bench prove's --backend: one name, or a comma-separated list of distinct
// names run one after the other on the same C1.
func backendList(c *cli.Context) ([]string, error) {
	var out []string
	for _, f := range strings.Split(c.String("backend"), ",") {
		f = strings.TrimSpace(f)
		b, err := resolveBackend(c, f)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, b) {
			return nil, usageErrorf("--backend %q: %s listed twice (or twice after --no-gpu made it cpu)", c.String("backend"), f)
		}
		out = append(out, b)
	}
	return out, nil
}
