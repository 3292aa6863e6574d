// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package engine is cuseal's long-lived proving engine: one object that
// accepts proof jobs of every kind cuseal proves (PoRep C2, WinningPoSt,
// WindowPoSt partitions, SnapDeals updates: porep_kind.go, post_kind.go for
// both PoSt kinds, update_kind.go), schedules their partitions across CPU
// synthesis workers and one proving worker per device, and returns
// verified proofs. `cuseal serve` (cuzk.v1.ProvingEngine over gRPC) and
// in-process Go miners use it alike; porep.SealCommitPhase2 stays the
// one-shot call, and the engine's PoRep bytes equal it.
//
// Jobs: Submit queues a job and returns a Ticket; Await waits with ctx's
// deadline as the timeout (the job goes on); Prove is both, and a caller
// that goes away cancels its job unless another waits or it was
// Submit-ted; Cancel takes a queued job out of the queue and stops a
// running one at its next partition boundary. A RequestID attaches to the
// pending, running or retained completed job with the same id and the
// same request content (SHA-256 of every field the proof depends on), so
// work is never done twice and two different requests never mix; every
// job has its own JobID.
//
// Scheduling: partitions are the unit. Synthesis workers take the next
// partition of the highest-priority job (CRITICAL > HIGH > NORMAL > LOW,
// then submission order) while fewer than Config.PartitionsWaiting
// partitions of that priority or above are synthesizing or waiting; each
// idle prover takes the highest-priority synthesized partition. So job
// B's synthesis overlaps job A's proving. A partition that is proving
// runs to its end, so CRITICAL work (WinningPoSt) has a prover kept for
// it (Config.CriticalProver: by default the CPU, beside the CPU prover or
// the devices): it takes a CRITICAL partition no other prover is free
// for, unless a busy prover is expected to finish its partition and then
// the CRITICAL one sooner (critical.go). A CRITICAL job waiting for memory
// holds back lower work's next partitions. Status and the
// cuseal_engine_prove_wait_seconds histogram show the wait from
// submission to proving.
//
// Memory: one budget (Config.BudgetBytes; DefaultBudget from MemTotal and
// the cgroup limit) covers resident parameters (per file, evicted least
// recently used when idle and room is needed), synthesis buffers in use or
// pooled (the pool is dropped Config.IdleRelease after the last job ends),
// and the synthesized partitions waiting or proving (estimates:
// porep.Keys.Memory). A partition starts only when it fits; a job
// whose parameters and one partition exceed the budget is refused with
// ErrTooLarge and the figures. At most Config.MaxQueued jobs wait to start;
// one more is refused with ErrQueueFull naming the cap (queuecap.go).
//
// Correctness and faults: every partition proof is verified with the
// verifier's key (.vk) before the job completes. A prover error (or a
// proof that does not verify) is retried once on another prover if there
// is one, else on the same, from a fresh synthesis (provers use the
// assignment's a, b, c as scratch: groth16.WithAssignmentsConsumed); then
// the job fails naming the partition and
// both causes. A prover failing twice in a row is quarantined (Status) for
// Config.QuarantineFor, then tried again. A
// panic in a kind or prover fails its job, never the process. A parameter
// file that changes on disk during a proof (groth16.ErrParamsChanged)
// fails the job at once, without retry or blame on the prover, and the
// next job loads the file afresh. A device whose free memory shrinks past
// Config.DeviceMemoryLoss while idle is quarantined; with none left,
// DevicesLost closes (devguard.go).
//
// Provers are pluggable (Prover: BackendProver over porep's backend
// registry, or any other), and so
// are kinds (Family: parse a Request into a Plan of parameters,
// partitions, memory per partition, synthesize, verify and finish; the
// four cuzk kinds are porep.Job families, Config.Families adds more);
// kinds not registered are refused with ErrUnsupportedKind. The request,
// result and status types are porep/engine/engineapi's, re-exported here. Status and Gatherer
// (Prometheus) show queues, jobs with partition timings, provers, resident
// parameters, the budget and counters.
//
// Rooms: engine.go (Engine, New, Drain, Close), admission.go (Submit,
// Prove, Await, Cancel: a request becomes a job), job.go (a job's
// partitions and how it ends), schedule.go (which partition synthesizes
// or proves next, within the budget), critical.go (the prover kept for
// CRITICAL work), stages.go (a partition's synthesis and proof),
// residency.go (resident parameters: Preload, Evict), device.go (a
// prover's record), status.go and metrics.go (what Status and Gatherer
// show); family.go and the *_kind.go files are the four built-in kinds.
package engine
