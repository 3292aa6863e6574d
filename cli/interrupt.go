// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"
)

// interruptible is the CLI's one Ctrl-C pattern, for commands that must clean up after
// themselves (seal, params generate) or stop long proving with a clear line (post
// winning|window, update prove): it returns c.Context wrapped by signal.NotifyContext
// for SIGINT and SIGTERM. The command watches ctx.Done(), removes what it created and
// returns an error (exit 3); nothing calls os.Exit from a goroutine. Once the first signal
// has arrived the default action is restored, so a second Ctrl-C ends the process at once.
// Commands that leave nothing partial behind keep the default action (the process ends).
func interruptible(c *cli.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// interruptedBySignal reports whether ctx (from interruptible(c)) ended because of a signal
// rather than a cancelled parent.
func interruptedBySignal(c *cli.Context, ctx context.Context) bool {
	return ctx.Err() != nil && c.Context.Err() == nil
}

// interruptedProof is the error of a proving command (post winning|window, update prove)
// stopped by a signal: proofs are written atomically only after proving, so there is
// nothing partial to remove; the message says so, naming --out.
func interruptedProof(ctx context.Context, cmd, outPath string) error {
	where := "stdout"
	if outPath != "" {
		where = outPath + " not created"
	}
	return internalError(fmt.Errorf("%s: interrupted (%v); stopped proving, nothing written (%s)", cmd, context.Cause(ctx), where))
}
