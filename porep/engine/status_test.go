// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestStageTimes: each partition's stages are in order in time and their
// durations add up to the job's timings; a failed first attempt shows as
// two attempts whose proving time both count.
func TestStageTimes(t *testing.T) {
	const per = 20 * time.Millisecond
	d := &DoubleProver{PerPartition: per, Fail: func(n int, _ *Work) error {
		if n == 1 {
			time.Sleep(per)
			return errors.New("first call fails on purpose")
		}
		return nil
	}}
	e := newDouble(t, Config{}, 10*time.Millisecond, d)
	r, err := e.Prove(context.Background(), doubleReq("stages", 2, 0))
	if err != nil || r.State != StateCompleted {
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
		case p.ProveStart.Before(p.SynthesisStart.Add(p.ParamsWait + p.Synthesis)):
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

// TestBusyIn: the busy time in a window counts the overlap of finished
// spans and of the proof in progress, and forgets spans older than
// BusyWindow.
func TestBusyIn(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	d := &device{}
	d.noteBusy(at(0), at(10))   // forgotten once a span ends after 70 s
	d.noteBusy(at(50), at(80))  // 30 s
	d.noteBusy(at(90), at(100)) // 10 s
	if got := d.busyIn(at(40), at(100)); got != 40*time.Second {
		t.Fatalf("busy in [40 s, 100 s): %v, want 40s", got)
	}
	if got := d.busyIn(at(60), at(100)); got != 30*time.Second {
		t.Fatalf("busy in [60 s, 100 s): %v, want 30s (20 s of the span from 50 s, and 10 s)", got)
	}
	if len(d.spans) != 2 {
		t.Fatalf("%d spans kept, want 2 (the one that ended at 10 s is out of the window)", len(d.spans))
	}
	d.busy, d.since = true, at(110)
	if got := d.busyIn(at(60), at(120)); got != 40*time.Second {
		t.Fatalf("busy in [60 s, 120 s) with a proof since 110 s: %v, want 40s", got)
	}
}

// TestBusyFraction: while a young engine's prover proves, its busy
// fraction is at least the share of the engine's life the test saw it
// proving; once idle, the fraction falls but stays above zero within the
// window.
func TestBusyFraction(t *testing.T) {
	d := &DoubleProver{PerPartition: 300 * time.Millisecond}
	before := time.Now() // the engine starts after this
	e := newDouble(t, Config{}, 0, d)
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
