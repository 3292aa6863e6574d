// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/internal/buildinfo"
	"github.com/cuseal/cuseal/porep"
)

// version is cuseal's release version (internal/buildinfo, its one home).
const version = buildinfo.Version

// buildInfo describes the binary: what `cuseal info --json` prints.
type buildInfo struct {
	Version       string       `json:"version"`
	GoVersion     string       `json:"go_version"`
	OS            string       `json:"os"`
	Arch          string       `json:"arch"`
	BuildTags     []string     `json:"build_tags"`
	CUDA          bool         `json:"cuda"`                     // built with the CUDA backend (tag cuda)
	NativeVersion string       `json:"native_version,omitempty"` // version of the linked native library
	CUDAArchs     []string     `json:"cuda_archs"`               // SM architectures compiled into the native library
	Kernels       string       `json:"kernels,omitempty"`        // GPU MSM/NTT kernel set: "sppark-<version>" or "reference"
	Devices       []deviceInfo `json:"devices"`
	DeviceError   string       `json:"device_error,omitempty"`   // why devices could not be listed
	Backend       string       `json:"backend"`                  // what --backend auto picks: "cpu" or "cuda"
	BackendReason string       `json:"backend_reason,omitempty"` // why auto picks the CPU (porep.AutoBackend), if it does
	Backends      []string     `json:"backends"`                 // proving backends registered in this binary
	NoGPU         bool         `json:"no_gpu"`                   // BELLMAN_NO_GPU is set
}

// deviceInfo describes one CUDA device.
type deviceInfo struct {
	Index       int    `json:"index"`
	Name        string `json:"name"`
	MemoryBytes uint64 `json:"memory_bytes"`
	SM          string `json:"sm"`
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print cuseal's version and build: module version, VCS revision and time, Go, tags, native library",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object (internal/buildinfo.Info)"}},
		Action: func(c *cli.Context) error {
			b := readBuild()
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(b)
			}
			printf(c, "%s\n", b)
			return nil
		},
	}
}

// readBuild is this binary's build facts with the native library's version
// and CUDA architectures (nativeBuild; none without the cuda tag).
func readBuild() buildinfo.Info {
	b := buildinfo.Read()
	nativeBuild(&b)
	return b
}

func infoCommand() *cli.Command {
	return &cli.Command{
		Name:  "info",
		Usage: "print the build (version, tags, CUDA archs) and the devices found",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
			noGPUFlag(),
		},
		Action: func(c *cli.Context) error {
			info := collectInfo(noGPU(c))
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			}
			printInfo(c, info)
			return nil
		},
	}
}

func collectInfo(noGPU bool) buildInfo {
	info := buildInfo{
		Version:   version,
		GoVersion: runtime.Version(),
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
		BuildTags: buildTags(),
		CUDA:      cudaBuild,
		CUDAArchs: []string{},
		Devices:   []deviceInfo{},
		NoGPU:     noGPU,
	}
	probeBackend(&info)
	// What --backend auto picks: porep's registry decides (and says why it falls back to the
	// CPU); --no-gpu / BELLMAN_NO_GPU make the CLI use the CPU (resolveBackend).
	switch {
	case noGPU && porep.GPUDisabledByEnv():
		info.Backend, info.BackendReason = porep.BackendCPU, "BELLMAN_NO_GPU is set"
	case noGPU:
		info.Backend, info.BackendReason = porep.BackendCPU, "--no-gpu"
	default:
		info.Backend, info.BackendReason = porep.AutoBackend()
	}
	info.Backends = porep.Backends()
	return info
}

// buildTags returns the -tags the binary was built with.
func buildTags() []string { return buildinfo.Read().Tags }

func printInfo(c *cli.Context, info buildInfo) {
	printf(c, "cuseal %s\n", info.Version)
	printf(c, "  go:         %s %s/%s\n", info.GoVersion, info.OS, info.Arch)
	tags := "(none)"
	if len(info.BuildTags) > 0 {
		tags = strings.Join(info.BuildTags, ",")
	}
	printf(c, "  build tags: %s\n", tags)
	if !info.CUDA {
		printf(c, "  cuda:       not built in (pure-Go CPU backend only; build with ./build.sh build on a machine with nvcc)\n")
	} else {
		archs := strings.Join(info.CUDAArchs, ",")
		if archs == "" {
			archs = "(none)"
		}
		printf(c, "  cuda:       built in, native library %s\n", info.NativeVersion)
		printf(c, "  archs:      %s\n", archs)
		switch {
		case strings.HasPrefix(info.Kernels, "sppark"):
			printf(c, "  kernels:    %s (CUSEAL_KERNELS=reference: cuseal's own)\n", info.Kernels)
		case info.Kernels != "":
			printf(c, "  kernels:    %s (cuseal's own)\n", info.Kernels)
		}
		switch {
		case info.DeviceError != "":
			printf(c, "  devices:    none usable: %s\n", info.DeviceError)
		case len(info.Devices) == 0:
			printf(c, "  devices:    no CUDA devices found\n")
		default:
			for _, d := range info.Devices {
				printf(c, "  device %d:   %s, sm_%s, %s\n", d.Index, d.Name, d.SM, formatSize(d.MemoryBytes))
			}
		}
	}
	note := ""
	if info.NoGPU {
		note = " (BELLMAN_NO_GPU / --no-gpu set)"
	}
	printf(c, "  backend:    %s%s (registered: %s)\n", info.Backend, note, strings.Join(info.Backends, ", "))
	if info.BackendReason != "" && !info.NoGPU {
		printf(c, "  fallback:   auto uses the CPU: %s\n", info.BackendReason)
	}
}

// appVersion is what `cuseal --version` prints after "cuseal version ": the release and the
// build facts of `cuseal version` (without the native library, which needs the bridge).
func appVersion() string {
	return strings.TrimPrefix(buildinfo.Read().String(), "cuseal ")
}
