// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// TestRPCErrorExitCodes: a refusal of the input exits 2; a full queue,
// which serve marks with google.rpc.RetryInfo, exits 3 (the call failed,
// retry later) though it shares RESOURCE_EXHAUSTED with a job that can
// never fit the budget (2).
func TestRPCErrorExitCodes(t *testing.T) {
	full, err := status.New(codes.ResourceExhausted, "engine: queue full: 8 jobs are waiting to start, the queue cap is 8").
		WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		code int
		want string
	}{
		{"queue full", full.Err(), exitInternal, "server busy (ResourceExhausted): engine: queue full"},
		{"too large", status.Error(codes.ResourceExhausted, "engine: too large: the budget is 1 GiB"), exitUsage, "server refused the request (ResourceExhausted)"},
		{"bad input", status.Error(codes.InvalidArgument, "request_id: 300 bytes"), exitUsage, "server refused the request (InvalidArgument)"},
		{"internal", status.Error(codes.Internal, "boom"), exitInternal, "Internal: boom"},
	} {
		got := rpcError(nil, tc.err)
		var ee *exitError
		if !errors.As(got, &ee) || ee.code != tc.code || !strings.Contains(got.Error(), tc.want) {
			t.Errorf("%s: %v (exit %v), want exit %d and %q", tc.name, got, ee, tc.code, tc.want)
		}
	}
}
