// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/cpu"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/service"
)

// `cuseal doctor`: whether this box can do the work it is meant to do, before a proof finds out
// hours into a run. Every probe of the machine goes through doctorProbes (host memory through
// hostmem's file paths), so tests run it against made-up directories, files and devices.

// The states of a doctor row, and what each makes the command exit with.
const (
	doctorOK   = "OK"
	doctorWarn = "WARN"
	doctorFail = "FAIL"
)

// doctorRow is one line of the report.
type doctorRow struct {
	Check  string `json:"check"`            // what was checked: "params winning-post .params", "memory", "gpu 0"
	Status string `json:"status"`           // OK, WARN or FAIL
	Detail string `json:"detail"`           // what was found
	Remedy string `json:"remedy,omitempty"` // what to do (every FAIL, some WARNs)
}

// doctorReport is `cuseal doctor --json`'s object.
type doctorReport struct {
	Kinds      []string    `json:"kinds"`
	SectorSize string      `json:"sector_size"`
	ParamsDir  string      `json:"params_dir"`
	Backend    string      `json:"backend"`
	Rows       []doctorRow `json:"rows"`
	Warnings   int         `json:"warnings"`
	Failures   int         `json:"failures"`
	Exit       int         `json:"exit"` // 0 all OK, 1 warnings, 2 a failure
}

// gpuFacts is what the native library says of the GPUs (CUDA builds; gpuProbe).
type gpuFacts struct {
	Built   bool   // built with the cuda tag
	Err     string // why the library or the devices could not be asked
	Runtime int    // CUDA runtime version, 1000*major + 10*minor
	Archs   []string
	Devices []bridge.DeviceInfo
}

// cpuFacts are the CPU's cores and the instruction-set features gnark-crypto's field
// arithmetic uses on amd64: ADX and BMI2 (MULX/ADCX/ADOX in the Montgomery multiplication;
// without them it takes the generic, slower path), AVX-512F and IFMA (vectorized field
// operations).
type cpuFacts struct {
	Cores                          int
	AMD64, ADX, BMI2, AVX512, IFMA bool
}

// doctorProbes are where doctor reads the machine.
type doctorProbes struct {
	sysDir      string // /sys: kernel/mm/transparent_hugepage/{enabled,defrag}
	procDir     string // /proc: driver/nvidia/version
	cpu         cpuFacts
	gpu         func() gpuFacts
	lookupGroup func(name string) (int, error) // service.LookupGroup
	groups      func() ([]int, error)          // this process's groups (os.Getgroups plus os.Getgid)
	uid         int                            // this process's user (root needs no group membership)
}

// realProbes reads this machine.
func realProbes() doctorProbes {
	return doctorProbes{
		sysDir: "/sys", procDir: "/proc",
		cpu: cpuFacts{Cores: runtime.NumCPU(), AMD64: runtime.GOARCH == "amd64", ADX: cpu.X86.HasADX, BMI2: cpu.X86.HasBMI2,
			AVX512: cpu.X86.HasAVX512F, IFMA: cpu.X86.HasAVX512IFMA},
		gpu:         gpuProbe,
		lookupGroup: service.LookupGroup,
		uid:         os.Getuid(),
		groups: func() ([]int, error) {
			g, err := os.Getgroups()
			return append(g, os.Getgid()), err
		},
	}
}

// doctorProbesHook lets tests replace the probes.
var doctorProbesHook func(*doctorProbes)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check this box for the proofs it is meant to make: parameter files, memory, CPU, GPUs, huge pages, the socket; OK / WARN / FAIL with remedies",
		Description: "Exits 0 when every check is OK, 1 when some warn, 2 when one fails (each FAIL names its remedy).\n" +
			"Checks the parameter files of --kinds at --sector-size in --params-dir (present, readable, shape, test or\n" +
			"official; --digests hashes them against rust-fil-proofs 19.1.0's table), host memory against what the\n" +
			"engine budgets for them, the CPU's features, the GPUs (CUDA builds), transparent huge pages, the socket\n" +
			"of --listen, and prints the [Cuzk] Address line for Curio's config.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kinds", Usage: "the proofs this box makes, comma-separated: porep, window-post, winning-post, update", Value: "porep,window-post,winning-post,update"},
			&cli.StringFlag{Name: "sector-size", Usage: "the sector `SIZE` proven", Value: "32GiB"},
			paramsDirFlag(),
			&cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto},
			&cli.StringFlag{Name: "budget", Usage: "serve's memory budget `SIZE` (default: serve's, MemTotal or the cgroup limit less max(1GiB, 10%))"},
			&cli.BoolFlag{Name: "digests", Usage: "also hash each parameter file against the official digests (minutes for 32GiB: 47 GB)"},
			&cli.StringFlag{Name: "listen", Usage: "serve's --listen `ADDR` to check", Value: service.DefaultListen()},
			&cli.StringFlag{Name: "socket-group", Usage: "serve's --socket-group `GROUP` to check"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		},
		Action: doctorAction,
	}
}

