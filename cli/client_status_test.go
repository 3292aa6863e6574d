// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/service"
)

// TestTermSafe: what a terminal would act on is escaped, printable text
// (spaces, other scripts) is left as it is.
func TestTermSafe(t *testing.T) {
	for in, want := range map[string]string{
		"porep-1000-7":                    "porep-1000-7",
		"job 7: schön, 証明":                "job 7: schön, 証明",
		"\x1b[2J\x1b]0;owned\x07":         `\x1b[2J\x1b]0;owned\a`,
		"a\rb\bc\td\ne":                   `a\rb\bc\td\ne`,
		"abc\u202edef\u200b":              `abc\u202edef\u200b`,
		"bad \xff\xfe utf-8":              `bad \xff\xfe utf-8`,
		"\u009b31m (C1 CSI)":              `\u009b31m (C1 CSI)`,
		"keeps a replacement char \ufffd": "keeps a replacement char \ufffd",
	} {
		if got := termSafe(in); got != want {
			t.Errorf("termSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPrintStatusEscapes: `client status` writes no control character a
// server put in a request id, an error, a job id or a device name.
func TestPrintStatusEscapes(t *testing.T) {
	evil := "\x1b]8;;http://x\x07click\x1b]8;;\x07\x1b[2K\r"
	errText := "failed " + evil
	cancelled, retries := uint64(0), uint64(0)
	fraction := 0.5
	doc := service.StatusDoc{Schema: service.StatusSchema, Counters: service.StatusCounters{Cancelled: &cancelled, Retries: &retries},
		Devices: []service.StatusDevice{{Name: "cuda:0" + evil, State: "BUSY", CurrentJobID: "job-1" + evil, CurrentKind: "POREP", BusyFraction: &fraction}},
		Queues:  []service.StatusQueue{{Kind: "POREP" + evil, ByPriority: []service.StatusPriorityQueue{{Priority: "NORMAL" + evil, Pending: 1}}}},
		Params:  []service.StatusParams{{CircuitID: "porep-32g" + evil, Tier: "WARM"}},
		Jobs: []service.StatusJob{{JobID: "job-1" + evil, RequestID: "porep-1-1" + evil, Kind: "POREP", Priority: "NORMAL", State: "FAILED",
			Provers: []string{"cuda:0" + evil}, Error: &errText}},
	}
	var out bytes.Buffer
	printStatus(cli.NewContext(&cli.App{Writer: &out}, nil, nil), doc)
	text := out.String()
	for _, r := range text {
		if r < 0x20 && r != '\n' || r == 0x7f {
			t.Fatalf("client status wrote control character %U:\n%q", r, text)
		}
	}
	if !strings.Contains(text, `request porep-1-1\x1b]8;;http://x\aclick`) || strings.Count(text, "\n") != 5 {
		t.Errorf("client status:\n%s", text)
	}
}
