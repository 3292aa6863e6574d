// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"context"
	"errors"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"strings"
	"testing"
	"time"
)

// TestStageTimes: each partition's stages are in order in time and their
// durations add up to the job's timings; a failed first attempt shows as
// two attempts whose proving time both count.
func TestStageTimes(t *testing.T) {
	const per = 20 * time.Millisecond
	d := &enginetest.Prover{PerPartition: per, Fail: func(n int, _ *engine.Work) error {
		if n == 1 {
			time.Sleep(per)
			return errors.New("first call fails on purpose")
		}
		return nil
	}}
	e := newDouble(t, engine.Config{}, 10*time.Millisecond, d)
	r, err := e.Prove(context.Background(), doubleReq("stages", 2, 0))
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("%+v, %v", r, err)
	}
	s := e.Status()
	if len(s.Jobs) != 1 {
		t.Fatalf("jobs %+v", s.Jobs)
	}
	js := s.Jobs[0]
	if js.Ended.Before(js.Submitted) || js.Ended.Sub(js.Submitted) != js.Timings.Total || js.Timings != r.Timings {
		t.Fatalf("job times: submitted %v ended %v timings %+v, result %+v", js.Submitted, js.Ended, js.Timings, r.Timings)
	}
	var synth, prove, verify time.Duration
	attempts := 0
	for _, p := range js.Partitions {
		switch {
		case p.SynthesisStart.Before(js.Submitted):
			t.Errorf("partition %d: synthesis starts %v before submission", p.Index, js.Submitted.Sub(p.SynthesisStart))
		case p.Synthesis < 10*time.Millisecond:
			t.Errorf("partition %d: synthesis %v, the double sleeps 10ms", p.Index, p.Synthesis)
		case p.Attempts == 1 && p.ProveStart.Before(p.SynthesisStart.Add(p.ParamsWait+p.Synthesis)),
			p.ProveStart.Before(p.SynthesisStart): // a retry is synthesized again after the first attempt
			t.Errorf("partition %d: proving starts before its synthesis ends: %+v", p.Index, p)
		case p.ProveEnd.Sub(p.ProveStart) < p.Prove+p.Verify:
			t.Errorf("partition %d: proving %v + verification %v exceed its span %v", p.Index, p.Prove, p.Verify, p.ProveEnd.Sub(p.ProveStart))
		case p.Prove < time.Duration(p.Attempts)*per:
			t.Errorf("partition %d: proving %v over %d attempts of at least %v", p.Index, p.Prove, p.Attempts, per)
		case p.ProveEnd.After(js.Ended) || p.Device != "double" || p.State != "proven":
			t.Errorf("partition %d: %+v (job ended %v)", p.Index, p, js.Ended)
		}
		synth += p.Synthesis
		prove += p.Prove
		verify += p.Verify
		attempts += p.Attempts
	}
	if synth != js.Timings.Synthesis || prove != js.Timings.Prove || verify != js.Timings.Verify || attempts != 3 {
		t.Fatalf("partitions add to synthesis %v prove %v verify %v over %d attempts; the job says %+v, want 3 attempts", synth, prove, verify, attempts, js.Timings)
	}
}

