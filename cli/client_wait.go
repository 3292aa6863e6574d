// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/service/client"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// clientWaitPoll is how often client prove asks the server how its queue stands.
const clientWaitPoll = time.Second

// proveWaiting is cl.Prove with progress on stderr while the server works (commit2's
// display: a spinner on a terminal, else one line each time the state changes; nothing with
// --log-level): the request's kind's queue as GetStatus reports it ("queued: 1 pending, 0 in
// progress"), polled every clientWaitPoll. A failed GetStatus only skips that update.
func proveWaiting(c *cli.Context, ctx context.Context, cl *client.Client, req *pb.SubmitProofRequest) (*pb.AwaitProofResponse, error) {
	bar := newPhaseProgress(c.App.ErrWriter, -1, "client prove")
	if bar == nil {
		return cl.Prove(ctx, req)
	}
	kind := req.GetProofKind().String()
	bar.Phase(fmt.Sprintf("%s sent to %s, waiting for the proof", kind, c.String("addr")))
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(clientWaitPoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if st, err := cl.Status(ctx); err == nil {
					bar.Phase(queueLine(st, kind))
				}
			}
		}
	}()
	res, err := cl.Prove(ctx, req)
	close(done)
	<-stopped
	if err == nil {
		bar.Phase("proof received")
	}
	bar.Done()
	return res, err
}

// queueLine words the server's queue of kind: how many jobs wait and how many are proven.
func queueLine(st *pb.GetStatusResponse, kind string) string {
	for _, q := range st.GetQueues() {
		if q.GetProofKind() == kind {
			return fmt.Sprintf("server queue %s: %d pending, %d in progress", kind, q.GetPending(), q.GetInProgress())
		}
	}
	return "server queue " + kind + ": empty"
}
