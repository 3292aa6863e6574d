// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cuseal/cuseal/service"
)

var screenshotOut = flag.String("status-page-screenshot", "", "TestStatusPageBrowser also writes its screenshot of the status page to this PNG `file` (docs/status-page.png)")

// chromium finds a headless Chromium on PATH; without one the test skips,
// or fails under CI (./build.sh deps installs Debian's chromium).
func chromium(t *testing.T) string {
	t.Helper()
	names := []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("none of %v on PATH: CI must provide a headless Chromium (./build.sh deps installs chromium)", names)
	}
	t.Skipf("no headless Chromium on PATH (%v): apt-get install chromium", names)
	return ""
}

// browser is headless Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ended by NUL on fds 3 and 4), so
// the test needs no WebSocket library.
type browser struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     *os.File // our end of its fd 3
	mu     sync.Mutex
	nextID int
	calls  map[int]chan cdpMessage
	events chan cdpMessage
	stderr bytes.Buffer
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    any             `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func startBrowser(t *testing.T, bin string) *browser {
	t.Helper()
	toChrome, ourIn, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ourOut, fromChrome, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t, in: ourIn, calls: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 256)}
	b.cmd = exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir="+t.TempDir(), "--remote-debugging-pipe", "about:blank")
	b.cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fds 3 and 4
	b.cmd.Stderr = &b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toChrome.Close()
	fromChrome.Close()
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	go b.read(ourOut)
	t.Cleanup(func() {
		b.send(cdpMessage{Method: "Browser.close"}) // no answer awaited: it exits
		ourIn.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			b.cmd.Process.Kill()
			<-done
		}
		ourOut.Close()
	})
	return b
}

func (b *browser) read(r *os.File) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20) // screenshots come back base64 in one message
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, 0); i >= 0 {
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	for sc.Scan() {
		var m cdpMessage
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		b.mu.Lock()
		ch := b.calls[m.ID]
		delete(b.calls, m.ID)
		b.mu.Unlock()
		switch {
		case m.ID != 0 && ch != nil:
			ch <- m
		case m.Method != "":
			select {
			case b.events <- m:
			default: // nobody waits for this one
			}
		}
	}
}

func (b *browser) send(m cdpMessage) {
	raw, err := json.Marshal(m)
	if err != nil {
		b.t.Fatal(err)
	}
	b.in.Write(append(raw, 0))
}

// call sends method to the session ("": the browser) and decodes its result into out.
func (b *browser) call(session, method string, params, out any) {
	b.t.Helper()
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.calls[id] = ch
	b.mu.Unlock()
	b.send(cdpMessage{ID: id, Method: method, Params: params, SessionID: session})
	select {
	case m := <-ch:
		if m.Error != nil {
			b.t.Fatalf("DevTools %s: %s", method, m.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				b.t.Fatalf("DevTools %s: %v", method, err)
			}
		}
	case <-time.After(30 * time.Second):
		b.t.Fatalf("DevTools %s: no answer within 30 s; browser's stderr:\n%s", method, b.stderr.String())
	}
}

// tab opens a page of width×height CSS pixels with scripts on or off and
// returns its session.
func (b *browser) tab(scripts bool, width, height int) string {
	b.t.Helper()
	var target struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	s := att.SessionID
	b.call(s, "Page.enable", nil, nil)
	b.call(s, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	b.call(s, "Emulation.setScriptExecutionDisabled", map[string]any{"value": !scripts}, nil)
	return s
}

// navigate loads url in session s and waits for its load event.
func (b *browser) navigate(s, url string) {
	b.t.Helper()
	for len(b.events) > 0 {
		<-b.events
	}
	b.call(s, "Page.navigate", map[string]any{"url": url}, nil)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m := <-b.events:
			if m.Method == "Page.loadEventFired" && m.SessionID == s {
				return
			}
		case <-deadline:
			b.t.Fatalf("%s did not load within 30 s", url)
		}
	}
}

// eval evaluates a JavaScript expression in session s (the debugger may,
// where the page's scripts may not) and returns its value as JSON.
func (b *browser) eval(s, expr string) string {
	b.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
	}
	b.call(s, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r)
	return string(r.Result.Value)
}

// dom is the page's HTML as the browser holds it now (DOM.getOuterHTML,
// which needs no page script).
func (b *browser) dom(s string) string {
	b.t.Helper()
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	b.call(s, "DOM.getDocument", map[string]any{"depth": 1}, &doc)
	var out struct {
		OuterHTML string `json:"outerHTML"`
	}
	b.call(s, "DOM.getOuterHTML", map[string]any{"nodeId": doc.Root.NodeID}, &out)
	return out.OuterHTML
}

// tbody returns the inner HTML of <tbody id="id"> in dom.
func tbody(t *testing.T, dom, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<tbody id="` + id + `">(.*?)</tbody>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no <tbody id=%q> in the page:\n%.3000s", id, dom)
	}
	return m[1]
}

// rowOf returns the <tr data-job="id"> row in html.
func rowOf(html, id string) string {
	return regexp.MustCompile(`(?s)<tr data-job="` + regexp.QuoteMeta(id) + `">(.*?)</tr>`).FindString(html)
}

// TestStatusPageBrowser loads the status page in headless Chromium while
// proofs run. With JavaScript on, the page's script has refreshed it from
// /status: newest job first, a timeline lane per partition with the
// proving stage drawn, the devices busy with the running job. With
// JavaScript off, the server's tables show the same running job, in the
// same order under the same note. At 1280 pixels, long ids, kinds,
// errors and parameter file names do not widen a section past the
// window. It takes a screenshot (-status-page-screenshot FILE keeps it).
func TestStatusPageBrowser(t *testing.T) {
	bin := chromium(t)
	s := newScene(t)
	b := startBrowser(t, bin)

	on := b.tab(true, 1600, 1000)
	b.navigate(on, s.url+"/")
	for i := 0; b.eval(on, `document.documentElement.dataset.live || ""`) != `"1"`; i++ {
		if i == 100 {
			t.Fatalf("the page's script did not refresh it from /status within 10 s: %s", b.eval(on, `document.getElementById("live").textContent`))
		}
		time.Sleep(100 * time.Millisecond)
	}
	dom := b.dom(on)
	jobs := tbody(t, dom, "jobs")
	if !strings.HasPrefix(jobs, `<tr data-job="`+s.queued+`">`) {
		t.Errorf("the script's table does not start with the newest job %s:\n%.1000s", s.queued, jobs)
	}
	run := rowOf(jobs, s.running)
	for _, want := range []string{`class="state RUNNING"`, "POREP_SEAL_COMMIT", "0 / 3", `<div class="lane">`, `<span class="prove"`, `<span class="synth"`} {
		if !strings.Contains(run, want) {
			t.Errorf("the running job's row lacks %s:\n%s", want, run)
		}
	}
	if n := strings.Count(run, `<div class="lane">`); n != 3 {
		t.Errorf("the running job's timeline has %d lanes, want one per partition (3)", n)
	}
	if devs := tbody(t, dom, "devices"); strings.Count(devs, `class="state BUSY"`) != 2 || strings.Count(devs, s.running) != 2 {
		t.Errorf("devices: want both BUSY with %s:\n%s", s.running, devs)
	}
	var live string
	if err := json.Unmarshal([]byte(b.eval(on, `document.getElementById("live").textContent`)), &live); err != nil || !strings.HasPrefix(live, "live · ") {
		t.Errorf("live indicator %q, %v", live, err)
	}
	if hidden := b.eval(on, `document.getElementById("draining").hidden`); hidden != "true" {
		t.Errorf("the draining mark shows on a server that is not draining: hidden %s", hidden)
	}
	jsNote := b.eval(on, `document.getElementById("jobs-note").textContent`)

	// The whole page, as an operator would see it.
	var metrics struct {
		CSSContentSize struct{ Height float64 } `json:"cssContentSize"`
	}
	b.call(on, "Page.getLayoutMetrics", nil, &metrics)
	h := min(max(int(metrics.CSSContentSize.Height), 600), 3000)
	b.call(on, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1600, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil)
	var shot struct{ Data string }
	b.call(on, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	img, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(img)); err != nil || cfg.Width != 1600 || cfg.Height != h {
		t.Fatalf("screenshot: %+v, %v; want a 1600×%d PNG", cfg, err, h)
	}
	if *screenshotOut != "" {
		if err := os.WriteFile(*screenshotOut, img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.call(on, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": false}, nil)
	if wide := b.eval(on, overflowing); wide != "[]" {
		t.Errorf("with JavaScript on, at 1280 pixels with long names these sections scroll sideways: %s", wide)
	}

	off := b.tab(false, 1600, 1000)
	b.navigate(off, s.url+"/")
	nojs := b.dom(off)
	if !strings.Contains(nojs, `class="nojs"`) || strings.Contains(nojs, "data-live") {
		t.Fatalf("with JavaScript off the page's script ran:\n%.1000s", nojs)
	}
	jobs = tbody(t, nojs, "jobs")
	run = rowOf(jobs, s.running)
	if !strings.Contains(run, `class="state RUNNING"`) || !strings.Contains(run, "0 / 3") || !strings.Contains(run, "POREP_SEAL_COMMIT") {
		t.Errorf("with JavaScript off, the running job's row: %q", run)
	}
	if !strings.HasPrefix(jobs, `<tr data-job="`+s.queued+`">`) {
		t.Errorf("with JavaScript off the table does not start with the newest job %s:\n%.1000s", s.queued, jobs)
	}
	if note := b.eval(off, `document.getElementById("jobs-note").textContent`); note != jsNote {
		t.Errorf("the jobs' note: %s with JavaScript off, %s with it on", note, jsNote)
	}
	if visible := b.eval(off, `getComputedStyle(document.querySelector("th.timeline")).display`); visible != `"none"` {
		t.Errorf("with JavaScript off the (script-drawn) timeline column shows: display %s", visible)
	}
	b.call(off, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": false}, nil)
	if wide := b.eval(off, overflowing); wide != "[]" {
		t.Errorf("with JavaScript off, at 1280 pixels with long names these sections scroll sideways: %s", wide)
	}
}

// overflowing gives the page's longest names (a 256-byte request id, the
// longest kind, a production parameter file, an error without spaces)
// to every row and returns the titles of the sections wider than the
// window: what would scroll sideways. The debugger evaluates it at once,
// between two refreshes of the page's script.
const overflowing = `(function () {
  var long = "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params";
  document.querySelectorAll("#jobs tr[data-job]").forEach(function (r) {
    r.querySelector("td.ids > div").textContent = "job-4117-9c2e01aa";
    r.querySelector("td.ids > div.sub").textContent = "snap-1000-31-" + "X".repeat(243);
    r.cells[1].firstChild.nodeValue = "WINDOW_POST_PARTITION";
    r.cells[r.cells.length - 3].textContent = "cuda:0, cuda:1, cuda:2";
  });
  document.querySelectorAll("#jobs td.err").forEach(function (c) { c.textContent = "engine: " + long + long; });
  document.querySelectorAll("#params tr").forEach(function (r) { if (r.cells.length > 1) r.cells[1].textContent = long; });
  var wide = [];
  document.querySelectorAll("section").forEach(function (s) {
    if (s.scrollWidth > s.clientWidth) wide.push(s.querySelector("h2").textContent + " (" + s.scrollWidth + " > " + s.clientWidth + ")");
  });
  return wide;
})()`

// TestFormatSecondsJS: the page's script writes durations as the server
// does (formatSeconds): its seconds() over the same cases, in Chromium.
func TestFormatSecondsJS(t *testing.T) {
	bin := chromium(t)
	hs := httptest.NewServer(service.New(newFake(true), service.Options{}).MetricsHandler())
	defer hs.Close()
	_, _, page := get(t, hs.URL+"/")
	fn := regexp.MustCompile(`(?s)\n  (function seconds\(s\) \{.*?\n  \})`).FindSubmatch(page)
	if fn == nil {
		t.Fatal("no function seconds(s) in the page's script")
	}
	in := make([]float64, len(secondsCases))
	for i, c := range secondsCases {
		in[i] = c.in
	}
	args, _ := json.Marshal(in)
	b := startBrowser(t, bin)
	tab := b.tab(true, 800, 600)
	var got []string
	if err := json.Unmarshal([]byte(b.eval(tab, "(function () { "+string(fn[1])+"; return "+string(args)+".map(seconds); })()")), &got); err != nil || len(got) != len(in) {
		t.Fatalf("the script's seconds(): %v %v", got, err)
	}
	for i, c := range secondsCases {
		if got[i] != c.want {
			t.Errorf("seconds(%v) = %q in the page's script, want %q (as formatSeconds)", c.in, got[i], c.want)
		}
	}
}
