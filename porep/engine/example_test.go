// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
)

// A Go miner embeds the engine and proves a sector's C2 in-process: the
// same jobs, priorities, budget and verification as `cuseal serve`. (Not
// run: it needs the 32 GiB parameters and a C1 output.)
func Example() {
	e, err := engine.New(engine.Config{ParamsDir: "/var/tmp/filecoin-proof-parameters", Backend: "auto"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	c1, err := os.ReadFile("c1.json") // SealCommitPhase1's output, or a Commit2In wrapper
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute) // leaving cancels the job
	defer cancel()
	r, err := e.Prove(ctx, &engine.Request{
		RequestID: "porep-1000-7", Kind: engine.KindPoRepC2,
		RegisteredProof: 8, // abi.RegisteredSealProof_StackedDrg32GiBV1_1
		SectorNumber:    7, MinerID: 1000, VanillaProof: c1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if r.State != engine.StateCompleted {
		fmt.Println(r.State, r.Err)
		return
	}
	fmt.Printf("proof of %d bytes, verified against the .vk; synthesis %v, proving %v\n", len(r.Proof), r.Timings.Synthesis, r.Timings.Prove)
}

// The test double stands in for a device and a proof kind: here two jobs
// share one prover, and the WinningPoSt-like CRITICAL job is not queued
// behind the NORMAL one's partitions.
func Example_testDouble() {
	e, err := engine.New(engine.Config{
		Provers:  []engine.Prover{&enginetest.Prover{PerPartition: 5 * time.Millisecond}},
		Families: enginetest.Families(&enginetest.Family{Partitions: 4}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	ctx := context.Background()
	normal, _ := e.Submit(ctx, &engine.Request{RequestID: "porep", Kind: enginetest.Kind, Priority: engine.PriorityNormal})
	critical, _ := e.Prove(ctx, &engine.Request{RequestID: "winning", Kind: enginetest.Kind, Priority: engine.PriorityCritical, VanillaProofs: make([][]byte, 1)})
	r, _ := e.Await(ctx, normal.JobID)
	fmt.Println(critical.State, len(critical.Proof), r.State, len(r.Proof))
	// Output: completed 192 completed 768
}