// TestBusyFraction: while a young engine's prover proves, its busy
// fraction is at least the share of the engine's life the test saw it
// proving; once idle, the fraction falls but stays above zero within the
// window.
func TestBusyFraction(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 300 * time.Millisecond}
	before := time.Now() // the engine starts after this
	e := newDouble(t, engine.Config{}, 0, d)
	tk, err := e.Submit(context.Background(), doubleReq("busy", 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, tk.JobID, partitionProving)
	seen := time.Now() // proving started before this
	time.Sleep(150 * time.Millisecond)
	now := time.Now()
	atLeast := float64(now.Sub(seen)) / float64(now.Sub(before))
	busy := e.Status().Devices[0]
	if busy.BusyFraction < atLeast || busy.BusyFraction > 1 || busy.CurrentJobID != tk.JobID {
		t.Fatalf("while proving: %+v, want a busy fraction of at least %.2f", busy, atLeast)
	}
	if _, err := e.Await(context.Background(), tk.JobID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	idle := e.Status().Devices[0]
	if idle.BusyFraction <= 0 || idle.BusyFraction >= 1 || idle.CurrentJobID != "" {
		t.Fatalf("idle after a 300 ms proof: %+v, want a fraction in (0, 1)", idle)
	}
}

// TestBusyCounterAtScrape: cuseal_engine_device_busy_seconds_total counts
// the proof in progress at each scrape (a rate over a long proof is not
// 0 until it ends) and is Status's busy time.
func TestBusyCounterAtScrape(t *testing.T) {
	e := newDouble(t, engine.Config{}, 0, &enginetest.Prover{PerPartition: 10 * time.Second})
	tk, err := e.Submit(context.Background(), doubleReq("long", 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, tk.JobID, partitionProving)
	time.Sleep(50 * time.Millisecond)
	busy := func() float64 {
		t.Helper()
		mfs, err := e.Gatherer().Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == "cuseal_engine_device_busy_seconds_total" {
				if m := mf.GetMetric(); len(m) == 1 && m[0].GetLabel()[0].GetValue() == "double" {
					return m[0].GetCounter().GetValue()
				}
				t.Fatalf("busy counter %v: want one series, prover=double", mf)
			}
		}
		t.Fatal("no cuseal_engine_device_busy_seconds_total")
		return 0
	}
	first := busy()
	st := e.Status().Devices[0].Busy.Seconds()
	time.Sleep(50 * time.Millisecond)
	second := busy()
	if first < 0.04 || st < first || second < first+0.04 {
		t.Fatalf("during a proof: scraped %.3f s then %.3f s, engine.Status %.3f s in between: want it to grow with the proof", first, second, st)
	}
}

// TestPartitionStates: a cancelled queued job's partitions are cancelled,
// not failed; in a job whose synthesis fails, the partition that failed is
// failed and those stopped with it cancelled; a parameter load that fails
// is named so, not "synthesis".
func TestPartitionStates(t *testing.T) {
	e := newDouble(t, engine.Config{SynthesisWorkers: 1, PartitionsWaiting: 1}, 0, &enginetest.Prover{PerPartition: 10 * time.Second})
	ctx := context.Background()
	run, err := e.Submit(ctx, doubleReq("run", 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	queued, err := e.Submit(ctx, doubleReq("queued", 3, 0))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, run.JobID, partitionProving)
	if _, err := e.Cancel(queued.JobID); err != nil {
		t.Fatal(err)
	}
	js := waitState(t, e, queued.JobID, func(js engine.JobStatus) bool { return js.State.Final() })
	for _, p := range js.Partitions {
		if p.State != "cancelled" {
			t.Errorf("cancelled queued job: partition %d %s, want cancelled", p.Index, p.State)
		}
	}
	e.Cancel(run.JobID)

	f := newDouble(t, engine.Config{SynthesisWorkers: 1}, 0, &enginetest.Prover{})
	r, err := f.Prove(ctx, &engine.Request{Kind: enginetest.Kind, VanillaProof: []byte("fail"), VanillaProofs: make([][]byte, 3)})
	if err != nil || r.State != engine.StateFailed {
		t.Fatalf("failing job: %+v, %v", r, err)
	}
	states := []string{}
	for _, p := range f.Status().Jobs[0].Partitions {
		states = append(states, p.State)
	}
	if states[0] != "failed" || states[1] != "cancelled" || states[2] != "cancelled" {
		t.Errorf("a job whose partition 0 fails synthesis: partitions %v, want failed, cancelled, cancelled", states)
	}

	g := newDouble(t, engine.Config{Families: enginetest.Families(&enginetest.Family{Partitions: 1, ParamsBytes: 1 << 20, ParamsError: errors.New("the parameters are truncated on purpose")})}, 0, &enginetest.Prover{})
	r, err = g.Prove(ctx, doubleReq("params", 1, 0))
	if err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "partition 0: parameter load: the parameters are truncated") {
		t.Fatalf("a parameter load that fails: %+v, %v; want it named parameter load", r, err)
	}
	if p := g.Status().Jobs[0].Partitions[0]; p.State != "failed" {
		t.Errorf("partition of a failed parameter load: %s, want failed", p.State)
	}
}

// TestProverWait: a synthesized partition's wait for a busy prover is
// its ProverWait, counted while it waits and summed once it proves.
func TestProverWait(t *testing.T) {
	e := newDouble(t, engine.Config{SynthesisWorkers: 2, PartitionsWaiting: 2}, 0, &enginetest.Prover{PerPartition: 150 * time.Millisecond})
	tk, err := e.Submit(context.Background(), doubleReq("wait", 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	js := waitState(t, e, tk.JobID, func(js engine.JobStatus) bool {
		n := 0
		for _, p := range js.Partitions {
			if p.State == "synthesized" && p.ProverWait >= 50*time.Millisecond {
				n++
			}
		}
		return n == 1
	})
	if js.State != engine.StateRunning {
		t.Fatalf("job %+v", js)
	}
	r, err := e.Await(context.Background(), tk.JobID)
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("%+v, %v", r, err)
	}
	var waited time.Duration
	for _, p := range e.Status().Jobs[0].Partitions {
		end := p.SynthesisStart.Add(p.ParamsWait + p.Synthesis)
		if gap := p.ProveStart.Sub(end); p.ProverWait > gap+time.Millisecond || p.ProverWait < gap-5*time.Millisecond {
			t.Errorf("partition %d: prover wait %v, but %v from synthesized to proving", p.Index, p.ProverWait, gap)
		}
		waited += p.ProverWait
	}
	if waited < 100*time.Millisecond {
		t.Errorf("prover wait %v in all, want most of a 150 ms proof", waited)
	}
}

// TestStatusDraining: Status says when the engine no longer takes work.
func TestStatusDraining(t *testing.T) {
	e := newDouble(t, engine.Config{}, 0, &enginetest.Prover{})
	if e.Status().Draining {
		t.Fatal("draining before Drain")
	}
	if err := e.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !e.Status().Draining {
		t.Fatal("not draining after Drain")
	}
}
