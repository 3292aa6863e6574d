// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
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

// TestTestParamsWarningKept: the Go API gives the TEST-parameters warning
// once per process and parameter set; a call with logging off keeps it, and
// the next call with a logger logs it (it was lost when the first call had
// CUSEAL_POREP_LOG_OFF).
func TestTestParamsWarningKept(t *testing.T) {
	testWarnings.attach(&callOptions{logger: slog.New(slog.NewTextHandler(io.Discard, nil))}) // drop what other tests left
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

	var buf bytes.Buffer
	testWarnings.attach(&callOptions{logger: slog.New(recordHandler(&buf, slog.LevelWarn))})
	if got := buf.String(); !strings.HasPrefix(got, "level=WARN msg=\"TEST parameters: ") || !strings.Contains(got, vk) {
		t.Errorf("the next call with a logger logged %q; want the TEST-parameters warning naming %s", got, vk)
	}
	buf.Reset()
	testWarnings.attach(&callOptions{logger: slog.New(recordHandler(&buf, slog.LevelWarn))})
	if buf.Len() != 0 {
		t.Errorf("the warning was logged twice: %q", buf.String())
	}
}
