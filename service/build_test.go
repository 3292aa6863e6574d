// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/internal/buildinfo"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"github.com/cuseal/cuseal/service"
)

// TestBuildInStatusAndMetrics: the build serving is /status's "build"
// object and the cuseal_build_info gauge (1, the facts as labels); a
// server given no build reports this binary's.
func TestBuildInStatusAndMetrics(t *testing.T) {
	eng, err := engine.New(engine.Config{Provers: []engine.Prover{&enginetest.Prover{ProverName: "double-0"}}, BudgetBytes: 1 << 30,
		Families: map[engine.Kind]engine.Family{engine.KindPoRepC2: &enginetest.Family{Partitions: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	modified := true
	b := &service.StatusBuild{Version: buildinfo.Version, ModuleVersion: "(devel)", Revision: "0123456789abcdef0123456789abcdef01234567",
		Time: "2026-12-06T23:00:00Z", Modified: &modified, GoVersion: "go1.26.8", OS: "linux", Arch: "amd64", Tags: []string{"cuda"},
		CUDA: true, NativeVersion: "ABI 2, test", CUDAArchs: []string{"sm_90"}}
	for _, tc := range []struct {
		name string
		in   *service.StatusBuild
		want buildinfo.Info
	}{{"given", b, *b}, {"this binary's", nil, buildinfo.Read()}} {
		hs := httptest.NewServer(service.New(eng, service.Options{Build: tc.in}).MetricsHandler())
		code, _, body := get(t, hs.URL+"/status")
		if code != http.StatusOK {
			t.Fatalf("%s: GET /status: %d", tc.name, code)
		}
		d := decodeStrict(t, body)
		if d.Build == nil || d.Build.Version != tc.want.Version || d.Build.Revision != tc.want.Revision || d.Build.GoVersion != tc.want.GoVersion ||
			!slices.Equal(d.Build.Tags, tc.want.Tags) || d.Build.NativeVersion != tc.want.NativeVersion || !slices.Equal(d.Build.CUDAArchs, tc.want.CUDAArchs) {
			t.Errorf("%s: /status build %+v, want %+v", tc.name, d.Build, tc.want)
		}
		_, _, metrics := get(t, hs.URL+"/metrics")
		var line string
		for _, l := range strings.Split(string(metrics), "\n") {
			if strings.HasPrefix(l, "cuseal_build_info{") {
				line = l
			}
		}
		for _, w := range []string{`version="` + tc.want.Version + `"`, `revision="` + tc.want.Revision + `"`, `go_version="` + tc.want.GoVersion + `"`,
			`tags="` + strings.Join(tc.want.Tags, ",") + `"`, `native_version="` + tc.want.NativeVersion + `"`} {
			if !strings.Contains(line, w) {
				t.Errorf("%s: cuseal_build_info line %q lacks %s", tc.name, line, w)
			}
		}
		if !strings.HasSuffix(line, "} 1") {
			t.Errorf("%s: cuseal_build_info line %q: want the value 1", tc.name, line)
		}
		hs.Close()
	}
	// Built from GetStatus, the document has no build: null.
	if d := service.StatusDocFromWire(service.StatusResponse(eng.Status()), time.Now()); d.Build != nil {
		t.Errorf("from the wire: build %+v, want null", d.Build)
	}
}
