// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// TestLogRecordFormat: a log callback gets records as the header documents
// them, "level=INFO msg=... key=value", without slog's time.
func TestLogRecordFormat(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(recordHandler(&buf, slog.LevelInfo))
	l.Debug("not at info")
	l.Info("commit2 start", "proof", "StackedDrg2KiBV1_1", "partitions", 1)
	l.WithGroup("g").Warn("grouped", "time", "kept inside a group")
	want := "level=INFO msg=\"commit2 start\" proof=StackedDrg2KiBV1_1 partitions=1\n" +
		"level=WARN msg=grouped g.time=\"kept inside a group\"\n"
	if buf.String() != want {
		t.Errorf("records:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestTestParamsWarningNeverSilent (issue 44, item 3): the Go API gives the
// TEST-parameters warning once per process and parameter set; a call with
// logging off (CUSEAL_POREP_LOG_OFF, the default) writes it to stderr as one
// "libcuseal: warning: " line, and cuseal_porep_info lists it afterwards.
func TestTestParamsWarningNeverSilent(t *testing.T) {
	var stderr bytes.Buffer
	warnOut = &stderr
	defer func() { warnOut = os.Stderr }()
	v := loadVectors(t)
	w := v.window
	dir := vkDir(t, v)
	vk := filepath.Join(dir, filepath.Base(w.VKFile))
	stamp := strings.TrimSuffix(vk, ".vk") + ".cuseal-test.json"
	if err := os.WriteFile(stamp, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sectors := sectorList([]abi.SectorNumber{21000, 21001}, [][]byte{commR(t, w, 0), commR(t, w, 1)})
	runChecks(t, []check{{"verify with logging off", verifyPoStCall(false, w.Proof, w.Randomness, sectors, w.Want, w.Miner, options(t, dir, false)), statusOK, "", false}})

	if got := stderr.String(); !strings.HasPrefix(got, "libcuseal: warning: TEST parameters: ") || !strings.Contains(got, vk) || strings.Count(got, "\n") != 1 {
		t.Errorf("a call with logging off wrote %q on stderr; want one TEST-parameters warning line naming %s", got, vk)
	}
	var js, msg *cChar
	if rc := libcuseal_go_info(&js, &msg); rc != statusOK {
		t.Fatalf("info: status %d: %s", rc, takeString(msg))
	}
	var info libInfo
	if err := json.Unmarshal([]byte(takeString(js)), &info); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(info.Warnings, func(m string) bool { return strings.Contains(m, vk) }) {
		t.Errorf("info warnings %q lack the TEST-parameters warning naming %s", info.Warnings, vk)
	}
}