func doctorAction(c *cli.Context) error {
	p := realProbes()
	if doctorProbesHook != nil {
		doctorProbesHook(&p)
	}
	rep, err := runDoctor(c, p)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return internalError(err)
		}
	} else {
		printDoctor(c, rep)
	}
	switch rep.Exit {
	case 2:
		return &exitError{code: 2, err: fmt.Errorf("doctor: %d check(s) FAILED, %d warning(s): see the remedies above", rep.Failures, rep.Warnings)}
	case 1:
		return &exitError{code: 1, err: fmt.Errorf("doctor: %d warning(s), no failure", rep.Warnings)}
	}
	return nil
}

// runDoctor checks everything the flags name; an error is bad usage only.
func runDoctor(c *cli.Context, p doctorProbes) (*doctorReport, error) {
	rep := &doctorReport{SectorSize: c.String("sector-size"), ParamsDir: c.String("params-dir"), Backend: c.String("backend")}
	var circuits []doctorCircuit
	for _, k := range strings.Split(c.String("kinds"), ",") {
		k = strings.TrimSpace(k)
		if k == "" || slices.Contains(rep.Kinds, k) {
			continue
		}
		circ, _, err := testCircuitFor(k, rep.SectorSize)
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) && strings.HasPrefix(err.Error(), "--circuit") {
				return nil, usageErrorf("--kinds: %s", strings.TrimPrefix(err.Error(), "--circuit "))
			}
			return nil, err
		}
		rep.Kinds = append(rep.Kinds, k)
		circuits = append(circuits, doctorCircuit{kind: k, c: circ})
	}
	if len(circuits) == 0 {
		return nil, usageErrorf("--kinds %q: name at least one of porep, window-post, winning-post, update", c.String("kinds"))
	}
	if _, ok := porep.LookupBackend(rep.Backend); !ok && rep.Backend != porep.BackendAuto {
		return nil, usageErrorf("--backend %q: want %s", rep.Backend, backendChoices())
	}
	var budget uint64
	if b := c.String("budget"); b != "" {
		v, err := parseSize(b)
		if err != nil || v == 0 {
			return nil, usageErrorf("--budget %q: want a size such as 200GiB", b)
		}
		budget = v
	}
	add := func(rows ...doctorRow) { rep.Rows = append(rep.Rows, rows...) }
	b := readBuild()
	add(doctorRow{Check: "build", Status: doctorOK, Detail: b.String()})
	for _, dc := range circuits {
		add(doctorParams(c, rep.ParamsDir, rep.SectorSize, dc)...)
	}
	add(doctorMemory(circuits, rep.ParamsDir, rep.Backend, budget, rep.SectorSize)...)
	add(doctorCPU(p.cpu))
	add(doctorGPU(p, rep.Backend, circuits, rep.ParamsDir)...)
	add(doctorTHP(p.sysDir)...)
	add(doctorSocket(p, c.String("listen"), c.String("socket-group"))...)
	for _, r := range rep.Rows {
		switch r.Status {
		case doctorWarn:
			rep.Warnings++
		case doctorFail:
			rep.Failures++
		}
	}
	switch {
	case rep.Failures > 0:
		rep.Exit = 2
	case rep.Warnings > 0:
		rep.Exit = 1
	}
	return rep, nil
}

// printDoctor prints the table: one row per check, each remedy on the line below its row.
func printDoctor(c *cli.Context, rep *doctorReport) {
	printf(c, "cuseal doctor: %s at %s, parameters in %s, backend %s\n\n", strings.Join(rep.Kinds, ", "), rep.SectorSize, rep.ParamsDir, rep.Backend)
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "STATUS\tCHECK\tDETAIL\n")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Status, r.Check, termSafe(r.Detail))
		if r.Remedy != "" {
			fmt.Fprintf(tw, "\t\t-> %s\n", termSafe(r.Remedy))
		}
	}
	tw.Flush()
	printf(c, "\n%d OK, %d WARN, %d FAIL\n", len(rep.Rows)-rep.Warnings-rep.Failures, rep.Warnings, rep.Failures)
}

