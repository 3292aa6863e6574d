// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the engine's Prometheus series, on a registry of its own
// (Gatherer), so two engines in one process do not collide.
type metrics struct {
	e   *Engine
	reg *prometheus.Registry

	queued, inProgress *prometheus.GaugeVec     // kind
	jobs               *prometheus.CounterVec   // kind, outcome
	jobSeconds         *prometheus.HistogramVec // kind, outcome
	synth              *prometheus.HistogramVec
	prove              *prometheus.HistogramVec
	proveWait          *prometheus.HistogramVec // kind, priority
	paramsLoad         prometheus.Histogram
	busy               *busyCollector       // prover: seconds proving
	proving            *prometheus.GaugeVec // prover: 1 while proving
	quarantined        *prometheus.GaugeVec // prover
	memLost            *prometheus.GaugeVec // prover: bytes lost when retired
	budget             *prometheus.GaugeVec // use
	resident           *prometheus.GaugeVec // circuit
	retries            prometheus.Counter
}

func newMetrics(e *Engine) *metrics {
	// A partition takes up to tens of minutes (a 32 GiB one on the CPU): 10 ms … ~87 min.
	buckets := prometheus.ExponentialBuckets(0.01, 2, 20)
	m := &metrics{
		e:   e,
		reg: prometheus.NewRegistry(),
		queued: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_queue_depth",
			Help: "Jobs waiting for their first partition, by proof kind."}, []string{"kind"}),
		inProgress: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_jobs_in_progress",
			Help: "Jobs with a partition started and not yet final, by proof kind."}, []string{"kind"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cuseal_engine_jobs_total",
			Help: "Finished jobs by proof kind and outcome (completed, failed, cancelled)."}, []string{"kind", "outcome"}),
		// Jobs take up to an hour or more (a 32 GiB C2 on the CPU): 50 ms … ~1.8 h.
		jobSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cuseal_engine_job_duration_seconds",
			Help:    "Time from submission to result of finished jobs, by proof kind and outcome.",
			Buckets: prometheus.ExponentialBuckets(0.05, 2, 18)}, []string{"kind", "outcome"}),
		synth: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cuseal_engine_partition_synthesis_seconds",
			Help: "Synthesis time of one partition.", Buckets: buckets}, []string{"kind"}),
		prove: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cuseal_engine_partition_prove_seconds",
			Help: "Proving and verification time of one partition on a prover.", Buckets: buckets}, []string{"kind", "prover"}),
		proveWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cuseal_engine_prove_wait_seconds",
			Help: "Time from a job's submission to the start of proving its first partition.", Buckets: buckets}, []string{"kind", "priority"}),
		paramsLoad: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "cuseal_engine_params_load_seconds",
			Help: "Time to load one parameter file.", Buckets: buckets}),
		busy: &busyCollector{e: e, desc: prometheus.NewDesc("cuseal_engine_device_busy_seconds_total",
			"Time each prover spent proving, the proof in progress included.", []string{"prover"}, nil)},
		proving: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_device_busy",
			Help: "1 while the prover proves a partition."}, []string{"prover"}),
		quarantined: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_device_quarantined",
			Help: "1 when the prover takes no more work: it failed twice in a row, or its device lost memory."}, []string{"prover"}),
		memLost: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_device_memory_lost_bytes",
			Help: "Free device memory lost while idle, since the first idle reading, by a prover taken out of service for it (0: none)."}, []string{"prover"}),
		budget: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_budget_bytes",
			Help: "The memory budget (use=total) and its use: params, synthesis (in use or pooled), assignments."}, []string{"use"}),
		resident: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cuseal_engine_params_resident_bytes",
			Help: "Parameters kept resident, by circuit id."}, []string{"circuit"}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{Name: "cuseal_engine_partition_retries_total",
			Help: "Partitions proven again after a prover failed them."}),
	}
	m.reg.MustRegister(m.queued, m.inProgress, m.jobs, m.jobSeconds, m.synth, m.prove, m.proveWait, m.paramsLoad, m.busy,
		m.proving, m.quarantined, m.memLost, m.budget, m.resident, m.retries)
	for _, k := range e.order {
		m.queued.WithLabelValues(k.String())
		m.inProgress.WithLabelValues(k.String())
		m.proveWait.WithLabelValues(k.String(), DefaultPriority(k).String())
		// Every outcome from 0, so increase() and rate() see a kind's first job.
		for _, s := range []State{StateCompleted, StateFailed, StateCancelled} {
			m.jobs.WithLabelValues(k.String(), s.String())
		}
	}
	m.refreshLocked()
	return m
}

// jobDone counts a finished job.
func (m *metrics) jobDone(j *job) {
	m.jobs.WithLabelValues(j.req.Kind.String(), j.state.String()).Inc()
	m.jobSeconds.WithLabelValues(j.req.Kind.String(), j.state.String()).Observe(j.timings.Total.Seconds())
}

// refreshLocked sets the gauges from the engine's state (e.mu held).
func (m *metrics) refreshLocked() {
	e := m.e
	queued := map[Kind]int{}
	running := map[Kind]int{}
	for _, j := range e.active {
		if j.state == StateQueued {
			queued[j.req.Kind]++
		} else {
			running[j.req.Kind]++
		}
	}
	for _, k := range e.order {
		m.queued.WithLabelValues(k.String()).Set(float64(queued[k]))
		m.inProgress.WithLabelValues(k.String()).Set(float64(running[k]))
	}
	for _, d := range e.devices {
		m.proving.WithLabelValues(d.p.Name()).Set(b2f(d.busy))
		m.quarantined.WithLabelValues(d.p.Name()).Set(b2f(d.quarantined))
		m.memLost.WithLabelValues(d.p.Name()).Set(float64(d.memLost))
	}
	pooled := e.pooledBytes()
	m.budget.WithLabelValues("total").Set(float64(e.cfg.BudgetBytes))
	m.budget.WithLabelValues("params").Set(float64(e.used.params))
	m.budget.WithLabelValues("synthesis").Set(float64(e.used.synth + pooled))
	m.budget.WithLabelValues("assignments").Set(float64(e.used.assign))
	m.resident.Reset()
	for _, pe := range e.params {
		if pe.loaded {
			m.resident.WithLabelValues(pe.spec.ID).Set(float64(pe.spec.Bytes))
		}
	}
}

// busyCollector is cuseal_engine_device_busy_seconds_total, computed at
// each scrape from the engine's accounting (device.busyAt): the proof in
// progress counts as it runs, so a rate over a long proof is not 0 until
// it ends, and the figure is Status's DeviceStatus.Busy.
type busyCollector struct {
	e    *Engine
	desc *prometheus.Desc
}

func (c *busyCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *busyCollector) Collect(ch chan<- prometheus.Metric) {
	e := c.e
	type busy struct {
		name string
		secs float64
	}
	e.mu.Lock()
	now := time.Now()
	out := make([]busy, 0, len(e.devices))
	for _, d := range e.devices {
		out = append(out, busy{d.p.Name(), d.busyAt(now).Seconds()})
	}
	e.mu.Unlock()
	for _, b := range out {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, b.secs, b.name)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Gatherer returns the engine's metrics for a /metrics handler
// (promhttp.HandlerFor) or GetMetrics (expfmt text).
func (e *Engine) Gatherer() prometheus.Gatherer { return e.m.reg }
