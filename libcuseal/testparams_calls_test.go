// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/update"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// circuitParamsCall runs generate_circuit_test_params into dir with the default seed.
func circuitParamsCall(circuit int32, p int64, dir string) (res, testParamsJSON) {
	var js *cChar
	var out testParamsJSON
	r := statusCall("generate_circuit_test_params", func(msg **cChar) int {
		return int(libcuseal_go_generate_circuit_test_params(cI32(circuit), cI64(p), cStr(dir), nil, 0, nil, &js, msg))
	})
	if js != nil {
		_ = json.Unmarshal([]byte(takeString(js)), &out)
	}
	return r, out
}

// TestGenerateCircuitTestParams (issue 44, item 3): the C ABI makes the test
// parameters of the PoSt circuits (and, in the long tier, SnapDeals': a
// 1.7 M-constraint setup) under the Filecoin names, not_for_production,
// reused on a second call; an unknown circuit or a number of another
// family is bad input naming the argument.
func TestGenerateCircuitTestParams(t *testing.T) {
	type circuitCase struct {
		circuit int32
		proof   int64
		stem    string
	}
	window, _ := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	cases := []circuitCase{{circuitPoSt, int64(window.Proof), window.ParameterFileStem()}}
	if testenv.Enabled(testenv.TierLong) {
		winning, _ := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWinning2KiBV1)
		upd, _ := update.ConfigFor(abi.RegisteredUpdateProof_StackedDrg2KiBV1)
		cases = append(cases, circuitCase{circuitPoSt, int64(winning.Proof), winning.ParameterFileStem()},
			circuitCase{circuitUpdate, int64(upd.Proof), upd.ParameterFileStem()})
	}
	for _, c := range cases {
		dir := t.TempDir()
		for _, reused := range []bool{false, true} {
			r, js := circuitParamsCall(c.circuit, c.proof, dir)
			runChecks(t, []check{{c.stem, r, statusOK, "", false}})
			if js.Reused != reused || !js.NotForProd || !strings.Contains(js.VK, c.stem+".vk") {
				t.Fatalf("circuit %d proof %d: JSON %+v (want reused %v, the .vk %s)", c.circuit, c.proof, js, reused, c.stem)
			}
			if _, err := os.Stat(js.VK); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := t.TempDir()
	bad := func(circuit int32, p int64) res { r, _ := circuitParamsCall(circuit, p, dir); return r }
	runChecks(t, []check{
		{"unknown circuit", bad(7, 0), statusBadInput, "circuit 7: want CUSEAL_POREP_CIRCUIT_SEAL (0), CUSEAL_POREP_CIRCUIT_POST (1) or CUSEAL_POREP_CIRCUIT_UPDATE (2)", true},
		{"legacy window", bad(circuitPoSt, 5), statusBadInput, "registered_proof 5: post: registered PoSt proof 5 is legacy WindowPoSt V1", false},
		{"unknown PoSt", bad(circuitPoSt, 999), statusBadInput, "registered_proof 999: post: unknown registered PoSt proof 999", false},
		{"unknown update", bad(circuitUpdate, 999), statusBadInput, "registered_proof 999: ", false},
		{"unknown seal", bad(circuitSeal, 999), statusBadInput, "registered_proof 999: registered seal proof 999 is not a StackedDrg proof", false},
	})
}