// doctorCircuit is one kind's circuit at the sector size.
type doctorCircuit struct {
	kind string
	c    paramfile.Circuit
}

// doctorMemory compares what serve's engine budgets for the kinds (porep.Keys.Memory, the
// engine's figures: every kind's parameters resident, plus the largest partition's work) with
// the budget and the host's memory (hostmem: MemTotal, MemAvailable, the cgroup limit).
func doctorMemory(circuits []doctorCircuit, dir, backend string, budget uint64, size string) []doctorRow {
	if backend == porep.BackendAuto {
		backend = porep.AutoPreference()
	}
	var params, partition uint64
	for _, dc := range circuits {
		m, err := porep.KeysFor(dc.c, porep.WithParamsDir(dir)).Memory(backend)
		if err != nil {
			return []doctorRow{{Check: "memory", Status: doctorFail, Detail: fmt.Sprintf("estimating %s: %v", dc.kind, err), Remedy: "report it: the estimate should not fail"}}
		}
		params += m.Params
		partition = max(partition, m.PerPartition+m.Backend)
	}
	need := params + partition
	total, okT := hostmem.Total()
	avail, okA := hostmem.Available()
	cg, cgPath, okC := hostmem.CgroupLimit()
	var host []string
	if okT {
		host = append(host, "total "+humanBytes(total))
	}
	if okA {
		host = append(host, "available "+humanBytes(avail))
	}
	if okC {
		host = append(host, fmt.Sprintf("cgroup limit %s (%s)", humanBytes(cg), cgPath))
	} else {
		host = append(host, "no cgroup limit")
	}
	hostRow := doctorRow{Check: "memory host", Status: doctorOK, Detail: strings.Join(host, ", ")}
	if !okT {
		hostRow.Status, hostRow.Detail = doctorWarn, "cannot read "+hostmem.MemInfoPath+": memory not checked"
		return []doctorRow{hostRow}
	}
	limit, what := total, "MemTotal"
	if okC && cg < limit {
		limit, what = cg, "the cgroup limit"
	}
	budgetWhat := "--budget"
	if budget == 0 {
		budget, budgetWhat = engine.DefaultBudget(), "serve's default budget"
	}
	detail := fmt.Sprintf("%s needs about %s at %s on the %s backend (parameters %s resident, the largest partition's work %s); %s %s",
		strings.Join(kindNames(circuits), ", "), humanBytes(need), size, backend, humanBytes(params), humanBytes(partition), budgetWhat, humanBytes(budget))
	row := doctorRow{Check: "memory need", Status: doctorOK, Detail: detail}
	switch {
	case need > limit:
		row.Status = doctorFail
		row.Detail += fmt.Sprintf("; more than %s (%s)", what, humanBytes(limit))
		row.Remedy = "add memory or raise the cgroup limit, prove fewer kinds here (--kinds), or use a GPU backend (the CPU backend's H stage is most of a partition's work)"
	case need > budget:
		row.Status = doctorFail
		row.Detail += ": the budget is too small"
		row.Remedy = fmt.Sprintf("run serve with --budget %s or more (the host has %s)", humanBytes(need), humanBytes(limit))
	case okA && need > avail:
		row.Status = doctorWarn
		row.Detail += fmt.Sprintf("; only %s available now", humanBytes(avail))
		row.Remedy = "other processes hold the rest: stop them before serving, or lower the work (--kinds)"
	}
	return []doctorRow{hostRow, row}
}

func kindNames(circuits []doctorCircuit) []string {
	var out []string
	for _, dc := range circuits {
		out = append(out, dc.kind)
	}
	return out
}

// doctorCPU reports the cores and the features the field arithmetic uses.
func doctorCPU(f cpuFacts) doctorRow {
	row := doctorRow{Check: "cpu", Status: doctorOK}
	if !f.AMD64 {
		row.Detail = fmt.Sprintf("%d cores, %s: the field arithmetic has no assembly here (generic Go: slower)", f.Cores, runtime.GOARCH)
		row.Status = doctorWarn
		return row
	}
	has := func(ok bool, name string) string {
		if ok {
			return name
		}
		return "no " + name
	}
	row.Detail = fmt.Sprintf("%d cores; %s, %s, %s, %s", f.Cores, has(f.ADX, "ADX"), has(f.BMI2, "BMI2"), has(f.AVX512, "AVX-512F"), has(f.IFMA, "AVX-512 IFMA"))
	if !f.ADX || !f.BMI2 {
		row.Status = doctorWarn
		row.Remedy = "without ADX and BMI2 the field multiplication takes the generic path: synthesis and the CPU backend run several times slower; prove on a newer CPU (Intel Broadwell / AMD Zen or later)"
	}
	return row
}

