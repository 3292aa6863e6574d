// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/cuseal/cuseal/porep/engine/engineapi"
)

// PageJobs is how many jobs the status page shows (SelectJobs: every
// running job, then queued ones, then the most recently finished).
const PageJobs = 50

// MetricsHandler serves, for --metrics-listen:
//   - GET /metrics: Prometheus text of s.Gatherer();
//   - GET /status: the StatusDoc as JSON (docs/service.md); ?jobs=N keeps
//     the jobs SelectJobs keeps (a bad N is 400 naming it);
//   - GET /: the status page, one self-contained HTML page (PageJobs jobs,
//     server-rendered, newest first; its script refreshes it from /status).
//
// Another path is 404, another method 405 (with Allow). On a loopback
// address it answers only requests whose Host is a loopback name
// (LoopbackHost): a web page elsewhere cannot read it through a DNS name
// rebound to 127.0.0.1.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.Gatherer(), promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /status", s.serveStatus)
	mux.HandleFunc("GET /{$}", s.servePage)
	return loopbackHostOnly(mux)
}

// loopbackHostOnly answers 421 Misdirected Request, on a connection to a
// loopback address, to a request whose Host header LoopbackHost refuses.
func loopbackHostOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if tcp, ok := local.(*net.TCPAddr); ok && tcp.IP.IsLoopback() && !LoopbackHost(r.Host, strconv.Itoa(tcp.Port)) {
			http.Error(w, fmt.Sprintf("Host %q: this server listens on a loopback address and answers only to localhost, 127.0.0.1 or [::1] with port %d (a guard against DNS rebinding)", r.Host, tcp.Port),
				http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// LoopbackHost reports whether host (a request's Host header) names this
// machine's loopback at port: localhost, a loopback IP (127.0.0.1, [::1])
// or nothing, with port or, for port 80, without one.
func LoopbackHost(host, port string) bool {
	if host == "" {
		return true // HTTP/1.0 without Host: not a browser
	}
	name, p, err := net.SplitHostPort(host)
	if err != nil {
		name, p = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), "80"
	}
	if p != port {
		return false
	}
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) serveStatus(w http.ResponseWriter, r *http.Request) {
	maxJobs := -1
	if v := r.URL.Query().Get("jobs"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case errors.Is(err, strconv.ErrRange):
			http.Error(w, fmt.Sprintf("jobs=%q: out of range (a whole number from 0 to %d)", v, math.MaxInt), http.StatusBadRequest)
			return
		case err != nil || n < 0:
			http.Error(w, fmt.Sprintf("jobs=%q: want a whole number of jobs, 0 or more", v), http.StatusBadRequest)
			return
		}
		maxJobs = n
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s.statusDoc(maxJobs)); err != nil {
		http.Error(w, "encoding the status: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(buf.Bytes())
}

func (s *Server) servePage(w http.ResponseWriter, _ *http.Request) {
	var buf bytes.Buffer
	if err := statusPage().Execute(&buf, NewStatusDoc(s.eng.Status(), time.Now(), PageJobs)); err != nil {
		http.Error(w, "rendering the status page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", statusPageCSP())
	w.Write(buf.Bytes())
}

//go:embed statuspage.html
var statusPageSource string

// statusPage is the parsed page, made at first use: every cuseal process
// links this package, and only `cuseal serve` renders the page.
var statusPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("statuspage.html").Funcs(template.FuncMap{
		"bytes":   formatBytes,
		"seconds": formatSeconds,
		"pct":     func(a, total uint64) float64 { return percent(float64(a), float64(total)) },
		"pct2":    func(a, b, total uint64) float64 { return percent(float64(a)+float64(b), float64(total)) },
		"pctf":    func(f float64) float64 { return math.Round(100 * min(max(f, 0), 1)) },
		"derefB":  func(p *bool) bool { return p != nil && *p },
		"derefU": func(p *uint64) uint64 {
			if p == nil {
				return 0
			}
			return *p
		},
		"join": func(s []string) string { return strings.Join(s, ", ") },
		// newestFirst is the jobs as the page lists them (its script too).
		"newestFirst": func(jobs []StatusJob) []StatusJob {
			out := slices.Clone(jobs)
			slices.Reverse(out)
			return out
		},
	}).Parse(statusPageSource))
})

// statusPageCSP lets the page run its own script (by hash) and fetch from
// its own origin, and load nothing else. Made at first use, as statusPage;
// New calls it, so a page that does not render stops the server at start.
var statusPageCSP = sync.OnceValue(func() string {
	var buf bytes.Buffer
	if err := statusPage().Execute(&buf, NewStatusDoc(engineapi.Status{}, time.Time{}, 0)); err != nil {
		panic("service: the status page does not render: " + err.Error())
	}
	out := buf.String()
	i := strings.Index(out, "<script>")
	k := strings.Index(out, "</script>")
	if i < 0 || k < i || strings.Count(out, "<script") != 1 {
		panic("service: the status page must have exactly one inline <script>")
	}
	sum := sha256.Sum256([]byte(out[i+len("<script>") : k]))
	return "default-src 'none'; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
})

// percent is a/total in percent, 0 to 100 (0 for an empty total), to 0.01.
func percent(a, total float64) float64 {
	if total <= 0 {
		return 0
	}
	return math.Round(10000*min(max(a/total, 0), 1)) / 100
}

// formatBytes is n in binary units ("1.5 GiB", "512 B").
func formatBytes(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	f, i := float64(n), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	switch {
	case i == 0:
		return fmt.Sprintf("%d B", n)
	case f < 10:
		return fmt.Sprintf("%.2f %s", f, units[i])
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

// formatSeconds is s seconds as "250 ms", "4.20 s", "12.5 s", "3 min 5 s"
// or "2 h 10 min": rounded to the unit shown first, so that 59.97 s is
// "1 min 0 s" and 7199 s "2 h 0 min". The page's script has the same
// algorithm (seconds(); TestFormatSecondsJS).
func formatSeconds(s float64) string {
	if !(s > 0) { // negative, 0 or NaN
		s = 0
	}
	if ms := math.Round(s * 1000); ms < 1000 {
		return fmt.Sprintf("%.0f ms", ms)
	}
	if cs := math.Round(s * 100); cs < 1000 {
		return fmt.Sprintf("%.2f s", cs/100)
	}
	if ds := math.Round(s * 10); ds < 600 {
		return fmt.Sprintf("%.1f s", ds/10)
	}
	if r := math.Round(s); r < 3600 {
		return fmt.Sprintf("%d min %d s", int(r)/60, int(r)%60)
	}
	m := math.Round(s / 60)
	return fmt.Sprintf("%.0f h %d min", math.Floor(m/60), int(math.Mod(m, 60)))
}
