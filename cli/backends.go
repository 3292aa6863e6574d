// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
)

// The backend names, what each needs and whether this binary has it come from porep's one
// registry (porep.KnownBackends); the CLI only maps --backend and --no-gpu onto it.

// backendChoices is "auto, cpu, cuda or supraseal": auto and every backend cuseal knows.
func backendChoices() string {
	names := []string{porep.BackendAuto}
	for _, s := range porep.KnownBackends() {
		names = append(names, s.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// backendUsage is the --backend help of commit2 and bench prove.
func backendUsage() string {
	var notes []string
	for _, s := range porep.KnownBackends() {
		if s.UsageNote != "" {
			notes = append(notes, s.UsageNote)
		}
	}
	u := "proving backend: " + backendChoices()
	if len(notes) > 0 {
		u += " (" + strings.Join(notes, "; ") + ")"
	}
	return u
}

// resolveBackend checks one --backend value against this binary and --no-gpu / BELLMAN_NO_GPU
// and returns the porep backend name to use.
func resolveBackend(c *cli.Context, b string) (string, error) {
	spec, known := porep.LookupBackend(b)
	if !known && b != porep.BackendAuto {
		return "", usageErrorf("--backend %q: want %s", b, backendChoices())
	}
	if noGPU(c) {
		if spec.GPU {
			return "", usageErrorf("--backend %s contradicts --no-gpu (BELLMAN_NO_GPU)", b)
		}
		return porep.BackendCPU, nil
	}
	if known && !spec.Built {
		return "", usageErrorf("--backend %s: this binary was built without %s; use %s, or --backend cpu", b, spec.Without, spec.Binary)
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

// noGPUFlag is lotus-bench's --no-gpu. BELLMAN_NO_GPU is read as bellperson reads it (any
// value but "0" disables the GPU, see noGPU), not as a urfave/cli boolean.
func noGPUFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-gpu", Usage: "never use a GPU (also: BELLMAN_NO_GPU set to anything but 0)"}
}

// noGPU reports whether --no-gpu or BELLMAN_NO_GPU forbids the GPU.
func noGPU(c *cli.Context) bool {
	return c.Bool("no-gpu") || porep.GPUDisabledByEnv()
}

// backendName resolves --backend and --no-gpu.
func backendName(c *cli.Context) (string, error) {
	return resolveBackend(c, c.String("backend"))
}

// backendFlag is --backend of the commands that prove with one backend (default auto).
func backendFlag() cli.Flag {
	return &cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto}
}
