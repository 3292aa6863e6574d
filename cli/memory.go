// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Memory preflights: commit2, bench prove and params generate refuse (exit 2) work whose
// estimated peak memory exceeds what the host can give (hostmem.Limit), naming the estimate,
// the binding limit and the knobs, instead of dying minutes later in the OOM killer.

// checkSetupMemory refuses (exit 2) a setup of circuit c whose estimated peak memory
// (paramfile.EstimateSetupMemory of its shape: 96 bytes per variable and up to ~1.5 GB) exceeds
// the available memory (hostmem.Limit): a 32 GiB PoRep setup needs ~12.7 GB, and a run short of it
// ends in the kernel's OOM killer after minutes of work.
func checkSetupMemory(c paramfile.Circuit) error {
	avail, what, ok := hostmem.Limit()
	if !ok {
		return nil
	}
	shape, err := c.SizeHint()
	if err != nil {
		return internalError(err)
	}
	need := paramfile.EstimateSetupMemory(shape)
	if need <= avail {
		return nil
	}
	return usageErrorf("--sector-size %s: generating its test parameters needs about %s of memory (%.1fM variables), but only %s is available (%s); pass --force to try anyway",
		stacked.SizeLabel(c.ProofSectorSize()), humanBytes(need), float64(shape.Inputs+shape.Aux)/1e6, humanBytes(avail), what)
}

// checkProveMemory refuses (exit 2) a commit2 or bench prove whose estimated peak memory
// (porep.EstimateMemory) exceeds hostmem.Limit, naming the estimate, the limit and the
// knobs that lower it: such a run otherwise dies after minutes with "runtime: out of memory"
// and a goroutine dump, or from the OOM killer.
func checkProveMemory(c *cli.Context, cfg *stacked.SectorConfig, backend, paramsPath string) error {
	var size uint64
	if st, err := os.Stat(paramsPath); err == nil {
		size = uint64(st.Size())
	}
	inFlight := partitionsInFlight(c, cfg)
	preload := c.Bool("preload-params")
	if backend == porep.BackendAuto {
		backend = porep.AutoPreference() // the backend auto tries first in this build
	}
	est, err := porep.EstimateMemory(cfg, backend, inFlight, preload, size)
	if err != nil {
		return internalError(err)
	}
	return checkMemoryEstimate(cfg.Name, backend, est, inFlight, preload)
}

// checkMemoryEstimate refuses (exit 2) to prove name when its estimated
// memory need exceeds the available memory, naming the knobs that lower it.
func checkMemoryEstimate(name, backend string, est porep.Memory, inFlight int, preload bool) error {
	limit, what, ok := hostmem.Limit()
	need, of := est.Total, "memory"
	if as, found := hostmem.AddressSpaceLimit(); found && addressSpaceNeed(est) > as {
		// RLIMIT_AS counts address space, not resident memory: the Go
		// runtime reserves more than it touches.
		limit, what, ok = as, "the address-space limit (RLIMIT_AS: ulimit -v / prlimit --as)", true
		need, of = addressSpaceNeed(est), "address space"
	}
	if !ok || need <= limit {
		return nil
	}
	var knobs []string
	if inFlight > 1 {
		knobs = append(knobs, fmt.Sprintf("--partitions-in-flight 1 (now %d, %s each)", inFlight, humanBytes(est.PerPartition)))
	}
	if preload {
		knobs = append(knobs, "drop --preload-params")
	}
	knobs = append(knobs, "free memory or raise the limit", "pass --force to try anyway")
	return usageErrorf("proving %s needs about %s of %s (parameters %s resident, %d partition(s) in flight at %s, %s backend work %s), but only %s is available (%s); %s",
		name, humanBytes(need), of, humanBytes(est.Params), est.InFlight, humanBytes(est.PerPartition), backend, humanBytes(est.Backend),
		humanBytes(limit), what, strings.Join(knobs, ", or "))
}

// addressSpaceNeed is the address space a proof of estimate est reserves:
// twice its resident estimate plus 512 MiB (the Go runtime's heap arenas
// and thread stacks, and a, b, c reserved at the domain's capacity before
// H touches it). A 2 KiB C2 (1.1 GB resident) died of "out of memory"
// under prlimit --as 2.0 GB and proved under 3.0 GB.
func addressSpaceNeed(est porep.Memory) uint64 { return 2*est.Total + 512<<20 }

// partitionsInFlight is --partitions-in-flight capped at what can be alive
// at once: a C2's partitions (one with bench prove --partition K).
func partitionsInFlight(c *cli.Context, circuit paramfile.Circuit) int {
	n := c.Int("partitions-in-flight")
	if c.IsSet("partition") {
		return 1
	}
	if sc, ok := circuit.(*stacked.SectorConfig); ok {
		n = min(n, max(sc.Partitions, 1))
	}
	return n
}
