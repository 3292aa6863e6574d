// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
)

const dashboardPath = "../docs/grafana/cuseal.json"

// grafanaDashboard is what Grafana's dashboard model requires of an
// imported dashboard, and the parts of its panels the test reads.
type grafanaDashboard struct {
	Title         string `json:"title"`
	UID           string `json:"uid"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Query json.RawMessage `json:"query"`
		} `json:"list"`
	} `json:"templating"`
	Panels []grafanaPanel `json:"panels"`
}

type grafanaPanel struct {
	ID         int    `json:"id"`
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource *struct {
		Type string `json:"type"`
		UID  string `json:"uid"`
	} `json:"datasource"`
	GridPos struct{ H, W, X, Y int } `json:"gridPos"`
	Targets []struct {
		Expr  string `json:"expr"`
		RefID string `json:"refId"`
	} `json:"targets"`
}

var (
	// cuseal's series, and the process's (process_*, go_*).
	metricName = regexp.MustCompile(`\b((?:cuseal|process|go)_[a-z0-9_]+)\b`)
	matchers   = regexp.MustCompile(`\{([^}]*)\}`)
	matcher    = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)`)
	byLabels   = regexp.MustCompile(`\b(?:by|without)\s*\(([^)]*)\)`)
)

// scrapeLabels are added by Prometheus when it scrapes, not by cuseal.
var scrapeLabels = []string{"instance", "job", "le"}

// TestGrafanaDashboard: docs/grafana/cuseal.json is a Grafana dashboard
// (title, uid, schema version, a Prometheus datasource variable; panels
// with unique ids and titles, a known type, a place on the 24-column grid
// and queries) and every metric and label its queries name is in /metrics
// of a serving engine that has proven, failed and retried. A query by
// prover is by instance too (two hosts have a cuda:0 each).
func TestGrafanaDashboard(t *testing.T) {
	raw, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var d grafanaDashboard
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("%s: not JSON of a dashboard: %v", dashboardPath, err)
	}
	if d.Title == "" || d.UID == "" || len(d.UID) > 40 || d.SchemaVersion < 36 {
		t.Errorf("title %q uid %q schemaVersion %d: want a title, a uid of at most 40 characters, schema 36 or later", d.Title, d.UID, d.SchemaVersion)
	}
	var exprs []string
	hasDS := false
	for _, v := range d.Templating.List {
		if v.Name == "datasource" && v.Type == "datasource" && string(v.Query) == `"prometheus"` {
			hasDS = true
		}
		if v.Type == "query" {
			var q struct{ Query string }
			if json.Unmarshal(v.Query, &q) != nil || q.Query == "" {
				t.Errorf("variable %s: no query", v.Name)
			}
			exprs = append(exprs, q.Query)
		}
	}
	if !hasDS {
		t.Error("no Prometheus datasource variable ($datasource)")
	}
	ids := map[int]bool{}
	titles := map[string]bool{}
	types := []string{"row", "timeseries", "stat", "gauge", "bargauge", "table"}
	for _, p := range d.Panels {
		where := p.Type + " " + p.Title
		g := p.GridPos
		switch {
		case p.ID <= 0 || ids[p.ID]:
			t.Errorf("%s: id %d missing or repeated", where, p.ID)
		case !slices.Contains(types, p.Type):
			t.Errorf("%s: panel type %q is not one of %v", where, p.Type, types)
		case g.W < 1 || g.X < 0 || g.X+g.W > 24 || g.H < 1 || g.Y < 0:
			t.Errorf("%s: gridPos %+v off the 24-column grid", where, g)
		}
		ids[p.ID] = true
		if titles[p.Title] {
			t.Errorf("%s: a second panel of this title", where)
		}
		titles[p.Title] = true
		if p.Type == "row" {
			continue
		}
		if p.Title == "" || p.Datasource == nil || p.Datasource.Type != "prometheus" || p.Datasource.UID != "${datasource}" || len(p.Targets) == 0 {
			t.Errorf("%s: want a title, the $datasource Prometheus datasource and queries", where)
		}
		refs := map[string]bool{}
		for _, q := range p.Targets {
			if q.Expr == "" || q.RefID == "" || refs[q.RefID] {
				t.Errorf("%s: query %q refId %q: empty or repeated", where, q.Expr, q.RefID)
			}
			refs[q.RefID] = true
			exprs = append(exprs, q.Expr)
		}
	}

	families := servedFamilies(t)
	for _, expr := range exprs {
		names := metricName.FindAllString(expr, -1)
		if len(names) == 0 {
			t.Errorf("query %q names no cuseal metric", expr)
		}
		var labels []string // what the query's metrics have
		for _, n := range names {
			ls, ok := families[n]
			if !ok {
				t.Errorf("query %q: metric %s is not in /metrics", expr, n)
			}
			labels = append(labels, ls...)
		}
		var used []string
		for _, m := range matchers.FindAllStringSubmatch(expr, -1) {
			for _, l := range matcher.FindAllStringSubmatch(m[1], -1) {
				used = append(used, l[1])
			}
		}
		for _, m := range byLabels.FindAllStringSubmatch(expr, -1) {
			var by []string
			for _, l := range strings.Split(m[1], ",") {
				by = append(by, strings.TrimSpace(l))
			}
			if slices.Contains(by, "prover") && !slices.Contains(by, "instance") {
				t.Errorf("query %q: by prover but not by instance", expr)
			}
			used = append(used, by...)
		}
		for _, l := range used {
			if !slices.Contains(labels, l) && !slices.Contains(scrapeLabels, l) {
				t.Errorf("query %q: label %q is on none of its metrics", expr, l)
			}
		}
	}
}

// servedFamilies is /metrics of a scene after a gRPC call: each metric's
// label names, by metric name; a histogram also answers to its _bucket,
// _sum and _count series.
func servedFamilies(t *testing.T) map[string][]string {
	t.Helper()
	s := newScene(t)
	addr := "unix://" + filepath.Join(t.TempDir(), "s.sock")
	l, _, err := service.Listen(service.ListenConfig{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	go s.srv.GRPC().Serve(l)
	t.Cleanup(s.srv.GRPC().Stop)
	c, err := client.Dial(addr, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Status(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, _, body := get(t, s.url+"/metrics")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	parsed, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics: %v", err)
	}
	out := map[string][]string{}
	for name, mf := range parsed {
		var labels []string
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName())
			}
		}
		out[name] = labels
		if mf.GetType().String() == "HISTOGRAM" {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				out[name+suffix] = labels
			}
		}
	}
	return out
}
