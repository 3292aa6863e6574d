// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// TestServeDeviceMemoryLost: serve on one simulated 1 GiB device that
// loses 300 MiB of free memory per proof (enginetest.LeakyDevice). The
// first proof sets its baseline, the second loses more than a tenth: the
// device is taken out of service, and with no device left serve drains
// (both jobs already have their proofs) and exits 3, so that systemd's
// Restart=on-failure starts it again; the log says why.
func TestServeDeviceMemoryLost(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServeSim(t, "1,10ms,leak", "--listen", "unix://"+sock)
	c := dialT(t, p.addr)
	for _, id := range []string{"leak-1", "leak-2"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r, err := c.Prove(ctx, doubleReq(id))
		cancel()
		if err != nil || r.GetStatus() != pb.AwaitProofResponse_COMPLETED {
			t.Fatalf("job %s: %v, %v", id, r, err)
		}
	}
	if code := p.wait(t, time.Minute); code != 3 {
		t.Fatalf("exit %d, want 3:\n%s", code, p.log())
	}
	l := p.log()
	for _, want := range []string{"every device was taken out of service", "draining, then exiting 3", "stopped (2 completed, 0 failed, 0 cancelled)"} {
		if !strings.Contains(l, want) {
			t.Errorf("stderr lacks %q:\n%s", want, l)
		}
	}
}
