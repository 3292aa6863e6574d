// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// TestInterruptible: SIGINT cancels the command's context with the signal as its cause, and
// interruptedBySignal tells that apart from a cancelled parent.
func TestInterruptible(t *testing.T) {
	// Keep a late signal from killing the test binary.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)

	c := cli.NewContext(cli.NewApp(), flag.NewFlagSet("t", flag.ContinueOnError), nil)
	c.Context = context.Background()
	ctx, stop := interruptible(c)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("SIGINT did not cancel the context")
	}
	if !interruptedBySignal(c, ctx) {
		t.Error("interruptedBySignal = false after SIGINT")
	}
	if cause := context.Cause(ctx); cause == nil || !strings.Contains(cause.Error(), "interrupt") {
		t.Errorf("cause %v, want the interrupt signal", cause)
	}

	parent, cancel := context.WithCancel(context.Background())
	c.Context = parent
	ctx2, stop2 := interruptible(c)
	defer stop2()
	cancel()
	<-ctx2.Done()
	if interruptedBySignal(c, ctx2) {
		t.Error("interruptedBySignal = true for a cancelled parent")
	}
}

// markWriter collects what a command writes and closes seen once it has
// written mark.
type markWriter struct {
	mu   sync.Mutex
	buf  strings.Builder
	mark string
	seen chan struct{}
}

func (w *markWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.seen != nil && strings.Contains(w.buf.String(), w.mark) {
		close(w.seen)
		w.seen = nil
	}
	return len(p), nil
}

func (w *markWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestProveSignal: SIGINT while `post window` or `update prove` proves
// stops it with one line (exit 3) saying nothing was written, and no --out
// file appears, as for seal and params generate. (Real CPU proving, cut
// short by the signal: seconds.)
func TestProveSignal(t *testing.T) {
	// Keep a late signal from killing the test binary.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)

	w := testpost.Load(t, "post-window-2KiB-s21")
	u := testupdate.Load(t)
	for _, tc := range []struct {
		name, mark string
		args       func(out string) []string
	}{
		{"post window", "post start", func(out string) []string {
			return append([]string{"post", "window", "--params-dir", w.ParamsDir(t), "--proof-type", "10", "--randomness", hex.EncodeToString(w.Randomness),
				"--miner", fmt.Sprintf("t0%d", w.Miner), "--out", out}, postVanillaArgs(w)...)
		}},
		{"update prove", "update start", func(out string) []string {
			return []string{"update", "prove", "--sector-size", "2KiB", "--params-dir", u.ParamsDir(t), "--comm-r-old", u.OldSealed.String(),
				"--comm-r-new", u.NewSealed.String(), "--comm-d-new", u.NewUnseal.String(), "--vanilla", u.VanillaFiles[0], "--out", out}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "proof.bin")
			args := append([]string{"cuseal", "--log-level", "info"}, tc.args(out)...)
			stderr := &markWriter{mark: tc.mark, seen: make(chan struct{})}
			seen := stderr.seen
			done := make(chan int, 1)
			go func() {
				var o bytes.Buffer
				done <- run(args, &o, stderr)
			}()
			select {
			case <-seen:
			case code := <-done:
				t.Fatalf("exit %d before %q: %s", code, tc.mark, stderr)
			case <-time.After(2 * time.Minute):
				t.Fatalf("no %q within 2 minutes: %s", tc.mark, stderr)
			}
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			var code int
			select {
			case code = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("did not stop within 2 minutes of SIGINT")
			}
			if code != exitInternal {
				t.Fatalf("exit %d after SIGINT, want %d: %s", code, exitInternal, stderr)
			}
			wantOneLineError(t, stderr.String(), "interrupted (interrupt signal received); stopped proving, nothing written ("+out+" not created)")
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("--out after SIGINT: %v", err)
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
				t.Errorf("left %s next to --out", entries[0].Name())
			}
		})
	}
}
