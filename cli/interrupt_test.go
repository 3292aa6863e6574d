// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
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
