// SPDX-License-Identifier: Apache-2.0 OR MIT

package client

import (
	"errors"
	"strings"
	"testing"

	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

func TestTarget(t *testing.T) {
	for in, want := range map[string]string{
		"unix:///run/curio/cuzk.sock": "unix:///run/curio/cuzk.sock",
		"127.0.0.1:9820":              "dns:///127.0.0.1:9820",
		"prover:9820":                 "dns:///prover:9820",
		"":                            "error",
		"http://x:1":                  "error",
		"bogus:::":                    "error",
		"prover":                      "error",
		"[::1]:9820":                  "dns:///[::1]:9820",
	} {
		got, err := Target(in)
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("Target(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check(&pb.AwaitProofResponse{Status: pb.AwaitProofResponse_COMPLETED, Proof: []byte{1}}); err != nil {
		t.Error(err)
	}
	for _, r := range []*pb.AwaitProofResponse{
		{JobId: "j", Status: pb.AwaitProofResponse_COMPLETED},
		{JobId: "j", Status: pb.AwaitProofResponse_FAILED, ErrorMessage: "partition 3: backend"},
		{JobId: "j", Status: pb.AwaitProofResponse_TIMEOUT},
	} {
		err := Check(r)
		var re *ResultError
		if !errors.As(err, &re) || re.Status != r.Status || !strings.HasPrefix(err.Error(), "job j: "+r.Status.String()) {
			t.Errorf("Check(%v) = %v", r, err)
		}
	}
}