// doctorGPU checks each device against the archs compiled in and a partition's assignment;
// without CUDA it says which binary proves on GPUs.
func doctorGPU(p doctorProbes, backend string, circuits []doctorCircuit, dir string) []doctorRow {
	g := p.gpu()
	wantGPU := backend != porep.BackendCPU
	if !g.Built {
		if !wantGPU {
			return []doctorRow{{Check: "gpu", Status: doctorOK, Detail: "not built in; --backend cpu"}}
		}
		if backend != porep.BackendAuto {
			// serve --backend cuda (or supraseal) exits 2 with this binary.
			return []doctorRow{{Check: "gpu", Status: doctorFail, Detail: "--backend " + backend + ": this binary is built without CUDA",
				Remedy: "use cuseal-cuda: the -cuda release archive, or ./build.sh build on a machine with nvcc (docs/building.md); or --backend cpu"}}
		}
		return []doctorRow{{Check: "gpu", Status: doctorWarn, Detail: "this binary is built without CUDA: it proves on the CPU",
			Remedy: "to prove on NVIDIA GPUs use cuseal-cuda: the -cuda release archive, or ./build.sh build on a machine with nvcc (docs/building.md)"}}
	}
	var rows []doctorRow
	driver := "driver not found (" + filepath.Join(p.procDir, "driver/nvidia/version") + ")"
	if b, err := os.ReadFile(filepath.Join(p.procDir, "driver", "nvidia", "version")); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		driver = strings.Join(strings.Fields(line), " ")
	}
	runtimeV := "unknown"
	if g.Runtime > 0 {
		runtimeV = fmt.Sprintf("%d.%d", g.Runtime/1000, g.Runtime%1000/10)
	}
	head := doctorRow{Check: "gpu", Status: doctorOK, Detail: fmt.Sprintf("CUDA runtime %s, archs %s; %s", runtimeV, strings.Join(g.Archs, ","), driver)}
	if g.Err != "" || len(g.Devices) == 0 {
		why := g.Err
		if why == "" {
			why = "no CUDA devices found"
		}
		head.Detail += "; " + why
		head.Status, head.Remedy = doctorWarn, "auto proves on the CPU: install the NVIDIA driver (CUDA 12 or later for this build), check CUDA_VISIBLE_DEVICES and BELLMAN_NO_GPU"
		if backend == "cuda" {
			head.Status = doctorFail
		}
		return append(rows, head)
	}
	rows = append(rows, head)
	var partition uint64
	for _, dc := range circuits {
		if m, err := porep.KeysFor(dc.c, porep.WithParamsDir(dir)).Memory("cuda"); err == nil {
			partition = max(partition, m.PerPartition)
		}
	}
	for _, d := range g.Devices {
		row := doctorRow{Check: fmt.Sprintf("gpu %d", d.Index), Status: doctorOK,
			Detail: fmt.Sprintf("%s, sm_%d%d, %s free of %s", d.Name, d.Major, d.Minor, humanBytes(d.FreeMemory), humanBytes(d.TotalMemory))}
		switch {
		case !archRuns(g.Archs, d.Major, d.Minor):
			row.Status = doctorFail
			row.Detail += fmt.Sprintf("; no code compiled for it (archs %s)", strings.Join(g.Archs, ","))
			row.Remedy = fmt.Sprintf("rebuild with CUDA_ARCHS=%d%d-real (./build.sh cuda; docs/building.md), or use a build whose archs include sm_%d%d", d.Major, d.Minor, d.Major, d.Minor)
		case d.FreeMemory < partition:
			row.Status = doctorWarn
			row.Detail += fmt.Sprintf("; less than one partition's assignment (%s): the prover works in more batches", humanBytes(partition))
			row.Remedy = "free the device (other processes: nvidia-smi) or prove smaller sectors here"
		}
		rows = append(rows, row)
	}
	return rows
}

// archRuns reports whether code compiled for archs runs on a device of compute capability
// major.minor: SASS for the same major and a lower or equal minor (sm_80 runs on sm_86), or
// PTX for a lower or equal capability, which the driver compiles.
func archRuns(archs []string, major, minor int) bool {
	dev := major*10 + minor
	for _, a := range archs {
		if n, ok := strings.CutPrefix(a, "sm_"); ok {
			if v, err := strconv.Atoi(n); err == nil && v/10 == major && v <= dev {
				return true
			}
		}
		if n, ok := strings.CutPrefix(a, "compute_"); ok {
			if v, err := strconv.Atoi(n); err == nil && v <= dev {
				return true
			}
		}
	}
	return false
}

