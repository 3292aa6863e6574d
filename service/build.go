// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cuseal/cuseal/internal/buildinfo"
)

// StatusBuild is the build serving: the "build" object of the status
// document (internal/buildinfo.Info: version, module_version, revision,
// time, modified, go_version, os, arch, tags, cuda, native_version,
// cuda_archs).
type StatusBuild = buildinfo.Info

// setBuild records the build the server reports (nil: this binary's,
// without the native library's facts) and registers the cuseal_build_info
// gauge: the Prometheus convention of a constant 1 whose labels are the
// facts, so a query can join them to any series by instance.
func (s *Server) setBuild(b *StatusBuild) {
	if b == nil {
		r := buildinfo.Read()
		b = &r
	}
	s.build = b
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "cuseal_build_info",
		Help: "Always 1; the labels name the build serving (version, module version, VCS revision, Go version, tags, native library).",
	}, buildinfo.LabelNames)
	g.WithLabelValues(b.Labels()...).Set(1)
	s.reg.MustRegister(g)
}

// statusDoc is GET /status's document: the engine's state and the build.
func (s *Server) statusDoc(maxJobs int) StatusDoc {
	d := NewStatusDoc(s.eng.Status(), time.Now(), maxJobs)
	d.Build = s.build
	return d
}