// doctorTHP reports the transparent huge pages settings.
func doctorTHP(sysDir string) []doctorRow {
	dir := filepath.Join(sysDir, "kernel", "mm", "transparent_hugepage")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return ""
		}
		s := string(b)
		if i, k := strings.Index(s, "["), strings.Index(s, "]"); i >= 0 && k > i {
			return s[i+1 : k]
		}
		return strings.TrimSpace(s)
	}
	enabled, defrag := read("enabled"), read("defrag")
	row := doctorRow{Check: "huge pages", Status: doctorOK, Detail: fmt.Sprintf("transparent huge pages %s, defrag %s", enabled, defrag)}
	switch enabled {
	case "":
		row.Status, row.Detail = doctorWarn, "cannot read "+filepath.Join(dir, "enabled")+": transparent huge pages not checked"
	case "never":
		row.Status = doctorWarn
		row.Remedy = "the Go heap (100+ GiB at 32GiB) and the mapped parameters get 4 KiB pages: more TLB misses; echo madvise > " + filepath.Join(dir, "enabled")
	}
	return []doctorRow{row}
}

// doctorSocket checks serve's --listen address (a unix socket's directory, --socket-group and
// this user's membership) and prints the line for Curio's config.
func doctorSocket(p doctorProbes, listen, group string) []doctorRow {
	network, addr, err := service.ParseAddress(listen)
	if err != nil {
		return []doctorRow{{Check: "socket", Status: doctorFail, Detail: "--listen " + err.Error(), Remedy: "use unix:///run/cuseal/cuseal.sock (docs/service.md)"}}
	}
	curio := doctorRow{Check: "curio config", Status: doctorOK, Detail: fmt.Sprintf("[Cuzk] Address = %q", listen)}
	if network == "tcp" {
		row := doctorRow{Check: "socket", Status: doctorOK, Detail: "TCP " + addr + " (loopback)"}
		if !service.Loopback(addr) {
			row.Status, row.Detail = doctorWarn, "TCP "+addr+": not loopback: serve needs --tls-cert/--tls-key (or --insecure-listen)"
			row.Remedy = "serve on a unix socket or loopback, or with TLS (docs/service.md)"
		}
		return []doctorRow{row, curio}
	}
	dir := filepath.Dir(addr)
	row := doctorRow{Check: "socket", Status: doctorOK, Detail: addr}
	switch fi, err := os.Stat(dir); {
	case err != nil:
		row.Status, row.Detail = doctorFail, fmt.Sprintf("%s: its directory %s does not exist", addr, dir)
		row.Remedy = fmt.Sprintf("mkdir -p %s and give it to serve's user (the systemd unit's RuntimeDirectory=cuseal makes /run/cuseal)", dir)
	case !fi.IsDir():
		row.Status, row.Detail = doctorFail, fmt.Sprintf("%s: %s is not a directory", addr, dir)
		row.Remedy = "choose another --listen path"
	default:
		row.Detail = fmt.Sprintf("%s (directory %s, mode %04o)", addr, dir, fi.Mode().Perm())
		if fi, err := os.Lstat(addr); err == nil && fi.Mode()&os.ModeSocket == 0 {
			// serve replaces a stale socket but nothing else.
			row.Status, row.Detail = doctorFail, fmt.Sprintf("%s exists and is not a socket (%s)", addr, service.FileKind(fi.Mode()))
			row.Remedy = "move it away, or choose another --listen path"
		}
	}
	rows := []doctorRow{row}
	if group != "" {
		g := doctorRow{Check: "socket group", Status: doctorOK}
		gid, err := p.lookupGroup(group)
		if err != nil {
			g.Status, g.Detail, g.Remedy = doctorFail, "--socket-group "+group+": "+err.Error(), "create the group (groupadd "+group+") or name Curio's user's group"
		} else {
			mine, _ := p.groups()
			g.Detail = fmt.Sprintf("%s (gid %d): the socket is mode 0660, that group", group, gid)
			switch {
			case p.uid == 0:
				g.Detail += "; root may give the socket any group"
			case !slices.Contains(mine, gid):
				g.Status = doctorFail
				g.Detail += "; this user is not in it"
				g.Remedy = fmt.Sprintf("add serve's user to %s (usermod -aG %s USER; systemd: SupplementaryGroups=%s)", group, group, group)
			}
		}
		rows = append(rows, g)
	}
	return append(rows, curio)
}
